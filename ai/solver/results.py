"""What the exact solver (``ai.solver.core``) answers, and its score arithmetic (Pascal Pons' convention: see there)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from game.rules.connect4 import Connect4Spec


def default_threads() -> int:
    """Threads of an all-columns analysis (``solve`` command, engine ``solve``): every core, at most 7 (a thread
    scores one column at a time)."""
    return max(1, min(7, os.cpu_count() or 1))


@dataclass(frozen=True)
class SolveResult:
    """Exact score of a position for its side to move (None if a limit stopped the search)."""

    score: int | None
    nodes: int
    elapsed_ms: float
    complete: bool


@dataclass(frozen=True)
class ColumnScores:
    """Score of playing each column, for the player who plays it (None: full or unknown)."""

    scores: tuple[int | None, ...]
    complete: bool
    nodes: int
    elapsed_ms: float

    @property
    def best_score(self) -> int | None:
        """The position's score (the best column's), when every column is known."""
        known = [s for s in self.scores if s is not None]
        return max(known) if self.complete and known else None

    @property
    def best_columns(self) -> tuple[int, ...]:
        """0-based columns with the best score (empty unless complete)."""
        best = self.best_score
        return tuple(c for c, s in enumerate(self.scores) if best is not None and s == best)


def win_score(spec: Connect4Spec, ply: int) -> int:
    """Score of the side to move at ``ply`` when it wins with its next stone."""
    return (spec.width * spec.height + 1 - ply) // 2


def max_score(spec: Connect4Spec) -> int:
    """The largest score on this board: the first player wins with its 4th stone (ply 6)."""
    return win_score(spec, 6)
