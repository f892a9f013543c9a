"""The Connect 4 win rule and its compiled twins agree: the rules (``game.rules.connect4``), the MCTS
kernel's ``_aligned`` and the solver's ``winning_spots`` (numba needs them in its own form, so the rule
is written three times; this test keeps them one rule)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.mcts.kernel_connect4 import _aligned
from ai.solver.kernel import winning_spots
from game.rules.connect4 import Connect4Position, Connect4Spec

SIZES = [(7, 6), (4, 4), (8, 7), (5, 4)]


def _random_positions(spec: Connect4Spec, count: int, seed: int) -> list[Connect4Position]:
    rng = random.Random(seed)
    positions: list[Connect4Position] = []
    while len(positions) < count:
        pos = spec.start()
        for _ in range(rng.randrange(0, spec.width * spec.height)):
            if pos.outcome.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        positions.append(pos)
    return positions


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_kernels_see_the_same_fours_as_the_rules(width: int, height: int) -> None:
    spec = Connect4Spec(width, height)
    h = np.int64(height)
    board, mask_all = np.uint64(spec.board_bits), spec.board_bits
    checked_wins = 0
    for pos in _random_positions(spec, 400, seed=width * 10 + height):
        last = pos.current ^ pos.mask  # the stones of the player who just moved
        rules_win = pos.outcome.winner is not None
        assert bool(_aligned(np.int64(last), h)) == rules_win, pos.to_text()
        checked_wins += rules_win
        # the solver's cells where the side to move would complete four, against the rules playing each
        spots = int(winning_spots(np.uint64(pos.current), np.uint64(pos.mask), h, board))
        for col in range(width):
            if not pos.can_play(col) or pos.outcome.is_over:
                continue
            cell = (
                (pos.mask + (1 << (col * (height + 1))))
                & ~pos.mask
                & mask_all
                & (((1 << height) - 1) << col * (height + 1))
            )
            after = pos.play(col)
            assert bool(spots & cell) == (after.outcome.winner is not None), (pos.to_text(), col + 1)
    assert checked_wins > 20  # the sample holds wins, not only open positions
