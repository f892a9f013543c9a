"""Exact facts about a Connect 4 root position, found by the solver in a background thread.

``RootSolver`` runs a plan of solver calls, cheapest and most useful first, and publishes what it
has proved so far as a frozen ``RootFacts`` snapshot (read from any thread):

1. a weak solve of the root (window [-1, 1]: win / draw / loss), far cheaper than its exact score;
2. a move that keeps that result: null-window tests of the children, the move the solver's table
   remembers first (it is nearly always right), so the game value is safe early;
3. the exact root score, then a move that reaches it (fastest win, slowest loss, draw kept);
4. the exact score of every other column, in passes with growing node budgets (for the heatmap
   and eval: children's ``score``), until every column is known or the budget runs out.

Scores follow Pons' convention (``ai.solver.core``); column bounds are for the player who plays the
column (the side to move at the root). Each call gets what is left of the time budget (and the
node budget); ``stop`` ends the plan within about a millisecond.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ai.solver.core import Solver
from ai.solver.results import win_score
from game.rules.connect4 import Connect4Position

FIRST_PASS_NODES = 20_000  # step 4: node budget per column in the first pass (x4 per pass)
WEAK_SHARE = 0.3  # a weak root solve not done by this share of the budget ...
FAVOURITE_SHARE = 0.65  # ... pauses while the search's favourite is tested for a win until this share


@dataclass(frozen=True)
class RootFacts:
    """What the solver has proved about a root. Bounds are (lo, hi) with lo <= score <= hi."""

    root: tuple[int, int]
    columns: tuple[tuple[int, int] | None, ...]  # per column, the mover's score bounds; None = full
    best: int | None = None  # a column proven to reach the exact root score
    keep: int | None = None  # a column proven to keep the root's result (win / draw / loss)
    complete: bool = False  # the plan has finished: every legal column's exact score is known

    @property
    def result(self) -> int | None:
        """+1 win, 0 draw, -1 loss for the side to move, None if not proved yet."""
        return bounds_class(self.root)

    @property
    def score(self) -> int | None:
        lo, hi = self.root
        return lo if lo == hi else None

    def column_class(self, col: int) -> int | None:
        b = self.columns[col]
        return None if b is None else bounds_class(b)

    def column_score(self, col: int) -> int | None:
        b = self.columns[col]
        return b[0] if b is not None and b[0] == b[1] else None


def bounds_class(bounds: tuple[int, int]) -> int | None:
    """+1 / 0 / -1 when the bounds settle win / draw / loss, else None."""
    lo, hi = bounds
    if lo >= 1:
        return 1
    if hi <= -1:
        return -1
    if lo >= 0 and hi <= 0:
        return 0
    return None


def _meet(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return max(a[0], b[0]), min(a[1], b[1])


class Stopped(Exception):
    """The plan was stopped or ran out of budget."""


class RootSolver:
    """Runs the plan for one root in a daemon thread; ``facts`` is always a consistent snapshot."""

    def __init__(
        self,
        solver: Solver,
        position: Connect4Position,
        *,
        deadline: float | None,
        max_nodes: int | None = None,
        on_update: Callable[[RootFacts], None] | None = None,
        hint: Callable[[], int | None] | None = None,
    ) -> None:
        self.solver = solver
        self.position = position
        self.deadline = deadline  # time.perf_counter() value, or None
        self.started = time.perf_counter()
        self._hint = hint  # the search's favourite move so far (any thread), tested early on hard roots
        self.max_nodes = max_nodes  # per solver call, or None
        self._on_update = on_update
        self._halt = threading.Event()
        self._lock = threading.Lock()
        spec = position.spec
        cells = spec.width * spec.height
        full = (-((cells - position.ply) // 2), (cells + 1 - position.ply) // 2)  # the root's score range
        # a column's score (for its player) is minus its child's, whose range is one ply on
        column_range = (-((cells - position.ply) // 2), (cells - position.ply - 1) // 2)
        columns: list[tuple[int, int] | None] = [None] * spec.width
        self._children: dict[int, Connect4Position] = {}
        for col in position.legal_moves():
            child = position.play(col)
            if child.outcome.is_over:  # wins at once (or fills the board: a draw)
                score = win_score(spec, position.ply) if child.outcome.winner is not None else 0
                columns[col] = (score, score)
            else:
                columns[col] = column_range
                self._children[col] = child
        self._facts = RootFacts(full, tuple(columns))
        self._derive()
        self._thread = threading.Thread(target=self._run, name="root-solver", daemon=True)
        self.error: BaseException | None = None

    # -- control ---------------------------------------------------------------------------
    def start(self) -> RootSolver:
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the plan (a running solver call gives up within about a millisecond) and wait."""
        self._halt.set()
        while self._thread.is_alive():
            self.solver.stop()  # repeated: a call that starts just after a stop clears the flag
            self._thread.join(0.002)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def facts(self) -> RootFacts:
        return self._facts

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    # -- the plan --------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._plan()
        except Stopped:
            pass
        except Exception as exc:  # noqa: BLE001 - reported by the searcher; the search goes on without it
            self.error = exc

    def _plan(self) -> None:
        if self._facts.result is None:
            root = self._bounds(self.position, -1, 1, until=self._share(WEAK_SHARE))
            if root is None:  # a hard root: does the search's favourite keep a win? (often far cheaper)
                self._test_favourite()
                if self._facts.result is None:
                    root = self._bounds(self.position, -1, 1)  # the table keeps the work done so far
            self._update(root=root)
        result = self._facts.result
        if self._facts.keep is None and result is not None and result >= 0:
            self._find_column(result)
        if self._facts.score is None:
            self._update(root=self._bounds(self.position, -99, 99))
        score = self._facts.score
        if self._facts.best is None and score is not None:
            self._find_column(score)
        budget = FIRST_PASS_NODES
        while not self._facts.complete:
            for col in self._unknown_columns():
                self._score_column(col, budget)
            self._derive_complete()
            budget *= 4

    def _share(self, share: float) -> float | None:
        """The time when ``share`` of the budget is spent (None without a deadline)."""
        if self.deadline is None:
            return None
        return self.started + share * (self.deadline - self.started)

    def _test_favourite(self) -> None:
        col = None if self._hint is None else self._hint()
        if col is None or col not in self._children:
            return
        lo, hi = self._facts.columns[col] or (0, 0)
        if lo < 1 <= hi:
            child = self._bounds(self._children[col], -1, 0, until=self._share(FAVOURITE_SHARE))
            if child is not None:
                self._update(col=col, bounds=(-child[1], -child[0]))

    def _order(self) -> list[int]:
        """Columns to test: the table's best move, the best known, then centre first."""
        hint = self.solver.table_move(self.position)
        w = self.position.spec.width
        centre = sorted(self._children, key=lambda c: (abs(2 * c - (w - 1)), c))
        first = [c for c in (hint, self._facts.best, self._facts.keep) if c in self._children]
        return list(dict.fromkeys(first + centre))

    def _find_column(self, target: int) -> None:
        """Prove a column whose mover's score is >= target (the root's result or exact score)."""
        for col in self._order():
            if any(b is not None and b[0] >= target for b in self._facts.columns):
                return
            lo, hi = self._facts.columns[col] or (0, 0)
            if lo < target <= hi:
                child = self._bounds(self._children[col], -target, -target + 1)
                if child is not None:
                    self._update(col=col, bounds=(-child[1], -child[0]))

    def _score_column(self, col: int, budget: int) -> None:
        nodes = budget if self.max_nodes is None else min(budget, self.max_nodes)
        child = self._children[col]
        result = self.solver.solve(child, time_ms=self._time_left(), max_nodes=nodes)
        self._check()
        if result.score is not None:
            self._update(col=col, bounds=(-result.score, -result.score))

    def _unknown_columns(self) -> list[int]:
        return [c for c in self._children if self._facts.column_score(c) is None]

    # -- solver calls ----------------------------------------------------------------------
    def _time_left(self) -> float | None:
        if self.deadline is None:
            return None
        left = (self.deadline - time.perf_counter()) * 1000.0
        if left <= 0:
            raise Stopped
        return left

    def _check(self) -> None:
        if self._halt.is_set():
            raise Stopped

    def _bounds(
        self, position: Connect4Position, alpha: int, beta: int, until: float | None = None
    ) -> tuple[int, int] | None:
        """The solver's bounds; None if the call reached ``until`` (a time before the deadline)."""
        self._check()
        time_ms = self._time_left()
        if until is not None and time_ms is not None:
            time_ms = min(time_ms, max(0.0, (until - time.perf_counter()) * 1000.0))
        found = self.solver.bounds(position, alpha, beta, time_ms=time_ms, max_nodes=self.max_nodes)
        self._check()
        if found is None:
            if until is not None and time.perf_counter() < (self.deadline or 0.0) - 0.001:
                return None
            raise Stopped
        return found

    # -- facts -----------------------------------------------------------------------------
    def _update(
        self, *, root: tuple[int, int] | None = None, col: int | None = None, bounds: tuple[int, int] | None = None
    ) -> None:
        with self._lock:
            facts = self._facts
            if root is not None:
                facts = replace(facts, root=_meet(facts.root, root))
            if col is not None and bounds is not None:
                columns = list(facts.columns)
                columns[col] = _meet(columns[col] or bounds, bounds)
                facts = replace(facts, columns=tuple(columns))
            self._facts = facts
            self._derive()
        if self._on_update is not None:
            self._on_update(self._facts)

    def _derive(self) -> None:
        """Combine root and column bounds: the root is the best column; find best / keep columns."""
        f = self._facts
        known = [b for b in f.columns if b is not None]
        root = _meet(f.root, (max(b[0] for b in known), max(b[1] for b in known)))
        columns = tuple(None if b is None else (b[0], min(b[1], root[1])) for b in f.columns)
        best, keep = f.best, f.keep
        result = bounds_class(root)
        for col, b in enumerate(columns):
            if b is None:
                continue
            if best is None and root[0] == root[1] and b[0] >= root[0]:
                best = col
            if keep is None and result is not None and result >= 0 and b[0] >= result:
                keep = col
        self._facts = replace(f, root=root, columns=columns, best=best, keep=keep)

    def _derive_complete(self) -> None:
        with self._lock:
            if not self._unknown_columns():
                self._facts = replace(self._facts, complete=True)
        if self._on_update is not None:
            self._on_update(self._facts)
