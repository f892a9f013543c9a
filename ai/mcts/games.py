"""From a game spec / position to the kernel's ``params`` and ``state`` arrays.

Each supported game has an adapter: ``kind`` (kernels.KIND_*), ``make_params(spec)`` and
``encode(position) -> int64 state``. Add one adapter per new kernel in ``adapter_for``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.mcts.kernel_connect4 import STATE_LEN as C4_STATE_LEN
from ai.mcts.kernel_connect4 import c4_params, c4_state
from ai.mcts.kernels import KIND_CONNECT4
from ai.mcts.layout import P_EXPAND, P_KIND, P_MAX_MOVES, P_PLAYOUT, P_STATE_LEN, PARAMS_LEN


@dataclass(frozen=True)
class GameAdapter:
    kind: int
    max_moves: int
    state_len: int
    fill_params: Callable[[Any, np.ndarray], None]  # (spec, params) -> fills the kernel part
    encode: Callable[[Any], np.ndarray]  # position -> int64 state
    default_playout: int = 0
    default_expand: int = 1

    def make_params(self, spec: Any, playout: int | None = None, expand: int | None = None) -> np.ndarray:
        params = np.zeros(PARAMS_LEN, dtype=np.int64)
        params[P_KIND] = self.kind
        params[P_MAX_MOVES] = self.max_moves
        params[P_STATE_LEN] = self.state_len
        params[P_PLAYOUT] = self.default_playout if playout is None else playout
        params[P_EXPAND] = max(1, self.default_expand if expand is None else expand)
        self.fill_params(spec, params)
        return params


def _connect4(spec: Any) -> GameAdapter:
    return GameAdapter(
        kind=KIND_CONNECT4,
        max_moves=spec.width,
        state_len=C4_STATE_LEN,
        fill_params=lambda s, params: c4_params(s.width, s.height, params),
        encode=lambda pos: c4_state(pos.current, pos.mask, pos.ply),
        default_playout=1,  # take wins / block threats: 64% vs uniform in self-play
        default_expand=4,  # 55.6% vs expanding on the second visit, and 2.8x fewer nodes
    )


def adapter_for(spec: Any) -> GameAdapter | None:
    """The adapter of ``spec``'s game, or None if no kernel plays it."""
    from game.connect4 import Connect4Spec

    if isinstance(spec, Connect4Spec):
        return _connect4(spec)
    return None
