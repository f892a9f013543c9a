"""Shared constants of the compiled search: the ``params`` header, proof codes, the RNG.

``params`` is an int64 array of ``PARAMS_LEN`` entries built once per game (see ``games.py``):
the header below, then kernel-specific constants from ``P_GAME`` on.
"""

from __future__ import annotations

from ai.jit import jit

# params header
P_KIND = 0  # which kernel (KIND_* in kernels.py)
P_MAX_MOVES = 1  # the largest number of legal moves in any position
P_STATE_LEN = 2  # entries of the state array
P_PLAYOUT = 3  # playout policy: 0 = uniform random, 1 = random + take wins / block threats
P_EXPAND = 4  # a leaf is expanded once it has this many visits (>= 1; the root always is)
P_CONTEMPT = 5  # draw contempt in thousandths (0: a draw is worth 0.5 to both sides; see core.py)
P_GAME = 8  # first kernel-specific entry
PARAMS_LEN = 64

# proof codes of a node, from the side of the player who made the node's move ("the mover")
UNKNOWN = 0
LOSS = 1
DRAW = 2
WIN = 3  # the negation of a code for the other player is ``4 - code``

# play() results: the move just played ...
ONGOING = 0
MOVER_WON = 1
DRAWN = 2

_LCG_MUL = 6364136223846793005
_LCG_ADD = 1442695040888963407


@jit
def rand_below(rng, n):  # type: ignore[no-untyped-def]
    """A uniform int in [0, n) from the 64-bit LCG whose state is ``rng[0]`` (int64, wraps)."""
    x = rng[0] * _LCG_MUL + _LCG_ADD
    rng[0] = x
    return (((x >> 33) & 0x7FFFFFFF) * n) >> 31
