"""Line helpers of the m,n,k kernel on a cell array (``board[row * w + col]``: 0 empty, 1 / 2 the
stones of player 0 / 1): run checks, the threat scan after a stone, open fours, a window score.

A *win cell* of player ``p`` is an empty cell where ``p`` would complete ``k`` in a row; an
*open-four cell* is an empty cell where ``p`` would make ``k - 1`` in a row with both ends empty
(two win cells at once: it cannot be stopped by one block), e.g. ``.XXX..`` -> ``.XXXX.``.
"""

from __future__ import annotations

import math

import numpy as np

from ai.jit import jit

DX = np.array([1, 0, 1, -1], dtype=np.int64)  # right, up, up-right, up-left
DY = np.array([0, 1, 1, 1], dtype=np.int64)
OFF = 3  # a segment entry off the board (blocks like an opponent stone)


@jit
def makes_line(board, w, h, k, cell, p):  # type: ignore[no-untyped-def]
    """True if a stone of ``p`` on ``cell`` has (or would have) ``k`` or more in a row."""
    x0 = cell % w
    y0 = cell // w
    for d in range(4):
        dx = DX[d]
        dy = DY[d]
        run = 1
        x = x0 + dx
        y = y0 + dy
        while 0 <= x < w and y < h and board[y * w + x] == p:
            run += 1
            x += dx
            y += dy
        x = x0 - dx
        y = y0 - dy
        while 0 <= x < w and y >= 0 and board[y * w + x] == p:
            run += 1
            x -= dx
            y -= dy
        if run >= k:
            return True
    return False


@jit
def _segment(board, w, h, k, cell, d, seg):  # type: ignore[no-untyped-def]
    """``seg[0 .. 2k]``: the cells at -k .. +k steps from ``cell`` along direction ``d`` (OFF off the board)."""
    x0 = cell % w
    y0 = cell // w
    for i in range(2 * k + 1):
        x = x0 + (i - k) * DX[d]
        y = y0 + (i - k) * DY[d]
        if 0 <= x < w and 0 <= y < h:
            seg[i] = board[y * w + x]
        else:
            seg[i] = OFF


@jit
def _seg_cell(w, k, cell, d, i):  # type: ignore[no-untyped-def]
    return cell + (i - k) * (DY[d] * w + DX[d])


@jit
def scan_stone(board, w, h, k, cell, p, seg, wins, n_wins, fours, n_fours, cap):  # type: ignore[no-untyped-def]
    """After ``p`` put a stone on ``cell``: push ``p``'s new win cells onto ``wins`` and new
    open-four cells onto ``fours`` (counts in ``n_wins[0]`` / ``n_fours[0]``, at most ``cap``).
    Return True if the stone made ``k`` in a row."""
    won = False
    for d in range(4):
        _segment(board, w, h, k, cell, d, seg)
        for j in range(1, k + 1):  # the k-windows holding the centre (index k)
            own = 0
            empty = 0
            spot = 0
            for i in range(j, j + k):
                v = seg[i]
                if v == p:
                    own += 1
                elif v == 0:
                    empty += 1
                    spot = i
            if own == k:
                won = True
            elif own == k - 1 and empty == 1 and n_wins[0] < cap:
                wins[n_wins[0]] = _seg_cell(w, k, cell, d, spot)
                n_wins[0] += 1
        for j in range(1, k):  # (k+1)-windows with the centre inside: empty ends, k-2 stones + 1 empty inside
            if seg[j - 1] != 0 or seg[j + k - 1] != 0 or j + k - 1 > 2 * k:
                continue
            own = 0
            empty = 0
            spot = 0
            for i in range(j, j + k - 1):
                v = seg[i]
                if v == p:
                    own += 1
                elif v == 0:
                    empty += 1
                    spot = i
            if own == k - 2 and empty == 1 and n_fours[0] < cap:
                fours[n_fours[0]] = _seg_cell(w, k, cell, d, spot)
                n_fours[0] += 1
    return won


@jit
def makes_open_four(board, w, h, k, cell, p, seg):  # type: ignore[no-untyped-def]
    """True if a stone of ``p`` on the empty ``cell`` makes k-1 in a row with both ends empty."""
    if k < 3:
        return False
    for d in range(4):
        _segment(board, w, h, k, cell, d, seg)
        seg[k] = p
        for j in range(1, k):
            if seg[j - 1] != 0 or seg[j + k - 1] != 0:
                continue
            full = True
            for i in range(j, j + k - 1):
                if seg[i] != p:
                    full = False
                    break
            if full:
                return True
    return False


@jit
def window_score(board, w, h, k, me):  # type: ignore[no-untyped-def]
    """Every k-window holding stones of one player only adds 4**stones for that player; returns
    a win probability for ``me`` (to move) from the difference (logistic, scale 4**(k-2))."""
    mine = 0.0
    theirs = 0.0
    for d in range(4):
        dx = DX[d]
        dy = DY[d]
        for y0 in range(h):
            y1 = y0 + (k - 1) * dy
            if y1 >= h:
                continue
            for x0 in range(w):
                x1 = x0 + (k - 1) * dx
                if x1 < 0 or x1 >= w:
                    continue
                a = 0
                b = 0
                c = y0 * w + x0
                step = dy * w + dx
                for _ in range(k):
                    v = board[c]
                    if v == me:
                        a += 1
                    elif v != 0:
                        b += 1
                    c += step
                if a > 0 and b == 0:
                    mine += 4.0**a
                elif b > 0 and a == 0:
                    theirs += 4.0**b
    scale = 4.0 ** (k - 2)
    x = (mine * 1.5 - theirs) / scale  # the side to move gets a tempo bonus
    if x > 30.0:
        x = 30.0
    elif x < -30.0:
        x = -30.0
    return 1.0 / (1.0 + math.exp(-x))
