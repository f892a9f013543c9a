"""How ``Solver.analyze_columns`` (``ai.solver.core``) spreads a position's columns over threads sharing the table.

The scheduling is kept apart from the searching: the solver is reached through the three public calls of
``ColumnSearcher`` (score a column within a node budget, search one with given flags, whether the budget is
spent), and the threads' boards and flags are a ``ColumnWorkers`` the solver owns. This module does not import
``ai.solver.core``.
"""

from __future__ import annotations

import heapq
import threading
from typing import Protocol

import numpy as np

from ai.solver import kernel
from ai.solver.board import KernelBoard
from game.rules.connect4 import Connect4Position

PARALLEL_MIN_EMPTY = 22  # helper threads join only searches with at least this many empty cells (big ones)
NEAR_SLOTS = 8  # near tables after the main one: a thread searching at the same time as others uses its own
HELPER_ORDERS = ((3, 4, 2, 5, 1, 6, 0), (4, 3, 2, 5, 1, 6, 0), (2, 3, 4, 1, 5, 0, 6))  # tie-breaks of helpers


def new_ctl() -> np.ndarray:
    """A search's flag array (``kernel.NODES`` ... ``kernel.PEER_DONE``), cleared."""
    return np.zeros(kernel.CTL_SIZE, dtype=np.int64)


class ColumnSearcher(Protocol):
    """What ``search_columns`` asks of the solver (``ai.solver.core.Solver``)."""

    def score_on(
        self, board: KernelBoard, position: Connect4Position, budget: int, ctl: np.ndarray | None, floor: int
    ) -> int | None:
        """The position's score searched on ``board`` (with ``ctl``'s flags alone, or the solver's own with its
        helpers when None), None when ``budget`` more nodes (0: no budget) or the solver's limit ran out."""
        ...

    def kernel_solve(self, board: KernelBoard, position: Connect4Position, ctl: np.ndarray, floor: int) -> int:
        """One kernel search on ``board`` with ``ctl``'s flags (``kernel.UNKNOWN`` when it gave up)."""
        ...

    def out_of_budget(self) -> bool:
        """Whether the solver was stopped or spent its node limit."""
        ...


Worker = tuple[KernelBoard, np.ndarray, KernelBoard, np.ndarray]  # a thread's board and flags, and its pair to help


class ColumnWorkers:
    """The boards and flags of ``analyze_columns``' threads, kept between calls (per board size): the first
    thread searches on the solver's own board and flags. ``ctls`` is the solver's list of every flag array a stop
    must reach; the workers' flags join it as they are made."""

    def __init__(self, ctls: list[np.ndarray]) -> None:
        self.rows: list[Worker] = []
        self._ctls = ctls

    def clear(self) -> None:
        """Forget the workers (another board size): made again when needed."""
        self.rows.clear()
        del self._ctls[1:]

    def grow(self, count: int, board: KernelBoard, ctl: np.ndarray) -> None:
        """At least ``count`` workers; ``board`` and ``ctl`` are the solver's own (the first worker's)."""
        spec, book = board.spec, board.book
        while len(self.rows) < count:
            index = len(self.rows)
            slot = index % NEAR_SLOTS  # the thread's own near table, for its board and its board to help others
            own = (board, ctl) if index == 0 else (KernelBoard(spec, book, None, slot), new_ctl())
            tail = (KernelBoard(spec, book, HELPER_ORDERS[index % len(HELPER_ORDERS)], slot), new_ctl())
            self.rows.append((own[0], own[1], *tail))
            self._ctls.extend([own[1], tail[1]] if index else [tail[1]])


def search_columns(
    solver: ColumnSearcher,
    pool: ColumnWorkers,
    to_search: dict[int, Connect4Position],
    scores: list[int | None],
    budget: int,
    workers: int,
    floors: dict[int, int],
) -> None:
    """Score the columns of ``to_search`` (removing the ones scored) on ``workers`` threads over the shared
    table. Each thread takes the next column in pass order: the lowest pass first (node budget
    ``budget * 4**pass``; one unlimited pass when ``budget`` is 0), then the original order, so the easy columns
    are known first. A thread that finds no column left helps a running one (lazy SMP: the same search with
    other tie-breaks, the first answer wins), so no thread idles while one big column ends the analysis. One
    thread alone keeps the lazy-SMP helpers for its big searches. ``floors``: a lower bound on each column's
    child's score (from the book's scores of its parents, this position among them)."""
    assert pool.rows, "ColumnWorkers.grow first"
    spec = pool.rows[0][0].spec
    queue = [(0, rank, col) for rank, col in enumerate(to_search)]
    lock = threading.Lock()
    owners: dict[int, np.ndarray] = {}  # running column -> its owner's flags
    helpers: dict[int, list[np.ndarray]] = {}  # running column -> its helpers' flags
    helped: dict[int, int] = {}  # scores found by a helper first
    big = spec.width * spec.height - PARALLEL_MIN_EMPTY
    worth_help = {c for c, child in to_search.items() if child.ply <= big}  # helpers join big searches only

    def own(board: KernelBoard, ctl: np.ndarray | None, col: int, pass_index: int) -> None:
        result = solver.score_on(board, to_search[col], budget * 4**pass_index, ctl, floors[col])
        with lock:
            del owners[col]
            for helper_ctl in helpers.pop(col):
                helper_ctl[kernel.PEER_DONE] = 1
            result = helped.pop(col, None) if result is None else result
            if result is not None:
                scores[col] = -result
            elif not solver.out_of_budget():
                heapq.heappush(queue, (pass_index + 1, rank_of[col], col))

    def help_column(board: KernelBoard, ctl: np.ndarray, col: int) -> None:
        result = solver.kernel_solve(board, to_search[col], ctl, floors[col])
        with lock:
            if result != kernel.UNKNOWN and col in owners:
                helped[col] = result
                owners[col][kernel.PEER_DONE] = 1

    def work(index: int, only_thread: bool) -> None:
        board, ctl, tail_board, tail_ctl = pool.rows[index]
        while not solver.out_of_budget():
            with lock:
                running = [c for c in owners if c in worth_help and c not in helped]
                if queue:
                    pass_index, _, col = heapq.heappop(queue)
                    owners[col], helpers[col] = ctl, []
                elif running and not only_thread:
                    col = min(running, key=lambda c: len(helpers[c]))
                    tail_ctl[kernel.MAX_NODES] = tail_ctl[kernel.ABORTED] = tail_ctl[kernel.PEER_DONE] = 0
                    helpers[col].append(tail_ctl)
                    pass_index = -1
                else:
                    return
            if pass_index >= 0:
                own(board, None if only_thread else ctl, col, pass_index)
            else:
                help_column(tail_board, tail_ctl, col)

    rank_of = {col: rank for rank, col in enumerate(to_search)}
    threads = [
        threading.Thread(target=work, args=(index, False), name="solver-column", daemon=True)
        for index in range(1, workers)
    ]
    for thread in threads:
        thread.start()
    work(0, workers == 1)
    for thread in threads:
        thread.join()
    for col in [c for c in to_search if scores[c] is not None]:
        del to_search[col]
