"""Issue 39: the marks of a review (best / good / inaccuracy / mistake / blunder) and the accuracy formula, on
positions whose scores are known: hand-made numbers, and 7x6 positions the opening book scores exactly."""

from __future__ import annotations

import json
import math

import pytest

from ai.search.review import iter_exact
from ai.vocab.review_scores import PositionScores
from game.play.review import GameReview
from game.play.review_model import (
    BEST,
    BLUNDER,
    GOOD,
    INACCURACY,
    MISTAKE,
    classify_drop,
    classify_exact,
    exact_chance,
    move_accuracy,
    summarize,
)
from game.rules import get_game

pytestmark = pytest.mark.timeout(60)

MAX = 18  # 7x6: a win with the 4th stone


@pytest.mark.parametrize(
    ("best", "played", "klass"),
    [
        (5, 5, BEST),  # the best win
        (0, 0, BEST),  # a draw held
        (-3, -3, BEST),  # the longest resistance
        (5, -4, BLUNDER),  # win -> loss
        (5, 0, BLUNDER),  # win -> draw
        (0, -1, BLUNDER),  # draw -> loss
        (1, -1, BLUNDER),  # the slowest win -> the slowest loss: still a result thrown away
        (12, 10, GOOD),  # a win two stones longer
        (12, 9, INACCURACY),  # three stones longer
        (12, 7, INACCURACY),
        (12, 6, MISTAKE),  # six stones longer
        (12, 1, MISTAKE),
        (-2, -4, GOOD),  # a loss two stones sooner
        (-2, -5, INACCURACY),
        (-2, -8, MISTAKE),
    ],
)
def test_exact_classes(best: int, played: int, klass: str) -> None:
    assert classify_exact(best, played) == klass


def test_a_played_score_above_the_best_is_refused() -> None:
    with pytest.raises(ValueError, match="above the best"):
        classify_exact(2, 3)


@pytest.mark.parametrize(
    ("drop", "choice", "klass"),
    [(0.0, True, BEST), (5.0, False, GOOD), (9.99, True, BEST), (10.0, True, INACCURACY), (20.0, False, MISTAKE)]
    + [(29.9, False, MISTAKE), (30.0, True, BLUNDER), (80.0, False, BLUNDER)],
)
def test_estimate_classes_use_lichess_thresholds(drop: float, choice: bool, klass: str) -> None:
    assert classify_drop(drop, choice) == klass


def test_accuracy_formula() -> None:
    assert move_accuracy(0) == pytest.approx(99.9999, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert move_accuracy(100) == pytest.approx(0.0, abs=1e-9)  # clamped at 0
    assert move_accuracy(-5) == move_accuracy(0)  # a gain is no drop
    values = [move_accuracy(d) for d in range(0, 101, 5)]
    assert values == sorted(values, reverse=True)


def test_exact_chance_keeps_the_result_first() -> None:
    assert exact_chance(0, MAX) == 50
    assert exact_chance(MAX, MAX) == 100 and exact_chance(1, MAX) == 75
    assert exact_chance(-1, MAX) == 25 and exact_chance(-MAX, MAX) == 0
    assert exact_chance(1, MAX) > exact_chance(0, MAX) > exact_chance(-1, MAX)


def feed(moves: str, tables: dict[int, list[tuple[int, int]]]) -> GameReview:
    """A review of ``moves`` (7x6) from hand-made column scores per ply (0-based columns)."""
    spec = get_game("connect4")
    review = GameReview(spec, spec.parse_moves(moves), exact=True)
    for ply, scores in tables.items():
        review.add(PositionScores(ply, tuple((c, float(s)) for c, s in scores), True, True, "test", 0.0))
    return review


def test_both_sides_and_a_won_game_thrown_away() -> None:
    # ply 0: Red plays 4 (best win); ply 1: Yellow plays 1 losing 4 stones sooner (inaccuracy);
    # ply 2: Red plays 1, a draw where 4 still wins (blunder); ply 3: Yellow plays 7, the only draw (best);
    # ply 4: Red plays 2 and loses where 3 held the draw (blunder): the won game thrown away.
    review = feed(
        "41172",
        {
            0: [(3, 5), (0, 2), (6, -1)],
            1: [(0, -9), (3, -5), (6, -6)],
            2: [(0, 0), (3, 7)],
            3: [(6, 0), (2, -3)],
            4: [(1, -2), (2, 0)],
        },
    )
    classes = [review.reviews[p].klass for p in range(5)]
    assert classes == [BEST, INACCURACY, BLUNDER, BEST, BLUNDER]
    assert [review.reviews[p].mover for p in range(5)] == [0, 1, 0, 1, 0]
    assert review.reviews[2].best_moves == (3,) and review.reviews[2].mark == "??"
    assert review.marked(0) == [2, 4] and review.marked(1) == [1] and review.marked() == [1, 2, 4]
    red, yellow = review.summary()
    assert (red.moves, red.count(BEST), red.count(BLUNDER)) == (3, 1, 2)
    assert (yellow.moves, yellow.count(BEST), yellow.count(INACCURACY)) == (2, 1, 1)
    assert red.accuracy is not None and yellow.accuracy is not None and red.accuracy < yellow.accuracy
    # the formula: the mean of the moves' accuracies
    expected = sum(review.reviews[p].accuracy for p in (0, 2, 4)) / 3
    assert red.accuracy == pytest.approx(expected)
    # win 5 -> draw: 75 + 25 * 4 / 17 points down to 50
    assert review.reviews[2].drop == pytest.approx(exact_chance(7, MAX) - 50)


def test_a_drawn_game_held_is_all_best() -> None:
    review = feed("4444", {p: [(3, 0), (0, -4)] for p in range(4)})
    assert all(r.klass == BEST for r in review.reviews.values())
    assert all(s.accuracy == pytest.approx(99.9999, abs=1e-3) for s in summarize(review.reviews.values()))


def test_book_positions_with_known_scores() -> None:
    """The book's exact scores: after 444444 (Red to move) columns score (-1, 0, 1, full, 1, 0, -1); after 4
    (Yellow to move) (-4, -2, -2, -1, -2, -2, -4)."""
    spec = get_game("connect4")
    for moves, ply, klass in [
        ("4444443", 6, BEST),
        ("4444442", 6, BLUNDER),  # win -> draw
        ("4444441", 6, BLUNDER),  # win -> loss
        ("44", 1, BEST),
        ("42", 1, GOOD),  # a loss one stone sooner
        ("41", 1, INACCURACY),  # three stones sooner
    ]:
        review = GameReview(spec, spec.parse_moves(moves))
        for numbers in iter_exact(spec, review.moves):
            assert numbers.source == "book"
            review.add(numbers)
        assert review.complete
        assert review.reviews[ply].klass == klass, moves
    assert review.reviews[1].scores == tuple((c, s) for c, s in enumerate((-4, -2, -2, -1, -2, -2, -4)))


def test_estimated_moves_need_the_position_after() -> None:
    spec = get_game("tictactoe")
    review = GameReview(spec, (0, 4, 8), exact=False)
    # a1 got 10 visits of 1000: too few to trust its own value; the next search decides
    before = PositionScores(0, ((4, 0.6), (0, 0.5)), False, True, "mcts", 0.0, 0.6, ((4, 990), (0, 10)))
    assert review.add(before) == []
    after = PositionScores(1, ((4, 0.8), (8, 0.3)), False, True, "mcts", 0.0, 0.75, ((4, 900), (8, 100)))
    first, second = review.add(after)
    assert first.ply == 0 and first.drop == pytest.approx(35.0) and first.klass == BLUNDER  # 60% -> 1 - 75%
    # b2 got 900 visits: judged at once from its own search (the choice's value minus its own): the choice
    assert second.ply == 1 and second.mover == 1 and second.klass == BEST and second.drop == 0
    # c3 (8) got 200 visits of 1000: judged by its own value against the choice's, 70% - 50% = 20 points
    third_numbers = PositionScores(2, ((0, 0.7), (8, 0.5)), False, True, "mcts", 0.0, 0.7, ((0, 800), (8, 200)))
    (third,) = review.add(third_numbers)
    assert third.ply == 2 and third.mover == 0 and third.klass == MISTAKE and third.drop == pytest.approx(20.0)
    assert third.best_moves == (0,) and third.played_score == 0.5


def test_a_review_is_kept_with_the_saved_game() -> None:
    from game.play.review_store import review_from_text, with_review
    from game.play.savefile import game_to_json, parse_game_text

    review = feed("41172", {0: [(3, 5), (0, 2)], 2: [(0, 0), (3, 7)], 4: [(1, -2), (2, 0)]})
    text = with_review(game_to_json(review.spec, review.moves), review)
    spec, moves, _ = parse_game_text(text)  # the game still loads for any reader
    again = review_from_text(spec, moves, text)
    assert again is not None and again.reviews == review.reviews
    assert review_from_text(spec, moves, game_to_json(spec, moves)) is None  # a file without a review
    data = json.loads(text)
    data["review"]["positions"]["0"]["scores"][1] = [0, True]
    partial = review_from_text(spec, moves, json.dumps(data))
    assert partial is not None and set(partial.reviews) == {2, 4}  # the bad entry (ply 0) is skipped


def test_the_review_marks_where_a_variation_was_better() -> None:
    from game.play.variations import MoveTree

    review = feed("41172", {1: [(0, -9), (3, -5), (6, -6)], 2: [(0, 0), (3, 7)]})
    tree = MoveTree(review.spec, review.moves)
    tree.add_line(review.moves[:1], (3,))  # Yellow's 4 instead of 1: better (best)
    tree.add_line(review.moves[:1], (6,))  # 7: better than 1, not best (good)
    tree.add_line(review.moves[:2], (6,))  # Red's 7 instead of 1: not reviewed (no score): skipped
    tree.add_line((3, 6), (0,))  # off the main line: skipped
    assert review.better_variations(tree) == [(1, 3, BEST), (1, 6, GOOD)]


def test_share_text() -> None:
    from game.play.review import share_text

    review = feed("41172", {0: [(3, 5)], 1: [(0, -9), (3, -5)], 2: [(0, 0), (3, 7)]})
    red = (move_accuracy(0) + move_accuracy(75 + 25 * 6 / 17 - 50)) / 2  # best, then a win in 7 -> a draw
    yellow = move_accuracy((25 - 25 * 4 / 17) - (25 - 25 * 8 / 17))  # a loss 4 stones sooner
    assert (round(red, 1), round(yellow, 1)) == (60.2, 76.7)
    assert share_text(review).splitlines() == [
        "connect4 41172 (exact review)",
        "player 1: accuracy 60.2 (1 blunder)",
        "player 2: accuracy 76.7 (1 inaccuracy)",
        "marked: 2. 1?! 3. 1??",
        "https://connect4.gamesolver.org/?pos=41172",
    ]


def test_the_model_and_the_store_load_without_numba() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import game.play.review, game.play.review_store, game.play.hints, game.play.puzzle_mode; "
        "from game.rules import get_game; game.play.review.GameReview(get_game('connect4'), (3, 3)); "
        "print(sorted(m for m in ('numba', 'ai.solver.core', 'ai.mcts') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
