"""VCT (victory by continuous threats) of the m,n,k kernel, built on the VCF search: the attacker
plays fours or *threats* (a stone after which it has a VCF, e.g. an open three), the defender
answers a threat with every move that could refute it.

Soundness: after a threat stone the attacker has a VCF line S (its stones, the defender's forced
blocks and the two final win cells). A defender stone refutes S only if it lies on S, makes a
four of its own (a win cell), or lies within k - 1 steps on a line of one of S's blocks (it could
make a four with them during S); every other stone leaves S winning. So the defender's replies
tried are exactly those cells (``_defences``); for each, the attacker must still have a VCF or a
VCT one threat shorter. A defender with a win cell or a VCF of its own (or an unknown one) before
a threat ends the search with "none found". Results: a move (padded cell) that wins, ``NO_VCF``
or ``VCF_UNKNOWN`` (a budget ran out).
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.mnk_lines import step_of
from ai.mcts.mnk_threats import NO_VCF, VCF_UNKNOWN, all_wins, four_cells, vcf, vcf_line


@jit
def _add(board, c, mark, stamp, out, n):  # type: ignore[no-untyped-def]
    if board[c] == 0 and mark[c] != stamp:
        mark[c] = stamp
        out[n] = c
        n += 1
    return n


@jit
def _defences(board, pw, k, de, line, mark, stamp, out):  # type: ignore[no-untyped-def]
    """The defender's replies that could refute the VCF ``line`` (see the module docstring)."""
    n = 0
    m = line[0]
    for i in range(1, m + 1):
        n = _add(board, line[i], mark, stamp, out, n)
    for i in range(2, m - 2, 2):  # the blocks: line[2], line[4], ... (not the last stone's win cells)
        b = line[i]
        for d in range(4):
            step = step_of(pw, d)
            for j in range(1, k):
                e = b + j * step
                if board[e] <= 2:
                    n = _add(board, e, mark, stamp, out, n)
                e = b - j * step
                if board[e] <= 2:
                    n = _add(board, e, mark, stamp, out, n)
    size = board.shape[0]
    stones = np.empty(size, dtype=np.int64)
    ns = 0
    for c in range(size):
        if board[c] == de:
            stones[ns] = c
            ns += 1
    fc = np.empty((1, size), dtype=np.int64)
    mark2 = np.zeros(size, dtype=np.int64)
    for i in range(four_cells(board, pw, k, de, stones, ns, mark2, 1, fc, 0)):
        n = _add(board, fc[0, i], mark, stamp, out, n)
    return n


@jit
def _near(board, pw, p, r, out):  # type: ignore[no-untyped-def]
    """Empty cells within Chebyshev distance ``r`` of a stone of ``p``; how many."""
    size = board.shape[0]
    flag = np.zeros(size, dtype=np.int8)
    n = 0
    for c in range(size):
        if board[c] != p:
            continue
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                e = c + dy * pw + dx
                if 0 <= e < size and board[e] == 0 and flag[e] == 0:
                    flag[e] = 1
                    out[n] = e
                    n += 1
    return n


@jit
def _may_threaten(board, pw, k, cell, p):  # type: ignore[no-untyped-def]
    """True if a k-window through the empty ``cell`` holds k - 3 or more stones of ``p`` and none
    of the other player's (a stone there can join a three; others are not tried as threats)."""
    for d in range(4):
        step = step_of(pw, d)
        for j in range(k):
            s = cell - j * step
            own = 0
            for i in range(k):
                v = board[s + i * step]
                if v == p:
                    own += 1
                elif v != 0:
                    own = -k
                    break
            if own >= k - 3:
                return True
    return False


@jit
def vct(board, pw, k, att, depth, vcf_depth, vcf_nodes, budget, nodes):  # type: ignore[no-untyped-def]
    """A winning first move of ``att`` (to move, no win cell of its own) with at most ``depth``
    threats that are not fours (fours: a VCF of ``vcf_depth``); ``nodes[0]`` counts VCF searches
    against ``budget``. ``board`` is scratch, restored."""
    if nodes[0] > budget:
        return VCF_UNKNOWN
    nodes[0] += 1
    r = vcf(board, pw, k, att, vcf_depth, vcf_nodes)
    if r >= 0:
        return r // 256
    if depth == 0:
        return r
    de = 3 - att
    tmp = np.empty(2, dtype=np.int64)
    if all_wins(board, pw, k, de, tmp) > 0:
        return NO_VCF
    nodes[0] += 1
    if vcf(board, pw, k, de, vcf_depth, vcf_nodes) != NO_VCF:
        return NO_VCF  # the defender would answer a threat with its own fours
    size = board.shape[0]
    cand = np.empty(size, dtype=np.int64)
    nc = _near(board, pw, att, 2, cand)
    line = np.empty(2 * vcf_depth + 4, dtype=np.int64)
    mark = np.zeros(size, dtype=np.int64)
    replies = np.empty(size, dtype=np.int64)
    unknown = False
    for ci in range(nc):
        c = cand[ci]
        if nodes[0] > budget:
            return VCF_UNKNOWN
        if not _may_threaten(board, pw, k, c, att):
            continue
        board[c] = att
        nodes[0] += 1
        if vcf_line(board, pw, k, att, vcf_depth, vcf_nodes, line) < 0:
            board[c] = 0
            continue
        nd = _defences(board, pw, k, de, line, mark, ci + 1, replies)
        holds = False
        for i in range(nd):
            d = replies[i]
            board[d] = de
            nodes[0] += 1
            r2 = vcf(board, pw, k, att, vcf_depth, vcf_nodes)
            if r2 < 0:
                r3 = vct(board, pw, k, att, depth - 1, vcf_depth, vcf_nodes, budget, nodes) if r2 == NO_VCF else r2
                if r3 < 0:
                    holds = True
                    unknown = unknown or r3 == VCF_UNKNOWN
            board[d] = 0
            if holds:
                break
        board[c] = 0
        if not holds:
            return c
    return VCF_UNKNOWN if unknown or nodes[0] > budget else NO_VCF
