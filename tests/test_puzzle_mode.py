"""Issue 39 item 6: the puzzle mode's model: next puzzle by grade, a move judged, the streak, the progress kept."""

from __future__ import annotations

import json

import pytest

from ai.vocab.puzzle_set import load
from game.play.puzzle_mode import GRADES, PuzzleProgress, attempt, counts, next_puzzle

pytestmark = pytest.mark.timeout(30)


def test_solve_fail_and_streak() -> None:
    progress = PuzzleProgress(grade="medium", seed=3)
    first = next_puzzle(progress)
    assert first is not None and first.grade == "medium"
    assert next_puzzle(progress) == first  # the same until it is solved
    right = attempt(progress, first, int(first.answer) - 1)
    assert right.solved and right.progress.streak == 1 and first.id in right.progress.solved
    second = next_puzzle(right.progress)
    assert second is not None and second.id != first.id
    again = attempt(right.progress, second, int(second.answer) - 1)
    assert again.progress.streak == again.progress.best_streak == 2
    third = next_puzzle(again.progress)
    assert third is not None
    wrong_move = next(c for c in range(7) if c != int(third.answer) - 1)
    wrong = attempt(again.progress, third, wrong_move)
    assert not wrong.solved and wrong.answer == int(third.answer) - 1
    assert wrong.progress.streak == 0 and wrong.progress.best_streak == 2 and third.id in wrong.progress.failed
    assert next_puzzle(wrong.progress) == third  # a failed puzzle comes back
    assert counts(wrong.progress)["medium"][0] == 2


def test_orders_differ_by_seed_and_end() -> None:
    firsts = {next_puzzle(PuzzleProgress(grade="easy", seed=s)) for s in range(6)}
    assert len(firsts) > 1
    easy = [p for p in load() if p.grade == "easy"]
    done = PuzzleProgress(grade="easy", solved=frozenset(p.id for p in easy))
    assert next_puzzle(done) is None
    assert {g: counts(done)[g][1] for g in GRADES} == {g: sum(1 for p in load() if p.grade == g) for g in GRADES}


def test_progress_round_trip_and_bad_values() -> None:
    progress = PuzzleProgress("hard", 9, frozenset({3, 5}), frozenset({7}), 2, 4)
    assert PuzzleProgress.from_dict(json.loads(json.dumps(progress.to_dict()))) == progress
    assert PuzzleProgress.from_dict(None) == PuzzleProgress()
    odd = PuzzleProgress.from_dict({"grade": "x", "solved": [1, "2", True, -3], "streak": -1, "best_streak": "a"})
    assert odd.grade == "easy" and odd.solved == frozenset({1}) and odd.streak == 0 and odd.best_streak == 0
