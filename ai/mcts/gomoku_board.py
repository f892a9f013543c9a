"""The incremental board of the Gomoku alpha-beta search (``gomoku_ab``): a padded cell array (as
``mnk_lines``: 0 empty, 1 / 2 stones, ``OFF`` border, ``pad`` = k cells around the board) and, for every
k-window of the board (k cells in a row in one of 4 directions), the number of stones of each player.

Make / unmake update the k * 4 windows through the stone (counts, the number of each player's *four
windows*: k - 1 own stones and no opponent stone, i.e. a win cell, and of its *three windows*), the count
of stones near each cell (candidate moves are the empty cells within 2 of a stone) and the Zobrist hash,
so "can the side to move win at once" costs nothing. They also keep the line keys of
``gomoku_patterns`` (``cnt[cell * 4 + d, 2]``: the 8 cells within 4 steps of a cell on line d), each
empty cell's shape index and values, and each player's cell-value sums (``ev[q]`` as the side to move,
``ev[2 + q]`` as the opponent), from which move ordering reads a cell's threat class and the leaves
their score.

Arrays (int64): ``g`` geometry ``[pw, k, nwin, size]``, ``cwin[cell, 4k]`` the windows through a board
cell (-1 past the edge), ``wcell[window, k]`` its cells; ``st`` the state: ``cnt[window, 5]`` (each
player's stones in the window, then for cell-direction ``window`` = cell * 4 + d the line key, the cell
values and the shape indexes of ``gomoku_patterns``), ``ev[4]`` (the cell-value sums), ``n4[4]`` (each
player's four windows, then its three windows: k - 2 own stones and no opponent stone, where a four can
be made), ``near[cell]``, ``hsh[1]``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ai.jit import jit
from ai.mcts.gomoku_patterns import border_keys, line_update
from ai.mcts.mnk_lines import DX, DY, OFF

NEAR = 2


def geometry(width: int, height: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(g, cwin, wcell, board)`` for an empty ``width`` x ``height`` board with k in a row."""
    pad = k
    pw = width + 2 * pad
    size = pw * (height + 2 * pad)
    board = np.full(size, OFF, dtype=np.int64)
    for r in range(height):
        board[(r + pad) * pw + pad : (r + pad) * pw + pad + width] = 0
    nwin = size * 4
    wcell = np.full((nwin, k), -1, dtype=np.int64)
    cwin = np.full((size, 4 * k), -1, dtype=np.int64)
    fill = np.zeros(size, dtype=np.int64)
    for s in range(size):
        if board[s] == OFF:
            continue
        for d in range(4):
            step = int(DY[d]) * pw + int(DX[d])
            cells = [s + i * step for i in range(k)]
            if all(0 <= c < size and board[c] != OFF for c in cells):
                w = s * 4 + d
                wcell[w] = cells
                for c in cells:
                    cwin[c, fill[c]] = w
                    fill[c] += 1
    g = np.array([pw, k, nwin, size], dtype=np.int64)
    return g, cwin, wcell, board


@lru_cache(maxsize=4)
def _empty_keys(pw: int, k: int, size: int) -> np.ndarray:
    """The line keys of an empty board (its border), computed once per board size (read-only)."""
    keys = border_keys(geometry(pw - 2 * k, size // pw - 2 * k, k)[3], pw)
    keys.flags.writeable = False
    return keys


def new_state(g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(cnt, ev, n4, near, hsh)`` of an empty board (``cnt[:, 2]``: the line keys of its border; every
    shape NONE, so the cached shape indexes and cell values are 0)."""
    pw, k, nwin, size = (int(x) for x in g)
    cnt = np.zeros((nwin, 5), dtype=np.int64)
    cnt[:, 2] = _empty_keys(pw, k, size)
    return (
        cnt,
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@jit
def make(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p):  # type: ignore[no-untyped-def]
    """Put a stone of ``p`` (1 / 2) on the empty cell ``c`` and update every table."""
    k = g[1]
    q = p - 1
    o = 2 - p
    for i in range(4 * k):
        w = cwin[c, i]
        if w < 0:
            break
        a = cnt[w, q]
        b = cnt[w, o]
        if b == 0:
            if a + 1 == k - 1:
                n4[q] += 1
                n4[2 + q] -= 1
            elif a == k - 1:
                n4[q] -= 1  # a five: the window is no longer a four
            elif a + 1 == k - 2:
                n4[2 + q] += 1
        elif a == 0:
            if b == k - 1:
                n4[o] -= 1
            elif b == k - 2:
                n4[2 + o] -= 1
        cnt[w, q] = a + 1
    line_update(g, board, cnt, ev, c, p, 1)
    board[c] = p
    hsh[0] ^= zob[c, q]
    pw = g[0]
    for dy in range(-NEAR, NEAR + 1):
        for dx in range(-NEAR, NEAR + 1):
            near[c + dy * pw + dx] += 1


@jit
def unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p):  # type: ignore[no-untyped-def]
    """Take the stone of ``p`` back from ``c`` (the inverse of ``make``)."""
    k = g[1]
    q = p - 1
    o = 2 - p
    for i in range(4 * k):
        w = cwin[c, i]
        if w < 0:
            break
        a = cnt[w, q] - 1
        b = cnt[w, o]
        if b == 0:
            if a + 1 == k - 1:
                n4[q] -= 1
                n4[2 + q] += 1
            elif a == k - 1:
                n4[q] += 1
            elif a + 1 == k - 2:
                n4[2 + q] -= 1
        elif a == 0:
            if b == k - 1:
                n4[o] += 1
            elif b == k - 2:
                n4[2 + o] += 1
        cnt[w, q] = a
    board[c] = 0
    line_update(g, board, cnt, ev, c, p, 0)
    hsh[0] ^= zob[c, q]
    pw = g[0]
    for dy in range(-NEAR, NEAR + 1):
        for dx in range(-NEAR, NEAR + 1):
            near[c + dy * pw + dx] -= 1


@jit
def win_cells(g, cwin, wcell, board, cnt, p, around, out):  # type: ignore[no-untyped-def]
    """Distinct win cells of ``p`` (empty cells of its four windows), at most 2, into ``out``; only the
    windows through ``around`` when it is >= 0 (the last stone), else every window."""
    k = g[1]
    q = p - 1
    o = 2 - p
    n = 0
    lo = 0
    hi = g[2]
    if around >= 0:
        hi = 4 * k
    for j in range(lo, hi):
        w = cwin[around, j] if around >= 0 else j
        if w < 0:
            if around >= 0:
                break
            continue
        if cnt[w, q] == k - 1 and cnt[w, o] == 0:
            for i in range(k):
                e = wcell[w, i]
                if board[e] == 0 and not (n == 1 and out[0] == e):
                    out[n] = e
                    n += 1
                    if n == 2:
                        return 2
    return n
