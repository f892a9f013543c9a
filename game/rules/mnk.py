"""m,n,k games on a bitboard: tic-tac-toe (3x3, 3), ``mnk:MxN:K`` and Gomoku (15x15, 5).

Players take turns putting a stone on any empty cell of a board with ``width`` columns and
``height`` rows; the first to get ``k`` or more stones in a row (horizontally, vertically or
diagonally) wins, and a full board without such a line is a draw. Overlines (more than ``k``)
count as wins, as in free-style Gomoku.

Each player's stones are one Python int with bit ``row * width + col`` set for every stone,
row 0 at the bottom. Notation (see ``game.rules.grid``): ``a1`` is the bottom-left cell and a
position is the moves separated by spaces (``"b2 a1 c3"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral

from game.rules.base import DRAW, ONGOING, GameFamily, GameSpec, Outcome, Status
from game.rules.errors import IllegalMoveError, NotationError
from game.rules.grid import MAX_SIDE, GridNotation, TwoStoneSets

# (dx, dy) of the four line directions: right, up, up-right, up-left.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


@dataclass(frozen=True)
class MnkSpec(GridNotation["MnkPosition"]):
    """An m,n,k game: ``width`` columns, ``height`` rows, ``k`` in a row wins."""

    width: int = 3
    height: int = 3
    k: int = 3

    def __post_init__(self) -> None:
        w, h, k = self.width, self.height, self.k
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (w, h, k)):
            raise NotationError(f"m,n,k sizes must be integers, got {w!r}x{h!r}:{k!r}")
        if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE and 2 <= k <= max(w, h)):
            raise NotationError(
                f"m,n,k board {w}x{h} with {k} in a row is not supported: sides 1-{MAX_SIDE}, 2 <= K <= the longer side"
            )

    @property
    def family(self) -> GameFamily:
        return GameFamily.MNK

    @property
    def name(self) -> str:
        if (self.width, self.height, self.k) == (3, 3, 3):
            return "tictactoe"
        if (self.width, self.height, self.k) == (15, 15, 5):
            return "gomoku"
        return f"mnk:{self.width}x{self.height}:{self.k}"

    @property
    def size(self) -> int:
        return self.width * self.height

    @cached_property
    def full(self) -> int:
        """Every cell's bit."""
        return (1 << self.size) - 1

    @cached_property
    def run_starts(self) -> tuple[tuple[int, int], ...]:
        """``(step, starts)`` per direction: the bit step and the cells where a whole k-line fits."""
        w, h, k = self.width, self.height, self.k
        result = []
        for dx, dy in DIRECTIONS:
            starts = 0
            for row in range(h):
                for col in range(w):
                    end_col, end_row = col + dx * (k - 1), row + dy * (k - 1)
                    if 0 <= end_col < w and 0 <= end_row < h:
                        starts |= 1 << (row * w + col)
            result.append((dy * w + dx, starts))
        return tuple(result)

    @cached_property
    def line_masks(self) -> tuple[int, ...]:
        """Every k-cell line of the board as a bit mask (for evaluations and engines)."""
        masks = []
        for step, starts in self.run_starts:
            line = sum(1 << (i * step) for i in range(self.k))
            for start in _bit_indices(starts):
                masks.append(line << start)
        return tuple(masks)

    def start(self) -> MnkPosition:
        return MnkPosition(self, 0, 0, ())

    def parse_position(self, text: str) -> MnkPosition:
        return super().parse_position(text)

    def winning_cells(self, stones: int) -> tuple[int, ...]:
        """Cells of every run of ``k`` or more among ``stones`` (empty if there is none)."""
        covered = 0
        for step, starts in self.run_starts:
            runs = stones & starts
            for i in range(1, self.k):
                if not runs:
                    break
                runs &= stones >> (i * step)
            if runs:
                for i in range(self.k):
                    covered |= runs << (i * step)
        return tuple(_bit_indices(covered))


@dataclass(frozen=True)
class MnkPosition(TwoStoneSets):
    """An immutable m,n,k position; equality and hash ignore the move order (``history``)."""

    spec: MnkSpec
    stones0: int
    stones1: int
    history: tuple[int, ...] = field(default=(), compare=False)

    @cached_property
    def outcome(self) -> Outcome:
        last = 1 - self.to_move  # only the player who just moved can have made a line
        line = self.spec.winning_cells(self.stones(last))
        if line:
            return Outcome(Status.WIN, last, line)
        if self.occupied == self.spec.full:
            return DRAW
        return ONGOING

    def legal_moves(self) -> tuple[int, ...]:
        if self.outcome.is_over:
            return ()
        occupied = self.occupied
        return tuple(i for i in range(self.spec.size) if not (occupied >> i) & 1)

    def play(self, move: int) -> MnkPosition:
        spec = self.spec
        if isinstance(move, bool) or not isinstance(move, Integral):
            raise IllegalMoveError(f"{move!r} is not a cell index")
        move = int(move)  # numpy integers too
        if not (0 <= move < spec.size):
            raise IllegalMoveError(
                f"cell index {move} is out of range for a {spec.width}x{spec.height} board (0-{spec.size - 1})"
            )
        text = spec.move_to_text(move)
        if self.outcome.is_over:
            raise IllegalMoveError(f"cell {text}: the game is already over")
        bit = 1 << move
        if self.occupied & bit:
            raise IllegalMoveError(f"cell {text} is taken")
        if self.to_move == 0:
            return MnkPosition(spec, self.stones0 | bit, self.stones1, self.history + (move,))
        return MnkPosition(spec, self.stones0, self.stones1 | bit, self.history + (move,))

    def __repr__(self) -> str:
        return f"MnkPosition({self.spec.name}, {self.to_text()!r})"


def _bit_indices(bits: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def as_mnk_spec(spec: GameSpec) -> MnkSpec | None:
    """``spec`` as an m,n,k rule set (its ``k``), or None for another game; the other floors ask this instead of
    ``isinstance`` of this module's classes."""
    return spec if isinstance(spec, MnkSpec) else None
