"""Compiled core of the exact Connect 4 solver (negamax, alpha-beta, null windows, bound table).

Bitboards follow Pascal Pons' layout (see ``game.rules.connect4``): ``cur`` holds the stones of the
side to move, ``mask`` all stones, column ``c`` owns bits ``c*(h+1) .. c*(h+1)+h-1``.
Every word is a ``uint64`` (numpy scalar in plain Python) so the same source runs compiled
and interpreted; shift counts stay plain ints.

Scores are Pons': for the side to move at ply ``p`` (stones on the board), a win with the
stone played at ply ``q`` is worth ``(cells + 1 - q) // 2``, a loss the negative of the
opponent's win, a draw 0.

The search is one loop over an explicit stack (no recursion, no allocation per node).
The transposition table is one ``uint64`` word per entry. The key ``cur + mask`` (unique per
board) is hashed by an odd multiplication (a bijection); the top ``tt_bits`` bits of the hash
pick the entry, which stores the low ``64 - DATA_BITS`` bits of the hash (so with
``tt_bits >= MIN_TT_BITS`` a hit is never a different position), a lower bound, an upper
bound and the best column. Positions with fewer than ``NEAR_EMPTY`` empty cells (most of the
nodes) go to a small near table instead (the same one-word entries, hashed within the keys' own
bits so that ``NEAR_BITS`` index bits suffice for exact keys), which stays in the CPU cache: on
this machine that halves the time per node, while a larger main table barely reduces the node count.
A near table of 2**17 entries (1 MiB) scored all columns of random ply 9-11 positions 1.05-1.09x
faster than this one of 2**16 with two threads, but solved 0.87-0.98x as fast with one (Pons' files,
random ply 8-12 positions); 2**18 entries were slower still (they save nodes but leave the core's
cache). The near tables follow the main table in the same array, one per
thread searching at once (``near_base``: where the thread's starts): threads share the main table,
but a shared near table bounced its cache lines between the cores (two threads scored all columns
only 1.0-1.7x faster than one; 1.9-2.0x with a near table each). Bounds are facts about a position,
so the tables stay valid across searches and windows (for one board size).

The same source runs as plain Python (``CONNECT4_NO_NUMBA=1``), only much slower.
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit

U0 = np.uint64(0)
U1 = np.uint64(1)
HASH_MUL = np.uint64(0x9E3779B97F4A7C15)  # odd: key -> key * HASH_MUL is a bijection of 64-bit words
# table entry (one uint64): low DATA_BITS bits = data, the rest = the low 64 - DATA_BITS bits of the hash
BOUND_OFFSET = 64  # a bound b is stored as b + 64 in 7 bits; |score| <= 32 on every supported board
NO_LOWER = -63
NO_UPPER = 63
BOUND_BITS = np.uint64(0x7F)
COL_BITS = np.uint64(0xF)
VALID = np.uint64(1 << 18)
DATA_BITS = 19
DATA_MASK = np.uint64((1 << DATA_BITS) - 1)
NEAR_BITS = 16  # a second, small (cache-sized) table of 2**NEAR_BITS one-word entries ...
NEAR_EMPTY = 20  # ... holds the positions with fewer empty cells than this (the most numerous)
MIN_TT_BITS = DATA_BITS  # index bits + the 64 - DATA_BITS stored bits cover the whole hash: no false hits
STORED_BITS = 64 - DATA_BITS  # hash bits an entry keeps: the near table needs keys of NEAR_BITS + this at most

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
def _tt_slot(tt, tt_bits, key, near_shift, near_base):
    """(index, whether it holds ``key``'s entry, the hash whose low bits the entry stores) for ``key`` in the
    main table (``near_shift < 0``) or the near table at ``near_base``. The near table hashes within the
    keys' own ``near_shift + NEAR_BITS`` bits (an odd multiplication modulo that power of two, a bijection),
    so its index and the stored bits together still name one position."""
    if near_shift >= 0:
        hashed = (key * HASH_MUL) & ((U1 << (near_shift + NEAR_BITS)) - U1)
        i = near_base + np.int64(hashed >> near_shift)
    else:
        hashed = key * HASH_MUL
        i = np.int64(hashed >> (64 - tt_bits))
    entry = tt[i]
    return i, (entry & VALID) != U0 and (entry & ~DATA_MASK) == (hashed << DATA_BITS), hashed


@jit
def tt_probe(tt, tt_bits, key, near_shift, near_base):
    """The entry for ``key`` (0 if absent); decode with ``tt_lower``, ``tt_upper``, ``tt_column``."""
    i, found, _ = _tt_slot(tt, tt_bits, key, near_shift, near_base)
    return tt[i] if found else U0


@jit
def tt_lower(data):
    return np.int64(data & BOUND_BITS) - BOUND_OFFSET


@jit
def tt_upper(data):
    return np.int64((data >> 7) & BOUND_BITS) - BOUND_OFFSET


@jit
def tt_column(data):
    return np.int64((data >> 14) & COL_BITS) - 1


@jit
def tt_store(tt, tt_bits, key, near_shift, near_base, lo, hi, col):
    """Record ``lo <= score <= hi`` (and the best column, -1 if unknown), merging with the entry (one word:
    a single store, so threads sharing the table never see half an entry)."""
    i, found, hashed = _tt_slot(tt, tt_bits, key, near_shift, near_base)
    if found:
        entry = tt[i]
        lo = max(lo, tt_lower(entry))
        hi = min(hi, tt_upper(entry))
        if col < 0:
            col = tt_column(entry)
    data = VALID | np.uint64(lo + BOUND_OFFSET) | (np.uint64(hi + BOUND_OFFSET) << 7) | (np.uint64(col + 1) << 14)
    tt[i] = (hashed << DATA_BITS) | data


@jit
def near_shift_of(near_shift, empties):
    """The table of a position with ``empties`` empty cells: the near one (its shift) or the main one (-1)."""
    return near_shift if empties < NEAR_EMPTY else -1


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
