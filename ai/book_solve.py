"""A ``solve`` answered from the opening book alone: no solver, no compiled code.

A book position's every column is a lookup (numpy only), so the engine answers it at once, also
while the compiled solver is still being prepared on a first launch (the app's Exact verdicts from
move 1). Only complete answers: a position the book knows in part goes to the solver.
"""

from __future__ import annotations

import time
from typing import Any

from ai.results import SearchId, Solution, SolvedMove
from game.rules.connect4 import Connect4Position


def book_solution(spec: Any, position: Any, search_id: SearchId) -> Solution | None:
    """Every legal column's exact score from the book, or None when the book does not know them all."""
    from ai.opening_book import load

    if not isinstance(position, Connect4Position):
        return None
    started = time.perf_counter()
    scores = load().column_scores(position)
    if scores is None:
        return None
    legal = position.legal_moves()
    children = tuple(SolvedMove(spec.move_to_text(c), scores[c]) for c in legal)
    best = max(s for c, s in enumerate(scores) if s is not None and c in legal)
    return Solution(search_id, best, children, True, round((time.perf_counter() - started) * 1000, 1))
