"""Cell notation shared by the grid games (tic-tac-toe, m,n,k, Gomoku, Ultimate tic-tac-toe).

A cell is a column letter (``a`` = leftmost) followed by a 1-based row number (``1`` = bottom),
so ``a1`` is the bottom-left corner and ``c3`` the top-right corner of a 3x3 board. Internally a
cell is the index ``row * width + col``. A position is the moves played from the empty board,
separated by single spaces (``"b2 a1 c3"``); parsing accepts any whitespace and any letter case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from numbers import Integral
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from game.rules.errors import IllegalMoveError, NotationError

COLUMN_LETTERS = "abcdefghijklmnopqrs"
MAX_SIDE = len(COLUMN_LETTERS)  # 19

_CELL = re.compile(r"([a-z])(0|[1-9][0-9]{0,3})")
_ALLOWED_CHARS = re.compile(r"[a-z0-9]*")

P = TypeVar("P")


def cell_name(col: int, row: int) -> str:
    """``cell_name(0, 0) == "a1"``; no range check beyond the letter table."""
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def board_range(width: int, height: int) -> str:
    """The corner cells of a board, e.g. ``a1-c3``."""
    return f"a1-{cell_name(width - 1, height - 1)}"


def cell_to_text(index: int, width: int, height: int) -> str:
    """Text of the cell index ``row * width + col``; NotationError if it is off the board."""
    if isinstance(index, bool) or not isinstance(index, Integral) or not (0 <= index < width * height):
        raise NotationError(f"cell index {index!r} is out of range 0-{width * height - 1}")
    row, col = divmod(int(index), width)
    return cell_name(col, row)


def text_to_cell(text: str, width: int, height: int) -> int:
    """Index of the cell written ``text`` (``"b2"``, case-insensitive, spaces around ignored)."""
    where = f"({board_range(width, height)})"
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a cell: expected text like b2 {where}")
    token = text.strip().lower()
    if not token:
        raise NotationError(f"empty text is not a cell: expected a column letter and a row number {where}")
    if not _ALLOWED_CHARS.fullmatch(token):
        bad = next(ch for ch in token if not (ch.isascii() and ch.isalnum()))
        raise NotationError(f"{quote(text)} is not a cell: unknown character {bad!r} {where}")
    match = _CELL.fullmatch(token)
    if not match:
        raise NotationError(f"{quote(text)} is not a cell: expected a column letter then a row number, like b2 {where}")
    col = ord(match[1]) - ord("a")
    row = int(match[2]) - 1
    if col >= width or not (0 <= row < height):
        raise NotationError(f"{quote(text)} is not a cell of a {width}x{height} board {where}")
    return row * width + col


def quote(text: str, limit: int = 60) -> str:
    """``repr`` of ``text`` stripped, shortened to about ``limit`` characters for error messages."""
    text = text.strip()
    return repr(text) if len(text) <= limit else repr(text[: limit - 3] + "...")


def split_moves(text: str) -> list[str]:
    """The whitespace-separated tokens of a grid position string."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be a string of cells like 'b2 a1', not {type(text).__name__}")
    return text.split()


def play_all(start: P, moves: Iterable[int], text: str, move_text: Callable[[int], str]) -> P:
    """Play ``moves`` from ``start``; an illegal move is reported with its number and text."""
    pos = start
    for number, move in enumerate(moves, 1):
        try:
            pos = pos.play(move)  # type: ignore[attr-defined]
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} ({move_text(move)}) of {quote(text)}: {exc}") from None
    return pos


class GridNotation(Generic[P]):
    """Notation methods for a spec with ``width``, ``height``, ``start()`` (a mixin for frozen dataclasses)."""

    width: int
    height: int

    if TYPE_CHECKING:

        def start(self) -> P: ...

    def parse_move(self, text: str) -> int:
        return text_to_cell(text, self.width, self.height)

    def move_to_text(self, move: int) -> str:
        return cell_to_text(move, self.width, self.height)

    def parse_moves(self, text: str) -> tuple[int, ...]:
        moves = []
        for number, token in enumerate(split_moves(text), 1):
            try:
                moves.append(self.parse_move(token))
            except NotationError as exc:
                raise NotationError(f"move {number} of {quote(text)}: {exc}") from None
        return tuple(moves)

    def moves_to_text(self, moves: tuple[int, ...] | list[int]) -> str:
        return " ".join(self.move_to_text(m) for m in moves)

    def parse_position(self, text: str) -> P:
        """Play the moves of ``text`` from the empty board; errors name the move number."""
        moves = self.parse_moves(text)
        return play_all(self.start(), moves, text, self.move_to_text)


class TwoStoneSets:
    """Counting and ownership for a position kept as one bitboard per player (``stones0``, ``stones1``);
    a mixin for frozen dataclasses."""

    spec: Any
    stones0: int
    stones1: int
    history: tuple[int, ...]

    @property
    def occupied(self) -> int:
        return self.stones0 | self.stones1

    @property
    def ply(self) -> int:
        return self.occupied.bit_count()

    @property
    def to_move(self) -> int:
        return self.ply % 2

    def stones(self, player: int) -> int:
        return self.stones1 if player else self.stones0

    def cell(self, index: int) -> int | None:
        """Owner (0 or 1) of the cell ``row * width + col``, or None if it is empty."""
        size = self.spec.width * self.spec.height
        if not (0 <= index < size):
            raise IndexError(f"cell index {index} is out of range 0-{size - 1}")
        if (self.stones0 >> index) & 1:
            return 0
        if (self.stones1 >> index) & 1:
            return 1
        return None

    def to_text(self) -> str:
        text: str = self.spec.moves_to_text(self.history)
        return text
