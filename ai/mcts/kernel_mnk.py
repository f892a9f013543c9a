"""The m,n,k kernel: tic-tac-toe, ``mnk:MxN:K`` (sides up to 19) and Gomoku (15x15, 5).

State (int64[2 * W + 2], W = ceil(cells / 63) words per player): the stones of player 0 in
words ``0 .. W-1``, of player 1 in ``W .. 2W-1`` (cell ``i`` is bit ``i % 63`` of word
``i // 63``: bit 63, the sign bit, is never used), then ``ply`` and the last move (-1 at the
start). Gomoku takes 4 words per player. Move generation and playouts unpack the stones into
a padded cell array (``mnk_lines``).

Children: a winning move only (WIN) when there is one; else, when the opponent threatens to
win, only the blocking cells (LOSS when it has two); else every empty cell (small boards) or
the empty cells within ``MNK_NEAR`` (Chebyshev distance) of a stone (large boards; the centre
on an empty board). They are ordered by a line score (``mnk_lines.features``, own lines plus
the opponent's) with own open fours first. On large boards (``MNK_WIDTH`` > 0) only the best
``MNK_WIDTH`` are kept, and when the opponent has an open three only the moves that stop it
or make a four. These cuts are heuristics: a proof that "every move loses" only covers the
moves kept.

Threats (``MNK_VCF`` > 0, Gomoku): before the ordering, a VCF search (``mnk_threats``) of the
side to move proves a win (its first four becomes the only child, WIN); if the opponent has a
VCF, the side to move's own four cells join the candidates (counter-fours) and the best
``MNK_VCF_TESTS`` candidates are tested: only those after which the opponent has no VCF are kept
(if none is left, the tested moves are children marked LOSS).

Playouts (``P_PLAYOUT`` = 1): take a win, block the opponent's win cell, make an open four,
block the opponent's open four (its open three), else a random cell near the stones (within
``MNK_PNEAR``; every empty cell on small boards). ``P_PLAYOUT`` = 0: uniform random among the
same cells. After ``MNK_CAP`` moves (0 = no cap) a playout ends with a window score
(``mnk_lines.window_score``).
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.layout import DRAW, DRAWN, LOSS, MOVER_WON, ONGOING, P_GAME, UNKNOWN, WIN
from ai.mcts.mnk_lines import (
    DX,
    DY,
    F_FOUR,
    F_OPEN_FOUR,
    F_SCORE,
    F_THEIR_OPEN_FOUR,
    OFF,
    features,
    makes_line,
    makes_open_four,
)
from ai.mcts.mnk_threats import four_cells, vcf

BITS = 63  # cells per int64 word
MNK_W = P_GAME
MNK_H = P_GAME + 1
MNK_K = P_GAME + 2
MNK_CELLS = P_GAME + 3
MNK_WORDS = P_GAME + 4
MNK_NEAR = P_GAME + 5  # children: empty cells within this distance of a stone (0 = every empty cell)
MNK_PNEAR = P_GAME + 6  # playouts: the same for random moves
MNK_CAP = P_GAME + 7  # playout moves before the window score (0 = play to the end)
MNK_WIDTH = P_GAME + 8  # children kept, best first (0 = all)
MNK_PAD = P_GAME + 9  # border cells around the board in the padded cell array (see mnk_lines)
MNK_PW = P_GAME + 10  # padded width
MNK_VCF = P_GAME + 11  # children: VCF search up to this many fours for both sides (0 = none)
MNK_VCF_NODES = P_GAME + 12  # the node budget of each such search
MNK_VCF_TESTS = 24  # under a VCF threat: candidate moves tested against it, best first


def mnk_words(cells: int) -> int:
    return (cells + BITS - 1) // BITS


def mnk_state_len(cells: int) -> int:
    return 2 * mnk_words(cells) + 2


def mnk_params(
    width: int,
    height: int,
    k: int,
    params: np.ndarray,
    near: int = 0,
    playout_near: int = 0,
    cap: int = 0,
    keep: int = 0,
    vcf_depth: int = 0,
    vcf_nodes: int = 0,
) -> None:
    """Fill the kernel part of ``params`` (the defaults: every move, full random playouts, no VCF)."""
    pad = max(k, near, playout_near, 2)
    params[MNK_W] = width
    params[MNK_H] = height
    params[MNK_K] = k
    params[MNK_CELLS] = width * height
    params[MNK_WORDS] = mnk_words(width * height)
    params[MNK_NEAR] = near
    params[MNK_PNEAR] = playout_near
    params[MNK_CAP] = cap
    params[MNK_WIDTH] = keep
    params[MNK_PAD] = pad
    params[MNK_PW] = width + 2 * pad
    params[MNK_VCF] = vcf_depth
    params[MNK_VCF_NODES] = vcf_nodes


def mnk_state(cells: int, stones0: int, stones1: int, last: int) -> np.ndarray:
    """The state of a position from its two stone sets (Python ints, bit i = cell i)."""
    words = mnk_words(cells)
    state = np.zeros(2 * words + 2, dtype=np.int64)
    mask = (1 << BITS) - 1
    for i in range(words):
        state[i] = (stones0 >> (BITS * i)) & mask
        state[words + i] = (stones1 >> (BITS * i)) & mask
    state[2 * words] = stones0.bit_count() + stones1.bit_count()
    state[2 * words + 1] = last
    return state


@jit
def _padded(params, c):
    """The padded index of board cell ``c``."""
    w = params[MNK_W]
    pad = params[MNK_PAD]
    return (c // w + pad) * params[MNK_PW] + c % w + pad


@jit
def _unpadded(params, i):
    pw = params[MNK_PW]
    pad = params[MNK_PAD]
    return (i // pw - pad) * params[MNK_W] + i % pw - pad


@jit
def _unpack(params, state):
    """The padded cell array of ``state``: 0 empty, 1 player 0, 2 player 1, OFF the border."""
    nw = params[MNK_WORDS]
    w = params[MNK_W]
    h = params[MNK_H]
    pad = params[MNK_PAD]
    pw = params[MNK_PW]
    board = np.full(pw * (h + 2 * pad), OFF, dtype=np.int8)
    c = 0
    for y in range(h):
        i = (y + pad) * pw + pad
        for _ in range(w):
            word = c // BITS
            bit = c - word * BITS
            if (state[word] >> bit) & 1:
                board[i] = 1
            elif (state[nw + word] >> bit) & 1:
                board[i] = 2
            else:
                board[i] = 0
            c += 1
            i += 1
    return board


@jit
def _near_flags(params, board, r):
    """1 at every empty cell within distance ``r`` of a stone (every empty cell if ``r`` is 0)."""
    pw = params[MNK_PW]
    flags = np.zeros(board.shape[0], dtype=np.int8)
    for c in range(params[MNK_CELLS]):
        i = _padded(params, c)
        v = board[i]
        if v == 0:
            if r == 0:
                flags[i] = 1
        elif r > 0:
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    e = i + dy * pw + dx
                    if board[e] == 0:
                        flags[e] = 1
    return flags


@jit
def _in_line(pw, k, a, b):
    """True if padded cells ``a`` and ``b`` share a row, column or diagonal within ``k`` steps."""
    dy = a // pw - b // pw
    dx = a % pw - b % pw
    if abs(dx) > k or abs(dy) > k:
        return False
    return dx == 0 or dy == 0 or dx == dy or dx == -dy


@jit
def mnk_gen_children(params, state, moves, status):
    """Children with proof codes (see the module docstring); returns how many."""
    k = params[MNK_K]
    cells = params[MNK_CELLS]
    pw = params[MNK_PW]
    ply = state[2 * params[MNK_WORDS]]
    board = _unpack(params, state)
    me = 1 + ply % 2
    opp = 3 - me
    last = ply + 1 == cells
    near = params[MNK_NEAR]
    width = params[MNK_WIDTH]
    flags = _near_flags(params, board, near)  # (win cells are next to a stone: all flagged)
    n = 0
    for c in range(cells):
        i = _padded(params, c)
        if flags[i] and makes_line(board, pw, k, i, me):
            moves[n] = c
            status[n] = WIN
            n += 1
    if n > 0:
        return n
    for c in range(cells):
        i = _padded(params, c)
        if flags[i] and makes_line(board, pw, k, i, opp):
            moves[n] = c
            n += 1
    if n > 0:
        for i in range(n):
            status[i] = LOSS if n > 1 else (DRAW if last else UNKNOWN)
        return n
    vd = params[MNK_VCF]
    opp_vcf = False
    if vd > 0 and ply > 0:
        r = vcf(board, pw, k, me, vd, params[MNK_VCF_NODES])
        if r >= 0:  # a forced win by fours: that move only, proven
            moves[0] = _unpadded(params, r // 256)
            status[0] = WIN
            return 1
        opp_vcf = vcf(board, pw, k, opp, vd, params[MNK_VCF_NODES]) >= 0
        if opp_vcf:  # counter-fours may defend too, also beyond ``near``
            stones = np.empty(board.shape[0], dtype=np.int64)
            ns = 0
            for i in range(board.shape[0]):
                if board[i] == me:
                    stones[ns] = i
                    ns += 1
            fc = np.empty((1, board.shape[0]), dtype=np.int64)
            mark = np.zeros(board.shape[0], dtype=np.int64)
            for i in range(four_cells(board, pw, k, me, stones, ns, mark, 1, fc, 0)):
                flags[fc[0, i]] = 1
    if ply == 0 and near > 0:
        flags[:] = 0
        flags[_padded(params, (params[MNK_H] // 2) * params[MNK_W] + params[MNK_W] // 2)] = 1
    seg = np.zeros(2 * k + 1, dtype=np.int8)
    out = np.zeros(8, dtype=np.int64)
    cand = np.zeros(cells, dtype=np.int64)  # padded indices
    score = np.zeros(cells, dtype=np.int64)
    ok = np.ones(cells, dtype=np.int8)
    threats = np.zeros(cells, dtype=np.int64)  # the opponent's open-four cells (it has an open three)
    n_threats = 0
    m = 0
    for c in range(cells):
        i = _padded(params, c)
        if flags[i] == 0:
            continue
        features(board, pw, k, i, me, seg, out)
        s = out[F_SCORE]
        if out[F_OPEN_FOUR]:
            s += 1 << 40
        elif out[F_FOUR]:
            s += 1 << 30  # a four forces the reply
        if out[F_THEIR_OPEN_FOUR]:
            threats[n_threats] = i
            n_threats += 1
        cand[m] = i
        score[m] = s
        m += 1
    any_ok = True
    if width > 0 and n_threats > 0:  # keep the moves that stop every open three, or make a four
        any_ok = False
        for j in range(m):
            c = cand[j]
            if score[j] >= 1 << 30:
                any_ok = True
                continue
            board[c] = me
            for i in range(n_threats):
                t = threats[i]
                if t != c and (not _in_line(pw, k, c, t) or makes_open_four(board, pw, k, t, opp, seg)):
                    ok[j] = 0  # (a stone off t's lines cannot spoil t)
                    break
            board[c] = 0
            any_ok = any_ok or ok[j] == 1
    for j in range(m):
        if any_ok and ok[j] == 0:
            continue  # leaves the opponent's open three alone
        s = score[j]
        i = n  # insertion sort, best first
        while i > 0 and status[i - 1] < s:  # ``status`` holds the scores until the end
            moves[i] = moves[i - 1]
            status[i] = status[i - 1]
            i -= 1
        moves[i] = _unpadded(params, cand[j])
        status[i] = s
        n += 1
    if opp_vcf:  # keep the moves after which the opponent has no VCF any more (best first)
        kept = 0
        tested = 0
        for j in range(n):
            if (0 < width <= kept) or tested >= MNK_VCF_TESTS:
                break
            c = _padded(params, moves[j])
            board[c] = me
            r = vcf(board, pw, k, opp, vd, params[MNK_VCF_NODES])
            board[c] = 0
            tested += 1
            if r < 0:
                moves[kept] = moves[j]
                kept += 1
        if kept == 0 and tested > 0:  # every move tried loses to a VCF (within the moves considered)
            for i in range(tested):
                status[i] = LOSS
            return tested
        n = kept
    if 0 < width < n:
        n = width
    for i in range(n):
        status[i] = DRAW if last else UNKNOWN
    return n


@jit
def _has(state, base, cell):
    word = cell // BITS
    return (state[base + word] >> (cell - word * BITS)) & 1


@jit
def mnk_play(params, state, move):
    """Put the side to move's stone on the empty cell ``move``; MOVER_WON / DRAWN / ONGOING."""
    w = params[MNK_W]
    h = params[MNK_H]
    k = params[MNK_K]
    nw = params[MNK_WORDS]
    ply = state[2 * nw]
    base = (ply % 2) * nw
    word = move // BITS
    state[base + word] |= np.int64(1) << (move - word * BITS)
    state[2 * nw] = ply + 1
    state[2 * nw + 1] = move
    x0 = move % w
    y0 = move // w
    for d in range(4):
        dx = DX[d]
        dy = DY[d]
        run = 1
        x = x0 + dx
        y = y0 + dy
        while 0 <= x < w and y < h and _has(state, base, y * w + x):
            run += 1
            x += dx
            y += dy
        x = x0 - dx
        y = y0 - dy
        while 0 <= x < w and y >= 0 and _has(state, base, y * w + x):
            run += 1
            x -= dx
            y -= dy
        if run >= k:
            return MOVER_WON
    if ply + 1 == params[MNK_CELLS]:
        return DRAWN
    return ONGOING
