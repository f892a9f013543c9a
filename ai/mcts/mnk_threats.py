"""Threat-space search of the m,n,k kernel: VCF (victory by continuous fours), on the padded
cell array of ``mnk_lines`` (0 empty, 1 / 2 stones, OFF border; ``pad`` >= k, so a walk of k - 1
steps from a board cell never leaves the array).

A *four* of player ``p`` is a stone that leaves ``p`` a win cell (an empty cell completing k or
more in a row, freestyle). In a VCF the attacker plays only fours: the defender must take the win
cell (its only move, unless it could win first), and the attacker wins when a four leaves two
distinct win cells (an open four or a double four). The search is exact within its rules:

- before each attacker move the defender's own win cells are found (from every defender stone at
  the start, then only through the defender's last block): two of them refute the line, one must
  be taken by the attacker (and that stone must be a four itself to go on);
- the defender's reply to a four is forced (its block), so the attacker's sequence is a proof.

``vcf`` searches depth-first with iterative deepening (the first win found is a shortest one),
within a node budget (attacker stones tried). Result codes: ``move * 256 + length`` (length = the
attacker's stones, the last making the double threat), ``NO_VCF`` (the whole tree was searched
without a depth cut: there is none) or ``VCF_UNKNOWN`` (depth limit or node budget reached).
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.mnk_lines import step_of

NO_VCF = -1
VCF_UNKNOWN = -2
MAX_CANDS = 96  # four cells kept per level (more are dropped: the search is then incomplete)


@jit
def wins_through(board, pw, k, cell, p, out):  # type: ignore[no-untyped-def]
    """Distinct win cells of ``p`` in the k-windows through ``cell`` (which holds a stone of ``p``):
    how many (stops counting at 2), the first ones in ``out[0:2]``."""
    n = 0
    for d in range(4):
        step = step_of(pw, d)
        for j in range(k):
            s = cell - j * step
            own = 0
            spot = -1
            for i in range(k):
                v = board[s + i * step]
                if v == p:
                    own += 1
                elif v == 0:
                    spot = s + i * step
                else:
                    own = -1
                    break
            if own == k - 1 and not (n == 1 and out[0] == spot):
                out[n] = spot
                n += 1
                if n == 2:
                    return 2
    return n


@jit
def all_wins(board, pw, k, p, out):  # type: ignore[no-untyped-def]
    """Distinct win cells of ``p`` on the whole board (stops counting at 2)."""
    n = 0
    tmp = np.empty(2, dtype=np.int64)
    for c in range(board.shape[0]):
        if board[c] != p:
            continue
        m = wins_through(board, pw, k, c, p, tmp)
        for i in range(m):
            if not (n == 1 and out[0] == tmp[i]):
                out[n] = tmp[i]
                n += 1
                if n == 2:
                    return 2
    return n


@jit
def four_cells(board, pw, k, p, stones, ns, mark, stamp, cand, row):  # type: ignore[no-untyped-def]
    """Empty cells where a stone of ``p`` makes a four (k-windows with k - 2 stones of ``p`` and two
    empty cells), from ``p``'s stones ``stones[:ns]``, into ``cand[row]``; returns how many."""
    n = 0
    for si in range(ns):
        s0 = stones[si]
        for d in range(4):
            step = step_of(pw, d)
            for j in range(k):
                s = s0 - j * step
                own = 0
                e1 = -1
                e2 = -1
                for i in range(k):
                    v = board[s + i * step]
                    if v == p:
                        own += 1
                    elif v == 0:
                        if e1 < 0:
                            e1 = s + i * step
                        else:
                            e2 = s + i * step
                    else:
                        own = -1
                        break
                if own == k - 2:
                    for e in (e1, e2):
                        if mark[e] != stamp and n < cand.shape[1]:
                            mark[e] = stamp
                            cand[row, n] = e
                            n += 1
    return n


@jit
def _vcf_depth(board, pw, k, att, depth, budget, nodes, stones, ns0, mark, stamps, cand, flags, line):  # type: ignore[no-untyped-def]
    """One depth-first pass with at most ``depth`` attacker stones. ``flags[0]`` is set when a line
    was cut by the depth or the candidate cap. Returns the code (see the module docstring); a win's
    cells go to ``line`` (see ``vcf_line``)."""
    de = 3 - att
    nc = np.zeros(depth + 1, dtype=np.int64)
    ci = np.zeros(depth + 1, dtype=np.int64)
    played = np.zeros(depth + 1, dtype=np.int64)
    blocked = np.zeros(depth + 1, dtype=np.int64)
    tmp = np.empty(2, dtype=np.int64)
    ns = ns0
    # level 0: the defender's win cells must be taken first
    m = all_wins(board, pw, k, de, tmp)
    if m >= 2:
        return NO_VCF
    if m == 1:
        cand[0, 0] = tmp[0]
        nc[0] = 1
    else:
        stamps[0] += 1
        nc[0] = four_cells(board, pw, k, att, stones, ns, mark, stamps[0], cand, 0)
        if nc[0] >= cand.shape[1]:
            flags[0] = 1
    level = 0
    result = NO_VCF
    while True:
        if ci[level] >= nc[level]:
            if level == 0:
                break
            level -= 1
            board[blocked[level]] = 0
            board[played[level]] = 0
            ns -= 1
            ci[level] += 1
            continue
        c = cand[level, ci[level]]
        nodes[0] += 1
        if nodes[0] > budget:
            result = VCF_UNKNOWN
            break
        board[c] = att
        nwin = wins_through(board, pw, k, c, att, tmp)
        if nwin >= 2:
            board[c] = 0
            result = cand[0, ci[0]] * 256 + level + 1
            n = 0
            for i in range(level):
                line[1 + n] = played[i]
                line[2 + n] = blocked[i]
                n += 2
            line[1 + n] = c
            line[2 + n] = tmp[0]
            line[3 + n] = tmp[1]
            line[0] = n + 3
            break
        if nwin == 0 or level + 1 >= depth:
            if nwin == 1:
                flags[0] = 1  # a four the depth did not let us follow
            board[c] = 0
            ci[level] += 1
            continue
        w = tmp[0]
        board[w] = de
        played[level] = c
        blocked[level] = w
        stones[ns] = c
        ns += 1
        level += 1
        ci[level] = 0
        m = wins_through(board, pw, k, w, de, tmp)
        if m >= 2:
            nc[level] = 0
        elif m == 1:
            cand[level, 0] = tmp[0]
            nc[level] = 1
        else:
            stamps[0] += 1
            nc[level] = four_cells(board, pw, k, att, stones, ns, mark, stamps[0], cand, level)
            if nc[level] >= cand.shape[1]:
                flags[0] = 1
    while level > 0:  # put the board back
        level -= 1
        board[blocked[level]] = 0
        board[played[level]] = 0
    return result


@jit
def vcf(board, pw, k, att, max_depth, budget):  # type: ignore[no-untyped-def]
    """The shortest VCF of ``att`` (to move; it has no win cell of its own) up to ``max_depth``
    stones, within ``budget`` attacker stones in all; the code (see the module docstring).
    ``board`` is used as scratch and restored."""
    line = np.empty(2 * max_depth + 4, dtype=np.int64)
    return vcf_line(board, pw, k, att, max_depth, budget, line)


@jit
def vcf_line(board, pw, k, att, max_depth, budget, line):  # type: ignore[no-untyped-def]
    """``vcf`` that also writes a win's cells to ``line``: ``line[0]`` = how many, then the
    attacker's stones and the defender's blocks in turn, the last attacker stone and its two win
    cells (``line`` holds at least 2 * max_depth + 4 entries)."""
    if max_depth < 1 or k < 3:
        return VCF_UNKNOWN
    size = board.shape[0]
    stones = np.empty(size, dtype=np.int64)
    ns = 0
    for c in range(size):
        if board[c] == att:
            stones[ns] = c
            ns += 1
    mark = np.zeros(size, dtype=np.int64)
    stamps = np.zeros(1, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    flags = np.zeros(1, dtype=np.int64)
    cand = np.empty((max_depth + 1, MAX_CANDS), dtype=np.int64)
    for depth in range(1, max_depth + 1):
        flags[0] = 0
        r = _vcf_depth(board, pw, k, att, depth, budget, nodes, stones, ns, mark, stamps, cand, flags, line)
        if r != NO_VCF:
            return r
        if flags[0] == 0:
            return NO_VCF  # nothing was cut: no VCF at any depth
    return VCF_UNKNOWN
