"""Kernel dispatch: the compiled core calls these three functions, which branch on the kind.

Each game kernel provides (all ``@jit``, all taking the int64 ``params`` and ``state`` arrays):

* ``gen_children(params, state, moves, status) -> n``: write the legal moves into ``moves``
  (best-first order helps) and a proof code per move into ``status`` (layout.WIN: the move wins
  at once, DRAW: it ends the game drawn, LOSS: the opponent then wins at once, UNKNOWN).
* ``play(params, state, move) -> int``: play a legal move in place (ONGOING / MOVER_WON / DRAWN).
* ``playout(params, state, rng) -> float``: a random game from ``state`` (not terminal) without
  changing ``state``; 1.0 / 0.5 / 0.0 for the player who made the last move before ``state``.
"""

from __future__ import annotations

from ai.jit import jit
from ai.mcts.kernel_connect4 import c4_gen_children, c4_play, c4_playout
from ai.mcts.kernel_mnk import mnk_gen_children, mnk_play, mnk_playout
from ai.mcts.kernel_uttt import uttt_gen_children, uttt_play, uttt_playout
from ai.mcts.layout import P_KIND

KIND_CONNECT4 = 1
KIND_MNK = 2  # tic-tac-toe, m,n,k, Gomoku
KIND_UTTT = 3  # Ultimate tic-tac-toe


@jit
def gen_children(params, state, moves, status):  # type: ignore[no-untyped-def]
    kind = params[P_KIND]
    if kind == KIND_CONNECT4:
        return c4_gen_children(params, state, moves, status)
    if kind == KIND_MNK:
        return mnk_gen_children(params, state, moves, status)
    if kind == KIND_UTTT:
        return uttt_gen_children(params, state, moves, status)
    return 0


@jit
def play(params, state, move):  # type: ignore[no-untyped-def]
    kind = params[P_KIND]
    if kind == KIND_CONNECT4:
        return c4_play(params, state, move)
    if kind == KIND_MNK:
        return mnk_play(params, state, move)
    if kind == KIND_UTTT:
        return uttt_play(params, state, move)
    return 0


@jit
def playout(params, state, rng):  # type: ignore[no-untyped-def]
    kind = params[P_KIND]
    if kind == KIND_CONNECT4:
        return c4_playout(params, state, rng)
    if kind == KIND_MNK:
        return mnk_playout(params, state, rng)
    if kind == KIND_UTTT:
        return uttt_playout(params, state, rng)
    return 0.5
