"""The engine's searcher: MCTS, with the exact solver working beside it on Connect 4.

``HybridSearcher`` has the API of ``ai.mcts.Searcher`` (set_position / search / stop / warm_up /
clear / close) and ``search(..., exact=True)``. MCTS stays the engine's character: the visits
(heatmap), values and principal variation come from the tree search. With ``exact`` on (Connect 4
only; other games simply use MCTS) a ``RootSolver`` (``ai.search.exact_root``) runs in a second thread
during the search (numba releases the GIL) and the result is merged with what it proved:

* the move: a column proven optimal if the solver found one (fastest win, slowest loss, draw
  kept; ``exact`` is then true), else one proven to keep the game's result, else the MCTS choice
  among the columns no proof rules out (a proven loss is never played while another column is
  not proven lost; a column proven worse than another never);
* ``value`` / ``proven``: the solver's result when known (win 1.0, draw 0.5, loss 0.0);
* children: ``proven`` and ``score`` (exact Pons score for the mover) where the solver knows them.

Proven losses are also marked in the MCTS tree during the search, so its visits go to the moves
that are still open (not draws: iterations through a proven node cost almost nothing, which
would throw off the driver's chunk sizing and so its deadline). With a time budget the search ends
at the deadline, when the solver has scored every column, or (``early_stop``) once an optimal move
is proven and ``SETTLED_SHARE`` of the budget is spent. With only an iteration budget the solver gets
``NODES_PER_ITERATION`` nodes per iteration per call (such results may vary from run to run;
use ``exact=False`` for reproducible searches).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from ai.search.exact_root import RootFacts, RootSolver, bounds_class
from ai.vocab.results import MoveStats, SearchResult
from game.rules.base import GameSpec, Position
from game.rules.capabilities import capabilities
from game.rules.connect4 import as_connect4

SETTLED_SHARE = 0.25  # with early_stop, a search whose best move is proven ends after this share of the budget
SOLVER_MARGIN_S = 0.003  # the solver's deadline comes this much before the search's
NODES_PER_ITERATION = 20
MAX_SOLVER_NODES = 20_000_000
MARK_EVERY_MS = 20.0  # how often proofs are copied into the MCTS tree
HALT_CHECK_S = 0.002  # while only the solver runs, how often a stop request is looked at
_VALUE = {1: 1.0, 0: 0.5, -1: 0.0}
_BIG = 1000


class _Halt(threading.Event):
    """Set by the searcher, by any of ``others`` (stop requests), or once ``at`` has passed."""

    def __init__(self, *others: threading.Event | None) -> None:
        super().__init__()
        self.others = [e for e in others if e is not None]
        self.at: float | None = None

    def is_set(self) -> bool:
        return (
            super().is_set()
            or any(e.is_set() for e in self.others)
            or (self.at is not None and time.perf_counter() >= self.at)
        )


def solver_supports(spec: GameSpec) -> bool:
    """Whether the exact solver plays this game (its capabilities say so: every Connect 4 board fits)."""
    return capabilities(spec).exact_solver


class HybridSearcher:
    """MCTS plus the exact solver (Connect 4). Not re-entrant; ``stop()`` from any thread."""

    def __init__(self, spec: Any, *, solver: Any = None, **mcts_options: Any) -> None:
        from ai.mcts.rules_search import searcher_for

        self.mcts = searcher_for(spec, **mcts_options)  # the rules-based MCTS for a game without a kernel
        self.spec = spec
        self._solver = solver
        self._exact_ok = solver_supports(spec)
        self._stop = threading.Event()

    # -- the Searcher API -------------------------------------------------------------------
    @property
    def position(self) -> Any:
        return self.mcts.position

    @property
    def seed(self) -> int:
        return self.mcts.seed

    @property
    def threads(self) -> int:
        return self.mcts.threads

    @property
    def root_visits(self) -> int:
        return self.mcts.root_visits

    @property
    def nodes_used(self) -> int:
        return self.mcts.nodes_used

    @property
    def pool_full(self) -> bool:
        return self.mcts.pool_full

    def set_position(self, position: Any) -> None:
        self.mcts.set_position(position)

    def stop(self) -> None:
        self._stop.set()
        self.mcts.stop()

    def clear(self) -> None:
        self.mcts.clear()

    def forget(self) -> None:
        self.mcts.forget()

    def close(self) -> None:
        self.mcts.close()

    def warm_up(self) -> None:
        self.mcts.warm_up()
        if self._exact_ok:
            from ai.solver import kernel as solver_kernel
            from ai.solver.core import Solver
            from game.rules.connect4 import Connect4Spec

            small = Solver(tt_bits=solver_kernel.MIN_TT_BITS)
            RootSolver(small, Connect4Spec(4, 4).parse_position("1234"), deadline=None).start().join()
            self.solver()  # allocate the shared table now, not in the first search

    def solver(self) -> Any:
        if self._solver is None:
            from ai.solver.core import shared_solver

            self._solver = shared_solver()
        return self._solver

    # -- search -----------------------------------------------------------------------------
    def search(
        self,
        *,
        time_ms: float | None = None,
        iterations: int | None = None,
        on_info: Callable[[SearchResult], None] | None = None,
        info_ms: float = 100,
        early_stop: bool = True,
        stop_event: threading.Event | None = None,
        exact: bool = True,
    ) -> SearchResult:
        """Search the current position (see ``ai.mcts.Searcher.search``); ``exact`` adds the solver."""
        position = self.mcts.position
        if not (exact and self._exact_ok) or position.outcome.is_over or not _budget_ok(time_ms, iterations):
            return self.mcts.search(
                time_ms=time_ms,
                iterations=iterations,
                on_info=on_info,
                info_ms=info_ms,
                early_stop=early_stop,
                stop_event=stop_event,
            )
        start = time.perf_counter()
        booked = book_result(position, start)
        if booked is not None:  # every column's exact score is a lookup: no search
            if on_info is not None:
                on_info(booked)
            return booked
        self._stop.clear()
        deadline = None if time_ms is None else start + time_ms / 1000.0
        halt = _Halt(self._stop, stop_event)

        def on_update(facts: RootFacts) -> None:  # solver thread: end early once the position is settled
            if not (early_stop and time_ms):
                return
            if facts.complete:
                share = SETTLED_SHARE
            elif facts.best is not None:
                share = 2 * SETTLED_SHARE
            else:
                return
            at = start + share * time_ms / 1000.0
            if halt.at is None or at < halt.at:
                halt.at = at

        root = RootSolver(
            self.solver(),
            position,
            deadline=None if deadline is None else deadline - SOLVER_MARGIN_S,
            max_nodes=None
            if iterations is None or time_ms is not None
            else min(MAX_SOLVER_NODES, iterations * NODES_PER_ITERATION),
            on_update=on_update,
            hint=lambda: favourite[0],
        )
        favourite: list[int | None] = [None]  # the search's choice so far, read by the solver thread
        root.start()
        next_info = [start + info_ms / 1000.0]

        def report(result: SearchResult, elapsed_ms: float | None = None) -> None:  # every info_ms
            if on_info is not None and time.perf_counter() >= next_info[0]:
                on_info(merge(result, root.facts, elapsed_ms))
                next_info[0] = time.perf_counter() + info_ms / 1000.0

        def mcts_info(result: SearchResult) -> None:  # between chunks of the calling thread's tree
            facts = root.facts
            favourite[0] = result.best_move if result.iterations > 0 else None
            if deadline is not None:
                self.mcts.mark_root_proofs({c: -1 for c in range(len(facts.columns)) if facts.column_class(c) == -1})
            report(result)

        try:
            left_ms = None if time_ms is None else max(0.0, time_ms - (time.perf_counter() - start) * 1000.0)
            result = self.mcts.search(
                time_ms=left_ms,
                iterations=iterations,
                on_info=mcts_info,
                info_ms=min(info_ms, MARK_EVERY_MS),
                early_stop=False,
                stop_event=halt,
            )
            if result.proven is not None and deadline is not None:  # MCTS is done: let the solver finish
                while not halt.is_set() and root.running and (left := deadline - time.perf_counter()) > 0:
                    root.join(min(left, HALT_CHECK_S))  # returns as soon as the solver ends
                    report(result, (time.perf_counter() - start) * 1000.0)  # still alive: keep reporting
        finally:
            root.stop()
        merged = merge(result, root.facts, elapsed_ms=(time.perf_counter() - start) * 1000.0)
        return with_book(merged, position)


def book_result(any_position: Position, start: float) -> SearchResult | None:
    """The exact result of a book position (every column's score known), or None.

    The best column is the best score's (fastest win, slowest loss); ties go to the centre."""
    from ai.vocab.opening_book import CENTRE_FIRST, load

    position = as_connect4(any_position)
    if position is None:
        return None
    scores = load().column_scores(position)
    if scores is None:
        return None
    known = {c: s for c, s in enumerate(scores) if s is not None}
    top = max(known.values())
    best = next(c for c in CENTRE_FIRST if known.get(c) == top)
    children = tuple(MoveStats(c, 0, _VALUE[_sign(s)], _sign(s), s) for c, s in sorted(known.items()))
    return SearchResult(
        best_move=best,
        value=_VALUE[_sign(top)],
        children=children,
        iterations=0,
        elapsed_ms=(time.perf_counter() - start) * 1000.0,
        max_depth=0,
        pv=(best,),
        exact=True,
        proven=_sign(top),
    )


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def with_book(result: SearchResult, position: Any) -> SearchResult:
    """Play the opening book's move when the solver proved nothing about the root this time.

    Also in a lost position: the book's move keeps the game inside the book's tree (the lines where the
    later replies are exact lookups)."""
    from ai.vocab.opening_book import lookup

    if result.proven is not None:
        return result
    entry = lookup(position)
    if entry is None:
        return result
    children = tuple(
        MoveStats(c.move, c.visits, _VALUE[entry.result], entry.result, c.score) if c.move == entry.move else c
        for c in result.children
    )
    return dataclasses.replace(
        result,
        best_move=entry.move,
        value=_VALUE[entry.result],
        proven=entry.result,
        children=children,
        pv=result.pv if result.pv[:1] == (entry.move,) else (entry.move,),
    )


def _budget_ok(time_ms: float | None, iterations: int | None) -> bool:
    """Budgets the MCTS accepts (it raises the error for the others)."""
    if time_ms is None and iterations is None:
        return False
    if time_ms is not None and not (time_ms >= 0 and math.isfinite(time_ms)):
        return False
    return iterations is None or iterations >= 1


def merge(result: SearchResult, facts: RootFacts, elapsed_ms: float | None = None) -> SearchResult:
    """An MCTS result with the solver's proofs: proven / score per child, the move, the value."""
    children = []
    for c in result.children:
        b = facts.columns[c.move] if 0 <= c.move < len(facts.columns) else None
        proven = bounds_class(b) if b is not None else None
        if proven is None:
            proven = c.proven
        score = b[0] if b is not None and b[0] == b[1] else None
        value = _VALUE[proven] if proven is not None else c.value
        children.append(MoveStats(c.move, c.visits, value, proven, score))
    if facts.best is not None:
        best = facts.best
    elif facts.keep is not None:
        best = facts.keep
    else:
        best = _pick(children, facts, result.best_move)
    chosen = next((c for c in children if c.move == best), None)
    proven = facts.result if facts.result is not None else result.proven
    value = chosen.value if chosen is not None else result.value
    if proven is not None:
        value = _VALUE[proven]
    return SearchResult(
        best_move=best,
        value=value,
        children=tuple(children),
        iterations=result.iterations,
        elapsed_ms=result.elapsed_ms if elapsed_ms is None else elapsed_ms,
        max_depth=result.max_depth,
        pv=result.pv if result.pv[:1] == (best,) else (best,),
        exact=facts.best is not None and best == facts.best,
        proven=proven,
    )


def _bounds(child: MoveStats, facts: RootFacts) -> tuple[int, int]:
    """The mover's score bounds of a root move from the solver's and the tree's proofs."""
    lo, hi = (facts.columns[child.move] or (-_BIG, _BIG)) if child.move < len(facts.columns) else (-_BIG, _BIG)
    if child.proven == 1:
        lo = max(lo, 1)
    elif child.proven == -1:
        hi = min(hi, -1)
    elif child.proven == 0:
        lo, hi = max(lo, 0), min(hi, 0)
    return lo, hi


def _pick(children: list[MoveStats], facts: RootFacts, mcts_best: int) -> int:
    """The MCTS choice among the moves no proof rules out; a proven win first (fastest known)."""
    if not children:
        return mcts_best
    bounds = {c.move: _bounds(c, facts) for c in children}
    alive = [c for c in children if bounds[c.move][1] >= 0] or children  # no proven loss if avoidable
    floor = max(bounds[c.move][0] for c in alive)
    alive = [c for c in alive if bounds[c.move][1] >= floor]  # nothing proven worse than another move
    wins = [c for c in alive if bounds[c.move][0] >= 1]
    if wins:
        return max(wins, key=lambda c: (bounds[c.move][0], c.visits)).move
    if any(c.move == mcts_best for c in alive):
        return mcts_best
    return max(alive, key=lambda c: (c.visits, c.value)).move
