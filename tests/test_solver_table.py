"""The solver's bound tables: an entry answers only for its own position, in both tables."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai import solver_kernel as kernel
from ai.solver_board import KernelBoard
from game import get_game
from game.connect4 import Connect4Spec

TT_BITS = kernel.MIN_TT_BITS


def _table() -> np.ndarray:
    return np.zeros((1 << TT_BITS) + (1 << kernel.NEAR_BITS), dtype=np.uint64)


def test_near_table_tells_apart_keys_that_share_a_slot() -> None:
    """Keys whose near hashes differ only in stored bits share a slot; a probe of one must not read the other."""
    board = KernelBoard(Connect4Spec(), None)
    shift = board.near_shift
    assert shift >= 0  # 7x6 keys (49 bits) use the near table
    bits = shift + kernel.NEAR_BITS
    modulus = 1 << bits
    mul = int(kernel.HASH_MUL) % modulus
    inverse = pow(mul, -1, modulus)
    rng = random.Random(7)
    tt = _table()
    for _ in range(300):
        a = rng.getrandbits(bits)
        hashed = a * mul % modulus
        for flip in (1, 1 << (shift - 1), 1 << rng.randrange(shift)):  # stored bits: lowest, highest, any
            b = (hashed ^ flip) * inverse % modulus
            tt.fill(0)
            kernel.tt_store(tt, TT_BITS, np.uint64(a), shift, -3, 5, 2)
            assert kernel.tt_probe(tt, TT_BITS, np.uint64(b), shift) == 0
            data = np.uint64(kernel.tt_probe(tt, TT_BITS, np.uint64(a), shift))
            assert (kernel.tt_lower(data), kernel.tt_upper(data), kernel.tt_column(data)) == (-3, 5, 2)
            kernel.tt_store(tt, TT_BITS, np.uint64(b), shift, 1, 1, 4)  # replaces a's entry
            assert kernel.tt_probe(tt, TT_BITS, np.uint64(a), shift) == 0
            data = np.uint64(kernel.tt_probe(tt, TT_BITS, np.uint64(b), shift))
            assert (kernel.tt_lower(data), kernel.tt_upper(data)) == (1, 1)


def test_stores_merge_bounds_of_the_same_position() -> None:
    tt = _table()
    key = np.uint64(0x1234_5678_9AB)
    for shift in (-1, KernelBoard(Connect4Spec(), None).near_shift):
        kernel.tt_store(tt, TT_BITS, key, shift, -2, 7, -1)
        kernel.tt_store(tt, TT_BITS, key, shift, 0, 9, 3)
        data = np.uint64(kernel.tt_probe(tt, TT_BITS, key, shift))
        assert (kernel.tt_lower(data), kernel.tt_upper(data), kernel.tt_column(data)) == (0, 7, 3)


@pytest.mark.parametrize("size", ["8x7", "9x6"])
def test_boards_with_long_keys_keep_to_the_main_table(size: str) -> None:
    """Keys of more than NEAR_BITS + STORED_BITS bits cannot be told apart in the near table."""
    spec = get_game(f"connect4:{size}")
    assert isinstance(spec, Connect4Spec)
    assert KernelBoard(spec, None).near_shift == -1
    assert kernel.near_shift_of(-1, 3) == -1
