"""The Connect 4 kernel: bitboards in Pascal Pons' layout, any size with W * (H + 1) <= 64.

State (int64[3]): ``current`` (stones of the side to move), ``mask`` (all stones), ``ply``.
Column ``c`` owns bits ``c * (H + 1) .. c * (H + 1) + H - 1``; the spare bit on top of every
column is never a stone, so bit 63 (8x7) is never set in ``current``/``mask`` and the
arithmetic right shifts of int64 behave like logical ones. Left shifts may wrap; every result
is masked with the board before use.
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.layout import DRAW, DRAWN, LOSS, MOVER_WON, ONGOING, P_GAME, P_PLAYOUT, UNKNOWN, WIN, rand_below

STATE_LEN = 3
# kernel-specific params
C4_WIDTH = P_GAME
C4_HEIGHT = P_GAME + 1
C4_BOTTOM = P_GAME + 2  # one bit at the bottom of every column
C4_BOARD = P_GAME + 3  # every playable bit
C4_CELLS = P_GAME + 4  # width * height
C4_COLMASK = P_GAME + 5  # width entries: the playable bits of each column
C4_ORDER = C4_COLMASK + 9  # width entries: columns, centre first


def c4_params(width: int, height: int, params: np.ndarray) -> None:
    """Fill the kernel part of ``params`` for a ``width`` x ``height`` board."""
    stride = height + 1
    params[C4_WIDTH] = width
    params[C4_HEIGHT] = height
    params[C4_BOTTOM] = sum(1 << (c * stride) for c in range(width))
    params[C4_BOARD] = sum(((1 << height) - 1) << (c * stride) for c in range(width))
    params[C4_CELLS] = width * height
    for c in range(width):
        params[C4_COLMASK + c] = ((1 << height) - 1) << (c * stride)
    order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
    for i, c in enumerate(order):
        params[C4_ORDER + i] = c


def c4_state(current: int, mask: int, ply: int) -> np.ndarray:
    return np.array([current, mask, ply], dtype=np.int64)


@jit
def _aligned(pos, h):
    """True if ``pos`` holds four in a row (stones only, so no bit 63)."""
    s = h + 1
    m = pos & (pos >> s)
    if m & (m >> (2 * s)):
        return True
    m = pos & (pos >> h)
    if m & (m >> (2 * h)):
        return True
    s = h + 2
    m = pos & (pos >> s)
    if m & (m >> (2 * s)):
        return True
    m = pos & (pos >> 1)
    return (m & (m >> 2)) != 0


@jit
def _line_threats(pos, s):
    """Cells that would complete four of ``pos`` along the direction of shift ``s``."""
    p = (pos << s) & (pos << (2 * s))
    r = p & (pos << (3 * s))
    r |= p & (pos >> s)
    p = (pos >> s) & (pos >> (2 * s))
    r |= p & (pos << s)
    r |= p & (pos >> (3 * s))
    return r


@jit
def threat_cells(pos, h):
    """Cells (taken or not, maybe off the board) that would give ``pos`` four in a row."""
    r = (pos << 1) & (pos << 2) & (pos << 3)
    r |= _line_threats(pos, h + 1)
    r |= _line_threats(pos, h)
    r |= _line_threats(pos, h + 2)
    return r


@jit
def winning_cells(pos, mask, h, board):
    """Empty cells (anywhere on the board) where ``pos`` would make four in a row."""
    return threat_cells(pos, h) & (board ^ mask)


@jit
def c4_gen_children(params, state, moves, status):
    """Legal moves (centre first) with what is known at once: WIN (wins now), DRAW (fills the
    board), LOSS (the opponent then wins at once) or UNKNOWN. Returns the number of moves."""
    cur = state[0]
    mask = state[1]
    h = params[C4_HEIGHT]
    board = params[C4_BOARD]
    possible = (mask + params[C4_BOTTOM]) & board
    mine = winning_cells(cur, mask, h, board) & possible
    theirs = winning_cells(cur ^ mask, mask, h, board)
    last = state[2] + 1 == params[C4_CELLS]
    n = 0
    for i in range(params[C4_WIDTH]):
        col = params[C4_ORDER + i]
        bit = possible & params[C4_COLMASK + col]
        if bit == 0:
            continue
        moves[n] = col
        if bit & mine:
            status[n] = WIN
        elif last:
            status[n] = DRAW
        elif theirs & ((possible ^ bit) | ((bit << 1) & board)):
            status[n] = LOSS
        else:
            status[n] = UNKNOWN
        n += 1
    return n


@jit
def c4_play(params, state, move):
    """Play the legal column ``move``; return MOVER_WON, DRAWN or ONGOING."""
    cur = state[0]
    mask = state[1]
    bit = (mask + params[C4_BOTTOM]) & params[C4_COLMASK + move]
    state[0] = cur ^ mask
    state[1] = mask | bit
    state[2] += 1
    if _aligned(cur | bit, params[C4_HEIGHT]):
        return MOVER_WON
    if state[2] == params[C4_CELLS]:
        return DRAWN
    return ONGOING


@jit
def c4_playout(params, state, rng):
    """Play random moves to the end; return 1.0 / 0.5 / 0.0 for the player who made the last
    move before ``state`` (the mover of the leaf). ``state`` is left unchanged."""
    cur = state[0]
    mask = state[1]
    ply = state[2]
    w = params[C4_WIDTH]
    h = params[C4_HEIGHT]
    bottom = params[C4_BOTTOM]
    board = params[C4_BOARD]
    cells = params[C4_CELLS]
    smart = params[P_PLAYOUT] == 1
    # threats of a player only change when that player adds a stone: keep both up to date
    mine = threat_cells(cur, h) if smart else 0
    theirs = threat_cells(cur ^ mask, h) if smart else 0
    k = 0  # moves played in this playout; the side to move at ``state`` plays when k is even
    while ply < cells:
        possible = (mask + bottom) & board
        bit = 0
        if smart:
            if mine & possible:
                return 0.0 if k % 2 == 0 else 1.0
            block = theirs & possible
            if block:
                bit = block & -block
        if bit == 0:
            while bit == 0:
                bit = possible & params[C4_COLMASK + rand_below(rng, w)]
            if not smart and _aligned(cur | bit, h):
                return 0.0 if k % 2 == 0 else 1.0
        if smart:
            mine, theirs = theirs, threat_cells(cur | bit, h)
        cur, mask = cur ^ mask, mask | bit
        ply += 1
        k += 1
    return 0.5
