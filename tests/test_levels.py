"""The engine's playing levels: the choice rule (book moves, temperature, noise) and the go's "level"."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ai.client.api import Limit
from ai.engine import protocol
from ai.engine.protocol import Go, ProtocolError
from ai.search import levels
from ai.search.levels import LEVELS, Level, choose, move_probabilities, move_weights
from ai.vocab import wire
from ai.vocab.results import BestMove, MoveStats, SearchResult
from game.rules import get_game

pytestmark = pytest.mark.timeout(60)
SPEC = get_game("connect4")


def result_of(visits: dict[int, int], proven: dict[int, int] | None = None) -> SearchResult:
    proven = proven or {}
    children = tuple(MoveStats(m, v, 0.5, proven.get(m)) for m, v in sorted(visits.items()))
    best = max(visits, key=lambda m: visits[m])
    return SearchResult(best, 0.5, children, sum(visits.values()), 1.0, 1, (best,))


def test_temperature_zero_plays_the_best_move_and_a_warm_level_follows_the_visits() -> None:
    result = result_of({0: 10, 3: 70, 5: 20})
    cold = Level("cold", 100, 0.0)
    assert move_weights(cold, result.children, result.best_move) == {3: 1.0}
    warm = move_weights(Level("warm", 100, 1.0), result.children, result.best_move)
    assert warm == pytest.approx({0: 0.1, 3: 0.7, 5: 0.2})
    sharper = move_weights(Level("sharp", 100, 0.5), result.children, result.best_move)
    assert sharper[3] > warm[3] and sharper[0] < warm[0]  # a lower temperature errs less


def test_a_proven_win_is_never_passed_up_and_a_proven_loss_never_chosen_while_another_is_open() -> None:
    lv = Level("warm", 100, 1.0)
    result = result_of({0: 50, 2: 1, 4: 49}, proven={2: 1})
    assert move_weights(lv, result.children, result.best_move) == {2: 1.0}
    result = result_of({0: 50, 2: 10, 4: 40}, proven={0: -1})
    assert 0 not in move_weights(lv, result.children, result.best_move)


def test_noise_gives_every_legal_move_a_chance() -> None:
    lv = Level("noisy", 40, 1.0, noise=0.2)
    weights = move_weights(lv, result_of({m: (100 if m == 3 else 0) for m in range(7)}).children, 3)
    assert sum(weights.values()) == pytest.approx(1.0)
    assert all(weights[m] == pytest.approx(0.2 / 7) for m in range(7) if m != 3)


def test_book_plies_play_a_result_keeping_book_move_and_vary_among_them() -> None:
    start = SPEC.start()
    bad_search = result_of({0: 90, 3: 10})  # the search's favourite (column 1) loses the first player's win
    lv = Level("bookish", 100, 0.0, book_plies=1)
    probs, booked = move_probabilities(lv, start, bad_search)
    assert booked and probs == {3: 1.0}  # the empty board: only the centre keeps the win
    assert choose(lv, start, bad_search, random.Random(1)) == (3, "book")
    after = SPEC.parse_position("4")
    assert choose(lv, after, bad_search, random.Random(1)) == (0, "best")  # beyond its book plies: its own rule
    reply = SPEC.parse_position("1")  # the second player has several moves that keep the result here
    deep = Level("bookish", 100, 0.0, book_plies=4)
    picked = Counter(choose(deep, reply, bad_search, random.Random(seed))[0] for seed in range(40))
    keeping = set(levels.book_moves(reply))
    assert set(picked) == keeping and len(keeping) > 1


def test_choices_follow_the_probabilities() -> None:
    lv = Level("warm", 100, 1.0)
    result = result_of({1: 25, 3: 75})
    rng = random.Random(7)
    picks = Counter(choose(lv, SPEC.parse_position("44"), result, rng)[0] for _ in range(2000))
    assert 0.70 < picks[3] / 2000 < 0.80
    assert {how for _, how in (choose(lv, SPEC.parse_position("44"), result, rng) for _ in range(50))} == {
        "best",
        "sampled",
    }


def test_the_ladder_is_ordered_from_wild_to_exact() -> None:
    names = list(LEVELS)
    assert names == ["beginner", "easy", "medium", "hard", "perfect"]
    caps = [LEVELS[n].iterations or 0 for n in names[:-1]]
    assert caps == sorted(caps) and LEVELS["perfect"].exact and LEVELS["perfect"].iterations is None
    temps = [LEVELS[n].temperature for n in names]
    assert temps == sorted(temps, reverse=True)


def test_go_with_a_level_caps_the_iterations_and_takes_its_exactness() -> None:
    cmd = protocol.parse_command('{"cmd": "go", "time_ms": 1000, "level": "easy", "id": 3}')
    assert cmd == Go(
        limit=Limit(time_ms=1000.0, iterations=LEVELS["easy"].iterations),
        search_id=3,
        exact=False,
        early_stop=False,
        level=LEVELS["easy"],
    )  # no early stop
    cmd = protocol.parse_command('{"cmd": "go", "iterations": 10, "level": "hard"}')
    assert isinstance(cmd, Go) and cmd.limit.iterations == 10  # the smaller budget wins
    cmd = protocol.parse_command('{"cmd": "go", "level": "beginner"}')  # the cap is a budget by itself
    assert isinstance(cmd, Go) and cmd.limit.iterations == LEVELS["beginner"].iterations and cmd.limit.time_ms is None
    cmd = protocol.parse_command('{"cmd": "go", "time_ms": 500, "level": "perfect"}')
    assert isinstance(cmd, Go) and cmd.exact and cmd.limit.iterations is None


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ('{"cmd": "go", "time_ms": 100, "level": "grandmaster"}', '"level" must be one of'),
        ('{"cmd": "go", "time_ms": 100, "level": 3}', '"level" must be one of'),
        ('{"cmd": "go", "time_ms": 100, "level": "easy", "exact": true}', "cannot be given with"),
        ('{"cmd": "go", "level": "perfect"}', "needs"),  # Perfect has no cap: it needs a time or iterations
    ],
)
def test_bad_levels_are_one_line_errors(line: str, fragment: str) -> None:
    with pytest.raises(ProtocolError, match=fragment):
        protocol.parse_command(line)


def test_bestmove_carries_the_chosen_move_the_level_and_how_it_was_chosen() -> None:
    result = result_of({2: 30, 3: 70})
    reply = protocol.result_message("bestmove", SPEC, result, 5, move=2, level="easy", choice="sampled")
    assert isinstance(reply, BestMove) and reply.move == "3" and reply.pv == ("4",)
    decoded = wire.decode(wire.encode(reply))
    assert decoded == reply and isinstance(decoded, BestMove) and decoded.level == "easy"
    plain = protocol.result_message("bestmove", SPEC, result, 5)
    assert isinstance(plain, BestMove) and plain.move == "4" and plain.level is None and plain.choice is None


def test_in_a_lost_book_position_the_book_move_resists_longest() -> None:
    from ai.vocab.opening_book import load
    from game.rules.connect4 import Connect4Position

    lost = SPEC.parse_position("444")  # the second player loses whatever it plays
    assert isinstance(lost, Connect4Position)
    moves = levels.book_moves(lost)

    scores = load().column_scores(lost)
    assert scores is not None and max(s for s in scores if s is not None) < 0
    assert moves and all(scores[m] == max(s for s in scores if s is not None) for m in moves)


def test_a_benchmark_player_searches_like_the_engine_the_whole_cap() -> None:
    from ai.benchmarks.level_games import LevelPlayer

    player = LevelPlayer("medium", seed=3)
    seen: dict[str, object] = {}
    real = player.searcher.search

    def spy(**kw: object) -> SearchResult:
        seen.update(kw)
        result: SearchResult = real(**kw)
        return result

    player.searcher.search = spy
    try:
        move, weights = player.decide(SPEC.parse_position("4453"))
    finally:
        player.close()
    assert seen["iterations"] == LEVELS["medium"].iterations and seen["early_stop"] is False  # timing-free
    assert move in weights and sum(weights.values()) == pytest.approx(1.0)
