"""The exact solver's bound table: one ``uint64`` word per entry, shared by the solver's threads.

The key ``cur + mask`` (unique per board) is hashed by an odd multiplication (a bijection); the top
``tt_bits`` bits of the hash pick the entry, which stores the low ``64 - DATA_BITS`` bits of the hash (so
with ``tt_bits >= MIN_TT_BITS`` a hit is never a different position), a lower bound, an upper bound and the
best column. Positions with fewer than ``NEAR_EMPTY`` empty cells (most of the nodes) go to a small near
table instead (the same one-word entries, hashed within the keys' own bits so that ``NEAR_BITS`` index bits
suffice for exact keys), which stays in the CPU cache: on this machine that halves the time per node, while a
larger main table barely reduces the node count. A near table of 2**17 entries (1 MiB) scored all columns of
random ply 9-11 positions 1.05-1.09x faster than this one of 2**16 with two threads, but solved 0.87-0.98x as
fast with one (Pons' files, random ply 8-12 positions); 2**18 entries were slower still (they save nodes but
leave the core's cache). The near tables follow the main table in the same array, one per thread searching at
once (``near_base``: where the thread's starts): threads share the main table, but a shared near table bounced
its cache lines between the cores (two threads scored all columns only 1.0-1.7x faster than one; 1.9-2.0x
with a near table each). Bounds are facts about a position, so the tables stay valid across searches and
windows (for one board size).

Compiled by ``ai.jit`` like the rest of the solver's kernel (``ai.solver.kernel`` calls these and re-exports
the ones the solver's Python side uses).
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
