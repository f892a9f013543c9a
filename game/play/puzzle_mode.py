"""The puzzle mode's model: which puzzle comes next, whether a move solves it, the streak, and the progress kept
with the settings. No pygame; the puzzles are ``ai.vocab.puzzle_set``'s shipped set (``ai/puzzles.json``).

A puzzle is solved by its one answer (``ai.search.puzzles``: the only winning move, or the only move that holds the
draw); the first wrong move fails it (the streak ends), and the solver's answer is shown after either way.
``next_puzzle`` picks, among the puzzles of the chosen grade not solved yet, the first in an order shuffled by
the progress' seed, so two players see different orders but one player's order never changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ai.vocab.puzzle_set import Puzzle, load

GRADES = ("easy", "medium", "hard", "expert")
MAX_IDS = 100_000


@dataclass(frozen=True)
class PuzzleProgress:
    """What the settings keep: solved and failed puzzle ids, the streak, the chosen grade, the order's seed."""

    grade: str = "easy"
    seed: int = 0
    solved: frozenset[int] = field(default_factory=frozenset)
    failed: frozenset[int] = field(default_factory=frozenset)
    streak: int = 0
    best_streak: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "grade": self.grade,
            "seed": self.seed,
            "solved": sorted(self.solved),
            "failed": sorted(self.failed),
            "streak": self.streak,
            "best_streak": self.best_streak,
        }

    @classmethod
    def from_dict(cls, raw: object) -> PuzzleProgress:
        """The progress of a settings value; anything malformed falls back to its default (never raises)."""
        if not isinstance(raw, dict):
            return cls()
        grade = raw.get("grade") if raw.get("grade") in GRADES else "easy"

        def count(name: str) -> int:
            value = raw.get(name)
            return value if type(value) is int and 0 <= value <= MAX_IDS else 0

        def ids(name: str) -> frozenset[int]:
            value = raw.get(name)
            items = value[:MAX_IDS] if isinstance(value, list) else []
            return frozenset(i for i in items if type(i) is int and 0 < i <= MAX_IDS)

        seed = raw.get("seed") if type(raw.get("seed")) is int else 0
        streak = count("streak")
        return cls(str(grade), int(seed or 0), ids("solved"), ids("failed"), streak, max(streak, count("best_streak")))


@dataclass(frozen=True)
class Attempt:
    solved: bool
    answer: int  # 0-based column of the solver's answer
    progress: PuzzleProgress


def load_puzzles() -> list[Puzzle]:
    """The shipped puzzle set (``ai/puzzles.json``)."""
    return load()


def order(puzzles: Sequence[Puzzle], seed: int) -> list[Puzzle]:
    shuffled = list(puzzles)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def next_puzzle(progress: PuzzleProgress, puzzles: Sequence[Puzzle] | None = None) -> Puzzle | None:
    """The next unsolved puzzle of the chosen grade (None when every one is solved)."""
    pool = load() if puzzles is None else puzzles
    return next(
        (p for p in order(pool, progress.seed) if p.grade == progress.grade and p.id not in progress.solved), None
    )


def attempt(progress: PuzzleProgress, puzzle: Puzzle, move: int) -> Attempt:
    """Judge ``move`` (0-based column) on ``puzzle``: the progress after it, and the answer to show."""
    answer = int(puzzle.answer) - 1
    if move == answer:
        streak = progress.streak + 1
        after = replace(
            progress,
            solved=progress.solved | {puzzle.id},
            streak=streak,
            best_streak=max(progress.best_streak, streak),
        )
        return Attempt(True, answer, after)
    return Attempt(False, answer, replace(progress, failed=progress.failed | {puzzle.id}, streak=0))


def counts(progress: PuzzleProgress, puzzles: Sequence[Puzzle] | None = None) -> dict[str, tuple[int, int]]:
    """Per grade: (solved, total)."""
    pool = load() if puzzles is None else puzzles
    return {
        g: (sum(1 for p in pool if p.grade == g and p.id in progress.solved), sum(1 for p in pool if p.grade == g))
        for g in GRADES
    }
