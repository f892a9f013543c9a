"""The Gomoku searcher (k = 5 on boards larger than ``MNK_SMALL_BOARD``): a VCF check of the side to
move (``mnk_threats.vcf``: a proven win, "VCF in N"), then iterative deepening of the alpha-beta search
(``gomoku_ab``) until the deadline, the node budget or a stop request. ``ai.mcts.Searcher`` hands its
searches here for these games; the small m,n,k boards keep the MCTS-Solver.

What the result carries (``SearchResult``, as the MCTS one): ``children`` are the root's candidate
moves with ``visits`` = nodes searched under the move (all iterations) and ``value`` = the logistic of
its score from the last depth that scored it (exact for the best move, an upper bound for the others:
PVS proves only that they are not better); ``value`` the best move's; ``proven`` = +1 for a VCF
(every defence is forced) or a win in one, -1 when the opponent has two win cells, and the
alpha-beta's "mate" scores when they are proofs (``gomoku_ab``: the losing side's candidates were never
cut); other mate scores show as values 0.99 / 0.01.
``iterations`` counts nodes, ``max_depth`` the deepest ply reached, ``pv`` the principal variation
(the VCF line for a VCF). An ``iterations`` budget is a node budget of ``NODES_PER_ITERATION`` each.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ai.jit import jit
from ai.mcts.gomoku_ab import (
    C_BEST,
    C_CUT,
    C_GEN,
    C_NODES,
    C_SELDEPTH,
    CTL_LEN,
    INF,
    MATE,
    MAXM,
    MAXPLY,
    _gen,
    alphabeta,
)
from ai.mcts.gomoku_board import geometry, make, new_state, unmake, win_cells
from ai.mcts.gomoku_threats import T_PLIES, expired, find_win, new_scratch, shortest_win
from ai.mcts.mnk_threats import vcf_line
from ai.vocab.results import ForcedLine, MoveStats, SearchResult

LEAF_VCF_NODES = 30  # node budget of the VCF at each leaf (0: none)
WIDTH = 8  # candidates searched at an inner node when the opponent does not threaten
TT_BITS = 20
NODES_PER_ITERATION = 20  # an ``iterations`` budget, in nodes
VCF_DEPTH = 16  # our VCF at the root: fours
VCF_NODES_PER_MS = 60  # its node budget per ms of the search's time (at most VCF_NODES_MAX)
VCF_NODES_MAX = 40_000
VCF_STONES = 20  # ... with up to this many attacker stones (fewer nodes for more stones)
VCT_SHARE = 0.3  # of a timed search, at most, for the threat analysis of the root moves
THREAT_OWN_SHARE = 0.3  # of that, for our own VCT
THREAT_NODES_PER_MS = 300  # threat-search nodes per ms (measured: 600-800k/s), to size the budgets
THREAT_MIN_NODES = 200
THREAT_THREES = 4  # threes in a VCT (iterative deepening: 0, 1, ...)
THREAT_DEPTH = 20  # attacker moves
THREAT_CHECKED = 16  # root moves checked for the opponent's VCT
SCALE = 1600.0  # score -> win chance: 1 / (1 + exp(-score / SCALE))


def _proven(score: int, ctl: np.ndarray) -> int | None:
    """+1 / -1 when the search's mate score is a proof (see ``gomoku_ab``: no cut candidate list on the
    losing side's nodes), else None."""
    if score > MATE and ctl[C_CUT + 1] == 0:
        return 1
    if score < -MATE and ctl[C_CUT] == 0:
        return -1
    return None


def _chance(score: int) -> float:
    if score > MATE:
        return 0.99
    if score < -MATE:
        return 0.01
    return 1.0 / (1.0 + math.exp(-score / SCALE))


@jit
def _root_moves(g, cwin, wcell, board, cnt, near, p, out, mv, sc, last, own):  # type: ignore[no-untyped-def]
    """The root's candidates (every near cell, or the defences against a threat) into ``out``, ordered with
    the game's last stones (``last`` the opponent's, ``own`` ours; -1: none)."""
    killers = np.full((MAXPLY, 2), -1, dtype=np.int64)
    hist = np.zeros(board.shape[0], dtype=np.int64)
    info = np.zeros(3, dtype=np.int64)
    n = _gen(g, cwin, wcell, board, cnt, near, p, 0, -1, killers, hist, MAXM, mv, sc, info, last, own)
    order = np.argsort(-sc[0, :n], kind="mergesort")  # stable: the same order with and without numba
    for i in range(n):
        out[i] = mv[0, order[i]]
    return n


class GomokuSearcher:
    """Alpha-beta search of Gomoku positions (one thread; not re-entrant; ``stop()`` from any thread)."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.g, self.cwin, self.wcell, self._empty = geometry(spec.width, spec.height, spec.k)
        self.pad = spec.k
        rng = np.random.default_rng(0x5EED)
        self.zob = rng.integers(1, 2**62, size=(self._empty.shape[0], 2), dtype=np.int64)
        self.tt_key = np.zeros(1 << TT_BITS, dtype=np.int64)
        self.tt_val = np.zeros(1 << TT_BITS, dtype=np.int64)
        self.tt_meta = np.zeros(1 << TT_BITS, dtype=np.int64)
        self._stop = threading.Event()
        self._scratch = new_scratch(self._empty.shape[0])
        self._vct_plies = 0  # the length of the VCT the last threat analysis found
        self._gen = 0

    def padded(self, cell: int) -> int:
        row, col = divmod(cell, self.spec.width)
        return int((row + self.pad) * int(self.g[0]) + col + self.pad)

    def cell(self, padded: int) -> int:
        row, col = divmod(padded, int(self.g[0]))
        return int((row - self.pad) * self.spec.width + col - self.pad)

    def stop(self) -> None:
        self._stop.set()

    def warm_up(self, position: Any) -> None:
        """Compile (or load from the cache) the search and the threat search on a tiny search."""
        self.search(position, iterations=50)
        board, cnt, ev, n4, near, hsh = self._board(position)
        tables = (self.g, self.cwin, self.wcell, board, cnt, ev, n4, near, hsh, self.zob, *self._scratch)
        find_win(*tables, 1, 1, 2, 50, -1)

    def clear(self) -> None:
        self.tt_key[:] = 0

    def _board(self, position: Any) -> tuple[Any, ...]:
        board = self._empty.copy()
        cnt, ev, n4, near, hsh = new_state(self.g)
        for player, stones in ((1, position.stones0), (2, position.stones1)):
            for cell in range(self.spec.width * self.spec.height):
                if stones >> cell & 1:
                    make(self.g, self.cwin, board, cnt, ev, n4, near, hsh, self.zob, self.padded(cell), player)
        return board, cnt, ev, n4, near, hsh

    def search(
        self,
        position: Any,
        *,
        time_ms: float | None = None,
        iterations: int | None = None,
        on_info: Callable[[SearchResult], None] | None = None,
        stop_event: threading.Event | None = None,
    ) -> SearchResult:
        self._stop.clear()
        stops = [e for e in (self._stop, stop_event) if e is not None]
        start = time.perf_counter()
        deadline = None if time_ms is None else start + time_ms / 1000.0
        board, cnt, ev, n4, near, hsh = self._board(position)
        p = 1 if position.stones0.bit_count() == position.stones1.bit_count() else 2
        last = self.padded(position.history[-1]) if position.history else -1
        own_last = self.padded(position.history[-2]) if len(position.history) >= 2 else -1
        g, cwin, wcell = self.g, self.cwin, self.wcell
        tmp = np.empty(2, dtype=np.int64)
        if n4[p - 1] > 0:  # a win in one
            win_cells(g, cwin, wcell, board, cnt, p, -1, tmp)
            return self._proof(int(tmp[0]), 1, (int(tmp[0]),), start, forced=ForcedLine(1, "search"))
        theirs = int(win_cells(g, cwin, wcell, board, cnt, 3 - p, -1, tmp)) if n4[2 - p] > 0 else 0
        if theirs == 0:
            own = max(VCF_STONES, (position.stones0, position.stones1)[p - 1].bit_count())
            # a VCF node costs about the attacker's stones: the budget shrinks as the board fills
            budget = VCF_NODES_MAX if time_ms is None else int(time_ms * VCF_NODES_PER_MS * VCF_STONES / own)
            budget = min(VCF_NODES_MAX, budget)
            line = np.empty(2 * VCF_DEPTH + 4, dtype=np.int64)
            code = int(vcf_line(board, g[0], g[1], p, VCF_DEPTH, max(100, budget), line))
            if code >= 0:
                pv = tuple(int(c) for c in line[1 : 1 + line[0] - 1])
                length = code % 256  # our fours up to the double threat; then the block and our five
                return self._proof(code // 256, 1, pv, start, length, ForcedLine(2 * length + 1, "VCF"))
        if theirs >= 2:  # lost: block one anyway
            return self._proof(int(tmp[0]), -1, (int(tmp[0]),), start, forced=ForcedLine(2, "search"))
        mv = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        sc = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        rmove = np.zeros(MAXM, dtype=np.int64)
        if theirs == 1:
            rmove[0] = tmp[0]
            n = 1
        else:
            n = int(_root_moves(g, cwin, wcell, board, cnt, near, p, rmove, mv, sc, last, own_last))
        if time_ms is not None and n > 1:  # threat-space search: our VCT, then the opponent's after each move
            state = (board, cnt, ev, n4, near, hsh)
            moves = [int(c) for c in rmove[:n]]
            win, keep = self._threat_analysis(state, p, last, moves, time_ms / 1000.0 * VCT_SHARE, stops)
            if win is not None:  # a proof (every defence searched), as long as its longest defence
                plies = self._vct_plies
                return self._proof(win, 1, (win,), start, (plies + 1) // 2, ForcedLine(plies, "VCT"))
            n = len(keep)
            rmove[:n] = keep
        rscore = np.zeros(MAXM, dtype=np.int64)
        rnodes = np.zeros(MAXM, dtype=np.int64)
        killers = np.full((MAXPLY, 2), -1, dtype=np.int64)
        hist = np.zeros(board.shape[0], dtype=np.int64)
        limit = (1 << 62) if iterations is None else max(1, iterations) * NODES_PER_ITERATION
        self._gen = (self._gen + 1) % (1 << 20)
        ctl = np.zeros(CTL_LEN, dtype=np.int64)
        ctl[:6] = (0, limit, WIDTH, 0, n, LEAF_VCF_NODES)
        ctl[C_GEN] = self._gen
        stop = np.zeros(1, dtype=np.int64)
        done = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(stop, done, deadline, stops), daemon=True)
        watcher.start()
        scores: dict[int, int] = {}
        best, best_score, depth_done = int(rmove[0]), 0, 0
        try:
            for depth in range(1, MAXPLY - 1):
                rscore[:n] = -INF - 1
                ctl[C_BEST] = -1
                s = int(
                    alphabeta(
                        g, cwin, wcell, board, cnt, ev, n4, near, hsh, self.zob, self.tt_key, self.tt_val,
                        self.tt_meta, killers, hist, mv, sc, ctl, stop, rmove, rscore, rnodes, depth,
                        -INF, INF, 0, p, last,
                    )
                )  # fmt: skip
                got = {int(rmove[i]): int(rscore[i]) for i in range(n) if rscore[i] > -INF - 1}
                top = int(ctl[C_BEST])
                if stop[0]:  # a cut iteration: only a move that beat the previous best (searched first) counts
                    if top >= 0 and top != best and best in got:
                        best, best_score = top, got[top]
                        scores.update(got)
                    break
                scores.update(got)
                depth_done = depth
                best, best_score = top, s
                order = sorted(range(n), key=lambda i: (rmove[i] != top, -rscore[i]))
                rmove[:n] = rmove[order]
                rnodes[:n] = rnodes[order]
                if on_info is not None:
                    on_info(self._result(best, best_score, scores, rmove, rnodes, n, ctl, depth, start))
                if abs(s) > MATE or n == 1 and depth >= 2:
                    break
        finally:
            done.set()
            watcher.join()
        return self._result(best, best_score, scores, rmove, rnodes, n, ctl, depth_done, start)

    @staticmethod
    def _watch(stop: np.ndarray, done: threading.Event, deadline: float | None, stops: list[threading.Event]) -> None:
        """Set ``stop[0]`` at the deadline or on a stop request (the compiled search checks it)."""
        while not done.is_set():
            if expired(deadline, stops):
                stop[0] = 1
                return
            left = 0.002 if deadline is None else min(0.002, max(0.0, deadline - time.perf_counter()))
            done.wait(left)

    def _threat_analysis(
        self,
        state: tuple[np.ndarray, ...],
        p: int,
        last: int,
        moves: list[int],
        seconds: float,
        stops: Sequence[threading.Event] = (),
    ) -> tuple[int | None, list[int]]:
        """``(our winning move or None, the root moves kept)``: a VCT of ours (``THREAT_OWN_SHARE`` of the
        time), else the first ``THREAT_CHECKED`` root moves in order, each dropped when the opponent has a
        VCT after it (unless every checked move is), within ``seconds`` in all (node budgets sized from the
        threat search's rate, and the clock and the ``stops`` looked at every ``gomoku_threats.CHUNK`` nodes)."""
        deadline = time.perf_counter() + seconds
        board, cnt, ev, n4, near, hsh = state
        tables = (self.g, self.cwin, self.wcell, board, cnt, ev, n4, near, hsh, self.zob, *self._scratch)
        budget = int(seconds * 1000 * THREAT_NODES_PER_MS * THREAT_OWN_SHARE)
        budget = max(THREAT_MIN_NODES, budget)
        win = int(find_win(*tables, p, THREAT_THREES, THREAT_DEPTH, budget, last, deadline, stops))
        if win >= 0:  # its shortest form, for "VCT in N" (the first one found may take detours)
            short, plies = shortest_win(*tables, p, THREAT_THREES, THREAT_DEPTH, budget, last, deadline, stops)
            self._vct_plies = plies if short >= 0 else int(self._scratch[2][T_PLIES])
            return (short if short >= 0 else win), moves
        checked = moves[:THREAT_CHECKED]
        lost = set()
        for i, c in enumerate(checked):
            if expired(deadline, stops):
                break
            left = deadline - time.perf_counter()
            budget = max(THREAT_MIN_NODES, int(left * 1000 * THREAT_NODES_PER_MS / (len(checked) - i)))
            make(self.g, self.cwin, board, cnt, ev, n4, near, hsh, self.zob, c, p)
            if int(find_win(*tables, 3 - p, THREAT_THREES, THREAT_DEPTH, budget, c, deadline, stops)) >= 0:
                lost.add(c)
            unmake(self.g, self.cwin, board, cnt, ev, n4, near, hsh, self.zob, c, p)
        keep = [c for c in moves if c not in lost]
        return None, keep or moves

    def _pv(self, best: int, p: int) -> tuple[int, ...]:
        return (self.cell(best),)

    def _result(
        self,
        best: int,
        score: int,
        scores: dict[int, int],
        rmove: np.ndarray,
        rnodes: np.ndarray,
        n: int,
        ctl: np.ndarray,
        depth: int,
        start: float,
    ) -> SearchResult:
        children = []
        for i in range(n):
            sc = scores.get(int(rmove[i]), 0)
            proven = _proven(sc, ctl)
            value = _chance(sc) if proven is None else (1.0 if proven > 0 else 0.0)
            children.append(MoveStats(self.cell(int(rmove[i])), int(rnodes[i]), value, proven))
        children.sort(key=lambda m: m.move)
        proven = _proven(score, ctl)
        return SearchResult(
            best_move=self.cell(best),
            value=_chance(score) if proven is None else (1.0 if proven > 0 else 0.0),
            children=tuple(children),
            iterations=int(ctl[C_NODES]),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            max_depth=max(depth, int(ctl[C_SELDEPTH])),
            pv=(self.cell(best),),
            proven=proven,
        )

    def _proof(
        self,
        move: int,
        proven: int,
        line: tuple[int, ...],
        start: float,
        length: int = 1,
        forced: ForcedLine | None = None,
    ) -> SearchResult:
        value = 1.0 if proven > 0 else 0.0
        cell = self.cell(move)
        return SearchResult(
            best_move=cell,
            value=value,
            children=(MoveStats(cell, 1, value, proven),),
            iterations=max(1, length),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            max_depth=2 * length - 1 if length else 0,  # a VCT's length is not known
            pv=tuple(self.cell(c) for c in line),
            proven=proven,
            forced=forced,
        )
