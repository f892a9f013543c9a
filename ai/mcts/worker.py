"""One search tree's chunk loop (``Worker``) and the helper threads' lanes, for ``search.Searcher``.

A worker runs the compiled UCT loop in chunks of about ``CHUNK_SECONDS``; every search starts
with a small first chunk that grows (at most ``_GROWTH`` times per chunk) from the measured rate
(and near the deadline is sized for half the time left),
so a search after a fast one (proven subtrees: near-free iterations) cannot overrun its budget.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from ai.mcts.games import GameAdapter
from ai.mcts.kernels import run_chunk_for
from ai.mcts.tree import Tree

CHUNK_SECONDS = 0.005  # the compiled loop runs about this long between checks
_MIN_CHUNK = 16
_MAX_CHUNK = 1 << 20
_FIRST_CHUNK = 4  # (one Gomoku iteration can take 2 ms: its expansion runs VCF searches)
_GROWTH = 2  # a chunk at most this many times the previous one
_LAST_SHARE = 0.5  # a chunk near the deadline is sized for this share of the time left (iteration costs vary)


def mix_seed(seed: int, index: int) -> int:
    """A well-spread signed 64-bit RNG state per worker (splitmix64 finaliser)."""
    z = (seed + 0x9E3779B97F4A7C15 * (index + 1)) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return z - (1 << 64) if z >= 1 << 63 else z


class Worker:
    """One tree with its own RNG and scratch buffers."""

    def __init__(self, adapter: GameAdapter, params: np.ndarray, seed: int, max_nodes: int) -> None:
        self.params = params
        self.run_chunk = run_chunk_for(adapter.kind)
        self.max_moves = adapter.max_moves
        self.tree = Tree(max_nodes)
        self.rng = np.array([seed], dtype=np.int64)
        self.root_state = np.zeros(adapter.state_len, dtype=np.int64)
        self.work = np.zeros(adapter.state_len, dtype=np.int64)
        self.moves_buf = np.zeros(adapter.max_moves, dtype=np.int64)
        self.status_buf = np.zeros(adapter.max_moves, dtype=np.int64)
        self.chunk = _FIRST_CHUNK  # iterations per call, adapted to ~5 ms
        self.rate = 0.0  # iterations per second in the last chunk
        self.done = 0  # iterations in the current search

    def begin(self) -> None:
        """Forget the previous search's chunk size and rate: a search after a fast end-game (proven
        subtrees cost next to nothing) would otherwise size its first chunk from that rate and
        overrun its budget by up to a second. The first chunk is small and grows from measurement."""
        self.chunk = _FIRST_CHUNK
        self.rate = 0.0
        self.done = 0

    def run(self, n: int, c: float) -> int:
        tree = self.tree
        tree.ensure_free(n * self.max_moves)
        return int(
            self.run_chunk(
                self.params,
                self.root_state,
                self.work,
                self.moves_buf,
                self.status_buf,
                *tree.arrays(),
                tree.meta,
                self.rng,
                n,
                c,
            )
        )

    def step(self, c: float, deadline: float | None, quota: int | None) -> bool:
        """Run one chunk within the budget; False when there is nothing left to do."""
        n = self.chunk
        if quota is not None:
            n = min(n, quota - self.done)
            if n <= 0:
                return False
        if deadline is not None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            if self.rate > 0:
                n = min(n, max(1, int(self.rate * remaining * _LAST_SHARE)))
        t0 = time.perf_counter()
        done = self.run(n, c)
        dt = time.perf_counter() - t0
        self.done += done
        if done == 0:  # the root is proven
            return False
        if dt > 0:
            self.rate = done / dt
            grown = _GROWTH * max(n, self.chunk)  # one cheap chunk (a proven subtree) must not size the next
            self.chunk = int(min(_MAX_CHUNK, grown, max(_MIN_CHUNK, self.rate * CHUNK_SECONDS)))
        return True

    def root_children(self) -> list[tuple[int, int, float, int]]:
        """(move, visits, value sum, proof code) of every root child."""
        t = self.tree
        fc = int(t.first_child[0])
        if fc < 0:
            return []
        nc = int(t.n_children[0])
        return [(int(t.move[i]), int(t.visits[i]), float(t.value[i]), int(t.proven[i])) for i in range(fc, fc + nc)]


def run_lane(lane: list[tuple[Worker, int | None]], halt: threading.Event, c: float, deadline: float | None) -> None:
    """A helper thread's search: its trees' chunks in turn until each budget is spent or ``halt`` is set."""
    active = list(lane)
    while active and not halt.is_set():
        for item in list(active):
            if halt.is_set():
                return
            worker, quota = item
            if not worker.step(c, deadline, quota):
                active.remove(item)


def lanes_for(threads: int) -> int:
    """OS threads that run ``threads`` trees: at most one per core."""
    return max(1, min(threads, os.cpu_count() or 1))
