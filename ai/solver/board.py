"""The solver's view of one board size: geometry words and search stacks, in the types the kernel expects."""

from __future__ import annotations

import numpy as np

from ai.solver import kernel
from ai.vocab.opening_book import Book
from game.rules.connect4 import Connect4Spec


class KernelBoard:
    """Geometry words of one board size, in the types the kernel expects."""

    def __init__(
        self, spec: Connect4Spec, book: Book | None, order: tuple[int, ...] | None = None, near_slot: int = 0
    ) -> None:
        """``near_slot``: which of the solver's near tables searches on this board use (one per thread searching
        at the same time)."""
        w, h = spec.width, spec.height
        standard = (w, h) == (7, 6)
        self.book = book if standard and book is not None and len(book) else None
        if self.book is not None:
            self.book_keys, self.book_vals, self.book_ply = self.book.kernel_arrays
        else:
            self.book_keys, self.book_vals, self.book_ply = np.zeros(1, np.uint64), np.zeros(1, np.int8), -1
        self.spec = spec
        self.w = w
        self.h = h
        self.bottom = np.uint64(spec.bottom_row)
        self.board = np.uint64(spec.board_bits)
        self.colmask = np.array([((1 << h) - 1) << (c * (h + 1)) for c in range(w)], dtype=np.uint64)
        centre = [w // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(w)]
        self.order = np.array(order if order is not None and len(order) == w else centre, dtype=np.int64)
        key_bits = w * (h + 1)  # keys (current + mask) are below 2**key_bits; larger ones skip the near table
        self.near_shift = key_bits - kernel.NEAR_BITS if key_bits - kernel.NEAR_BITS <= kernel.STORED_BITS else -1
        self.near_slot = near_slot
        depth = w * h + 2
        self.stk_u = np.zeros((depth, kernel.STACK_WORD_COLS), dtype=np.uint64)
        self.stk_i = np.zeros((depth, kernel.STACK_INT_COLS), dtype=np.int64)
        self.moves = np.zeros((depth, 2 * w), dtype=np.int64)
        self.keys = np.zeros(depth, dtype=np.uint64)

    def parent_floor(self, current: int, mask: int, ply: int) -> int:
        """A lower bound on a position's score from the book's scores of its parents (``current``: the side to
        move's stones), or ``kernel.NO_FLOOR`` when the book scores none of them.

        A parent (the position before the opponent's last stone) worth S to its mover has no child worth more than
        S to that mover, so the position is worth at least -S to its own; the best bound over its parents (up to
        seven) lets a search one ply past the book start from there."""
        floor = kernel.NO_FLOOR
        if self.book is None or not 0 < ply <= self.book_ply + 1:
            return floor
        last = current ^ mask  # the stones of the player who moved last
        for column_bits in self.colmask:
            stones = mask & int(column_bits)
            top = 1 << (stones.bit_length() - 1) if stones else 0
            if top & last:
                known = int(kernel.book_score(self.book_keys, self.book_vals, np.uint64((last ^ top) + (mask ^ top))))
                if known != kernel.UNKNOWN:
                    floor = max(floor, -known)
        return floor
