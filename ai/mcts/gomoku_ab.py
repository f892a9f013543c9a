"""The Gomoku alpha-beta search (numba): principal variation search over threat-ordered candidate cells
on the incremental board of ``gomoku_board``, one depth per call (the driver, ``gomoku_search``,
deepens iteratively and stops it).

- A side with a four window (a win cell) to move wins (``WIN - ply``); against the opponent's four the
  only move is its win cell (two of them: lost) and the depth is not spent on it (forced replies are
  free, so VCF lines of the opponent and our own run to their end).
- Candidates: the empty cells within 2 of a stone, ordered by a linear policy (``gomoku_patterns.
  CELL_POLICY``: the shapes a stone makes on the cell's 4 lines and their threat class, for the mover and
  for the opponent, plus ``POLICY_NEAR`` by the distance to the opponent's last stone and to the mover's
  own, fitted to a strong engine's moves by ``tools/fit_policy.py``), the transposition-table move first,
  then the killers and the history. ``mv[ply, MAXM - 1]`` holds each node's previous stone (``last``), so
  a node knows the mover's own last stone (its parent's ``last``; the root's is the game's). When the
  opponent has a cell that would leave it two win cells (an open three, a broken three or a double four to
  come) only the moves that make a four of ours or stop every such cell (``_stops``: the cell itself or a
  cell within 4 steps on the line of its four) are searched (the only defences, counter-fours included),
  and that node costs no depth (``THREE_FREE``); otherwise the best ``ctl[C_WIDTH]`` plus every cell where
  either side makes a double threat (four-four, four-three, three-three: the opponent's VCT threats are
  never cut).
- Leaves: the cell-value sum of the side to move less the opponent's (``gomoku_patterns.CELL_VALUE``:
  the shapes a stone would make on each empty cell's 4 lines, and its threat class) plus a tempo bonus.
- Transposition table: Zobrist hash, always replaced; mate scores stored relative to the node; scores
  are only taken from entries of the same search (``ctl[C_GEN]``), so the cut counters below hold.
- Proofs: ``ctl[C_CUT]`` / ``ctl[C_CUT + 1]`` count the nodes of the root's side / of the opponent
  whose candidates were cut to the width: a mate score for the root's side is a proof when the
  opponent's nodes were never cut (and a loss when ours never were); forced blocks and the threat
  filter (every move outside it lets the opponent make an open four) keep it exact.
- Stop: ``stop[0]`` (set by the driver's watcher at the deadline or on a stop request) or the node
  limit ``ctl[C_LIMIT]``, checked at every node; a stopped call's result must be thrown away.

Root moves (``ply`` 0) get their score (exact for the best, an upper bound for moves that failed low)
and node count in ``rscore`` / ``rnodes`` (same order as ``rmove``, which the driver fills); the best
move is ``ctl[C_BEST]`` (not the highest ``rscore``: a move that failed low may tie with the best).
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.gomoku_board import make, unmake, win_cells
from ai.mcts.gomoku_patterns import (
    BLOCK4,
    CELL_POLICY,
    DX,
    DY,
    POLICY_NEAR,
    T_FLEX4,
    T_FOUR,
    T_FOUR_THREE,
    T_THREE_THREE,
    TABLE,
    TEMPO,
    threat_class,
)
from ai.mcts.mnk_threats import vcf

WIN = 1_000_000
MATE = WIN - 1000  # scores beyond this are proven wins (and below -MATE proven losses)
INF = 2 * WIN
MAXPLY = 64
MAXM = 256
LMR_AFTER = 3  # moves searched at full depth before the reduction
EXACT, LOWER, UPPER = 0, 1, 2
# ctl fields
C_NODES, C_LIMIT, C_WIDTH, C_SELDEPTH, C_ROOT_N, C_LEAF_VCF, C_GEN, C_CUT = 0, 1, 2, 3, 4, 5, 6, 7
# C_CUT + 0 / 1: nodes of the root's side / of the opponent whose candidates were cut to the width
C_BEST = 9  # the root's best move of this call (a later move only replaces it with a higher exact score)
CTL_LEN = 10
LEAF_VCF_DEPTH = 8
POLICY_BASE = 20_000  # keeps the ordering scores positive
MUST = 1 << 34  # ordering bonus of a double-threat cell (kept whatever the width)
THREE_FREE = True  # the defence of an open three costs no depth (as the block of a four)


@jit
def _stops(g, cnt, y, xs, nx, o):  # type: ignore[no-untyped-def]
    """False when a stone on ``y`` leaves one of the opponent's (index ``o``) open-four cells ``xs`` as it
    was: ``y`` is not that cell and not within 4 steps of it on a line where it makes a four (a move
    that fails this lets the opponent make its open four, so the filter is exact)."""
    pw = g[0]
    for i in range(nx):
        x = xs[i]
        if x == y:
            continue
        hit = False
        for d in range(4):
            if TABLE[o, cnt[x * 4 + d, 2]] < BLOCK4:
                continue
            step = DY[d] * pw + DX[d]
            delta = y - x
            for j in range(1, 5):
                if delta == j * step or delta == -j * step:
                    hit = True
        if not hit:
            return False
    return True


FAR = -1000  # the row and column of a missing stone


@jit
def _row_col(pw, c):  # type: ignore[no-untyped-def]
    """The row and column of the padded cell ``c`` (``FAR``, ``FAR`` when ``c`` < 0: no stone)."""
    if c < 0:
        return FAR, FAR
    return c // pw, c % pw


@jit
def _near(dr, dc):  # type: ignore[no-untyped-def]
    """0..4: the Chebyshev distance of a step of ``dr`` rows and ``dc`` columns (1, 2, 3, 4, 5 or more)."""
    return min(max(abs(dr), abs(dc)), 5) - 1


@jit
def _near_class(pw, c, other):  # type: ignore[no-untyped-def]
    """0..4: the Chebyshev distance from ``c`` to ``other`` (1, 2, 3, 4, 5 or more; no stone: 5 or more)."""
    r, col = _row_col(pw, c)
    orow, ocol = _row_col(pw, other)
    return _near(r - orow, col - ocol)


@jit
def _gen(g, cwin, wcell, board, cnt, near, p, ply, ttmove, killers, hist, width, mv, sc, info, last, own):  # type: ignore[no-untyped-def]
    """Candidate moves of ``p`` into ``mv[ply]`` / ``sc[ply]`` (unsorted; at most ``width`` unless the
    opponent threatens, plus every cell where either side makes a double threat); returns how many.
    ``sc`` = score * 4 + 2 (the move makes a four) + 1 (it takes a cell where the opponent makes a four)."""
    pw = g[0]
    k = g[1]
    q = p - 1
    o = 2 - p
    pad = k
    rows = g[3] // pw - 2 * pad
    n = 0
    must = 0
    threat = 0
    xs = np.empty(8, dtype=np.int64)  # the opponent's open-four / double-four cells (the first 8)
    last_row, last_col = _row_col(pw, last)
    own_row, own_col = _row_col(pw, own)
    for r in range(pad, pad + rows):
        base = r * pw
        for c in range(base + pad, base + pw - pad):
            if board[c] != 0 or near[c] == 0:
                continue
            mc = threat_class(cnt, c, q)
            oc = threat_class(cnt, c, o)
            s = POLICY_BASE + CELL_POLICY[0, cnt[c * 4 + q, 4]] + CELL_POLICY[1, cnt[c * 4 + o, 4]]
            col = c - base
            s += POLICY_NEAR[0, _near(r - last_row, col - last_col)] + POLICY_NEAR[1, _near(r - own_row, col - own_col)]
            mine4 = mc == T_FOUR or mc >= T_FOUR_THREE
            theirs4 = oc == T_FOUR or oc >= T_FOUR_THREE
            if oc >= T_FLEX4:
                if threat < xs.shape[0]:
                    xs[threat] = c
                threat += 1
            if mc >= T_THREE_THREE or oc >= T_THREE_THREE:  # a double threat of either side: never cut
                s += MUST
                must += 1
            if c == ttmove:
                s += 1 << 40
            elif c == killers[ply, 0] or c == killers[ply, 1]:
                s += 1 << 20
            s += hist[c]
            if n < mv.shape[1] - 1:  # the last column holds the node's previous stone (alphabeta)
                mv[ply, n] = c
                sc[ply, n] = s * 4 + (2 if mine4 else 0) + (1 if theirs4 else 0)
                n += 1
    if n == 0:  # an empty board: the centre
        mv[ply, 0] = (rows // 2 + pad) * pw + pad + (pw - 2 * pad) // 2
        sc[ply, 0] = 0
        return 1
    if threat:  # only our fours and the cells that stop every open four (see ``_stops``)
        info[0] = 1
        m = 0
        for i in range(n):
            f = sc[ply, i] & 3
            if f >= 2 or f == 1 and _stops(g, cnt, mv[ply, i], xs, min(threat, xs.shape[0]), o):
                mv[ply, m] = mv[ply, i]
                sc[ply, m] = sc[ply, i]
                m += 1
        if m == 0:  # nothing stops every open four (lost): the cells where the opponent makes a four
            for i in range(n):
                if sc[ply, i] & 3:
                    mv[ply, m] = mv[ply, i]
                    sc[ply, m] = sc[ply, i]
                    m += 1
        return m
    keep = max(width, must)
    if n > keep:  # the best ``keep`` by score (partial selection)
        info[2] = 1
        for i in range(keep):
            b = i
            for j in range(i + 1, n):
                if sc[ply, j] > sc[ply, b]:
                    b = j
            t = mv[ply, i]
            mv[ply, i] = mv[ply, b]
            mv[ply, b] = t
            t = sc[ply, i]
            sc[ply, i] = sc[ply, b]
            sc[ply, b] = t
        n = keep
    return n


@jit
def _leaf(ev, q, r):  # type: ignore[no-untyped-def]
    """Static score for player ``q + 1`` against ``r + 1`` (without the tempo bonus)."""
    return ev[q] - ev[2 + r]


@jit
def alphabeta(  # type: ignore[no-untyped-def]
    g,
    cwin,
    wcell,
    board,
    cnt,
    ev,
    n4,
    near,
    hsh,
    zob,
    tt_key,
    tt_val,
    tt_meta,
    killers,
    hist,
    mv,
    sc,
    ctl,
    stop,
    rmove,
    rscore,
    rnodes,
    depth,
    alpha,
    beta,
    ply,
    p,
    last,
):
    """Negamax PVS score of the position for ``p`` (1 / 2) to move, ``last`` the previous stone."""
    ctl[C_NODES] += 1
    if ctl[C_NODES] > ctl[C_LIMIT]:
        stop[0] = 1
    if stop[0] != 0:
        return 0
    if ply > ctl[C_SELDEPTH]:
        ctl[C_SELDEPTH] = ply
    q = p - 1
    o = 3 - p
    if n4[q] > 0:
        return WIN - ply
    tmp = np.zeros(3, dtype=np.int64)
    forced = -1
    if n4[o - 1] > 0:
        nw = win_cells(g, cwin, wcell, board, cnt, o, last, tmp) if last >= 0 else 0
        if nw == 0:
            nw = win_cells(g, cwin, wcell, board, cnt, o, -1, tmp)
        if nw >= 2:
            return -(WIN - ply - 1)
        forced = tmp[0]
    if ply >= MAXPLY - 1 or (forced < 0 and depth <= 0):
        # a VCF of the side to move (open threes included) wins; without a three window it has no four
        if forced < 0 and ctl[C_LEAF_VCF] > 0 and n4[2 + q] > 0:
            r = vcf(board, g[0], g[1], p, LEAF_VCF_DEPTH, ctl[C_LEAF_VCF])
            if r >= 0:
                return WIN - ply - 2 * (r & 255)
        return _leaf(ev, q, o - 1) + TEMPO
    h = hsh[0]
    idx = h & (tt_key.shape[0] - 1)
    ttmove = -1
    if tt_key[idx] == h:
        meta = tt_meta[idx]
        ttmove = (meta >> 10) - 1
        if ply > 0 and (meta & 255) >= depth and (meta >> 30) == ctl[C_GEN]:
            s = tt_val[idx]
            if s > MATE:
                s -= ply
            elif s < -MATE:
                s += ply
            flag = (meta >> 8) & 3
            if flag == EXACT or (flag == LOWER and s >= beta) or (flag == UPPER and s <= alpha):
                return s
    if ply == 0:
        n = ctl[C_ROOT_N]
        for i in range(n):
            mv[0, i] = rmove[i]
            sc[0, i] = (1 << 40) if rmove[i] == ttmove else n - i
    elif forced >= 0:
        n = 1
        mv[ply, 0] = forced
        sc[ply, 0] = 0
    else:
        own = mv[ply - 1, MAXM - 1]  # (ply >= 1 here) the parent's previous stone: the mover's own
        n = _gen(g, cwin, wcell, board, cnt, near, p, ply, ttmove, killers, hist, ctl[C_WIDTH], mv, sc, tmp, last, own)
        if tmp[2]:
            ctl[C_CUT + ply % 2] += 1
    mv[ply, MAXM - 1] = last  # the children's mover played it: their own last stone
    child_depth = depth if forced >= 0 or (THREE_FREE and tmp[0] == 1) else depth - 1
    alpha0 = alpha
    best = -INF
    best_move = mv[ply, 0]
    for i in range(n):
        b = i  # pick the best remaining (lazy selection sort)
        for j in range(i + 1, n):
            if sc[ply, j] > sc[ply, b]:
                b = j
        c = mv[ply, b]
        mv[ply, b] = mv[ply, i]
        mv[ply, i] = c
        t = sc[ply, b]
        sc[ply, b] = sc[ply, i]
        sc[ply, i] = t
        before = ctl[C_NODES]
        make(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p)
        # fmt: off
        if i == 0:
            s = -alphabeta(
                g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, tt_key, tt_val, tt_meta,
                killers, hist, mv, sc, ctl, stop, rmove, rscore, rnodes,
                child_depth, -beta, -alpha, ply + 1, o, c,
            )
        else:
            # late moves that make no four and block no three: one ply less first (re-searched if better)
            r = 1 if depth >= 3 and i >= LMR_AFTER and ply > 0 and (t & 3) == 0 else 0
            s = -alphabeta(
                g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, tt_key, tt_val, tt_meta,
                killers, hist, mv, sc, ctl, stop, rmove, rscore, rnodes,
                child_depth - r, -alpha - 1, -alpha, ply + 1, o, c,
            )
            if r and s > alpha and stop[0] == 0:
                s = -alphabeta(
                g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, tt_key, tt_val, tt_meta,
                killers, hist, mv, sc, ctl, stop, rmove, rscore, rnodes,
                child_depth, -alpha - 1, -alpha, ply + 1, o, c,
            )
            if alpha < s < beta and stop[0] == 0:
                s = -alphabeta(
                g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, tt_key, tt_val, tt_meta,
                killers, hist, mv, sc, ctl, stop, rmove, rscore, rnodes,
                child_depth, -beta, -alpha, ply + 1, o, c,
            )
        # fmt: on
        unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p)
        if stop[0] != 0:
            return 0
        if ply == 0:
            for j in range(ctl[C_ROOT_N]):
                if rmove[j] == c:
                    rscore[j] = s
                    rnodes[j] += ctl[C_NODES] - before
        if s > best or i == 0:  # i == 0: a root whose every move scores -INF still has a best move
            best = s
            best_move = c
            if ply == 0:
                ctl[C_BEST] = c
        if s > alpha:
            alpha = s
        if alpha >= beta:
            if forced < 0 and ply > 0 and c != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = c
            hist[c] += depth * depth
            break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    stored = best
    if stored > MATE:
        stored += ply
    elif stored < -MATE:
        stored -= ply
    tt_key[idx] = h
    tt_val[idx] = stored
    tt_meta[idx] = max(depth, 0) | (flag << 8) | ((best_move + 1) << 10) | (ctl[C_GEN] << 30)
    return best
