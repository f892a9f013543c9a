"""Search results shared by the search core, the engine process, the tools and the UI.

Values are win probabilities in [0, 1] (a draw counts 0.5). ``proven`` is the exact game result
when the search (or a solver) proved it: +1 win, 0 draw, -1 loss, ``None`` unknown.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveStats:
    """One root move: statistics from the side to move at the root (who makes ``move``)."""

    move: int
    visits: int
    value: float  # win probability for the mover
    proven: int | None = None  # +1 win / 0 draw / -1 loss for the mover, None unknown
    score: int | None = None  # exact solver score (Pons' convention, mover's side) when known


@dataclass(frozen=True)
class SearchResult:
    """What a search found. ``value`` and ``proven`` are for the side to move at the root."""

    best_move: int
    value: float  # the proven result if any, else the best move's value (MCTS: its mean result)
    children: tuple[MoveStats, ...]
    iterations: int
    elapsed_ms: float
    max_depth: int
    pv: tuple[int, ...]
    exact: bool = False
    proven: int | None = None
