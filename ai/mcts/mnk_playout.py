"""Playouts of the m,n,k kernel (see ``kernel_mnk``'s docstring): take a win, block the opponent's
win cell, make an open four, block the opponent's open four (its open three), else a random cell
near the stones; after ``MNK_CAP`` moves a window score.
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.kernel_mnk import (
    MNK_CAP,
    MNK_CELLS,
    MNK_H,
    MNK_K,
    MNK_PAD,
    MNK_PNEAR,
    MNK_PW,
    MNK_W,
    MNK_WORDS,
    _padded,
    _unpack,
)
from ai.mcts.layout import P_PLAYOUT, rand_below
from ai.mcts.mnk_lines import makes_line, makes_open_four, scan_stone, window_score


@jit
def _add_near(board, pw, c, r, cand, where, n):  # type: ignore[no-untyped-def]
    """Add the empty cells within ``r`` of ``c`` that are not candidates yet; return the count."""
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            e = c + dy * pw + dx
            if board[e] == 0 and where[e] < 0:
                cand[n] = e
                where[e] = n
                n += 1
    return n


@jit
def _remove(c, cand, where, n):  # type: ignore[no-untyped-def]
    i = where[c]
    if i < 0:
        return n
    n -= 1
    last = cand[n]
    cand[i] = last
    where[last] = i
    where[c] = -1
    return n


@jit
def _win_cell(board, wins, n_wins, q, skip):  # type: ignore[no-untyped-def]
    """A still-empty win cell of player slot ``q`` other than ``skip`` (-1 if none)."""
    n = n_wins[q]
    while n > 0 and board[wins[q, n - 1]] != 0:
        n -= 1
    n_wins[q] = n
    for i in range(n - 1, -1, -1):
        c = wins[q, i]
        if board[c] == 0 and c != skip:
            return c
    return -1


@jit
def _four_cell(board, pw, k, fours, n_fours, q, seg):  # type: ignore[no-untyped-def]
    """A cell where player slot ``q`` still makes an open four (-1 if none); drops stale ones."""
    n = n_fours[q]
    while n > 0:
        c = fours[q, n - 1]
        if board[c] == 0 and makes_open_four(board, pw, k, c, q + 1, seg):
            n_fours[q] = n
            return c
        n -= 1
    n_fours[q] = 0
    return -1


@jit
def mnk_playout(params, state, rng):  # type: ignore[no-untyped-def]
    """A playout (see the module docstring); 1.0 / 0.5 / 0.0 for the leaf's mover."""
    w = params[MNK_W]
    h = params[MNK_H]
    k = params[MNK_K]
    cells = params[MNK_CELLS]
    pw = params[MNK_PW]
    pad = params[MNK_PAD]
    ply = state[2 * params[MNK_WORDS]]
    smart = params[P_PLAYOUT] >= 1
    move_cap = params[MNK_CAP]
    r = params[MNK_PNEAR]
    board = _unpack(params, state)
    size = board.shape[0]
    seg = np.zeros(2 * k + 1, dtype=np.int8)
    stack = 4 * cells + 16
    wins = np.zeros((2, stack), dtype=np.int64)
    fours = np.zeros((2, stack), dtype=np.int64)
    n_wins = np.zeros(2, dtype=np.int64)
    n_fours = np.zeros(2, dtype=np.int64)
    cand = np.zeros(cells, dtype=np.int64)
    where = np.full(size, -1, dtype=np.int64)
    n = 0
    for c in range(cells):
        i = _padded(params, c)
        v = board[i]
        if v != 0:
            if smart:
                scan_stone(board, pw, k, i, v, seg, wins, n_wins, fours, n_fours)
            if r > 0:
                n = _add_near(board, pw, i, r, cand, where, n)
        elif r == 0:
            cand[n] = i
            where[i] = n
            n += 1
    side = 1 + ply % 2
    filled = ply
    t = 0  # moves played; the side to move at ``state`` plays when t is even
    while filled < cells:
        q = side - 1
        move = -1
        if smart:
            if _win_cell(board, wins, n_wins, q, -1) >= 0:
                return 0.0 if t % 2 == 0 else 1.0
            move = _win_cell(board, wins, n_wins, 1 - q, -1)
            if move >= 0 and _win_cell(board, wins, n_wins, 1 - q, move) >= 0:
                return 1.0 if t % 2 == 0 else 0.0  # two threats: the side to move loses
        if move < 0 and 0 < move_cap <= t:
            v = window_score(board, pw, w, h, pad, k, side)
            return 1.0 - v if t % 2 == 0 else v
        if move < 0 and smart:
            move = _four_cell(board, pw, k, fours, n_fours, q, seg)
            if move < 0:
                move = _four_cell(board, pw, k, fours, n_fours, 1 - q, seg)
        if move < 0:
            if n == 0:  # nothing near the stones is left: any empty cell
                for c in range(cells):
                    i = _padded(params, c)
                    if board[i] == 0:
                        cand[n] = i
                        where[i] = n
                        n += 1
            move = cand[rand_below(rng, n)]
        board[move] = side
        filled += 1
        n = _remove(move, cand, where, n)
        if r > 0:
            n = _add_near(board, pw, move, r, cand, where, n)
        if smart:
            if scan_stone(board, pw, k, move, side, seg, wins, n_wins, fours, n_fours):
                return 0.0 if t % 2 == 0 else 1.0
        elif makes_line(board, pw, k, move, side):
            return 0.0 if t % 2 == 0 else 1.0
        side = 3 - side
        t += 1
    return 0.5
