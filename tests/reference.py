"""Plain 2-D-array reference rules, written independently of the bitboards in ``game``.

Slow and simple on purpose: ``board[row][col]`` holds None, 0 or 1 (row 0 at the bottom), and
lines are found by scanning every cell in every direction. The tests play random games on both
and compare them after every move.
"""

from __future__ import annotations

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (drow, dcol)


def find_lines(board: list[list[int | None]], k: int) -> tuple[int | None, set[tuple[int, int]]]:
    """The owner of the k-in-a-row lines on ``board`` and the (row, col) cells of all of them."""
    height, width = len(board), len(board[0])
    winner = None
    cells: set[tuple[int, int]] = set()
    for row in range(height):
        for col in range(width):
            owner = board[row][col]
            if owner is None:
                continue
            for dr, dc in DIRECTIONS:
                line = [(row + i * dr, col + i * dc) for i in range(k)]
                if all(0 <= r < height and 0 <= c < width and board[r][c] == owner for r, c in line):
                    winner = owner
                    cells.update(line)
    return winner, cells


class RefKInARow:
    """Connect 4 (``gravity=True``, moves are columns) or an m,n,k game (moves are cells)."""

    def __init__(self, width: int, height: int, k: int, gravity: bool) -> None:
        self.width, self.height, self.k, self.gravity = width, height, k, gravity
        self.board: list[list[int | None]] = [[None] * width for _ in range(height)]
        self.moves: list[int] = []
        self.winner: int | None = None
        self.line: tuple[int, ...] = ()

    @property
    def to_move(self) -> int:
        return len(self.moves) % 2

    def is_full(self) -> bool:
        return all(v is not None for row in self.board for v in row)

    def status(self) -> str:
        if self.winner is not None:
            return "win"
        return "draw" if self.is_full() else "ongoing"

    def legal_moves(self) -> list[int]:
        if self.status() != "ongoing":
            return []
        if self.gravity:
            return [c for c in range(self.width) if self.board[self.height - 1][c] is None]
        return [r * self.width + c for r in range(self.height) for c in range(self.width) if self.board[r][c] is None]

    def play(self, move: int) -> None:
        assert move in self.legal_moves(), move
        if self.gravity:
            col = move
            row = next(r for r in range(self.height) if self.board[r][col] is None)
        else:
            row, col = divmod(move, self.width)
        self.board[row][col] = self.to_move
        self.moves.append(move)
        winner, cells = find_lines(self.board, self.k)
        self.winner = winner
        self.line = tuple(sorted(r * self.width + c for r, c in cells))

    def cell(self, index: int) -> int | None:
        row, col = divmod(index, self.width)
        return self.board[row][col]


class RefUttt:
    """Ultimate tic-tac-toe on a 9x9 array plus a 3x3 array of local winners."""

    def __init__(self) -> None:
        self.grid: list[list[int | None]] = [[None] * 9 for _ in range(9)]
        self.small: list[list[int | None]] = [[None] * 3 for _ in range(3)]  # small[board_row][board_col]
        self.sent_to: tuple[int, int] | None = None  # (board_row, board_col) chosen by the last move
        self.moves: list[int] = []
        self.winner: int | None = None
        self.line: tuple[int, ...] = ()

    @property
    def to_move(self) -> int:
        return len(self.moves) % 2

    def local(self, br: int, bc: int) -> list[list[int | None]]:
        return [[self.grid[br * 3 + r][bc * 3 + c] for c in range(3)] for r in range(3)]

    def is_open(self, br: int, bc: int) -> bool:
        if self.small[br][bc] is not None:
            return False
        return any(v is None for row in self.local(br, bc) for v in row)

    def status(self) -> str:
        if self.winner is not None:
            return "win"
        if not any(self.is_open(br, bc) for br in range(3) for bc in range(3)):
            return "draw"
        return "ongoing"

    def allowed_boards(self) -> list[int]:
        if self.status() != "ongoing":
            return []
        if self.sent_to is not None and self.is_open(*self.sent_to):
            br, bc = self.sent_to
            return [br * 3 + bc]
        return [br * 3 + bc for br in range(3) for bc in range(3) if self.is_open(br, bc)]

    def legal_moves(self) -> list[int]:
        moves = []
        for board in self.allowed_boards():
            br, bc = divmod(board, 3)
            for r in range(br * 3, br * 3 + 3):
                for c in range(bc * 3, bc * 3 + 3):
                    if self.grid[r][c] is None:
                        moves.append(r * 9 + c)
        return sorted(moves)

    def play(self, move: int) -> None:
        assert move in self.legal_moves(), move
        row, col = divmod(move, 9)
        br, bc = row // 3, col // 3
        self.grid[row][col] = self.to_move
        self.moves.append(move)
        local_winner, _ = find_lines(self.local(br, bc), 3)
        if local_winner is not None:
            self.small[br][bc] = local_winner
        winner, boards = find_lines(self.small, 3)
        self.winner = winner
        cells = [(r * 3 + i) * 9 + c * 3 + j for r, c in boards for i in range(3) for j in range(3)]
        self.line = tuple(sorted(cells))
        self.sent_to = (row % 3, col % 3)

    def local_winner(self, board: int) -> int | None:
        return self.small[board // 3][board % 3]

    def cell(self, index: int) -> int | None:
        return self.grid[index // 9][index % 9]
