"""Threat-space search of Gomoku on the incremental board of ``gomoku_board`` (numba): does the
attacker win by a sequence of threats, every one answered by each defence there is?

- An *attacker* move is a four (a stone in one of its three-windows: k - 2 own stones, no opponent
  stone) or, while ``threes`` lasts, a *three*: a stone in one of its two-windows after which it has an
  *open-four cell* (a cell that leaves it two distinct win cells: an open three, a broken three, a
  four-four or four-three to come). A forced block (the defender has a win cell) is the attacker's only
  move; the search goes on if the attacker still threatens after it.
- A *defender* node: with two attacker win cells the attacker wins; one is a forced block; against
  open-four cells the defences are exactly the empty cells of the attacker's three-windows through those
  cells (a stone anywhere else leaves one of them, and then two win cells against no five) and the
  defender's own fours (counter-threats: the attacker must answer a four). No threat left: the attacker
  has failed. The defender's win cell ends the line (it plays five).

So a win it reports is a proof (every defence was searched); "no win" means none was found within the
depth, the three count and the node budget (``ctl``). ``threes`` = 0 is a VCF (fours only; a four-three
is found: its open-four cell is a four move too).

``ctl``: ``[nodes, node limit, stamp, root move]`` (``T_*``); ``mark`` (one entry per padded cell) and
``buf[MAXPLY, MAXM]`` are scratch arrays of the caller.
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.gomoku_board import cell_score, make, makes_open_four, unmake, win_cells

T_NODES, T_LIMIT, T_STAMP, T_MOVE = 0, 1, 2, 3
T_LEN = 4
MAXPLY = 48
MAXM = 128
THREE_CANDIDATES = 12  # the best three moves tried at an attacker node (fours are all tried)


@jit
def _window_cells(g, wcell, board, cnt, p, stones, mark, stamp, out, n):  # type: ignore[no-untyped-def]
    """Append to ``out`` (from ``n``) the distinct empty cells of ``p``'s windows holding ``stones`` of its
    stones and none of the opponent's; returns the new count."""
    k = g[1]
    q = p - 1
    o = 1 - q
    for w in range(g[2]):
        if cnt[w, q] == stones and cnt[w, o] == 0:
            for i in range(k):
                e = wcell[w, i]
                if e >= 0 and board[e] == 0 and mark[e] != stamp and n < out.shape[0]:
                    mark[e] = stamp
                    out[n] = e
                    n += 1
    return n


@jit
def _defences(g, cwin, wcell, board, cnt, att, mark, ctl, out):  # type: ignore[no-untyped-def]
    """The defender's moves against the attacker's open-four cells (see the module text) into ``out``;
    returns their number, or -1 when the attacker has no open-four cell (no threat)."""
    k = g[1]
    q = att - 1
    o = 1 - q
    ctl[T_STAMP] += 1
    s1 = ctl[T_STAMP]
    threes = np.empty(MAXM, dtype=np.int64)
    nt = _window_cells(g, wcell, board, cnt, att, k - 2, mark, s1, threes, 0)
    ctl[T_STAMP] += 1
    s2 = ctl[T_STAMP]
    n = 0
    found = False
    for i in range(nt):
        e = threes[i]
        if not makes_open_four(g, cwin, wcell, board, cnt, e, att):
            continue
        found = True
        for j in range(4 * k):  # every three-window of the attacker through e: its empty cells
            w = cwin[e, j]
            if w < 0:
                break
            if cnt[w, q] == k - 2 and cnt[w, o] == 0:
                for m in range(k):
                    c = wcell[w, m]
                    if board[c] == 0 and mark[c] != s2 and n < out.shape[0]:
                        mark[c] = s2
                        out[n] = c
                        n += 1
    if not found:
        return -1
    return _window_cells(g, wcell, board, cnt, 3 - att, k - 2, mark, s2, out, n)  # counter-fours


@jit
def threat_search(  # type: ignore[no-untyped-def]
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
    buf,
    mark,
    ctl,
    att,
    to_move,
    threes,
    depth,
    ply,
    last,
):
    """1 when ``att`` wins by threats from this position (``to_move`` to play, ``last`` the previous stone
    or -1), else 0 (none found within ``depth`` attacker moves, ``threes`` threes and the node limit)."""
    ctl[T_NODES] += 1
    if ctl[T_NODES] > ctl[T_LIMIT] or ply >= MAXPLY - 1:
        return 0
    k = g[1]
    d = 3 - att
    tmp = np.zeros(2, dtype=np.int64)
    out = buf[ply]
    if to_move == d:  # the defender
        if n4[d - 1] > 0:
            return 0
        if n4[att - 1] > 0:
            nw = win_cells(g, cwin, wcell, board, cnt, att, last, tmp) if last >= 0 else 0
            if nw == 0:
                nw = win_cells(g, cwin, wcell, board, cnt, att, -1, tmp)
            if nw >= 2:
                return 1
            out[0] = tmp[0]
            n = 1
        else:
            n = _defences(g, cwin, wcell, board, cnt, att, mark, ctl, out)
            if n < 0:
                return 0
        for i in range(n):
            c = out[i]
            make(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, d)
            r = threat_search(
                g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, att, att, threes, depth, ply + 1, c
            )
            unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, d)
            if r == 0:
                return 0
        return 1
    # the attacker
    if n4[att - 1] > 0:
        return 1
    if depth <= 0:
        return 0
    n = 0
    nfours = 1
    if n4[d - 1] > 0:  # a forced block (it costs no three)
        nw = win_cells(g, cwin, wcell, board, cnt, d, last, tmp) if last >= 0 else 0
        if nw == 0:
            nw = win_cells(g, cwin, wcell, board, cnt, d, -1, tmp)
        if nw >= 2:
            return 0
        out[0] = tmp[0]
        n = 1
    else:
        ctl[T_STAMP] += 1
        n = _window_cells(g, wcell, board, cnt, att, k - 2, mark, ctl[T_STAMP], out, 0)  # fours
        nfours = n
        if threes > 0:
            cand = np.empty(MAXM, dtype=np.int64)
            m = _window_cells(g, wcell, board, cnt, att, k - 3, mark, ctl[T_STAMP], cand, 0)
            score = np.empty(m, dtype=np.int64)
            for i in range(m):
                score[i] = cell_score(g, cwin, cnt, cand[i], att, tmp)
            order = np.argsort(-score)
            for i in range(min(m, THREE_CANDIDATES)):
                if n < out.shape[0]:
                    out[n] = cand[order[i]]
                    n += 1
    for i in range(n):
        c = out[i]
        spent = 0 if i < nfours else 1
        make(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, att)
        r = threat_search(
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
            buf,
            mark,
            ctl,
            att,
            d,
            threes - spent,
            depth - 1,
            ply + 1,
            c,
        )
        unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, att)
        if r == 1:
            if ply == 0:
                ctl[T_MOVE] = c
            return 1
    return 0


def new_scratch(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(buf, mark, ctl)`` for ``threat_search`` on a board of ``size`` padded cells."""
    return (
        np.zeros((MAXPLY, MAXM), dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(T_LEN, dtype=np.int64),
    )


def find_win(  # type: ignore[no-untyped-def]
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
    buf,
    mark,
    ctl,
    att,
    max_threes,
    depth,
    budget,
    last,
):
    """Iterative deepening of ``threat_search`` for ``att`` to move: a VCF first, then 1, 2, ...
    ``max_threes`` threes, within ``budget`` nodes in all; returns the first move of a win or -1."""
    ctl[T_NODES] = 0
    for threes in range(max_threes + 1):
        ctl[T_LIMIT] = budget
        ctl[T_MOVE] = -1
        r = threat_search(
            g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, att, att, threes, depth, 0, last
        )
        if r == 1:
            return ctl[T_MOVE]
        if ctl[T_NODES] >= budget:
            return -1
    return -1
