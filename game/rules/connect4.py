"""Connect 4 on a bitboard, in the layout of Pascal Pons' solver.

Each column owns ``height + 1`` bits (one spare bit on top), column ``c`` starting at bit
``c * (height + 1)``. A position is two words: ``current`` (stones of the side to move) and
``mask`` (all stones). Any size with ``width * (height + 1) <= 64`` is allowed, so the
compiled search can use 64-bit words.

Notation: a move is a 1-based column digit, a position is the string of columns played
from the empty board (``"4453"``); the empty string is the start position.

The win rule (four in a row: ``_winning_cells`` below) has twins that numba needs in its own form:
``ai/mcts/kernel_connect4.py`` (``_aligned``, the search's playouts; ``threat_cells`` / ``winning_cells``, its
immediate wins and threats), ``ai/solver/kernel.py`` (``winning_spots``, the solver), and the opening book's
pure-Python ``has_four`` (``ai/vocab/opening_book.py``). ``tests/test_win_rule_twins.py`` holds them all to the
rules' answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral

from game.rules.base import DRAW, ONGOING, GameFamily, GameSpec, Outcome, Position, Status
from game.rules.errors import IllegalMoveError, NotationError

MIN_SIZE = 4
MAX_WIDTH = 9  # moves are single digits


@dataclass(frozen=True)
class Connect4Spec:
    """Connect 4 with ``width`` columns and ``height`` rows (default 7x6)."""

    width: int = 7
    height: int = 6

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        if not (MIN_SIZE <= w <= MAX_WIDTH) or h < MIN_SIZE or w * (h + 1) > 64:
            raise NotationError(
                f"connect4 board {w}x{h} is not supported: need 4-9 columns, at least 4 rows "
                "and columns * (rows + 1) <= 64"
            )

    @property
    def family(self) -> GameFamily:
        return GameFamily.CONNECT4

    @property
    def name(self) -> str:
        if (self.width, self.height) == (7, 6):
            return "connect4"
        return f"connect4:{self.width}x{self.height}"

    @property
    def stride(self) -> int:
        return self.height + 1

    @cached_property
    def bottom_row(self) -> int:
        """One bit at the bottom of every column."""
        return sum(1 << (c * self.stride) for c in range(self.width))

    @cached_property
    def board_bits(self) -> int:
        """Every playable bit (no spare bits)."""
        col = (1 << self.height) - 1
        return sum(col << (c * self.stride) for c in range(self.width))

    def bit(self, col: int, row: int) -> int:
        return 1 << (col * self.stride + row)

    def start(self) -> Connect4Position:
        return Connect4Position(self, 0, 0, ())

    def parse_move(self, text: str) -> int:
        s = text.strip() if isinstance(text, str) else text
        if not isinstance(s, str) or len(s) != 1 or not s.isdigit() or s == "0" or not s.isascii():
            raise NotationError(f"{text!r} is not a column: expected one digit 1-{self.width}")
        col = int(s) - 1
        if col >= self.width:
            raise NotationError(f"column {s} is out of range 1-{self.width}")
        return col

    def move_to_text(self, move: int) -> str:
        if not (0 <= move < self.width):
            raise NotationError(f"column index {move} is out of range 0-{self.width - 1}")
        return str(move + 1)

    def parse_moves(self, text: str) -> tuple[int, ...]:
        if not isinstance(text, str):
            raise NotationError("a connect4 position must be a string of column digits")
        return tuple(self.parse_move(ch) for ch in text.strip())

    def moves_to_text(self, moves: tuple[int, ...] | list[int]) -> str:
        return "".join(self.move_to_text(m) for m in moves)

    def parse_position(self, text: str) -> Connect4Position:
        """Play the column string ``text`` from the empty board; errors name the move."""
        moves = self.parse_moves(text)
        pos = self.start()
        for i, move in enumerate(moves):
            try:
                pos = pos.play(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {i + 1} ({move + 1}) of {text.strip()!r}: {exc}") from None
        return pos

    def cell_of_bit(self, bit_index: int) -> int:
        col, row = divmod(bit_index, self.stride)
        return row * self.width + col


@dataclass(frozen=True)
class Connect4Position:
    """An immutable Connect 4 position; equality and hash ignore the move order."""

    spec: Connect4Spec
    current: int
    mask: int
    history: tuple[int, ...] = field(default=(), compare=False)

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def to_move(self) -> int:
        return self.ply % 2

    @property
    def key(self) -> int:
        """Pons' unique key of the board (side to move included)."""
        return self.current + self.mask

    def stones(self, player: int) -> int:
        return self.current if player == self.to_move else self.current ^ self.mask

    def column_height(self, col: int) -> int:
        return ((self.mask >> (col * self.spec.stride)) & ((1 << self.spec.stride) - 1)).bit_count()

    def can_play(self, col: int) -> bool:
        return 0 <= col < self.spec.width and self.column_height(col) < self.spec.height

    @cached_property
    def outcome(self) -> Outcome:
        last = self.current ^ self.mask  # stones of the player who just moved
        line = _winning_cells(self.spec, last)
        if line:
            return Outcome(Status.WIN, 1 - self.to_move, line)
        if self.mask == self.spec.board_bits:
            return DRAW
        return ONGOING

    def legal_moves(self) -> tuple[int, ...]:
        if self.outcome.is_over:
            return ()
        return tuple(c for c in range(self.spec.width) if self.column_height(c) < self.spec.height)

    def play(self, move: int) -> Connect4Position:
        spec = self.spec
        if isinstance(move, bool) or not isinstance(move, Integral):
            raise IllegalMoveError(f"{move!r} is not a column index")
        move = int(move)  # numpy integers too
        if not (0 <= move < spec.width):
            raise IllegalMoveError(f"column {move + 1} is out of range 1-{spec.width}")
        if self.outcome.is_over:
            raise IllegalMoveError(f"column {move + 1}: the game is already over")
        if self.column_height(move) >= spec.height:
            raise IllegalMoveError(f"column {move + 1} is full")
        new_mask = self.mask | (self.mask + spec.bit(move, 0))
        return Connect4Position(spec, self.current ^ self.mask, new_mask, self.history + (move,))

    def cell(self, index: int) -> int | None:
        row, col = divmod(index, self.spec.width)
        bit = self.spec.bit(col, row)
        if not self.mask & bit:
            return None
        return self.to_move if self.current & bit else 1 - self.to_move

    def to_text(self) -> str:
        return self.spec.moves_to_text(self.history)

    def __repr__(self) -> str:
        return f"Connect4Position({self.spec.name}, {self.to_text()!r})"


def _winning_cells(spec: Connect4Spec, stones: int) -> tuple[int, ...]:
    """Cells (``row * width + col``) of every four-in-a-row among ``stones``."""
    h = spec.height
    cells: set[int] = set()
    for step in (1, h + 1, h, h + 2):  # vertical, horizontal, two diagonals
        pairs = stones & (stones >> step)
        fours = pairs & (pairs >> (2 * step))
        while fours:
            low = fours & -fours
            start = low.bit_length() - 1
            cells.update(spec.cell_of_bit(start + i * step) for i in range(4))
            fours ^= low
    return tuple(sorted(cells))


def as_connect4(position: Position) -> Connect4Position | None:
    """``position`` with its bitboards (the solver, the book and the search need them), or None for a position
    of another game. The other floors ask this instead of ``isinstance`` of this module's classes."""
    return position if isinstance(position, Connect4Position) else None


def as_connect4_spec(spec: GameSpec) -> Connect4Spec | None:
    """``spec`` as a Connect 4 rule set (its size), or None for another game."""
    return spec if isinstance(spec, Connect4Spec) else None
