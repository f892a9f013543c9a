"""From a game spec / position to the kernel's ``params`` and ``state`` arrays.

Each supported game has an adapter: ``kind`` (kernels.KIND_*), ``make_params(spec)`` and
``encode(position) -> int64 state``: one entry per game family in ``ADAPTERS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.mcts.kernel_connect4 import STATE_LEN as C4_STATE_LEN
from ai.mcts.kernel_connect4 import c4_params, c4_state
from ai.mcts.kernel_mnk import mnk_params, mnk_state, mnk_state_len
from ai.mcts.kernel_uttt import STATE_LEN as UTTT_STATE_LEN
from ai.mcts.kernel_uttt import uttt_state
from ai.mcts.kernels import KIND_CONNECT4, KIND_MNK, KIND_UTTT
from ai.mcts.layout import P_EXPAND, P_KIND, P_MAX_MOVES, P_PLAYOUT, P_STATE_LEN, PARAMS_LEN
from ai.mcts.mnk_root import root_threat_proofs
from game.rules.base import GameFamily, GameSpec
from game.rules.mnk import as_mnk_spec


@dataclass(frozen=True)
class GameAdapter:
    kind: int
    max_moves: int
    state_len: int
    fill_params: Callable[[Any, np.ndarray], None]  # (spec, params) -> fills the kernel part
    encode: Callable[[Any], np.ndarray]  # position -> int64 state
    default_playout: int = 0
    default_expand: int = 1
    # (params, root state, unproven root moves, seconds) -> proofs {move: +1 / -1} found at the root
    root_threats: Callable[[np.ndarray, np.ndarray, list[int], float], dict[int, int]] | None = None
    alpha_beta: bool = False  # searched by alpha-beta (ai.mcts.gomoku_search, docs/gomoku.md) instead of MCTS

    def make_params(self, spec: Any, playout: int | None = None, expand: int | None = None) -> np.ndarray:
        params = np.zeros(PARAMS_LEN, dtype=np.int64)
        params[P_KIND] = self.kind
        params[P_MAX_MOVES] = self.max_moves
        params[P_STATE_LEN] = self.state_len
        params[P_PLAYOUT] = self.default_playout if playout is None else playout
        params[P_EXPAND] = max(1, self.default_expand if expand is None else expand)
        self.fill_params(spec, params)
        return params


def _connect4(spec: GameSpec) -> GameAdapter:
    return GameAdapter(
        kind=KIND_CONNECT4,
        max_moves=spec.width,
        state_len=C4_STATE_LEN,
        fill_params=lambda s, params: c4_params(s.width, s.height, params),
        encode=lambda pos: c4_state(pos.current, pos.mask, pos.ply),
        default_playout=1,  # take wins / block threats: 64% vs uniform in self-play
        default_expand=4,  # 55.6% vs expanding on the second visit, and 2.8x fewer nodes
    )


# m,n,k boards with more cells than this search near the stones only, with capped playouts
MNK_SMALL_BOARD = 64
MNK_NEAR = 2  # children: empty cells within 2 of a stone
MNK_PLAYOUT_NEAR = 1  # playout moves: within 1 of a stone
MNK_PLAYOUT_CAP = 2  # playout moves before the window score
MNK_KEEP = 12  # children kept per node (the best by line score; every defence of an open three)
MNK_VCF_DEPTH = 10  # children: VCF of either side up to this many fours (kernel_mnk)
MNK_VCF_NODES = 200  # node budget of each VCF search


def _mnk(spec: GameSpec) -> GameAdapter:
    cells = spec.width * spec.height
    small = cells <= MNK_SMALL_BOARD

    def fill(s: Any, params: np.ndarray) -> None:
        if small:
            mnk_params(s.width, s.height, s.k, params)
        else:
            mnk_params(
                s.width,
                s.height,
                s.k,
                params,
                MNK_NEAR,
                MNK_PLAYOUT_NEAR,
                MNK_PLAYOUT_CAP,
                MNK_KEEP,
                MNK_VCF_DEPTH,
                MNK_VCF_NODES,
            )

    return GameAdapter(
        kind=KIND_MNK,
        max_moves=cells,
        state_len=mnk_state_len(cells),
        fill_params=fill,
        encode=lambda pos: mnk_state(cells, pos.stones0, pos.stones1, pos.history[-1] if pos.history else -1),
        default_playout=1,  # take wins, block wins, make / block open fours
        default_expand=1 if small else 2,
        root_threats=None if small else root_threat_proofs,
        alpha_beta=_five_on_a_large_board(spec),
    )


def _five_on_a_large_board(spec: GameSpec) -> bool:
    """Gomoku and its kin (five in a row on a board larger than 8x8): the alpha-beta searcher's games."""
    mnk = as_mnk_spec(spec)
    return mnk is not None and mnk.k == 5 and mnk.width * mnk.height > MNK_SMALL_BOARD


def _uttt() -> GameAdapter:
    # Self-play at 100 ms per move, 2 random opening moves, colours alternating (24-30 games, so
    # +-10%): C = 0.8 / 0.3 scored 41.7% / 41.7% against the default 0.5; expanding on the 5th /
    # 2nd visit 43.8% / 52.1% against the 3rd (kept); playouts that take game wins and avoid giving
    # them scored 52.5% against uniform ones (kept, 20 games); also greedily taking local-board
    # wins scored 31.7% against them (dropped). 1 s against 100 ms: 73% with game-wins-only
    # playouts, 79% with the kept ones (50 games each, ai/benchmarks/games.py).
    # Later trials, none kept: MAST playouts (the move with the best average result in the tree's
    # playouts, 70% / 25% of the time) scored 35.9% / 38.3% against these at 100 ms (64 games
    # each; 0.63x the iterations). C = 0.7 scored 41.9% against 0.5 at 100 ms (74 games) and
    # 47.1% at 1 s (35 games). The 10x time ratio is worth less as the level rises: the 100 ms
    # bot scored 88.3% against a 10 ms bot (60 games), the 1 s bot 78-79% against the 100 ms bot.
    # Where the 1 s bot drops points (190 games against the 100 ms bot): as first it scores ~90%,
    # as second ~62%, mostly draws. In drawn games 8 s searches of 105 of its positions (plies
    # 28-50) valued them ~0.5 and proved one win: the draws are settled early, when the second
    # player (valued ~0.44 by playouts) steers for a draw worth 0.5. Searching the whole second
    # instead of stopping early (both bots, 80 games) scored 76.9%, no better. Draw contempt 0.1
    # for the 1 s bot (``Searcher(contempt=)``, off in the app: draws count 0.5) scored 82.5%
    # (60 games) and 81.0% in ``ai.benchmarks.games uttt --only bot --contempt 0.1`` (50 games):
    # fewer draws, more losses. Run side by side with one seed on an idle machine (one core each):
    # 74.0% at contempt 0 against 84.0% at 0.1; alone and faster, contempt 0 scored 71.0%.
    return GameAdapter(
        kind=KIND_UTTT,
        max_moves=81,
        state_len=UTTT_STATE_LEN,
        fill_params=lambda s, params: None,
        encode=uttt_state,
        default_playout=1,  # take a game-winning move, mostly avoid giving one
        default_expand=2,
    )


# the families with a compiled kernel; any other family is searched by the rules-based MCTS
# (ai.mcts.rules_search), so a family registered at runtime (game.rules.family_registration) needs no entry
ADAPTERS: dict[str, Callable[[GameSpec], GameAdapter]] = {
    GameFamily.CONNECT4: _connect4,
    GameFamily.MNK: _mnk,
    GameFamily.UTTT: lambda spec: _uttt(),
}


def adapter_for(spec: GameSpec) -> GameAdapter | None:
    """The adapter of ``spec``'s game, or None if no compiled kernel plays it."""
    make = ADAPTERS.get(spec.family)
    return None if make is None else make(spec)
