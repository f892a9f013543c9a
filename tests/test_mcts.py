"""The compiled MCTS search: kernel rules, solver proofs, determinism, tree reuse, limits, stop."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from ai.mcts import Searcher, supports
from ai.mcts.games import adapter_for
from ai.mcts.kernels import gen_children, play, playout
from ai.mcts.layout import DRAW, LOSS, UNKNOWN, WIN
from game.rules import get_game

C4 = get_game("connect4")


def _search(moves: str, iterations: int = 2000, seed: int = 1, spec=C4, **kw):  # type: ignore[no-untyped-def]
    searcher = Searcher(spec, seed=seed, **kw)
    searcher.set_position(spec.parse_position(moves))
    return searcher.search(iterations=iterations)


@pytest.mark.parametrize("size", ["7x6", "8x7", "9x6", "4x4", "6x5"])
def test_kernel_agrees_with_the_rules(size: str) -> None:
    spec = get_game(f"connect4:{size}")
    adapter = adapter_for(spec)
    assert adapter is not None
    assert adapter is not None
    params = adapter.make_params(spec)
    rnd = random.Random(size)
    moves = np.zeros(spec.width, dtype=np.int64)
    status = np.zeros(spec.width, dtype=np.int64)
    for _ in range(25):
        pos = spec.start()
        state = adapter.encode(pos)
        while not pos.outcome.is_over:
            n = gen_children(params, state, moves, status)
            assert sorted(int(m) for m in moves[:n]) == list(pos.legal_moves())
            for m, code in zip(moves[:n], status[:n], strict=True):
                after = pos.play(int(m))
                if code == WIN:
                    assert after.outcome.winner == pos.to_move
                elif code == DRAW:
                    assert after.outcome.is_over and after.outcome.winner is None
                else:
                    assert not after.outcome.is_over
                    opponent_wins = any(after.play(r).outcome.winner == after.to_move for r in after.legal_moves())
                    assert opponent_wins == (code == LOSS)
            move = rnd.choice(pos.legal_moves())
            code = play(params, state, move)
            pos = pos.play(move)
            assert list(state) == list(adapter.encode(pos))
            expected = 0 if not pos.outcome.is_over else (1 if pos.outcome.winner is not None else 2)
            assert code == expected


def test_playout_scores_for_the_leaf_mover() -> None:
    adapter = adapter_for(C4)
    assert adapter is not None
    params = adapter.make_params(C4, playout=1)  # takes wins at once
    pos = C4.parse_position("121212")  # first player to move wins in column 1
    state = adapter.encode(pos)
    rng = np.array([5], dtype=np.int64)
    assert playout(params, state, rng) == 0.0  # the leaf's mover (second player) loses
    assert list(state) == list(adapter.encode(pos))


def test_takes_the_win_in_one() -> None:
    result = _search("121212", iterations=50)
    assert result.best_move == 0
    assert result.proven == 1
    assert result.value == 1.0


def test_blocks_the_forced_loss() -> None:
    result = _search("12131", iterations=300)  # first player threatens column 1
    assert result.best_move == 0
    others = [c for c in result.children if c.move != 0]
    assert others and all(c.proven == -1 for c in others)


def _mixed_positions(count: int) -> list[str]:
    """Positions (from seeded random play) where some moves lose at once and others do not."""
    adapter = adapter_for(C4)
    assert adapter is not None
    params = adapter.make_params(C4)
    rnd = random.Random(11)
    found: list[str] = []
    moves = np.zeros(7, dtype=np.int64)
    status = np.zeros(7, dtype=np.int64)
    while len(found) < count:
        pos = C4.start()
        while not pos.outcome.is_over and len(found) < count:
            n = gen_children(params, adapter.encode(pos), moves, status)
            codes = set(int(s) for s in status[:n])
            if LOSS in codes and UNKNOWN in codes and WIN not in codes:
                found.append(pos.to_text())
            pos = pos.play(rnd.choice(pos.legal_moves()))
    return found


def test_avoids_proven_losses() -> None:
    checked = 0
    for moves in _mixed_positions(12):
        result = _search(moves, iterations=500)
        assert any(c.proven == -1 for c in result.children)
        if result.proven == -1:  # every move loses: nothing to avoid
            continue
        chosen = next(c for c in result.children if c.move == result.best_move)
        assert chosen.proven != -1, moves
        checked += 1
    assert checked >= 6


def test_proven_win_propagates_to_the_root() -> None:
    result = _search("4455", iterations=3000)  # 3 or 6 makes an open three: a double threat
    assert result.proven == 1
    assert result.best_move in (2, 5)
    assert result.value == 1.0


def _negamax(pos) -> int:  # type: ignore[no-untyped-def]
    if pos.outcome.is_over:
        return 0 if pos.outcome.winner is None else -1
    return max(-_negamax(pos.play(m)) for m in pos.legal_moves())


def test_proofs_match_a_brute_force_solver_on_4x4() -> None:
    spec = get_game("connect4:4x4")
    rnd = random.Random(3)
    checked = 0
    while checked < 8:
        pos = spec.start()
        for _ in range(9):
            if pos.outcome.is_over:
                break
            pos = pos.play(rnd.choice(pos.legal_moves()))
        if pos.outcome.is_over:
            continue
        result = _search(pos.to_text(), iterations=20000, spec=spec)
        assert result.proven == _negamax(pos), pos.to_text()
        for child in result.children:
            if child.proven is not None:
                assert child.proven == -_negamax(pos.play(child.move))
        checked += 1


def test_same_seed_and_iterations_give_the_same_search() -> None:
    a = _search("4453", iterations=3000, seed=42)
    b = _search("4453", iterations=3000, seed=42)
    c = _search("4453", iterations=3000, seed=43)
    assert a.children == b.children and a.pv == b.pv and a.best_move == b.best_move
    assert a.iterations == b.iterations == 3000
    assert a.children != c.children


def test_tree_reuse_keeps_the_subtree() -> None:
    searcher = Searcher(C4, seed=5)
    searcher.search(iterations=5000)
    first = searcher.search(iterations=1)
    child = max(first.children, key=lambda c: c.visits)
    pos = C4.start().play(child.move)
    searcher.set_position(pos)
    assert searcher.root_visits == child.visits > 0
    second = searcher.search(iterations=1000)
    grandchild = max(second.children, key=lambda c: c.visits)
    searcher.set_position(pos.play(grandchild.move))
    assert searcher.root_visits == grandchild.visits
    searcher.set_position(C4.parse_position("1"))  # not an extension: a fresh tree
    assert searcher.root_visits == 0


def test_reused_root_proven_at_expansion_still_finds_its_win() -> None:
    searcher = Searcher(C4, seed=4)
    searcher.set_position(C4.parse_position("72727"))  # second player must block column 7
    searcher.search(iterations=200)
    searcher.set_position(C4.parse_position("727271"))  # it did not: a node proven at once
    result = searcher.search(iterations=200)
    assert result.best_move == 6 and result.proven == 1


def test_memory_cap_is_reached_without_crashing() -> None:
    searcher = Searcher(C4, seed=2, max_nodes=3000)
    result = searcher.search(iterations=20000)
    assert searcher.pool_full
    assert searcher.nodes_used <= 3000
    assert result.iterations == 20000
    assert result.best_move in C4.start().legal_moves()


def test_a_pool_started_small_grows_without_changing_the_search() -> None:
    from ai.mcts.tree import Tree

    small = Searcher(C4, seed=9, max_nodes=100_000)
    for worker in small._workers:
        worker.tree = Tree(worker.tree.max_nodes, initial_nodes=64)
    grown = small.search(iterations=5000)
    assert small._workers[0].tree.capacity > 64
    reference = Searcher(C4, seed=9, max_nodes=100_000).search(iterations=5000)
    assert grown.children == reference.children and grown.pv == reference.pv


@pytest.mark.parametrize("threads", [1, 2])
def test_stop_from_another_thread_ends_the_search(threads: int) -> None:
    searcher = Searcher(C4, seed=3, threads=threads)
    searcher.warm_up()
    results = []
    started = threading.Event()

    def on_info(_result) -> None:  # type: ignore[no-untyped-def]
        started.set()

    def go() -> None:
        results.append(searcher.search(time_ms=600_000, on_info=on_info, info_ms=10, early_stop=False))

    worker = threading.Thread(target=go)
    worker.start()
    assert started.wait(60)
    searcher.stop()
    worker.join(60)  # a hang guard, not a timing assertion
    assert not worker.is_alive()
    assert results and results[0].iterations > 0


def test_a_stop_event_set_before_the_search_is_honoured() -> None:
    searcher = Searcher(C4, seed=3)
    searcher.set_position(C4.parse_position("72727"))  # the second player must block column 7
    event = threading.Event()
    event.set()
    result = searcher.search(time_ms=60_000, early_stop=False, stop_event=event)
    assert result.iterations == 1  # the root expansion only
    assert result.best_move == 6


def test_root_parallel_threads_merge_counts() -> None:
    result = _search("4453", iterations=4001, threads=2)
    assert result.iterations == 4001
    assert sum(c.visits for c in result.children) == 4001  # every iteration visits one root move
    assert result.best_move in C4.parse_position("4453").legal_moves()
    again = _search("4453", iterations=4001, threads=2)  # each tree has its own exact share
    assert again.children == result.children


def test_eight_by_seven_uses_bit_63_safely() -> None:
    spec = get_game("connect4:8x7")
    result = _search("8888888", iterations=3000, spec=spec)
    assert 7 not in [c.move for c in result.children]
    assert len(result.children) == 7


def test_rejects_finished_games_and_missing_budgets() -> None:
    searcher = Searcher(C4, seed=1)
    with pytest.raises(ValueError):
        searcher.search()
    searcher.set_position(C4.parse_position("1212121"))
    with pytest.raises(ValueError, match="over"):
        searcher.search(iterations=10)
    assert supports(C4)


C4_SMALL_DEAD = "1322323121"  # connect4:4x4, no line can be completed: every playout is a draw


def test_draw_contempt_scores_draws_below_half_for_the_root_side_only() -> None:
    spec = get_game("connect4:4x4")
    pos = spec.parse_position(C4_SMALL_DEAD)
    for contempt, expected in ((0.0, 0.5), (0.1, 0.4), (0.25, 0.25)):
        searcher = Searcher(spec, seed=3, contempt=contempt)
        searcher.set_position(pos)
        result = searcher.search(iterations=30)  # too few to prove the draw: values are playout means
        assert result.proven is None
        assert [c.value for c in result.children] == pytest.approx([expected] * len(result.children))
    # two plies on (the same side to move), the kept subtree still scores draws for that side
    searcher = Searcher(spec, seed=3, contempt=0.1)
    searcher.set_position(pos)
    first = searcher.search(iterations=400)
    a = first.best_move
    b = pos.play(a).legal_moves()[0]
    searcher.set_position(pos.play(a).play(b))
    kept = searcher.search(iterations=1)
    assert searcher.root_visits > 1
    assert [c.value for c in kept.children if c.proven is None] == pytest.approx(
        [0.4] * sum(c.proven is None for c in kept.children)
    )


def test_draw_contempt_keeps_the_tree_only_for_the_same_side() -> None:
    pos = C4.parse_position("44")
    for contempt, kept_after_one in ((0.0, True), (0.1, False)):
        searcher = Searcher(C4, seed=2, contempt=contempt)
        searcher.set_position(pos)
        searcher.search(iterations=3000)
        move = searcher.search(iterations=1).best_move
        searcher.set_position(pos.play(move))
        assert (searcher.root_visits > 0) is kept_after_one
    searcher = Searcher(C4, seed=2, contempt=0.1)
    searcher.set_position(pos)
    result = searcher.search(iterations=3000)
    reply = max(result.pv[1:2] or pos.play(result.best_move).legal_moves()[:1])
    searcher.set_position(pos.play(result.best_move).play(reply))
    assert searcher.root_visits > 0


@pytest.mark.parametrize("contempt", [-0.1, 0.5, float("nan")])
def test_rejects_contempt_outside_zero_to_half(contempt: float) -> None:
    with pytest.raises(ValueError, match="contempt"):
        Searcher(C4, contempt=contempt)


@pytest.mark.parametrize("moves", [C4_SMALL_DEAD, C4_SMALL_DEAD[:-1]])
def test_draw_contempt_proves_a_dead_draw_as_fast(moves: str) -> None:
    """Every result is a draw, so contempt shifts every value alike and the search (visits, proofs)
    barely changes; a proven draw scored from the wrong side would soak up the visits instead."""
    spec = get_game("connect4:4x4")
    counts = {}
    for contempt in (0.0, 0.1, 0.3):
        searcher = Searcher(spec, seed=3, contempt=contempt)
        searcher.set_position(spec.parse_position(moves))
        result = searcher.search(iterations=20_000)
        assert result.proven == 0
        counts[contempt] = result.iterations
    assert max(counts.values()) <= 1.1 * counts[0.0]
