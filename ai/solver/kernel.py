"""Compiled core of the exact Connect 4 solver (negamax, alpha-beta, null windows, bound table).

Bitboards follow Pascal Pons' layout (see ``game.rules.connect4``): ``cur`` holds the stones of the
side to move, ``mask`` all stones, column ``c`` owns bits ``c*(h+1) .. c*(h+1)+h-1``.
Every word is a ``uint64`` (numpy scalar in plain Python) so the same source runs compiled
and interpreted; shift counts stay plain ints.

Scores are Pons': for the side to move at ply ``p`` (stones on the board), a win with the
stone played at ply ``q`` is worth ``(cells + 1 - q) // 2``, a loss the negative of the
opponent's win, a draw 0.

The search is one loop over an explicit stack (no recursion, no allocation per node). Its bound table
(one ``uint64`` word per entry, a main table and per-thread near tables) is in ``ai.solver.table``; the names
the solver's Python side reads are re-exported here.

The same source runs as plain Python (``CONNECT4_NO_NUMBA=1``), only much slower.
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.solver.table import HASH_MUL as HASH_MUL  # (the bound table's names the Python side reads)
from ai.solver.table import MIN_TT_BITS as MIN_TT_BITS
from ai.solver.table import NEAR_BITS as NEAR_BITS
from ai.solver.table import NO_LOWER, NO_UPPER, U0, U1
from ai.solver.table import STORED_BITS as STORED_BITS
from ai.solver.table import near_shift_of as near_shift_of
from ai.solver.table import tt_column as tt_column
from ai.solver.table import tt_lower as tt_lower
from ai.solver.table import tt_probe as tt_probe
from ai.solver.table import tt_store as tt_store
from ai.solver.table import tt_upper as tt_upper

# ctl (int64 array) slots: shared with Python, STOP may be set from another thread.
NODES = 0
MAX_NODES = 1
STOP = 2
ABORTED = 3
PEER_DONE = 4  # set by a helper thread that solved the same position first
CTL_SIZE = 5
CHECK_EVERY = 1023  # poll STOP / MAX_NODES when (nodes & CHECK_EVERY) == 0

# stk_i (int64, one row per depth) columns
_ALPHA = 0
_BETA = 1
_ALPHA0 = 2
_COUNT = 3
_NEXT = 4
_BEST = 5
_PENDING = 6  # the table move tried first, the other moves not ordered yet (-1: all ordered)
STACK_INT_COLS = 7
STACK_WORD_COLS = 3  # stk_u columns: cur, mask, non-losing moves

# loop states
_ENTER = 0
_NEXT_CHILD = 1
_RETURN = 2

THREAT_ORDER_EMPTY = 12  # with fewer empty cells, moves go centre first: threat counts cost more than they save
ETC_EMPTY = 14  # enhanced transposition cutoffs at nodes with more empty cells than this
UNKNOWN = -10_000  # returned by solve_position when a limit stopped it (and by book_score for a miss)
NO_FLOOR = -1000  # solve_position's floor when no lower bound is known


@jit
def winning_spots(stones, mask, h, board):
    """Empty cells where ``stones`` would complete four in a row."""
    r = (stones << 1) & (stones << 2) & (stones << 3)
    for d in (h + 1, h, h + 2):  # horizontal, the two diagonals
        p = (stones << d) & (stones << 2 * d)
        r |= p & (stones << 3 * d)
        r |= p & (stones >> d)
        p = (stones >> d) & (stones >> 2 * d)
        r |= p & (stones << d)
        r |= p & (stones >> 3 * d)
    return r & (board ^ mask)


M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)


@jit
def popcount(x):
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    return np.int64((x * H01) >> 56)


@jit
def non_losing_moves(cur, mask, h, bottom, board):
    """Bits of the playable cells that do not hand the opponent an immediate win."""
    possible = (mask + bottom) & board
    opp_wins = winning_spots(cur ^ mask, mask, h, board)
    forced = possible & opp_wins
    if forced:
        if forced & (forced - U1):  # two threats to block: lost
            return U0
        possible = forced
    return possible & ~(opp_wins >> 1)


@jit
def can_win_now(cur, mask, h, bottom, board):
    return (winning_spots(cur, mask, h, board) & (mask + bottom) & board) != U0


@jit
def order_moves(moves, d, n, possible, cur, mask, w, h, board, colmask, order, empties):
    """Append the columns of ``possible`` to ``moves[d]`` after the first ``n``; return the new count.

    Most winning spots created first (ties: centre first); ``moves[d, 2k + 1]`` keeps the keys. Near the
    leaves (``empties < THREAT_ORDER_EMPTY``) centre first only: there the counts cost more time than the
    nodes they save (1.10x faster on random positions of plies 8-12, with 8.5% more nodes).
    """
    start = n
    count_threats = empties >= THREAT_ORDER_EMPTY
    for j in range(w):
        c = order[j]
        mv = possible & colmask[c]
        if mv:
            s = popcount(winning_spots(cur | mv, mask, h, board)) if count_threats else 0
            k = n
            while k > start and moves[d, 2 * (k - 1) + 1] < s:
                moves[d, 2 * k] = moves[d, 2 * (k - 1)]
                moves[d, 2 * k + 1] = moves[d, 2 * (k - 1) + 1]
                k -= 1
            moves[d, 2 * k] = c
            moves[d, 2 * k + 1] = s
            n += 1
    return n


@jit
def book_score(book_keys, book_vals, key):
    """The book's exact score for ``key`` (sorted ``book_keys``), or UNKNOWN."""
    lo = 0
    hi = book_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if book_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < book_keys.shape[0] and book_keys[lo] == key:
        return np.int64(book_vals[lo])
    return UNKNOWN


@jit
def etc_cut(
    cur,
    mask,
    ply,
    beta,
    w,
    bottom,
    colmask,
    possible,
    tt,
    tt_bits,
    book_keys,
    book_vals,
    book_ply,
    child_table,
    near_base,
):
    """Enhanced transposition cutoff: ``score * 16 + column`` of a child whose stored upper bound (or book
    score) proves the node worth at least ``beta``, else UNKNOWN. ``child_table``: the children's table
    (``near_shift_of``). Down to 15 empty cells: 10% fewer nodes and 1.04-1.07x faster than only above 22
    (the main table's children alone); deeper, the probes cost more than they save."""
    opp = cur ^ mask
    for c in range(w):
        mv = (mask + bottom) & possible & colmask[c]
        if mv:
            child_key = opp + (mask | mv)
            upper = NO_UPPER
            if ply + 1 <= book_ply:
                known = book_score(book_keys, book_vals, child_key)
                if known != UNKNOWN:
                    upper = known
            if upper == NO_UPPER:
                data = tt_probe(tt, tt_bits, child_key, child_table, near_base)
                if data != U0:
                    upper = tt_upper(data)
            if -upper >= beta:
                return -upper * 16 + c
    return UNKNOWN


@jit
def negamax(
    cur0,
    mask0,
    ply0,
    alpha0,
    beta0,
    w,
    h,
    bottom,
    board,
    colmask,
    order,
    tt,
    tt_bits,
    near_shift,
    near_base,
    stk_u,
    stk_i,
    moves,
    keys,
    ctl,
    book_keys,
    book_vals,
    book_ply,
):
    """Fail-hard alpha-beta score of a position whose side to move cannot win at once.

    Returns v: the score is <= v if v <= alpha0, >= v if v >= beta0, exactly v otherwise.
    If the node limit or the stop flag ends the search, sets ctl[ABORTED] and returns 0.
    """
    cells = w * h
    nodes = ctl[NODES]
    max_nodes = ctl[MAX_NODES]
    d = 0
    stk_u[0, 0] = cur0
    stk_u[0, 1] = mask0
    a = alpha0
    b = beta0
    value = 0
    state = _ENTER
    while True:
        if state == _ENTER:
            nodes += 1
            if (nodes & CHECK_EVERY) == 0 and (
                ctl[STOP] != 0 or ctl[PEER_DONE] != 0 or (max_nodes > 0 and nodes > max_nodes)
            ):
                ctl[ABORTED] = 1
                ctl[NODES] = nodes
                return 0
            cur = stk_u[d, 0]
            mask = stk_u[d, 1]
            ply = ply0 + d
            possible = non_losing_moves(cur, mask, h, bottom, board)
            state = _RETURN
            if possible == U0:
                value = -((cells - ply) // 2)
                continue
            if ply >= cells - 2:
                value = 0
                continue
            lo = -((cells - 2 - ply) // 2)  # the opponent cannot win with its next stone
            hi = (cells - 1 - ply) // 2  # nor can we with this one
            key = cur + mask
            keys[d] = key
            if ply <= book_ply and d > 0:
                value = book_score(book_keys, book_vals, key)
                if value != UNKNOWN:
                    continue
            tt_col = -1
            data = tt_probe(tt, tt_bits, key, near_shift_of(near_shift, cells - ply), near_base)
            if data != U0:
                lo = max(lo, tt_lower(data))
                hi = min(hi, tt_upper(data))
                tt_col = tt_column(data)
            if a < lo:
                a = lo
                if a >= b:
                    value = a
                    continue
            if b > hi:
                b = hi
                if a >= b:
                    value = b
                    continue
            if cells - ply > ETC_EMPTY:  # far from the leaves: a child's stored bound may cut at once
                cut = etc_cut(
                    cur,
                    mask,
                    ply,
                    b,
                    w,
                    bottom,
                    colmask,
                    possible,
                    tt,
                    tt_bits,
                    book_keys,
                    book_vals,
                    book_ply,
                    near_shift_of(near_shift, cells - ply - 1),
                    near_base,
                )
                if cut != UNKNOWN:
                    value = cut >> 4
                    tt_store(
                        tt, tt_bits, key, near_shift_of(near_shift, cells - ply), near_base, value, NO_UPPER, cut & 15
                    )
                    continue
            # the table's best move first; the others are ordered only if it does not cut
            if tt_col >= 0 and (possible & colmask[tt_col]) != U0:
                moves[d, 0] = tt_col
                n = 1
            else:
                tt_col = -1
                n = order_moves(moves, d, 0, possible, cur, mask, w, h, board, colmask, order, cells - ply)
            stk_u[d, 2] = possible
            stk_i[d, _PENDING] = tt_col
            stk_i[d, _ALPHA] = a
            stk_i[d, _BETA] = b
            stk_i[d, _ALPHA0] = a
            stk_i[d, _COUNT] = n
            stk_i[d, _NEXT] = 0
            stk_i[d, _BEST] = -1
            state = _NEXT_CHILD
        elif state == _NEXT_CHILD:
            j = stk_i[d, _NEXT]
            pending = stk_i[d, _PENDING]
            if j == stk_i[d, _COUNT] and pending >= 0:
                rest = stk_u[d, 2] & ~colmask[pending]
                stk_i[d, _COUNT] = order_moves(
                    moves, d, j, rest, stk_u[d, 0], stk_u[d, 1], w, h, board, colmask, order, cells - ply0 - d
                )
                stk_i[d, _PENDING] = -1
            if j < stk_i[d, _COUNT]:
                stk_i[d, _NEXT] = j + 1
                cur = stk_u[d, 0]
                mask = stk_u[d, 1]
                mv = (mask + bottom) & colmask[moves[d, 2 * j]]
                stk_u[d + 1, 0] = cur ^ mask
                stk_u[d + 1, 1] = mask | mv
                a = -stk_i[d, _BETA]
                b = -stk_i[d, _ALPHA]
                d += 1
                state = _ENTER
            else:  # every move searched without a cut
                value = stk_i[d, _ALPHA]
                best = stk_i[d, _BEST]
                near = near_shift_of(near_shift, cells - ply0 - d)
                if best >= 0 and value > stk_i[d, _ALPHA0]:
                    tt_store(tt, tt_bits, keys[d], near, near_base, value, value, best)
                else:
                    tt_store(tt, tt_bits, keys[d], near, near_base, NO_LOWER, value, -1)
                state = _RETURN
        else:  # _RETURN: the node at depth d is worth value
            if d == 0:
                break
            d -= 1
            score = -value
            col = moves[d, 2 * (stk_i[d, _NEXT] - 1)]
            if score >= stk_i[d, _BETA]:
                tt_store(
                    tt, tt_bits, keys[d], near_shift_of(near_shift, cells - ply0 - d), near_base, score, NO_UPPER, col
                )
                value = score
            else:
                if score > stk_i[d, _ALPHA]:
                    stk_i[d, _ALPHA] = score
                    stk_i[d, _BEST] = col
                state = _NEXT_CHILD
    ctl[NODES] = nodes
    return value


@jit
def solve_position(
    cur,
    mask,
    ply,
    w,
    h,
    bottom,
    board,
    colmask,
    order,
    tt,
    tt_bits,
    near_shift,
    near_base,
    stk_u,
    stk_i,
    moves,
    keys,
    ctl,
    book_keys,
    book_vals,
    book_ply,
    floor,
):
    """Exact score of a position that is not over, or UNKNOWN if a limit stopped the search.

    Narrows [lo, hi] with null-window searches, probing near 0 first (most positions are
    close to a draw and small windows cut more). ``floor``: a proven lower bound on the score
    (e.g. minus the parent's exact score), or anything below the lowest score; a given floor is
    probed first (often the score: a parent's best move scores it), 1.10-1.17x less CPU for all
    columns of random ply-8 positions than probing from 0.
    """
    cells = w * h
    if can_win_now(cur, mask, h, bottom, board):
        return (cells + 1 - ply) // 2
    lo = max(-((cells - ply) // 2), floor)
    hi = (cells + 1 - ply) // 2
    at_floor = floor > -((cells - ply) // 2)
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and lo // 2 < med:
            med = lo // 2
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        if at_floor:  # is the score above the floor?
            med = lo
            at_floor = False
        r = negamax(
            cur,
            mask,
            ply,
            med,
            med + 1,
            w,
            h,
            bottom,
            board,
            colmask,
            order,
            tt,
            tt_bits,
            near_shift,
            near_base,
            stk_u,
            stk_i,
            moves,
            keys,
            ctl,
            book_keys,
            book_vals,
            book_ply,
        )
        if ctl[ABORTED] != 0:
            return UNKNOWN
        if r <= med:
            hi = r
        else:
            lo = r
    return lo
