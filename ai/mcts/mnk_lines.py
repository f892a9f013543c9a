"""Line helpers of the m,n,k kernel on a padded cell array: ``board[(row + pad) * pw + col + pad]``
is 0 (empty), 1 / 2 (a stone of player 0 / 1) or OFF (the border of ``pad`` >= k cells around the
board), so a walk of up to ``k`` steps from a cell never leaves the array and needs no bounds
check. Cells here are padded indices; ``pw`` is the padded width. Run checks, the threat scan
after a stone, open fours, move features and a window score.

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
OFF = 3  # a border cell (blocks like an opponent stone)


@jit
def step_of(pw, d):
    return DY[d] * pw + DX[d]


@jit
def makes_line(board, pw, k, cell, p):
    """True if a stone of ``p`` on ``cell`` has (or would have) ``k`` or more in a row."""
    for d in range(4):
        step = step_of(pw, d)
        run = 1
        c = cell + step
        while board[c] == p:
            run += 1
            c += step
        c = cell - step
        while board[c] == p:
            run += 1
            c -= step
        if run >= k:
            return True
    return False


@jit
def _segment(board, pw, k, cell, d, seg):
    """``seg[0 .. 2k]``: the cells at -k .. +k steps from ``cell`` along direction ``d``."""
    step = step_of(pw, d)
    c = cell - k * step
    for i in range(2 * k + 1):
        seg[i] = board[c]
        c += step


@jit
def _seg_cell(pw, k, cell, d, i):
    return cell + (i - k) * step_of(pw, d)


@jit
def scan_stone(board, pw, k, cell, p, seg, wins, n_wins, fours, n_fours):
    """After ``p`` put a stone on ``cell``: push ``p``'s new win cells onto the stack ``wins[p - 1]``
    and new open-four cells onto ``fours[p - 1]`` (sizes in ``n_wins[p - 1]`` / ``n_fours[p - 1]``;
    pushes beyond the stack's length are dropped). Return True if the stone made ``k`` in a row."""
    q = p - 1
    cap = wins.shape[1]
    won = False
    for d in range(4):
        _segment(board, pw, k, cell, d, seg)
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
            elif own == k - 1 and empty == 1 and n_wins[q] < cap:
                wins[q, n_wins[q]] = _seg_cell(pw, k, cell, d, spot)
                n_wins[q] += 1
        for s in range(1, k):  # (k+1)-windows with the centre inside: empty ends, k-2 stones + 1 empty inside
            if seg[s] != 0 or seg[s + k] != 0:
                continue
            own = 0
            empty = 0
            spot = 0
            for i in range(s + 1, s + k):
                v = seg[i]
                if v == p:
                    own += 1
                elif v == 0:
                    empty += 1
                    spot = i
            if own == k - 2 and empty == 1 and n_fours[q] < cap:
                fours[q, n_fours[q]] = _seg_cell(pw, k, cell, d, spot)
                n_fours[q] += 1
    return won


@jit
def makes_open_four(board, pw, k, cell, p, seg):
    """True if a stone of ``p`` on the empty ``cell`` makes k-1 in a row with both ends empty."""
    if k < 3:
        return False
    for d in range(4):
        _segment(board, pw, k, cell, d, seg)
        seg[k] = p
        for s in range(1, k):
            if seg[s] != 0 or seg[s + k] != 0:
                continue
            full = True
            for i in range(s + 1, s + k):
                if seg[i] != p:
                    full = False
                    break
            if full:
                return True
    return False


@jit
def window_score(board, pw, w, h, pad, k, me):
    """Every k-window holding stones of one player only adds 4**stones for that player; returns
    a win probability for ``me`` (to move) from the difference (logistic, scale 4**(k-2))."""
    mine = 0.0
    theirs = 0.0
    for d in range(4):
        step = step_of(pw, d)
        for y in range(h):
            for x in range(w):
                c = (y + pad) * pw + x + pad
                if board[c + (k - 1) * step] == OFF:
                    continue
                a = 0
                b = 0
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
    diff = (mine * 1.5 - theirs) / scale  # the side to move gets a tempo bonus
    if diff > 30.0:
        diff = 30.0
    elif diff < -30.0:
        diff = -30.0
    return 1.0 / (1.0 + math.exp(-diff))


WEIGHTS = np.array([1, 8, 64, 512, 4096, 32768, 32768, 32768, 32768, 32768], dtype=np.int64)
F_SCORE = 0  # features() output: own line score + the opponent's
F_OPEN_FOUR = 1  # 1 if the stone makes an open four for the side to move
F_THEIR_OPEN_FOUR = 2  # 1 if a stone of the opponent there would make one (it has an open three)
F_FOUR = 3  # 1 if the stone gives the side to move a win cell (a four)


@jit
def _count(v, me, opp, counts, sign):
    """Add ``sign`` to ``counts`` [mine, theirs, off the board] for one cell value."""
    if v == me:
        counts[0] += sign
    elif v == opp:
        counts[1] += sign
    elif v == OFF:
        counts[2] += sign


@jit
def features(board, pw, k, cell, me, seg, out):
    """What a stone on the empty ``cell`` does, for ``me`` (to move) and the opponent, into ``out``
    (F_* entries; ``out[4:7]`` is scratch). The line score adds, for every k-window through the
    cell free of the other colour, 8 ** (stones of that colour in it), for ``me`` and for the
    opponent. Window counts slide along each direction."""
    opp = 3 - me
    score = 0
    open_four = 0
    their_open_four = 0
    four = 0
    counts = out[4:7]
    for d in range(4):
        _segment(board, pw, k, cell, d, seg)
        counts[:] = 0
        for i in range(1, k + 1):  # the k-windows starting at 1 .. k
            _count(seg[i], me, opp, counts, 1)
        for j in range(1, k + 1):
            if j > 1:
                _count(seg[j - 1], me, opp, counts, -1)
                _count(seg[j + k - 1], me, opp, counts, 1)
            if counts[2] == 0:
                a = counts[0]
                b = counts[1]
                if b == 0:
                    score += WEIGHTS[min(a, 5)]
                    if a == k - 2:
                        four = 1
                if a == 0:
                    score += WEIGHTS[min(b, 5)]
        counts[:] = 0
        for i in range(2, k + 1):  # the insides (k-1 cells) of the (k+1)-windows starting at 1 .. k-1
            _count(seg[i], me, opp, counts, 1)
        for st in range(2, k + 1):
            if st > 2:
                _count(seg[st - 1], me, opp, counts, -1)
                _count(seg[st + k - 2], me, opp, counts, 1)
            if seg[st - 1] == 0 and seg[st + k - 1] == 0:
                if counts[0] == k - 2:
                    open_four = 1
                elif counts[1] == k - 2:
                    their_open_four = 1
    out[F_SCORE] = score
    out[F_OPEN_FOUR] = open_four
    out[F_THEIR_OPEN_FOUR] = their_open_four
    out[F_FOUR] = four
