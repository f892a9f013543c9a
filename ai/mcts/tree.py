"""A node pool: parallel numpy arrays (no Python object per node) with a fixed cap.

On Linux and macOS the arrays are allocated at the cap in anonymous memory maps (the kernel
maps zero pages lazily, so only the nodes in use take memory; ``np.zeros`` could instead reuse
and clear heap memory) and never copied during a search.
On Windows (where that is not certain) they start at ``WINDOWS_INITIAL_NODES`` and
``ensure_free`` grows them by doubling, up to the cap, between chunks.
"""

from __future__ import annotations

import mmap
import sys

import numpy as np

from ai.mcts.core import M_FULL, M_MAX_DEPTH, M_USED, META_LEN, compact

# bytes per node: parent, first_child (int32), n_children, move (int16), visits (int64),
# value (float64), proven (int8)
NODE_BYTES = 4 + 4 + 2 + 2 + 8 + 8 + 1
DEFAULT_MEMORY_BYTES = 512 * 1024 * 1024
DEFAULT_MAX_NODES = DEFAULT_MEMORY_BYTES // NODE_BYTES
WINDOWS_INITIAL_NODES = 1 << 20

_FIELDS = (
    ("parent", np.int32),
    ("first_child", np.int32),
    ("n_children", np.int16),
    ("move", np.int16),
    ("visits", np.int64),
    ("value", np.float64),
    ("proven", np.int8),
)

# One array per field of ``_FIELDS``, in that order.
NodeArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def lazy_zeros(n: int, dtype: type) -> np.ndarray:
    """A zero-filled array in its own anonymous memory map: pages cost memory once written and
    are returned to the system when the array is dropped."""
    itemsize = np.dtype(dtype).itemsize
    buf = mmap.mmap(-1, max(1, n * itemsize))
    return np.frombuffer(buf, dtype=dtype, count=n)


class Tree:
    """One search tree; node 0 is always the root."""

    parent: np.ndarray
    first_child: np.ndarray
    n_children: np.ndarray
    move: np.ndarray
    visits: np.ndarray
    value: np.ndarray
    proven: np.ndarray

    def __init__(self, max_nodes: int, initial_nodes: int | None = None) -> None:
        self.max_nodes = max(16, int(max_nodes))
        self.meta = np.zeros(META_LEN, dtype=np.int64)
        if initial_nodes is None:
            initial_nodes = WINDOWS_INITIAL_NODES if sys.platform == "win32" else self.max_nodes
        self._allocate(min(self.max_nodes, initial_nodes))
        self.reset()

    def _allocate(self, capacity: int) -> None:
        for name, dtype in _FIELDS:
            setattr(self, name, lazy_zeros(capacity, dtype))

    def arrays(self) -> NodeArrays:
        """The node arrays in ``_FIELDS`` order (the order the compiled kernels take them in)."""
        return self.parent, self.first_child, self.n_children, self.move, self.visits, self.value, self.proven

    @property
    def capacity(self) -> int:
        return int(self.parent.shape[0])

    @property
    def used(self) -> int:
        return int(self.meta[M_USED])

    @property
    def full(self) -> bool:
        return bool(self.meta[M_FULL])

    @property
    def max_depth(self) -> int:
        return int(self.meta[M_MAX_DEPTH])

    def reset(self) -> None:
        """Forget everything: a fresh, unexpanded root."""
        self.parent[0] = -1
        self.first_child[0] = -1
        self.n_children[0] = 0
        self.move[0] = -1
        self.visits[0] = 0
        self.value[0] = 0.0
        self.proven[0] = 0
        self.meta[:] = 0
        self.meta[M_USED] = 1

    def ensure_free(self, nodes: int) -> None:
        """Grow (doubling, up to the cap) so that ``nodes`` more nodes fit, if the cap allows."""
        need = self.used + nodes
        if need <= self.capacity or self.capacity >= self.max_nodes:
            return
        new_cap = min(self.max_nodes, max(need, 2 * self.capacity))
        used = self.used
        for name, dtype in _FIELDS:
            old = getattr(self, name)
            new = lazy_zeros(new_cap, dtype)
            new[:used] = old[:used]
            setattr(self, name, new)

    def child_with_move(self, node: int, move: int) -> int:
        """Index of the child of ``node`` reached by ``move``, or -1 (also when unexpanded)."""
        fc = int(self.first_child[node])
        if fc < 0:
            return -1
        for j in range(int(self.n_children[node])):
            if int(self.move[fc + j]) == move:
                return fc + j
        return -1

    def reroot(self, node: int) -> None:
        """Make ``node`` the root, keeping only its subtree (compacted into fresh arrays)."""
        if node == 0:
            return
        old = self.arrays()
        self._allocate(self.capacity)  # lazily mapped zeros: only the copied nodes take memory
        used = compact(*old, *self.arrays(), node)
        self.meta[M_USED] = used
        self.meta[M_FULL] = 0
        self.meta[M_MAX_DEPTH] = 0
