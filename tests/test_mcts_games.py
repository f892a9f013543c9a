"""The grid-game kernels (tic-tac-toe, m,n,k, Gomoku, Ultimate TTT): rules, proofs, play strength."""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.mcts import Searcher, supports
from ai.mcts.games import MNK_KEEP, MNK_NEAR, MNK_SMALL_BOARD, adapter_for
from ai.mcts.kernels import gen_children, play, playout
from ai.mcts.layout import DRAW, LOSS, UNKNOWN, WIN
from game.rules import get_game

ROOT = Path(__file__).resolve().parents[1]
TTT = get_game("tictactoe")


def _can_win_now(pos, player: int) -> bool:  # type: ignore[no-untyped-def]
    """Could ``player`` complete a line with one more stone (m,n,k)?"""
    spec = pos.spec
    stones = pos.stones(player)
    return any(spec.winning_cells(stones | (1 << c)) for c in range(spec.size) if not (pos.occupied >> c) & 1)


def _opponent_wins_at_once(after) -> bool:  # type: ignore[no-untyped-def]
    """Can the side to move in ``after`` win with its next move?"""
    if hasattr(after.spec, "k"):
        return _can_win_now(after, after.to_move)
    return any(after.play(r).outcome.winner == after.to_move for r in after.legal_moves())


def _can_make_four(pos, player: int) -> bool:  # type: ignore[no-untyped-def]
    """Could ``player`` make a four (or five) with one stone (m,n,k): a k-window holding k - 2 or
    more of its stones and none of the opponent's?"""
    spec = pos.spec
    w, h, k = spec.width, spec.height, spec.k
    mine, theirs = pos.stones(player), pos.stones(1 - player)
    for y in range(h):
        for x in range(w):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if not (0 <= x + (k - 1) * dx < w and 0 <= y + (k - 1) * dy < h):
                    continue
                cells = [(y + i * dy) * w + x + i * dx for i in range(k)]
                if not any(theirs >> c & 1 for c in cells) and sum(mine >> c & 1 for c in cells) >= k - 2:
                    return True
    return False


_BOARD_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _dead_draw(pos) -> bool:  # type: ignore[no-untyped-def]
    """UTTT: no line of boards is still open to either side (each holds a board that side cannot
    win any more: won by the other side or closed without a winner)."""
    if hasattr(pos.spec, "k") or pos.outcome.is_over:
        return False

    def open_to(player: int) -> bool:
        return any(
            all(pos.local_winner(b) == player or not (pos.closed_boards >> b) & 1 for b in line)
            for line in _BOARD_LINES
        )

    return not open_to(0) and not open_to(1)


def _far_from_stones(pos, cell: int, radius: int) -> bool:  # type: ignore[no-untyped-def]
    w = pos.spec.width
    x, y = cell % w, cell // w
    stones = [c for c in range(pos.spec.size) if (pos.occupied >> c) & 1]
    return all(max(abs(c % w - x), abs(c // w - y)) > radius for c in stones)


def _random_move(pos, rnd: random.Random):  # type: ignore[no-untyped-def]
    """Mostly next to a stone on large boards, so that lines and threats appear."""
    legal = pos.legal_moves()
    if hasattr(pos.spec, "k") and pos.spec.size > MNK_SMALL_BOARD and pos.ply and rnd.random() < 0.85:
        near = [m for m in legal if not _far_from_stones(pos, m, 1)]
        if near:
            return rnd.choice(near)
    return rnd.choice(legal)


def _check_proof_codes(pos: Any, codes: dict[int, int], sample: list[int], large: bool, seen: dict[int, int]) -> int:
    """Each sampled child's proof code says what the rules say of it; returns how many were dead draws."""
    dead_draws = 0
    for m in sample:
        after = pos.play(m)
        seen[codes[m]] += 1
        if codes[m] == WIN:  # at once, or (Gomoku) the first four of a VCF: a win cell follows
            assert after.outcome.winner == pos.to_move or (large and _can_win_now(after, pos.to_move))
        elif codes[m] == DRAW:
            assert (after.outcome.is_over and after.outcome.winner is None) or _dead_draw(after)
            dead_draws += _dead_draw(after)
        else:
            assert not after.outcome.is_over and not _dead_draw(after)
            if large and codes[m] == LOSS:  # (Gomoku) at once, or the opponent has a VCF: a four
                assert _can_make_four(after, after.to_move), (pos.to_text(), m)
            else:
                assert _opponent_wins_at_once(after) == (codes[m] == LOSS), (pos.to_text(), m)
    return dead_draws


def _check_omitted_moves(
    name: str, pos: Any, legal: set[int], generated: list[int], codes: dict[int, int], rnd: random.Random, n: int
) -> None:
    """A legal move is left out only when a generated one wins at once, it loses at once, or (large m,n,k
    boards) it is far from every stone."""
    large = name == "gomoku"
    omitted = sorted(legal - set(generated))
    if not omitted or WIN in codes.values():
        return
    assert name != "uttt"
    threatened = _can_win_now(pos, 1 - pos.to_move)
    if threatened or not large:  # only the blocks are kept: the others lose at once
        for m in rnd.sample(omitted, min(4, len(omitted))):
            assert _opponent_wins_at_once(pos.play(m)), (pos.to_text(), m)
    else:  # the best few cells near the stones
        assert n <= MNK_KEEP
        for m in generated:  # (beyond: a counter-four against a VCF)
            near = not _far_from_stones(pos, m, MNK_NEAR) or _can_win_now(pos.play(m), pos.to_move)
            assert near if pos.ply else m == 7 * 15 + 7


@pytest.mark.parametrize(
    ("name", "games", "checked"),
    [("tictactoe", 40, 99), ("mnk:6x6:4", 12, 99), ("mnk:7x5:4", 12, 99), ("gomoku", 4, 6), ("uttt", 15, 99)],
)
def test_kernel_agrees_with_the_rules(name: str, games: int, checked: int) -> None:
    """Random games: children are legal moves with correct proof codes, a move is left out only
    when a generated one wins at once, it loses at once, or (large m,n,k boards) it is far from
    every stone; play() gives the rules' outcome and state; playouts leave the state alone."""
    spec = get_game(name)
    adapter = adapter_for(spec)
    assert adapter is not None
    assert adapter is not None and supports(spec)
    params = adapter.make_params(spec)
    large = name == "gomoku"
    rnd = random.Random(name)
    rng = np.array([17], dtype=np.int64)
    moves = np.zeros(adapter.max_moves, dtype=np.int64)
    status = np.zeros(adapter.max_moves, dtype=np.int64)
    seen = {WIN: 0, DRAW: 0, LOSS: 0, UNKNOWN: 0}
    dead_draws = 0
    for _ in range(games):
        pos = spec.start()
        state = adapter.encode(pos)
        while not pos.outcome.is_over:
            n = gen_children(params, state, moves, status)
            generated = [int(m) for m in moves[:n]]
            codes = {int(m): int(s) for m, s in zip(moves[:n], status[:n], strict=True)}
            legal = set(pos.legal_moves())
            assert n > 0 and len(codes) == n and set(generated) <= legal
            dead_draws += _check_proof_codes(pos, codes, rnd.sample(generated, min(checked, n)), large, seen)
            _check_omitted_moves(name, pos, legal, generated, codes, rnd, n)
            before = state.copy()
            result = playout(params, state, rng)
            assert 0.0 <= result <= 1.0 and (large or result in (0.0, 0.5, 1.0))
            assert list(state) == list(before)
            move = _random_move(pos, rnd)
            code = play(params, state, move)
            pos = pos.play(move)
            assert list(state) == list(adapter.encode(pos))
            assert code == (0 if not pos.outcome.is_over else (1 if pos.outcome.winner is not None else 2))
    assert seen[WIN] and seen[LOSS] and seen[UNKNOWN]
    if name == "tictactoe":
        assert seen[DRAW]
    if name == "uttt":
        assert dead_draws  # random games reach dead draws, and the kernel marks them


def test_playout_scores_for_the_leaf_mover() -> None:
    adapter = adapter_for(TTT)
    assert adapter is not None
    params = adapter.make_params(TTT)  # takes wins at once
    pos = TTT.parse_position("a1 b1 a2 b2")  # X to move wins on a3
    state = adapter.encode(pos)
    assert playout(params, state, np.array([3], dtype=np.int64)) == 0.0  # O, the leaf's mover, loses


@functools.cache
def _value(spec, stones0: int, stones1: int) -> int:  # type: ignore[no-untyped-def]
    """Exact value for the side to move (+1 / 0 / -1) by memoised negamax."""
    from game.rules.mnk import MnkPosition

    pos = MnkPosition(spec, stones0, stones1)
    if pos.outcome.is_over:
        return 0 if pos.outcome.winner is None else -1
    return max(-_value(spec, *_stones(pos.play(m))) for m in pos.legal_moves())


def _stones(pos) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return pos.stones0, pos.stones1


def _exact(pos) -> int:  # type: ignore[no-untyped-def]
    return _value(pos.spec, *_stones(pos))


@pytest.mark.parametrize("name", ["tictactoe", "mnk:4x4:3"])
def test_proofs_match_a_brute_force_solver(name: str) -> None:
    spec = get_game(name)
    rnd = random.Random(5)
    proven = 0
    for plies in (2, 3, 3, 4, 4, 5, 5, 6, 7) if name == "tictactoe" else (5, 5, 6, 6, 7, 7, 8):
        pos = spec.start()
        for _ in range(plies):
            if not pos.outcome.is_over:
                pos = pos.play(rnd.choice(pos.legal_moves()))
        if pos.outcome.is_over:
            continue
        searcher = Searcher(spec, seed=1, max_nodes=500_000)
        searcher.set_position(pos)
        result = searcher.search(iterations=60_000)
        assert result.proven == _exact(pos), pos.to_text()
        proven += 1
        for child in result.children:
            if child.proven is not None:
                assert child.proven == -_exact(pos.play(child.move)), (pos.to_text(), child)
    assert proven >= 4


def test_tictactoe_self_play_is_always_drawn() -> None:
    for game in range(10):
        searchers = [Searcher(TTT, seed=100 + 2 * game + i, max_nodes=200_000) for i in range(2)]
        pos = TTT.start()
        while not pos.outcome.is_over:
            bot = searchers[pos.to_move]
            bot.set_position(pos)
            pos = pos.play(bot.search(iterations=1500).best_move)
        assert pos.outcome.winner is None, pos.to_text()


def test_never_loses_to_a_perfect_player_on_any_of_its_lines() -> None:
    """The bot (1500 iterations, seed 7, fresh tree per move) against every minimax-optimal line:
    at each of the opponent's turns the game branches into all of its optimal moves."""
    searcher = Searcher(TTT, seed=7, max_nodes=200_000)

    @functools.cache
    def bot_move(pos) -> int:  # type: ignore[no-untyped-def]
        searcher.set_position(pos)
        searcher.clear()  # the same search for the same position, whatever came before
        return searcher.search(iterations=1500).best_move

    def finals(pos, bot_side: int):  # type: ignore[no-untyped-def]
        if pos.outcome.is_over:
            yield pos
            return
        if pos.to_move == bot_side:
            yield from finals(pos.play(bot_move(pos)), bot_side)
            return
        best = _exact(pos)
        for m in pos.legal_moves():
            if -_exact(pos.play(m)) == best:
                yield from finals(pos.play(m), bot_side)

    for bot_side in (0, 1):
        ends = list(finals(TTT.start(), bot_side))
        assert len(ends) >= 3
        lost = [p.to_text() for p in ends if p.outcome.winner == 1 - bot_side]
        assert not lost, (bot_side, lost[:3])


def test_edges_draw_when_the_opponent_holds_opposite_corners() -> None:
    """X a1, O b2, X c3 (X moved first, so this is the legal form of the classic position): O, to
    move, holds the centre and X two opposite corners. O must take an edge (a corner loses to
    the other corner's double threat); the four edges are symmetric, so they share the visits."""
    searcher = Searcher(TTT, seed=3, max_nodes=200_000)
    searcher.set_position(TTT.parse_position("a1 b2 c3"))
    result = searcher.search(iterations=5000)
    total = sum(c.visits for c in result.children)
    share = {TTT.move_to_text(c.move): c.visits / total for c in result.children}
    assert set(share) == {"b1", "a2", "c2", "b3", "a3", "c1"}
    for edge in ("b1", "a2", "c2", "b3"):
        assert 0.15 <= share[edge] <= 0.35, share
    for corner in ("a3", "c1"):
        assert share[corner] <= 0.08, share
    assert TTT.move_to_text(result.best_move) in ("b1", "a2", "c2", "b3")
    assert result.proven == 0


GOMOKU = get_game("gomoku")


@pytest.mark.parametrize(
    ("moves", "answers"),
    [
        ("h8 a1 i8 a2 j8 a3 k8 o15", {"g8", "l8"}),  # X makes five
        ("h8 g8 i8 a1 j8 a2 k8", {"l8"}),  # O blocks the four
        ("h8 a1 i8 a15 j8", {"g8", "k8"}),  # O blocks the open three next to it
        ("h8 h9 i8 i9 j8 j9", {"g8", "k8"}),  # X makes an open four (and wins)
    ],
)
def test_gomoku_tactics(moves: str, answers: set[str]) -> None:
    searcher = Searcher(GOMOKU, seed=2, max_nodes=2_000_000)
    searcher.set_position(GOMOKU.parse_position(moves))
    result = searcher.search(iterations=4000)
    assert GOMOKU.move_to_text(result.best_move) in answers


def test_uttt_plays_a_game_winning_move() -> None:
    spec = get_game("uttt")
    rnd = random.Random(9)
    adapter = adapter_for(spec)
    assert adapter is not None
    params = adapter.make_params(spec)
    moves = np.zeros(81, dtype=np.int64)
    status = np.zeros(81, dtype=np.int64)
    found = 0
    while found < 5:  # positions from random games where a move wins the game: the search plays one
        pos = spec.start()
        while not pos.outcome.is_over:
            n = gen_children(params, adapter.encode(pos), moves, status)
            if WIN in status[:n] and UNKNOWN in status[:n]:
                searcher = Searcher(spec, seed=1, max_nodes=100_000)
                searcher.set_position(pos)
                result = searcher.search(iterations=200)
                assert result.proven == 1 and pos.play(result.best_move).outcome.winner == pos.to_move
                found += 1
                break
            pos = pos.play(rnd.choice(pos.legal_moves()))


def test_plain_python_runs_the_same_search() -> None:
    code = (
        "import json\nfrom ai.mcts import Searcher\nfrom game.rules import get_game\nout = []\n"
        "for name, moves in [('tictactoe', 'b2'), ('mnk:6x6:4', 'c3 d4'), ('gomoku', 'h8 h9'), ('uttt', 'e5 e6')]:\n"
        "    spec = get_game(name)\n"
        "    s = Searcher(spec, seed=4, max_nodes=50_000)\n"
        "    s.set_position(spec.parse_position(moves))\n"
        "    r = s.search(iterations=60)\n"
        "    out.append([[c.move, c.visits] for c in r.children])\n"
        "print(json.dumps(out))\n"
    )
    runs = []
    for extra in ({"CONNECT4_NO_NUMBA": "1"}, {}):
        env = {k: v for k, v in os.environ.items() if k != "CONNECT4_NO_NUMBA"}
        env.update(extra, PYTHONPATH=str(ROOT))
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1]
    # MCTS: one visit per iteration; Gomoku's alpha-beta counts nodes (``gomoku_search.NODES_PER_ITERATION``)
    assert all(sum(v for _, v in children) == 60 for i, children in enumerate(runs[0]) if i != 2)
    assert 0 < sum(v for _, v in runs[0][2]) <= 60 * 20


def test_engine_process_and_analyze_serve_the_grid_games() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from engine_helpers import EngineProcess

    engine = EngineProcess("--seed", "1")
    try:
        assert "uttt" in engine.read()["games"]
        engine.send({"cmd": "position", "game": "uttt", "moves": "e5 e6"})
        engine.send({"cmd": "go", "iterations": 500})
        best, _ = engine.read_until("bestmove")
        legal = get_game("uttt").parse_position("e5 e6").legal_moves()
        assert best["move"] in [get_game("uttt").move_to_text(m) for m in legal]
        assert sum(c["visits"] for c in best["children"]) == 500
    finally:
        assert engine.close() == 0
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "analyze",
            "b2 a1",
            "--game",
            "tictactoe",
            "--iterations",
            "3000",
            "--seed",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    assert answer["best_move"] in ("a3", "c1", "c3") and answer["proven"] == "draw"
