"""A ``solve`` answered from the opening book alone: no solver, no compiled code.

A book position's every column is a lookup (numpy only), so the engine answers it at once, also
while the compiled solver is still being prepared on a first launch (the app's Exact verdicts from
move 1). Only complete answers: a position the book knows in part goes to the solver.
"""

from __future__ import annotations

import time
from typing import Any

from ai.vocab.results import SearchId, Solution, SolvedMove
from game.rules.connect4 import as_connect4


def book_solution(spec: Any, any_position: Any, search_id: SearchId) -> Solution | None:
    """Every legal column's exact score from the book, or None when the book does not know them all."""
    from ai.vocab.opening_book import load

    position = as_connect4(any_position)
    if position is None:
        return None
    started = time.perf_counter()
    scores = load().column_scores(position)
    if scores is None:
        return None
    legal = position.legal_moves()
    children = tuple(SolvedMove(spec.move_to_text(c), scores[c]) for c in legal)
    best = max(s for c, s in enumerate(scores) if s is not None and c in legal)
    return Solution(search_id, best, children, True, round((time.perf_counter() - started) * 1000, 1))


def book_bestmove(spec: Any, any_position: Any, go: Any, rng: Any) -> Any | None:
    """A level's ``bestmove`` from the opening book alone, or None when the level's rule needs a search here.

    A level plays the book at a book position in two cases (``ai.search.levels``): an exact level (its solver meets
    the book first) plays the book's best move, and a level with ``book_plies`` plays one of the book's moves
    that keep the result there. Both need no compiled code, so the engine answers at once, also on a first
    launch while the search is still being compiled (the player's first reply does not wait for numba)."""
    from ai.engine import protocol
    from ai.search import levels
    from ai.search.hybrid import book_result

    lv, position = go.level, as_connect4(any_position)
    if lv is None or position is None or position.outcome.is_over:
        return None
    if not (lv.exact or position.ply < lv.book_plies):
        return None
    result = book_result(position, time.perf_counter())
    if result is None:
        return None
    if lv.exact:
        move, how = result.best_move, "best"
    else:
        move, how = levels.choose(lv, position, result, rng)
        if how != "book":
            return None
    return protocol.result_message("bestmove", spec, result, go.search_id, move=move, level=lv.name, choice=how)
