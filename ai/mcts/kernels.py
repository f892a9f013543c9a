"""Kernel table: the compiled core runs one game's three kernel functions, picked by its kind.

Each game kernel provides (all ``@jit``, all taking the int64 ``params`` and ``state`` arrays):

* ``gen_children(params, state, moves, status) -> n``: write the legal moves into ``moves``
  (best-first order helps) and a proof code per move into ``status`` (layout.WIN: the move wins
  at once, DRAW: it ends the game drawn, LOSS: the opponent then wins at once, UNKNOWN).
* ``play(params, state, move) -> int``: play a legal move in place (ONGOING / MOVER_WON / DRAWN).
* ``playout(params, state, rng) -> float``: a random game from ``state`` (not terminal) without
  changing ``state``; 1.0 / 0.5 / 0.0 for the player who made the last move before ``state``.

The UCT loop is compiled once per kind (``run_chunk_for``), so a first launch compiles only the
game being played, and each game's code is cached on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ai.mcts.core import make_run_chunk
from ai.mcts.kernel_connect4 import c4_gen_children, c4_play, c4_playout
from ai.mcts.kernel_mnk import mnk_gen_children, mnk_play
from ai.mcts.kernel_uttt import uttt_gen_children, uttt_play, uttt_playout
from ai.mcts.layout import P_KIND
from ai.mcts.mnk_playout import mnk_playout

KIND_CONNECT4 = 1
KIND_MNK = 2  # tic-tac-toe, m,n,k, Gomoku
KIND_UTTT = 3  # Ultimate tic-tac-toe

KERNELS: dict[int, tuple[Any, Any, Any]] = {
    KIND_CONNECT4: (c4_gen_children, c4_play, c4_playout),
    KIND_MNK: (mnk_gen_children, mnk_play, mnk_playout),
    KIND_UTTT: (uttt_gen_children, uttt_play, uttt_playout),
}

_loops: dict[int, Callable[..., int]] = {}
_loops_lock = threading.Lock()


def run_chunk_for(kind: int) -> Callable[..., int]:
    """The compiled UCT loop of one kind (built on first use; compiled or loaded on its first call)."""
    loop = _loops.get(kind)
    if loop is None:
        with _loops_lock:
            loop = _loops.get(kind)
            if loop is None:
                loop = _loops[kind] = make_run_chunk(*KERNELS[kind])
    return loop


# Plain-Python entry points for callers outside the compiled loop (tests, tools): each calls the
# compiled kernel of the kind written in ``params``.
def gen_children(params: Any, state: Any, moves: Any, status: Any) -> int:
    return int(KERNELS[int(params[P_KIND])][0](params, state, moves, status))


def play(params: Any, state: Any, move: int) -> int:
    return int(KERNELS[int(params[P_KIND])][1](params, state, move))


def playout(params: Any, state: Any, rng: Any) -> float:
    return float(KERNELS[int(params[P_KIND])][2](params, state, rng))
