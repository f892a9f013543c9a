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

An open-four cell is a cell of threat class ``T_FLEX4`` (``gomoku_patterns.threat_class``: an open four or
a four-four), the same test as the alpha-beta's threat filter; the board's line patterns are for k = 5.

``ctl``: ``[nodes, node limit, stamp, root move, plies]`` (``T_*``); ``mark`` (one entry per padded cell),
``buf[MAXPLY, MAXM]`` and the transposition table ``tt[2, 2^TT_BITS]`` are arrays of the caller
(``new_scratch``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ai.jit import jit
from ai.mcts.gomoku_board import make, unmake, win_cells
from ai.mcts.gomoku_patterns import T_FLEX4, threat_class

T_NODES, T_LIMIT, T_STAMP, T_MOVE, T_PLIES = 0, 1, 2, 3, 4
T_LEN = 5
MAXPLY = 48
MAXM = 128
THREE_CANDIDATES = 12  # the best three moves tried at an attacker node (fours are all tried)
CHUNK = 20_000  # threat-search nodes between two looks at the clock (about 30 ms here)
TT_BITS = 18  # the threat search's transposition table: 2^18 entries (key, packed result)
# key salts: the attacker (1 / 2) and who is to move (ply parity)
SALT = np.array([0x1F3A5C7E9B2D4F61, 0x2B4D6F8193A5C7E9, 0x3C5E7091B2D4F617, 0x4D6F8193A5C7E92B], dtype=np.int64)
GROWTH = np.array([1, 6, 40, 300, 100_000], dtype=np.int64)  # a free window's worth by its own stones


@jit
def _growth(g, cwin, cnt, c, p):  # type: ignore[no-untyped-def]
    """How much a stone of ``p`` on ``c`` grows its free windows (``GROWTH[stones]`` each): the order of the
    attacker's three moves."""
    k = g[1]
    q = p - 1
    o = 1 - q
    s = 0
    for i in range(4 * k):
        w = cwin[c, i]
        if w < 0:
            break
        if cnt[w, o] == 0:
            s += GROWTH[min(cnt[w, q], GROWTH.shape[0] - 1)]
    return s


@jit
def _known(v, threes, depth):  # type: ignore[no-untyped-def]
    """The stored result ``v`` (packed: result, threes, depth, plies) if it holds for ``threes`` / ``depth``
    (a win found with no more of either, a fail searched with no fewer), else -1."""
    r = v & 1
    t = (v >> 1) & 127
    d = (v >> 8) & 255
    if r == 1 and t <= threes and d <= depth:
        return 1
    if r == 0 and t >= threes and d >= depth:
        return 0
    return -1


@jit
def _win_cells_after(g, cwin, wcell, board, cnt, p, prev, tmp):  # type: ignore[no-untyped-def]
    """``p``'s distinct win cells (up to 2) into ``tmp``: those through its stone ``prev`` if any, else all."""
    nw = win_cells(g, cwin, wcell, board, cnt, p, prev, tmp) if prev >= 0 else 0
    if nw == 0:
        nw = win_cells(g, cwin, wcell, board, cnt, p, -1, tmp)
    return nw


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
def _defences(g, cwin, wcell, board, cnt, att, mark, ctl, work, out):  # type: ignore[no-untyped-def]
    """The defender's moves against the attacker's open-four cells (see the module text) into ``out``;
    returns their number, or -1 when the attacker has no open-four cell (no threat). ``work`` is scratch."""
    k = g[1]
    q = att - 1
    o = 1 - q
    ctl[T_STAMP] += 1
    nt = _window_cells(g, wcell, board, cnt, att, k - 2, mark, ctl[T_STAMP], work, 0)
    ctl[T_STAMP] += 1
    s2 = ctl[T_STAMP]
    n = 0
    found = False
    for i in range(nt):
        e = work[i]
        if threat_class(cnt, e, q) < T_FLEX4:  # no open four, no four-four: not a threat cell
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
def _attacks(g, cwin, wcell, board, cnt, att, threes, mark, ctl, work, score, out):  # type: ignore[no-untyped-def]
    """The attacker's fours, then (``threes`` > 0) its best ``THREE_CANDIDATES`` stones in two-windows,
    into ``out``; returns ``(count, fours)``."""
    k = g[1]
    ctl[T_STAMP] += 1
    n = _window_cells(g, wcell, board, cnt, att, k - 2, mark, ctl[T_STAMP], out, 0)
    fours = n
    if threes > 0:
        m = _window_cells(g, wcell, board, cnt, att, k - 3, mark, ctl[T_STAMP], work, 0)
        for i in range(m):
            score[i] = _growth(g, cwin, cnt, work[i], att)
        for i in range(min(m, THREE_CANDIDATES)):  # partial selection of the best
            b = i
            for j in range(i + 1, m):
                if score[j] > score[b]:
                    b = j
            t = work[i]
            work[i] = work[b]
            work[b] = t
            t = score[i]
            score[i] = score[b]
            score[b] = t
            if n < out.shape[0]:
                out[n] = work[i]
                n += 1
    return n, fours


@jit
def threat_search(  # type: ignore[no-untyped-def]
    g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt, att, threes, depth, last
):
    """1 when ``att`` (to move) wins by threats, else 0 (none found within ``depth`` attacker moves,
    ``threes`` threes and the node limit ``ctl[T_LIMIT]``); the first move of a win in ``ctl[T_MOVE]``, its
    length in ``ctl[T_PLIES]`` (plies to the five, against the longest defence of the attack found).
    Depth first with an explicit stack (ply even: the attacker to move, odd: the defender), so that the
    recursive alpha-beta can call it (numba's cache breaks on a recursive callee of a compiled caller)."""
    d = 3 - att
    tmp = np.zeros(2, dtype=np.int64)
    work = np.empty(MAXM, dtype=np.int64)
    score = np.empty(MAXM, dtype=np.int64)
    cnt_n = np.zeros(MAXPLY, dtype=np.int64)  # candidates of each ply
    idx = np.zeros(MAXPLY, dtype=np.int64)  # the one being searched
    nfours = np.zeros(MAXPLY, dtype=np.int64)  # an attacker node's fours (listed first; no three spent)
    thr = np.zeros(MAXPLY, dtype=np.int64)  # threes left at the node
    dep = np.zeros(MAXPLY, dtype=np.int64)  # attacker moves left
    moved = np.zeros(MAXPLY + 1, dtype=np.int64)  # the stone played at each ply (moved[-1]: last)
    longest = np.zeros(MAXPLY, dtype=np.int64)  # a defender node's longest lost line so far (plies)
    thr[0] = threes
    dep[0] = depth
    ctl[T_MOVE] = -1
    ply = 0
    entering = True
    r = 0
    rl = 0  # with r = 1: the plies from the node to the five (the longest defence, the attack found)
    while True:
        if entering:  # a new node at ply: a result now (r) or its first child
            ctl[T_NODES] += 1
            prev = last if ply == 0 else moved[ply - 1]
            out = buf[ply]
            term = -1
            n = 0
            key = hsh[0] ^ SALT[(att - 1) * 2 + ply % 2]
            slot = key & (tt.shape[1] - 1)
            known = _known(tt[1, slot], thr[ply], dep[ply]) if tt[0, slot] == key else -1
            if ctl[T_NODES] > ctl[T_LIMIT] or ply >= MAXPLY - 2:
                term = 0
            elif known >= 0:  # settled before (its plies with it)
                r = known
                rl = tt[1, slot] >> 16
                entering = False
                continue
            elif ply % 2 == 1:  # the defender
                if n4[d - 1] > 0:
                    term = 0  # it plays five
                elif n4[att - 1] > 0:
                    nw = _win_cells_after(g, cwin, wcell, board, cnt, att, prev, tmp)
                    if nw >= 2:
                        term = 1
                    else:
                        out[0] = tmp[0]
                        n = 1
                else:
                    n = _defences(g, cwin, wcell, board, cnt, att, mark, ctl, work, out)
                    if n < 0:
                        term = 0  # no threat left
                    elif n == 0:
                        term = 1
            else:  # the attacker
                if n4[att - 1] > 0:
                    term = 1
                elif dep[ply] <= 0:
                    term = 0
                elif n4[d - 1] > 0:  # a forced block (it costs no three)
                    nw = _win_cells_after(g, cwin, wcell, board, cnt, d, prev, tmp)
                    if nw >= 2:
                        term = 0
                    else:
                        out[0] = tmp[0]
                        n = 1
                        nfours[ply] = 1
                else:
                    n, nf = _attacks(g, cwin, wcell, board, cnt, att, thr[ply], mark, ctl, work, score, out)
                    nfours[ply] = nf
                    if n == 0:
                        term = 0
            if term >= 0:
                r = term
                rl = 1 if ply % 2 == 0 else 2  # the five / a block and the five
                entering = False
                continue
            cnt_n[ply] = n
            idx[ply] = 0
            longest[ply] = 0
        else:  # node ply has its result r: remember it, then back to its parent
            if r == 1 or ctl[T_NODES] <= ctl[T_LIMIT]:  # a fail only when no budget cut it short
                key = hsh[0] ^ SALT[(att - 1) * 2 + ply % 2]
                slot = key & (tt.shape[1] - 1)
                tt[0, slot] = key
                tt[1, slot] = r | (min(thr[ply], 127) << 1) | (min(dep[ply], 255) << 8) | (min(rl, 65535) << 16)
            if ply == 0:
                ctl[T_PLIES] = rl
                return r
            ply -= 1
            side = att if ply % 2 == 0 else d
            unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, moved[ply], side)
            if (ply % 2 == 0 and r == 1) or (ply % 2 == 1 and r == 0):
                rl += 1
                if ply == 0:
                    ctl[T_MOVE] = moved[0]
                continue  # decided: pass r up
            if r == 1:
                longest[ply] = max(longest[ply], rl + 1)
            idx[ply] += 1
            if idx[ply] >= cnt_n[ply]:
                rl = longest[ply]
                continue  # every child failed (attacker) / every defence lost (defender): r is the node's
        # play the child idx[ply] of the node at ply
        side = att if ply % 2 == 0 else d
        c = buf[ply, idx[ply]]
        make(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, side)
        moved[ply] = c
        if ply % 2 == 0:
            thr[ply + 1] = thr[ply] - (0 if idx[ply] < nfours[ply] else 1)
            dep[ply + 1] = dep[ply] - 1
        else:
            thr[ply + 1] = thr[ply]
            dep[ply + 1] = dep[ply]
        ply += 1
        entering = True


def new_scratch(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(buf, mark, ctl, tt)`` for ``threat_search`` on a board of ``size`` padded cells."""
    return (
        np.zeros((MAXPLY, MAXM), dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(T_LEN, dtype=np.int64),
        np.zeros((2, 1 << TT_BITS), dtype=np.int64),
    )


def expired(deadline: float | None, stops: Sequence[threading.Event] = ()) -> bool:
    """True once the clock has reached ``deadline`` (None: no clock) or an event of ``stops`` is set."""
    return (deadline is not None and time.perf_counter() >= deadline) or any(e.is_set() for e in stops)


def _search_until(
    tables: tuple[Any, ...],
    att: int,
    threes: int,
    depth: int,
    last: int,
    budget: int,
    deadline: float | None,
    stops: Sequence[threading.Event] = (),
) -> int:
    """``threat_search`` with its node limit raised ``CHUNK`` nodes at a time, up to ``budget`` in all
    (``ctl[T_NODES]`` counts on), while the clock is before ``deadline`` (None: no clock) and no event of
    ``stops`` is set: 1 a win, 0 none within these threes and depth, -1 cut short. A restart costs
    little: the table keeps what was settled."""
    g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt = tables
    while True:
        ctl[T_LIMIT] = min(budget, ctl[T_NODES] + CHUNK)
        if threat_search(
            g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt, att, threes, depth, last
        ):
            return 1
        if ctl[T_NODES] <= ctl[T_LIMIT]:
            return 0
        if ctl[T_LIMIT] >= budget or expired(deadline, stops):
            return -1


def find_win(  # type: ignore[no-untyped-def]
    g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt, att, max_threes, depth, budget, last,
    deadline=None, stops=(),
):  # fmt: skip
    """Iterative deepening of ``threat_search`` for ``att`` to move: a VCF first, then 1, 2, ...
    ``max_threes`` threes, within ``budget`` nodes in all, the ``deadline`` (``time.perf_counter``; None:
    none) and until an event of ``stops`` is set; returns the first move of a win or -1."""
    tables = (g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt)
    ctl[T_NODES] = 0
    for threes in range(max_threes + 1):
        found = _search_until(tables, att, threes, depth, last, budget, deadline, stops)
        if found == 1:
            return int(ctl[T_MOVE])
        if found < 0:
            return -1
    return -1


def shortest_win(  # type: ignore[no-untyped-def]
    g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt, att, max_threes, max_depth, budget, last,
    deadline=None, stops=(),
):  # fmt: skip
    """``(move, plies)`` of a win of ``att`` with the fewest attacker moves (iterative deepening on the depth,
    ``max_threes`` threes), or ``(-1, 0)`` when none is found within ``budget`` nodes, the ``deadline`` and
    the ``stops``."""
    tables = (g, cwin, wcell, board, cnt, ev, n4, near, hsh, zob, buf, mark, ctl, tt)
    ctl[T_NODES] = 0
    for depth in range(1, max_depth + 1):
        found = _search_until(tables, att, max_threes, depth, last, budget, deadline, stops)
        if found == 1:
            return int(ctl[T_MOVE]), int(ctl[T_PLIES])
        if found < 0:
            break
    return -1, 0
