"""The solver's bound tables: an entry answers only for its own position, in both tables; threads searching at once
each keep their own near table, and ``clear`` empties them all."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.solver import kernel
from ai.solver.board import KernelBoard
from ai.solver.core import Solver
from game.rules import get_game
from game.rules.connect4 import Connect4Spec

TT_BITS = kernel.MIN_TT_BITS
NEAR_BASE = 1 << TT_BITS  # the near table right after the main one


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
            kernel.tt_store(tt, TT_BITS, np.uint64(a), shift, NEAR_BASE, -3, 5, 2)
            assert kernel.tt_probe(tt, TT_BITS, np.uint64(b), shift, NEAR_BASE) == 0
            data = np.uint64(kernel.tt_probe(tt, TT_BITS, np.uint64(a), shift, NEAR_BASE))
            assert (kernel.tt_lower(data), kernel.tt_upper(data), kernel.tt_column(data)) == (-3, 5, 2)
            kernel.tt_store(tt, TT_BITS, np.uint64(b), shift, NEAR_BASE, 1, 1, 4)  # replaces a's entry
            assert kernel.tt_probe(tt, TT_BITS, np.uint64(a), shift, NEAR_BASE) == 0
            data = np.uint64(kernel.tt_probe(tt, TT_BITS, np.uint64(b), shift, NEAR_BASE))
            assert (kernel.tt_lower(data), kernel.tt_upper(data)) == (1, 1)


def test_stores_merge_bounds_of_the_same_position() -> None:
    tt = _table()
    key = np.uint64(0x1234_5678_9AB)
    for shift in (-1, KernelBoard(Connect4Spec(), None).near_shift):
        kernel.tt_store(tt, TT_BITS, key, shift, NEAR_BASE, -2, 7, -1)
        kernel.tt_store(tt, TT_BITS, key, shift, NEAR_BASE, 0, 9, 3)
        data = np.uint64(kernel.tt_probe(tt, TT_BITS, key, shift, NEAR_BASE))
        assert (kernel.tt_lower(data), kernel.tt_upper(data), kernel.tt_column(data)) == (0, 7, 3)


@pytest.mark.parametrize("size", ["8x7", "9x6"])
def test_boards_with_long_keys_keep_to_the_main_table(size: str) -> None:
    """Keys of more than NEAR_BITS + STORED_BITS bits cannot be told apart in the near table."""
    spec = get_game(f"connect4:{size}")
    assert isinstance(spec, Connect4Spec)
    assert KernelBoard(spec, None).near_shift == -1
    assert kernel.near_shift_of(-1, 3) == -1


def test_clear_forgets_the_near_table_too() -> None:
    """A search from ply 12 stores most of its bounds in the near table: after ``clear`` the same search must
    cost as many nodes as the first time (not fewer, helped by bounds that should be gone)."""
    position = Connect4Spec().parse_position("467226275461")
    solver = Solver(tt_bits=20, use_book=False)
    first = solver.solve(position)
    assert solver.solve(position).nodes < first.nodes / 10  # the tables answer a repeat at once ...
    solver.clear()
    again = solver.solve(position)
    assert (again.score, again.nodes) == (first.score, first.nodes)  # ... until cleared


def _near_tables_used(solver: Solver) -> list[int]:
    """The near slots holding entries (the tables after the main one in the solver's array)."""
    near = solver._tt[1 << solver.tt_bits :].reshape(-1, 1 << kernel.NEAR_BITS)
    return [slot for slot in range(near.shape[0]) if near[slot].any()]


@pytest.mark.timeout(120)
def test_threads_searching_at_once_each_use_their_own_near_table() -> None:
    """Threads sharing one near table slowed each other down (its cache lines bounced between the cores)."""
    position = Connect4Spec().parse_position("7435226457")
    split = Solver(tt_bits=20, use_book=False, threads=2)
    split.analyze_columns(position)  # two column threads
    assert _near_tables_used(split) == [0, 1]
    split.clear()
    assert _near_tables_used(split) == []
    helped = Solver(tt_bits=20, use_book=False, threads=2)
    helped.solve(position.play(3))  # one search, with a lazy-SMP helper
    assert _near_tables_used(helped) == [0, 1]
