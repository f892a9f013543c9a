"""Threat analysis of a Gomoku search's root (large m,n,k boards with the VCF on): our VCT win, and
the root moves after which the opponent has a VCT (proven losses). The searcher runs it after the
root's expansion within a share of the time and marks the proofs in the tree (``mark_root_proofs``).
"""

from __future__ import annotations

import time

import numpy as np

from ai.jit import jit
from ai.mcts.kernel_mnk import MNK_K, MNK_PW, MNK_VCF, MNK_WORDS, _padded, _unpack, _unpadded
from ai.mcts.mnk_threats import all_wins
from ai.mcts.mnk_vct import vct

VCT_DEPTH = 2  # threats that are not fours
VCT_BUDGET = 400  # VCF searches per VCT
MIN_BUDGET = 10
VCF_PER_SECOND = 15_000  # VCF searches (of VCT_VCF_NODES) per second, measured mid-game: about 23k
VCT_VCF_DEPTH = 8  # the VCF searches inside a VCT: fours
VCT_VCF_NODES = 120  # and node budget


@jit
def mnk_vct_move(params, state, depth, budget):  # type: ignore[no-untyped-def]
    """The side to move's VCT first move (a board cell), -1 if none was found, -2 if the budget ran out."""
    board = _unpack(params, state)
    me = 1 + state[2 * params[MNK_WORDS]] % 2
    tmp = np.empty(2, dtype=np.int64)
    pw = params[MNK_PW]
    k = params[MNK_K]
    if all_wins(board, pw, k, me, tmp) > 0 or all_wins(board, pw, k, 3 - me, tmp) > 0:
        return -1  # a win in one or a forced block: the children know those
    nodes = np.zeros(1, dtype=np.int64)
    r = vct(board, pw, k, me, depth, VCT_VCF_DEPTH, VCT_VCF_NODES, budget, nodes)
    return _unpadded(params, r) if r >= 0 else r


@jit
def mnk_allows_vct(params, state, move, depth, budget):  # type: ignore[no-untyped-def]
    """1 if after the side to move plays ``move`` the opponent has a VCT, 0 if none was found
    (-1: the budget ran out)."""
    board = _unpack(params, state)
    me = 1 + state[2 * params[MNK_WORDS]] % 2
    pw = params[MNK_PW]
    k = params[MNK_K]
    c = _padded(params, move)
    board[c] = me
    tmp = np.empty(2, dtype=np.int64)
    if all_wins(board, pw, k, me, tmp) > 0:
        return 0  # our four: the opponent must block first (left to the tree)
    nodes = np.zeros(1, dtype=np.int64)
    r = vct(board, pw, k, 3 - me, depth, VCT_VCF_DEPTH, VCT_VCF_NODES, budget, nodes)
    return 1 if r >= 0 else (-1 if r == -2 else 0)


def root_threat_proofs(params: np.ndarray, state: np.ndarray, moves: list[int], seconds: float) -> dict[int, int]:
    """Proofs for the root's moves (move -> +1 win / -1 loss for the side to move) found within
    about ``seconds``: a VCT win proves its first move; otherwise every move after which the
    opponent has a VCT is a loss (all of them: none is marked, the tree decides). The budgets of
    the VCT searches follow the time (``VCF_PER_SECOND``) so that the analysis keeps to it."""
    if params[MNK_VCF] <= 0 or not moves:
        return {}
    deadline = time.perf_counter() + seconds
    calls = seconds * VCF_PER_SECOND
    win = int(mnk_vct_move(params, state, VCT_DEPTH, max(MIN_BUDGET, min(VCT_BUDGET, int(calls / 4)))))
    if win >= 0:
        return {win: 1}
    proofs: dict[int, int] = {}
    for i, move in enumerate(moves):
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        budget = max(MIN_BUDGET, min(VCT_BUDGET, int(left * VCF_PER_SECOND / (len(moves) - i))))
        if mnk_allows_vct(params, state, move, VCT_DEPTH, budget) == 1:
            proofs[move] = -1
    if len(proofs) == len(moves):
        return {}
    return proofs
