"""Issue 39: hints (the best move, counted in the review) and a review's mistakes replayed as puzzles."""

from __future__ import annotations

import json

import pytest

from ai.vocab.review_scores import PositionScores
from game.play.hints import find_hint, hint_from_scores, mistake_puzzles, record_hint
from game.play.review import GameReview
from game.play.review_model import BLUNDER, INACCURACY
from game.play.review_store import review_from_text, with_review
from game.play.savefile import game_to_json
from game.rules import get_game

pytestmark = pytest.mark.timeout(120)

C4 = get_game("connect4")


def test_a_hint_from_the_book() -> None:
    hint = find_hint(C4, C4.parse_moves("444444"))  # columns 3 and 5 win, 3 (0-based 2) and 5 (4) tie
    assert hint is not None and hint.exact and hint.move in (2, 4) and hint.text.endswith("win in 18")
    assert find_hint(C4, C4.parse_moves("1212121")) is None  # the game is over


def test_a_hint_from_the_solver_on_a_small_board() -> None:
    spec = get_game("connect4:5x4")
    hint = find_hint(spec, spec.parse_moves("33"))
    assert hint is not None and hint.exact and hint.ply == 2


def test_ties_go_to_the_centre_and_estimates_follow_the_visits() -> None:
    exact = PositionScores(3, ((0, 2.0), (3, 2.0), (6, 2.0), (2, -1.0)), True, True, "test", 0.0)
    hint = hint_from_scores(C4, exact)
    assert hint is not None and hint.move == 3
    ttt = get_game("tictactoe")
    guess = PositionScores(1, ((0, 0.7), (4, 0.5)), False, True, "mcts", 0.0, 0.5, ((0, 10), (4, 90)))
    hint = hint_from_scores(ttt, guess)
    assert hint is not None and hint.move == 4 and not hint.exact and hint.text == "b2: ≈50%"


def feed(moves: str, tables: dict[int, list[tuple[int, int]]]) -> GameReview:
    review = GameReview(C4, C4.parse_moves(moves), exact=True)
    for ply, scores in tables.items():
        review.add(PositionScores(ply, tuple((c, float(s)) for c, s in scores), True, True, "test", 0.0))
    return review


def test_mistakes_become_puzzles_accepting_the_best_class() -> None:
    review = feed("41172", {1: [(0, -9), (3, -5), (6, -5)], 2: [(0, 0), (3, 7), (5, 7)], 3: [(6, 0)]})
    (yellow,) = mistake_puzzles(review, 1)
    assert (yellow.ply, yellow.moves, yellow.played, yellow.klass) == (1, (3,), 0, INACCURACY)
    assert yellow.accepted == (3, 6) and yellow.solved_by(6) and not yellow.solved_by(0)
    (red,) = mistake_puzzles(review, 0)
    assert red.klass == BLUNDER and red.moves == (3, 0) and red.accepted == (3, 5)


def test_hints_are_counted_and_kept() -> None:
    review = feed("41172", {0: [(3, 5)], 1: [(0, -9), (3, -5)]})
    record_hint(review, 1)
    record_hint(review, 3)
    record_hint(review, 99)  # out of the game: ignored
    summary = review.to_json()["summary"]
    assert [s["hints"] for s in summary] == [0, 2]
    text = with_review(game_to_json(C4, review.moves), review)
    assert json.loads(text)["review"]["hints"] == [1, 3]
    again = review_from_text(C4, review.moves, text)
    assert again is not None and again.hints == {1, 3}
