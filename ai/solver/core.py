"""Exact Connect 4 solver: scores in Pascal Pons' convention, for any board that fits 64 bits.

A score is for the side to move: 0 is a draw; a win whose last stone is played at ply ``q``
(stones on the board before it) is worth ``(cells + 1 - q) // 2``, so a quicker win scores
more; a loss is the negative of the opponent's win. On 7x6 that is ``22 - n`` for a win with
one's n-th stone (at most 18: a win needs 4 stones). Column scores are for
the player who plays the column (``-score`` of the position after it).

``Solver`` keeps its transposition table between calls (per board size); ``solve`` and
``analyze_columns`` below use one shared instance (the results and score helpers are in
``ai.solver.results``; how ``analyze_columns`` spreads the columns over threads in ``ai.solver.columns``).
Limits (``time_ms``, ``max_nodes``) make a search give up cleanly: the score is then ``None`` and
``complete`` is False. ``Solver.stop`` may be called from another thread to end a running search.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ai.solver import kernel
from ai.solver.board import KernelBoard
from ai.solver.columns import (
    HELPER_ORDERS,
    NEAR_SLOTS,
    PARALLEL_MIN_EMPTY,
    ColumnWorkers,
    new_ctl,
    search_columns,
)
from ai.solver.results import ColumnScores as ColumnScores
from ai.solver.results import SolveResult as SolveResult
from ai.solver.results import default_threads as default_threads
from ai.solver.results import max_score as max_score
from ai.solver.results import win_score
from ai.solver.watchdog import Watchdog
from ai.vocab.opening_book import Book, load
from game.rules.connect4 import Connect4Position, Connect4Spec, as_connect4
from game.rules.errors import GameError

DEFAULT_TT_BITS = 20  # 1M entries of 8 bytes = 8 MiB (larger tables barely save nodes, and cost cache misses)
FIRST_PASS_NODES = 20_000  # analyze_columns under a limit: node budget per column of the first pass
NO_FLOOR = kernel.NO_FLOOR


class Solver:
    """Reusable exact solver. Calls from several threads take turns; ``stop`` never waits."""

    def __init__(
        self, tt_bits: int = DEFAULT_TT_BITS, *, use_book: bool = True, book: Book | None = None, threads: int = 1
    ) -> None:
        """``book``: exact scores the search takes as leaves (default: the shipped book unless ``use_book`` is
        False, e.g. to prove the book's entries again with the solver alone). ``threads`` > 1: helper threads
        search the same position over the shared table (with other tie-breaks), the first answer wins."""
        self.threads = max(1, int(threads))
        self._helpers: list[tuple[KernelBoard, np.ndarray]] = []
        self._pool: ThreadPoolExecutor | None = None
        self._book = book
        self._use_book = use_book or book is not None
        if not kernel.MIN_TT_BITS <= tt_bits <= 30:
            raise ValueError(f"tt_bits must be {kernel.MIN_TT_BITS}-30, not {tt_bits}")
        self.tt_bits = tt_bits
        self._tt = np.zeros((1 << tt_bits) + (NEAR_SLOTS << kernel.NEAR_BITS), dtype=np.uint64)
        self._tt.fill(0)  # touch the pages now rather than during the first searches
        self._board: KernelBoard | None = None
        self._ctl = new_ctl()
        self._ctls = [self._ctl]  # every flag array a stop must reach (grows with the workers)
        self._column_workers = ColumnWorkers(self._ctls)  # analyze_columns' threads' boards and flags
        self._watchdog = Watchdog(self._ctls)
        self._max_nodes = 0
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every stored bound."""
        with self._lock:
            self._tt.fill(0)

    def stop(self) -> None:
        """Make the running search (if any) give up as soon as it polls its flag."""
        for ctl in list(self._ctls):
            ctl[kernel.STOP] = 1

    def solve(
        self, position: Connect4Position, *, time_ms: float | None = None, max_nodes: int | None = None
    ) -> SolveResult:
        """Exact score of ``position`` for its side to move."""
        with self._lock:
            return self._solve(position, time_ms, max_nodes)

    def analyze_columns(
        self,
        position: Connect4Position,
        *,
        time_ms: float | None = None,
        max_nodes: int | None = None,
        threads: int | None = None,
    ) -> ColumnScores:
        """Score of every column for the player who plays it (None for a full column).

        With a limit, the columns are searched in passes with growing node budgets (the table
        keeps the work of the earlier passes), so the easy columns are known even when a hard
        one is not. ``threads`` (default: the solver's) > 1 splits the columns over that many
        threads sharing the table, each taking the next column in that order (not with ``max_nodes``,
        a total that one thread keeps).
        """
        with self._lock:
            return self._analyze(position, time_ms, max_nodes, self.threads if threads is None else max(1, threads))

    def bounds(
        self,
        position: Connect4Position,
        alpha: int,
        beta: int,
        *,
        time_ms: float | None = None,
        max_nodes: int | None = None,
    ) -> tuple[int, int] | None:
        """Bounds ``(lo, hi)`` on the score, narrowed by null-window searches only until the score is
        known to be ``<= alpha``, ``>= beta`` or exactly (``lo == hi``); None if a limit stopped it.
        ``bounds(p, -1, 1)`` is a weak solve (win / draw / loss), much cheaper than ``solve``."""
        with self._lock:
            board = self._prepare(position)
            self._arm(max_nodes)
            with self._watchdog.armed(time_ms):
                return self._bounds(board, position, alpha, beta)

    def table_move(self, position: Connect4Position) -> int | None:
        """The best column the table remembers for ``position`` (a hint, not a proof), or None."""
        with self._lock:
            board = self._prepare(position)
            cells = board.w * board.h
            data = kernel.tt_probe(
                self._tt,
                self.tt_bits,
                np.uint64(position.current + position.mask),
                kernel.near_shift_of(board.near_shift, cells - position.ply),
                self._near_base(board),
            )
            col = int(kernel.tt_column(np.uint64(data))) if data else -1
            return col if 0 <= col < board.w and position.can_play(col) else None

    def _bounds(self, board: KernelBoard, position: Connect4Position, alpha: int, beta: int) -> tuple[int, int] | None:
        spec, cur, mask = board.spec, np.uint64(position.current), np.uint64(position.mask)
        known = board.book.score(position) if board.book is not None else None
        if known is not None:
            return known, known
        if kernel.can_win_now(cur, mask, board.h, board.bottom, board.board):
            score = win_score(spec, position.ply)
            return score, score
        cells = board.w * board.h
        lo = max(-((cells - position.ply) // 2), board.parent_floor(position.current, position.mask, position.ply))
        hi = (cells + 1 - position.ply) // 2
        while lo < hi and lo < beta and hi > alpha:
            med = lo + (hi - lo) // 2  # as in solve_position: probe near 0 first, then inside the window
            if med <= 0 and lo // 2 < med:
                med = lo // 2
            elif med >= 0 and hi // 2 > med:
                med = hi // 2
            med = min(max(med, alpha, lo), beta - 1, hi - 1)
            self._ctl[kernel.MAX_NODES] = self._max_nodes
            self._ctl[kernel.ABORTED] = 0
            r = int(
                kernel.negamax(
                    cur,
                    mask,
                    position.ply,
                    med,
                    med + 1,
                    board.w,
                    board.h,
                    board.bottom,
                    board.board,
                    board.colmask,
                    board.order,
                    self._tt,
                    self.tt_bits,
                    board.near_shift,
                    self._near_base(board),
                    board.stk_u,
                    board.stk_i,
                    board.moves,
                    board.keys,
                    self._ctl,
                    board.book_keys,
                    board.book_vals,
                    board.book_ply,
                )
            )
            if self._ctl[kernel.ABORTED]:
                return None
            if r <= med:
                hi = r
            else:
                lo = r
        return lo, hi

    def _solve(self, position: Connect4Position, time_ms: float | None, max_nodes: int | None) -> SolveResult:
        board = self._prepare(position)
        start = time.perf_counter()
        self._arm(max_nodes)
        with self._watchdog.armed(time_ms):
            floor = board.parent_floor(position.current, position.mask, position.ply)
            score = self.score_on(board, position, floor=floor)
        nodes = int(self._ctl[kernel.NODES])
        return SolveResult(score, nodes, (time.perf_counter() - start) * 1000.0, score is not None)

    def _analyze(
        self, position: Connect4Position, time_ms: float | None, max_nodes: int | None, threads: int
    ) -> ColumnScores:
        board = self._prepare(position)
        spec = board.spec
        start = time.perf_counter()
        self._arm(max_nodes)
        scores: list[int | None] = [None] * spec.width
        to_search: dict[int, Connect4Position] = {}  # centre first
        wins = int(kernel.winning_spots(np.uint64(position.current), np.uint64(position.mask), board.h, board.board))
        for col in (int(c) for c in board.order):
            if not position.can_play(col):
                continue
            if wins & spec.bit(col, position.column_height(col)):
                scores[col] = win_score(spec, position.ply)
                continue
            child = position.play(col)
            in_book = board.book.score(child) if board.book is not None else None
            if child.mask == spec.board_bits or in_book is not None:
                scores[col] = -in_book if in_book is not None else 0
            else:
                to_search[col] = child
        budget = FIRST_PASS_NODES if time_ms is not None or max_nodes is not None else 0
        workers = 1 if max_nodes is not None else max(1, min(threads, len(to_search)))
        floors = {col: board.parent_floor(child.current, child.mask, child.ply) for col, child in to_search.items()}
        with self._watchdog.armed(time_ms):
            self._column_workers.grow(workers, board, self._ctl)
            search_columns(self, self._column_workers, to_search, scores, budget, workers, floors)
        nodes = sum(int(ctl[kernel.NODES]) for ctl in self._ctls)
        return ColumnScores(tuple(scores), not to_search, nodes, (time.perf_counter() - start) * 1000.0)

    def _prepare(self, position: Connect4Position) -> KernelBoard:
        if as_connect4(position) is None:
            raise GameError(f"the solver only plays Connect 4, not {type(position).__name__}")
        if position.outcome.is_over:
            raise GameError(f"position {position.to_text()!r} is already over")
        if self._board is None or self._board.spec != position.spec:
            if self._board is not None:
                self._tt.fill(0)  # keys of another board size mean other positions
            book = (self._book if self._book is not None else load()) if self._use_book else None
            self._board = KernelBoard(position.spec, book)
            self._helpers = [
                (
                    KernelBoard(position.spec, book, HELPER_ORDERS[i % len(HELPER_ORDERS)], (i + 1) % NEAR_SLOTS),
                    new_ctl(),
                )
                for i in range(self.threads - 1)
            ]
            self._column_workers.clear()  # made again for this board size when needed
        return self._board

    def _near_base(self, board: KernelBoard) -> int:
        """Where ``board``'s near table starts in the table array."""
        return (1 << self.tt_bits) + (board.near_slot << kernel.NEAR_BITS)

    def _arm(self, max_nodes: int | None) -> None:
        for ctl in self._ctls:
            ctl[:] = 0
        self._max_nodes = 0 if max_nodes is None else max(1, int(max_nodes))

    def out_of_budget(self) -> bool:
        ctl = self._ctl
        return bool(ctl[kernel.STOP]) or (self._max_nodes > 0 and int(ctl[kernel.NODES]) >= self._max_nodes)

    def score_on(
        self,
        board: KernelBoard,
        position: Connect4Position,
        budget: int = 0,
        ctl: np.ndarray | None = None,
        floor: int = NO_FLOOR,
    ) -> int | None:
        """Score of ``position`` (None if stopped, or after ``budget`` more nodes when budget > 0). ``ctl``: the
        flags of one of several column threads, searching alone on ``board``'s stack (default: the solver's own,
        with the lazy-SMP helpers on big searches)."""
        known = board.book.score(position) if board.book is not None else None
        if known is not None:
            return known
        if self.out_of_budget():
            return None
        alone = ctl is not None
        ctl = self._ctl if ctl is None else ctl
        limit = self._max_nodes  # 0 (none) whenever the columns are split over threads
        if budget > 0:
            pass_limit = int(ctl[kernel.NODES]) + budget
            limit = pass_limit if limit == 0 else min(limit, pass_limit)
        ctl[kernel.MAX_NODES] = limit
        ctl[kernel.ABORTED] = 0
        ctl[kernel.PEER_DONE] = 0
        if not alone and self._helpers and board.w * board.h - position.ply >= PARALLEL_MIN_EMPTY:
            result = self._solve_parallel(board, position, floor)
        else:
            result = self.kernel_solve(board, position, ctl, floor)
        return None if result == kernel.UNKNOWN else int(result)

    def kernel_solve(
        self, board: KernelBoard, position: Connect4Position, ctl: np.ndarray, floor: int = NO_FLOOR
    ) -> int:
        return int(
            kernel.solve_position(
                np.uint64(position.current),
                np.uint64(position.mask),
                position.ply,
                board.w,
                board.h,
                board.bottom,
                board.board,
                board.colmask,
                board.order,
                self._tt,
                self.tt_bits,
                board.near_shift,
                self._near_base(board),
                board.stk_u,
                board.stk_i,
                board.moves,
                board.keys,
                ctl,
                board.book_keys,
                board.book_vals,
                board.book_ply,
                floor,
            )
        )

    def _solve_parallel(self, board: KernelBoard, position: Connect4Position, floor: int) -> int:
        """Lazy SMP: helpers search the same position (shared table, GIL released); the first answer wins."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=len(self._helpers), thread_name_prefix="solver-helper")
        ctl = self._ctl
        found: list[int] = []

        def helper(helper_board: KernelBoard, helper_ctl: np.ndarray) -> None:
            result = self.kernel_solve(helper_board, position, helper_ctl, floor)
            if result != kernel.UNKNOWN:
                found.append(result)
                ctl[kernel.PEER_DONE] = 1

        for _, helper_ctl in self._helpers:
            helper_ctl[:] = 0
        futures = [self._pool.submit(helper, b, c) for b, c in self._helpers]
        result = self.kernel_solve(board, position, ctl, floor)
        for _, helper_ctl in self._helpers:
            helper_ctl[kernel.STOP] = 1
        for future in futures:
            future.result()
        ctl[kernel.NODES] += sum(int(c[kernel.NODES]) for _, c in self._helpers)
        if result == kernel.UNKNOWN and found:
            result = found[0]
            ctl[kernel.ABORTED] = 0
        ctl[kernel.PEER_DONE] = 0
        return result


_shared: Solver | None = None
_shared_lock = threading.Lock()


def shared_solver() -> Solver:
    """The process-wide solver used by ``solve`` and ``analyze_columns``."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Solver()
        return _shared


def solve(position: Connect4Position, *, time_ms: float | None = None, max_nodes: int | None = None) -> SolveResult:
    """Exact score of ``position`` for its side to move (see ``Solver.solve``)."""
    return shared_solver().solve(position, time_ms=time_ms, max_nodes=max_nodes)


def analyze_columns(
    position: Connect4Position,
    *,
    time_ms: float | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
) -> ColumnScores:
    """Score of every column for the player who plays it (see ``Solver.analyze_columns``)."""
    return shared_solver().analyze_columns(position, time_ms=time_ms, max_nodes=max_nodes, threads=threads)


def warm_up() -> None:
    """Compile (or load from the cache) the kernel on a tiny 4x4 position."""
    Solver(tt_bits=kernel.MIN_TT_BITS).analyze_columns(Connect4Spec(4, 4).parse_position("1234"))
