"""Issue 39: puzzles from the solver: the generator is reproducible, and every puzzle's answer is proven the only
move that reaches its goal by a fresh solver (the shipped set: every puzzle; a fresh set: each one)."""

from __future__ import annotations

import pytest

from ai.search import puzzles
from ai.solver.core import Solver
from game.rules import get_game
from game.rules.connect4 import Connect4Position
from tests.tools_loader import load_tool

pytestmark = pytest.mark.timeout(240)


def prove(puzzle: puzzles.Puzzle, solver: Solver) -> None:
    """Score every column again from an empty table, with no limit, and check the puzzle's claims."""
    position = get_game("connect4").parse_position(puzzle.moves)
    assert isinstance(position, Connect4Position)
    solver.clear()
    result = solver.analyze_columns(position)
    assert result.complete
    assert result.scores == puzzle.scores, puzzle.id
    answer = int(puzzle.answer) - 1
    known = {c: s for c, s in enumerate(result.scores) if s is not None}
    if puzzle.goal == "win":
        assert [c for c, s in known.items() if s > 0] == [answer], puzzle.id
    else:
        assert max(known.values()) == 0 and [c for c, s in known.items() if s == 0] == [answer], puzzle.id
    assert puzzle.to_move == position.to_move + 1
    assert puzzles.judge(position, result.scores) == (puzzle.goal, answer, puzzle.depth)
    assert puzzle.grade == puzzles.grade_of(puzzle.depth)


def test_the_generator_is_reproducible_and_its_answers_unique() -> None:
    first = list(puzzles.generate(11, 4, max_nodes=200_000))
    again = list(puzzles.generate(11, 4, max_nodes=200_000))
    assert first == again and len(first) == 4
    assert list(puzzles.generate(11, 2, max_nodes=200_000)) == first[:2]  # a cleared table per candidate
    assert list(puzzles.generate(12, 4, max_nodes=200_000)) != first
    solver = Solver(threads=1)
    for puzzle in first:
        prove(puzzle, solver)
    assert puzzles.from_json(puzzles.to_json(first, 11)) == first


def test_the_shipped_set() -> None:
    shipped = puzzles.load()
    assert len(shipped) >= 200
    assert len({p.moves for p in shipped}) == len(shipped)
    assert {p.goal for p in shipped} == {"win", "draw"}
    assert {p.grade for p in shipped} == {"easy", "medium", "hard", "expert"}
    solver = Solver(threads=1)
    for puzzle in shipped:
        prove(puzzle, solver)


@pytest.mark.parametrize(
    ("scores", "ply", "expected"),
    [
        ((-8, -3, -1, 0, -8, -9, -8), 19, ("draw", 3, 11)),  # only column 4 holds the draw
        ((-3, -1, 2, -5, None, -1, -1), 20, ("win", 2, 10)),  # only column 3 wins
        ((-3, 11, -1, -5, None, -1, -1), 20, None),  # the only win is at once (column 2 makes four)
        ((-3, -1, 2, -5, None, -1, 2), 20, None),  # two winning columns
        ((-1, -1, 0, 0, -1, -1, -1), 20, None),  # two drawing columns
        ((-1, -2, -1, -1, -1, -1, -1), 20, None),  # lost whatever is played
        ((-11, -11, 0, -11, None, -11, -11), 20, None),  # every other move loses at once: a forced block
        ((-11, -11, 0, -10, None, -11, -11), 20, ("draw", 2, 2)),
    ],
)
def test_judge(scores: tuple[int | None, ...], ply: int, expected: tuple[str, int, int] | None) -> None:
    position = get_game("connect4").parse_position("1234567" * (ply // 7) + "1234567"[: ply % 7])
    assert isinstance(position, Connect4Position)
    assert puzzles.judge(position, scores) == expected


def test_the_tool_refuses_bad_counts(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("make_puzzles")
    assert tool.main(["--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err
