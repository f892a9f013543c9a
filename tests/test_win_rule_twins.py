"""The Connect 4 win rule and its twins agree: the rules (``game.rules.connect4._winning_cells``), the MCTS
kernel's ``_aligned`` and ``winning_cells`` / ``threat_cells`` (``ai/mcts/kernel_connect4.py``), the solver's
``winning_spots`` (``ai/solver/kernel.py``) and the opening book's ``has_four`` (``ai/vocab/opening_book.py``).
numba needs the rule in its own form, so it is written more than once; this test keeps every copy one rule."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.mcts.kernel_connect4 import _aligned, winning_cells
from ai.solver.kernel import winning_spots
from ai.vocab.opening_book import has_four
from game.rules.connect4 import Connect4Position, Connect4Spec, _winning_cells

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


def _cells_of(spec: Connect4Spec, bits: int) -> set[int]:
    return {b for b in range(spec.width * (spec.height + 1)) if bits >> b & 1}


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_search_kernel_finds_every_cell_that_completes_four(width: int, height: int) -> None:
    """``winning_cells`` (built on ``threat_cells``): every empty cell of the board, playable or not, that a
    player's stone would make part of a four by the rules, and no other."""
    spec = Connect4Spec(width, height)
    h, board = np.int64(height), np.int64(spec.board_bits)
    found = 0
    for pos in _random_positions(spec, 150, seed=width * 100 + height):
        for stones in (pos.current, pos.current ^ pos.mask):
            kernel = int(winning_cells(np.int64(stones), np.int64(pos.mask), h, board)) & spec.board_bits
            empty = _cells_of(spec, spec.board_bits & ~pos.mask)
            rules = {b for b in empty if spec.cell_of_bit(b) in _winning_cells(spec, stones | (1 << b))}
            assert _cells_of(spec, kernel) == rules, (pos.to_text(), stones)
            found += len(rules)
    assert found > 50  # the sample holds threats, not only quiet positions


@pytest.mark.timeout(60)
def test_the_opening_books_four_is_the_rules_four() -> None:
    spec = Connect4Spec(7, 6)
    fours = 0
    for pos in _random_positions(spec, 400, seed=76):
        for stones in (pos.current, pos.current ^ pos.mask):
            rules = bool(_winning_cells(spec, stones))
            assert has_four(stones) == rules, pos.to_text()
            fours += rules
    assert fours > 20
