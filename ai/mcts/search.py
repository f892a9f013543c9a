"""The Python driver of the compiled search: budgets, chunks, stop, tree reuse, threads, results.

The exploration constant ``DEFAULT_C`` was picked by measurement (see ``ai/mcts/__init__.py``).
The calling thread runs tree 0 in chunks of about 5 ms and checks stop requests, the deadline,
early stops and info callbacks between them; with ``threads`` > 1 the other trees run their
own chunk loops in pool threads (the compiled code releases the GIL) until the deadline, their
exact share of an iteration budget, or a halt. There are never more OS threads than cores
("lanes"): with more trees than cores, each lane runs its trees' chunks in turn, so a 64-tree
search on 2 cores still stops within a chunk of its deadline instead of waiting for 62
time-sliced threads.
"""

from __future__ import annotations

import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any

from ai.mcts.core import M_MAX_DEPTH, propagate
from ai.mcts.games import adapter_for
from ai.mcts.gomoku_search import GomokuSearcher
from ai.mcts.layout import DRAW, LOSS, P_CONTEMPT, UNKNOWN, WIN
from ai.mcts.tree import DEFAULT_MAX_NODES
from ai.mcts.worker import Worker, lanes_for, mix_seed, run_lane
from ai.vocab.results import MoveStats, SearchResult

DEFAULT_C = 0.5
ROOT_THREAT_SHARE = 0.3  # of a timed search, at most, for the game's root threat analysis (Gomoku)
_PROOF = {WIN: 1, DRAW: 0, LOSS: -1}  # code for the mover -> proven (+1/0/-1)
_PROOF_VALUE = {1: 1.0, 0: 0.5, -1: 0.0}


def supports(spec: Any) -> bool:
    """True if the compiled search has a kernel for ``spec``'s game."""
    return adapter_for(spec) is not None


def default_threads() -> int:
    """All cores but one (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def _choose(children: list[tuple[int, int, float, int]]) -> tuple[int, int, float, int] | None:
    """The move to play: a proven win, else the most visited move that is not a proven loss
    (ties: higher mean value), else the most visited."""
    if not children:
        return None
    wins = [ch for ch in children if ch[3] == WIN]
    pool = wins or [ch for ch in children if ch[3] != LOSS] or children
    return max(pool, key=lambda ch: (ch[1], ch[2] / ch[1] if ch[1] else 0.0))


def _stats(ch: tuple[int, int, float, int]) -> MoveStats:
    move, visits, total, code = ch
    proven = _PROOF.get(code)
    value = _PROOF_VALUE[proven] if proven is not None else (total / visits if visits else 0.5)
    return MoveStats(move=move, visits=visits, value=value, proven=proven)


class Searcher:
    """UCT search of one game's positions. Not re-entrant: one search() at a time;
    ``stop()`` may be called from any thread.

    ``contempt`` (0 by default: a draw counts 0.5) makes a draw worth ``0.5 - contempt`` to the
    side to move at the root and ``0.5 + contempt`` to its opponent (see ``core.py``); the tree is
    then kept between moves only while the same side is to move at the root. The values of
    unproven moves then include the contempt; proven draws still show 0.5."""

    def __init__(
        self,
        spec: Any,
        *,
        seed: int | None = None,
        exploration: float = DEFAULT_C,
        max_nodes: int | None = None,
        threads: int = 1,
        playout: int | None = None,
        expand: int | None = None,
        contempt: float = 0.0,
    ) -> None:
        adapter = adapter_for(spec)
        if adapter is None:
            raise ValueError(f"the MCTS search has no kernel for the game {getattr(spec, 'name', spec)!r}")
        if not (exploration >= 0 and math.isfinite(exploration)):
            raise ValueError(f"exploration must be a finite number >= 0, not {exploration!r}")
        if not 0.0 <= contempt < 0.5:
            raise ValueError(f"contempt must be a number in [0, 0.5), not {contempt!r}")
        self.spec = spec
        self.exploration = float(exploration)
        self.threads = default_threads() if threads <= 0 else int(threads)
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self._adapter = adapter
        params = adapter.make_params(spec, playout, expand)
        params[P_CONTEMPT] = round(contempt * 1000)  # see core.py: a draw then scores 0.5 - contempt
        self.contempt = params[P_CONTEMPT] / 1000.0
        per_worker = max(1024, (DEFAULT_MAX_NODES if max_nodes is None else int(max_nodes)) // self.threads)
        self._workers = [Worker(adapter, params, mix_seed(self.seed, i), per_worker) for i in range(self.threads)]
        self._lanes = lanes_for(self.threads)
        self._pool = ThreadPoolExecutor(self._lanes - 1) if self._lanes > 1 else None
        self._stop = threading.Event()
        self._position: Any = None
        # the game's adapter says which games alpha-beta searches instead (Gomoku: docs/gomoku.md)
        self._gomoku = GomokuSearcher(spec) if adapter.alpha_beta else None
        self.set_position(spec.start())

    # -- position -------------------------------------------------------------------------
    @property
    def position(self) -> Any:
        return self._position

    @property
    def root_visits(self) -> int:
        """Visits of the root, summed over the trees (kept by tree reuse)."""
        return sum(int(w.tree.visits[0]) for w in self._workers)

    @property
    def nodes_used(self) -> int:
        return sum(w.tree.used for w in self._workers)

    @property
    def pool_full(self) -> bool:
        return any(w.tree.full for w in self._workers)

    def set_position(self, position: Any) -> None:
        """Search ``position`` next; keep the subtree when it extends the current root by moves."""
        if position.spec != self.spec:
            raise ValueError(f"position of {position.spec.name!r} given to a {self.spec.name!r} searcher")
        old = self._position
        extra: tuple[int, ...] | None = None
        if old is not None and position.history[: old.ply] == old.history:
            extra = position.history[old.ply :]
            if self.contempt and len(extra) % 2:  # the values were for the other side: start afresh
                extra = None
        for w in self._workers:
            node = 0
            for m in extra or ():
                node = w.tree.child_with_move(node, m)
                if node < 0:
                    break
            if extra is None or node < 0:
                w.tree.reset()
            else:
                w.tree.reroot(node)
            w.root_state[:] = self._adapter.encode(position)
        self._position = position

    # -- control --------------------------------------------------------------------------
    def stop(self) -> None:
        """Make the running search() return promptly (its result is still complete)."""
        self._stop.set()
        if self._gomoku is not None:
            self._gomoku.stop()

    def clear(self) -> None:
        """Forget every tree and restart the random numbers from the seed (same seed, same search)."""
        if self._gomoku is not None:
            self._gomoku.clear()
        for i, w in enumerate(self._workers):
            w.tree.reset()
            w.rng[0] = mix_seed(self.seed, i)

    def forget(self) -> None:
        """Forget every tree (the next search starts from a fresh root); the random numbers run on."""
        for w in self._workers:
            w.tree.reset()

    def mark_root_proofs(self, proofs: dict[int, int]) -> None:
        """Mark root moves proven by an outside solver (move -> +1 win / 0 draw / -1 loss for the
        mover) in the calling thread's tree: proven losses get no more visits, a proven win proves
        the root. Call it between searches or from ``on_info`` (which runs between chunks)."""
        codes = {1: WIN, 0: DRAW, -1: LOSS}
        t = self._workers[0].tree
        fc = int(t.first_child[0])
        if fc < 0 or t.proven[0] != UNKNOWN:
            return
        changed = False
        for i in range(fc, fc + int(t.n_children[0])):
            code = codes.get(proofs.get(int(t.move[i]), 2), UNKNOWN)
            if code != UNKNOWN and t.proven[i] == UNKNOWN:
                t.proven[i] = code
                changed = True
        if changed:
            propagate(0, t.parent, t.first_child, t.n_children, t.proven)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def warm_up(self) -> None:
        """Compile (or load from the cache) the JIT code on a tiny throw-away search."""
        if self._gomoku is not None:
            start = self.spec.start()
            after = start.play(start.legal_moves()[len(start.legal_moves()) // 2])
            self._gomoku.warm_up(after)
            return
        w = Worker(self._adapter, self._workers[0].params, 1, 1024)
        w.root_state[:] = self._adapter.encode(self.spec.start())
        w.run(64, self.exploration)
        propagate(0, w.tree.parent, w.tree.first_child, w.tree.n_children, w.tree.proven)  # mark_root_proofs
        child = int(w.tree.first_child[0])
        if child >= 0:
            w.tree.reroot(child)
        if self._adapter.root_threats is not None:  # its own compiled code (no deadline: compiling takes seconds)
            start = self.spec.start()
            moves = start.legal_moves()
            after = start.play(moves[len(moves) // 2])
            self._adapter.root_threats(w.params, self._adapter.encode(after), after.legal_moves()[:2], 600.0)

    # -- search ---------------------------------------------------------------------------
    def search(
        self,
        *,
        time_ms: float | None = None,
        iterations: int | None = None,
        on_info: Callable[[SearchResult], None] | None = None,
        info_ms: float = 100,
        early_stop: bool = True,
        stop_event: threading.Event | None = None,
    ) -> SearchResult:
        """Search the current position within the budget (time and/or iterations, at least one).

        With a time budget (and ``early_stop``) it returns early once the choice is decided.
        ``stop()`` ends it from another thread; search() clears that request when it starts, so a
        stop() that comes before is forgotten. A caller that may stop before the search starts
        passes its own ``stop_event`` (checked, never cleared; set it to end the search)."""
        check_budget(time_ms, iterations)
        if self._position.outcome.is_over:
            raise ValueError("the game is over: there is nothing to search")
        if self._gomoku is not None:
            return self._gomoku.search(
                self._position, time_ms=time_ms, iterations=iterations, on_info=on_info, stop_event=stop_event
            )
        self._stop.clear()
        stops = (self._stop,) if stop_event is None else (self._stop, stop_event)
        start = time.perf_counter()
        deadline = None if time_ms is None else start + time_ms / 1000.0
        workers = self._workers
        for w in workers:
            w.tree.meta[M_MAX_DEPTH] = 0
            w.begin()
        quotas = tree_quotas(iterations, len(workers))
        # one iteration always runs: it expands the root, so wins in one and forced blocks are known
        main = workers[0]
        main.done = main.run(1, self.exploration)
        if self._adapter.root_threats is not None and time_ms is not None:
            self._root_threats(main, time_ms / 1000.0 * ROOT_THREAT_SHARE)
        halt = threading.Event()
        lanes = [
            list(zip(workers[k :: self._lanes], quotas[k :: self._lanes], strict=True)) for k in range(self._lanes)
        ]
        helpers = (
            [self._pool.submit(run_lane, lane, halt, self.exploration, deadline) for lane in lanes[1:]]
            if self._pool is not None
            else []
        )
        mine = lanes[0]  # the calling thread's trees, tree 0 first
        finished = self._run_own_lane(mine, stops, deadline, early_stop, on_info, info_ms, start)
        if finished:
            halt.set()
        while helpers and not all(f.done() for f in helpers):
            wait(helpers, timeout=0.005)
            if any(e.is_set() for e in stops):
                halt.set()
        for f in helpers:
            f.result()  # re-raise a helper's error
        return self._result(sum(w.done for w in workers), start)

    def _run_own_lane(
        self,
        mine: list[tuple[Worker, int | None]],
        stops: tuple[threading.Event, ...],
        deadline: float | None,
        early_stop: bool,
        on_info: Callable[[SearchResult], None] | None,
        info_ms: float,
        start: float,
    ) -> bool:
        """The calling thread's share of a search: its trees in turn until the budget, a stop or a decision.
        True when the whole search is over (not just this lane's share of it)."""
        workers = self._workers
        turn = 0
        busy_share = self._lanes / len(workers)  # a tree runs this share of the time
        next_info = start + info_ms / 1000.0
        finished = False
        while not finished:
            worker, quota = mine[turn % len(mine)]
            if any(e.is_set() for e in stops):
                finished = True
            elif not worker.step(self.exploration, deadline, quota):
                if worker.tree.proven[0]:
                    return True
                mine.remove((worker, quota))
                if not mine:
                    return False  # the helpers spend their own budgets
                continue
            elif early_stop and deadline is not None:
                rate = sum(w.rate for w in workers) * busy_share
                finished = self._decided(rate * (deadline - time.perf_counter()))
            turn += 1
            if not finished and on_info is not None and time.perf_counter() >= next_info:
                on_info(self._result(sum(w.done for w in workers), start))
                next_info = time.perf_counter() + info_ms / 1000.0
        return finished

    def _root_threats(self, main: Worker, seconds: float) -> None:
        """The game's threat analysis of the root (Gomoku: VCT wins, moves that allow one): its
        proofs are marked in the main tree."""
        assert self._adapter.root_threats is not None
        moves = [m for m, _, _, code in main.root_children() if code == UNKNOWN]
        if len(moves) > 1:
            proofs = self._adapter.root_threats(main.params, main.root_state, moves, seconds)
            if proofs:
                self.mark_root_proofs(proofs)

    def _merged(self) -> list[tuple[int, int, float, int]]:
        merged: dict[int, list[Any]] = {}
        for w in self._workers:
            for move, visits, total, code in w.root_children():
                entry = merged.setdefault(move, [move, 0, 0.0, UNKNOWN])
                entry[1] += visits
                entry[2] += total
                if code != UNKNOWN:
                    entry[3] = code
        return [tuple(v) for v in merged.values()]

    def _decided(self, iterations_left: float) -> bool:
        """True when the choice cannot change any more: the root is proven, only one move is
        not a proven loss, or the most visited move cannot be overtaken in the time left."""
        children = self._merged()
        if not children or any(ch[3] == WIN for ch in children):
            return bool(children)
        alive = sorted((ch[1] for ch in children if ch[3] != LOSS), reverse=True)
        if len(alive) <= 1 or all(ch[3] != UNKNOWN for ch in children):
            return True
        return alive[0] - alive[1] > iterations_left

    def _pv(self, worker: Worker) -> tuple[int, ...]:
        t = worker.tree
        node, pv = 0, list[int]()
        while len(pv) < 64 and int(t.first_child[node]) >= 0:
            fc, nc = int(t.first_child[node]), int(t.n_children[node])
            kids = [(i, int(t.visits[i]), float(t.value[i]), int(t.proven[i])) for i in range(fc, fc + nc)]
            best = _choose(kids)
            if best is None or (best[1] == 0 and best[3] == UNKNOWN):
                break
            node = best[0]
            pv.append(int(t.move[node]))
        return tuple(pv)

    def _result(self, iterations: int, start: float) -> SearchResult:
        children = self._merged()
        best = _choose(children)
        if best is None:  # nothing searched yet
            legal = self._position.legal_moves()
            stats: tuple[MoveStats, ...] = tuple(MoveStats(m, 0, 0.5) for m in legal)
            return SearchResult(legal[0], 0.5, stats, iterations, (time.perf_counter() - start) * 1000, 0, ())
        stats = tuple(_stats(ch) for ch in sorted(children))
        proven: int | None = None
        if any(ch[3] == WIN for ch in children):
            proven = 1
        elif all(ch[3] != UNKNOWN for ch in children):
            proven = max(_PROOF[ch[3]] for ch in children)
        best_stats = _stats(best)
        value = _PROOF_VALUE[proven] if proven is not None else best_stats.value
        lead = max(self._workers, key=lambda w: int(w.tree.visits[0]))
        return SearchResult(
            best_move=best[0],
            value=value,
            children=stats,
            iterations=iterations,
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            max_depth=max(w.tree.max_depth for w in self._workers),
            pv=self._pv(lead),
            proven=proven,
        )


def check_budget(time_ms: float | None, iterations: int | None) -> None:
    """A search's budget: time and/or iterations, at least one (ValueError with one line otherwise)."""
    if time_ms is None and iterations is None:
        raise ValueError("give a budget: time_ms and/or iterations")
    if time_ms is not None and not (time_ms >= 0 and math.isfinite(time_ms)):
        raise ValueError(f"time_ms must be a finite number >= 0, not {time_ms!r}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations!r}")


def tree_quotas(iterations: int | None, trees: int) -> list[int | None]:
    """Each tree's share of an iteration budget: an exact share, so the same seed gives the same search."""
    if iterations is None:
        return [None] * trees
    base, extra = divmod(iterations, trees)
    return [base + (i < extra) for i in range(trees)]
