"""What a review knows of one position of a game: the scores of its moves (pure data, no search).

``ai.search.review`` computes them (the book, the solver, or MCTS); the play model (``game.play``) reads them,
classifies them and stores them with a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PositionScores:
    """What is known of the position after ``ply`` moves of the game, for its side to move.

    ``scores``: ``(move, score)`` for each legal move whose score is known. Exact reviews hold solver scores
    (ints, for the player of the move); estimates hold the move's MCTS value for the mover (0..1, draws half)
    and ``visits`` its visit count. ``value``: estimates only, the search's value of the position for the mover.
    """

    ply: int
    scores: tuple[tuple[int, float], ...]
    exact: bool
    complete: bool  # every legal move's entry is known
    source: str  # "book" | "solver" | "mcts" | "partial" (a time limit stopped the solver)
    elapsed_ms: float
    value: float | None = None
    visits: tuple[tuple[int, int], ...] = ()

    def score_of(self, move: int) -> float | None:
        return next((score for m, score in self.scores if m == move), None)
