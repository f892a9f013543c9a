"""Ultimate tic-tac-toe on a bitboard.

The 9x9 grid is nine local 3x3 boards. Boards are numbered 0-8 row-major from the bottom-left
(board 0 = cells a1-c3, board 4 = d4-f6, board 8 = g7-i9); inside a board, cells are numbered
the same way (local cell 0 = its bottom-left cell).

Rules (the standard ones):

* The first move may go anywhere.
* A move in local cell ``i`` of its board sends the opponent to board ``i``.
* A local board is won by three in a row inside it; a won or full board is *closed*: nobody
  plays in it again. If the board you are sent to is closed, you may play in any open board.
* Three local boards won by the same player in a row (row, column or diagonal of boards) win
  the game.
* If no open board is left and nobody has a line of boards, the game is a **draw** (the number
  of boards won does not matter).

A winning ``Outcome.line`` holds all cells of the local boards that form the winning line(s) of
boards (27 cells for one line). ``local_line(board)`` gives the three-in-a-row that won a board.

Moves are cell indices ``row * 9 + col`` on the whole grid, written ``a1``-``i9`` (``game.rules.grid``).
Each player's stones are one 81-bit Python int; boards won are 9-bit ints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral

from game.rules.base import DRAW, ONGOING, GameFamily, Outcome, Position, Status
from game.rules.errors import IllegalMoveError
from game.rules.grid import GridNotation, TwoStoneSets, cell_name

SIDE = 9
CELLS = SIDE * SIDE
ANY_BOARD = -1  # the side to move may choose any open board

# The 8 three-in-a-row lines of a 3x3 board, as local indices (row-major from the bottom-left).
TRIPLES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
TRIPLE_MASKS = tuple(sum(1 << i for i in t) for t in TRIPLES)  # 9-bit masks, also for lines of boards
ALL_BOARDS = (1 << 9) - 1


def board_of(cell: int) -> int:
    """The local board (0-8) holding a grid cell."""
    row, col = divmod(cell, SIDE)
    return (row // 3) * 3 + col // 3


def local_index(cell: int) -> int:
    """The cell's place (0-8) inside its local board: the board the next player is sent to."""
    row, col = divmod(cell, SIDE)
    return (row % 3) * 3 + col % 3


def _board_cells(board: int) -> tuple[int, ...]:
    top, left = (board // 3) * 3, (board % 3) * 3
    return tuple((top + r) * SIDE + left + c for r in range(3) for c in range(3))


BOARD_CELLS = tuple(_board_cells(b) for b in range(9))  # grid cells of each board, in local order
BOARD_MASKS = tuple(sum(1 << c for c in cells) for cells in BOARD_CELLS)
LOCAL_LINE_MASKS = tuple(tuple(sum(1 << BOARD_CELLS[b][i] for i in t) for t in TRIPLES) for b in range(9))


def board_name(board: int) -> str:
    """``board_name(4) == "d4-f6"``."""
    first, last = BOARD_CELLS[board][0], BOARD_CELLS[board][-1]
    return f"{cell_name(first % SIDE, first // SIDE)}-{cell_name(last % SIDE, last // SIDE)}"


@dataclass(frozen=True)
class UtttSpec(GridNotation["UtttPosition"]):
    """Ultimate tic-tac-toe (``uttt``)."""

    @property
    def family(self) -> GameFamily:
        return GameFamily.UTTT

    @property
    def name(self) -> str:
        return "uttt"

    width: int = field(default=SIDE, init=False)
    height: int = field(default=SIDE, init=False)

    def start(self) -> UtttPosition:
        return UtttPosition(self, 0, 0, 0, 0, ANY_BOARD, ())

    def parse_position(self, text: str) -> UtttPosition:
        return super().parse_position(text)


@dataclass(frozen=True)
class UtttPosition(TwoStoneSets):
    """An immutable UTTT position; equality and hash ignore the move order (``history``).

    ``board`` is the local board the side to move must play in, or ``ANY_BOARD`` (-1) when it
    may choose (first move, sent to a closed board, or game over).
    """

    spec: UtttSpec
    stones0: int
    stones1: int
    won0: int  # 9-bit: boards won by player 0
    won1: int
    board: int
    history: tuple[int, ...] = field(default=(), compare=False)

    def boards_won(self, player: int) -> int:
        """9-bit mask of the local boards ``player`` has won."""
        return self.won1 if player else self.won0

    def local_winner(self, board_index: int) -> int | None:
        if (self.won0 >> board_index) & 1:
            return 0
        if (self.won1 >> board_index) & 1:
            return 1
        return None

    def local_line(self, board_index: int) -> tuple[int, ...]:
        """Cells of the three-in-a-row(s) that won ``board_index`` (empty if it is not won)."""
        winner = self.local_winner(board_index)
        if winner is None:
            return ()
        stones = self.stones(winner)
        cells = 0
        for mask in LOCAL_LINE_MASKS[board_index]:
            if stones & mask == mask:
                cells |= mask
        return tuple(i for i in BOARD_CELLS[board_index] if (cells >> i) & 1)

    @cached_property
    def closed_boards(self) -> int:
        """9-bit mask of the boards nobody may play in any more (won or full)."""
        return _closed(self.won0 | self.won1, self.occupied)

    @cached_property
    def outcome(self) -> Outcome:
        last = 1 - self.to_move
        won = self.boards_won(last)
        boards = 0
        for mask in TRIPLE_MASKS:
            if won & mask == mask:
                boards |= mask
        if boards:
            line = tuple(sorted(c for b in range(9) if (boards >> b) & 1 for c in BOARD_CELLS[b]))
            return Outcome(Status.WIN, last, line)
        if self.closed_boards == ALL_BOARDS:
            return DRAW
        return ONGOING

    def allowed_boards(self) -> tuple[int, ...]:
        """The boards where the side to move may play now (empty when the game is over)."""
        if self.outcome.is_over:
            return ()
        if self.board != ANY_BOARD:
            return (self.board,)
        return tuple(b for b in range(9) if not (self.closed_boards >> b) & 1)

    def legal_moves(self) -> tuple[int, ...]:
        occupied = self.occupied
        cells = [c for b in self.allowed_boards() for c in BOARD_CELLS[b] if not (occupied >> c) & 1]
        return tuple(sorted(cells))

    def play(self, move: int) -> UtttPosition:
        if isinstance(move, bool) or not isinstance(move, Integral):
            raise IllegalMoveError(f"{move!r} is not a cell index")
        move = int(move)  # numpy integers too
        if not (0 <= move < CELLS):
            raise IllegalMoveError(f"cell index {move} is out of range for the 9x9 grid (0-{CELLS - 1})")
        text = self.spec.move_to_text(move)
        if self.outcome.is_over:
            raise IllegalMoveError(f"cell {text}: the game is already over")
        bit = 1 << move
        if self.occupied & bit:
            raise IllegalMoveError(f"cell {text} is taken")
        board = board_of(move)
        if self.board != ANY_BOARD and board != self.board:
            raise IllegalMoveError(f"cell {text} is not in the board you must play (board {board_name(self.board)})")
        if (self.closed_boards >> board) & 1:
            raise IllegalMoveError(f"cell {text} is in board {board_name(board)}, which is already won")
        player = self.to_move
        stones = self.stones(player) | bit
        won = self.boards_won(player)
        if any(stones & m == m for m in LOCAL_LINE_MASKS[board]):
            won |= 1 << board
        stones0, stones1 = (stones, self.stones1) if player == 0 else (self.stones0, stones)
        won0, won1 = (won, self.won1) if player == 0 else (self.won0, won)
        target = local_index(move)
        closed = _closed(won0 | won1, stones0 | stones1)
        game_won = any(won & m == m for m in TRIPLE_MASKS)
        if game_won or (closed >> target) & 1:
            target = ANY_BOARD
        return UtttPosition(self.spec, stones0, stones1, won0, won1, target, self.history + (move,))

    def __repr__(self) -> str:
        return f"UtttPosition({self.to_text()!r})"


def _closed(won: int, occupied: int) -> int:
    closed = won
    for b, mask in enumerate(BOARD_MASKS):
        if occupied & mask == mask:
            closed |= 1 << b
    return closed


def as_uttt(position: Position) -> UtttPosition | None:
    """``position`` with its local boards, or None for a position of another game; the other floors ask this
    instead of ``isinstance`` of this module's classes."""
    return position if isinstance(position, UtttPosition) else None
