"""Where a move's piece lies: one entry per game family. A Connect 4 move is a column and its disc falls to
the top of that column; in the other games a move is the cell itself. Cells are ``row * width + col``."""

from __future__ import annotations

from collections.abc import Callable

from game.rules.base import GameFamily, Position


def _top_of_column(position: Position, column: int) -> int:
    spec = position.spec
    row = max(r for r in range(spec.height) if position.cell(r * spec.width + column) is not None)
    return row * spec.width + column


def _the_cell(position: Position, move: int) -> int:
    return move


# one entry per game family (tests/test_game_families.py checks that none is missing)
LANDING: dict[GameFamily, Callable[[Position, int], int]] = {
    GameFamily.CONNECT4: _top_of_column,
    GameFamily.MNK: _the_cell,
    GameFamily.UTTT: _the_cell,
}


def last_cell(position: Position) -> int | None:
    """The cell of the last move's piece in ``position`` (None at the start)."""
    if not position.history:
        return None
    return LANDING[position.spec.family](position, position.history[-1])
