"""Where a move's piece lies, by the family's layout (``game.rules.family_registration``): a move on columns
(Connect 4) is a column and its piece falls to the top of that column; in the other games a move is the cell
itself. Cells are ``row * width + col``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.rules.base import Position
from game.rules.family_registration import BoardLayout, view


def _top_of_column(position: Position, column: int) -> int:
    spec = position.spec
    row = max(r for r in range(spec.height) if position.cell(r * spec.width + column) is not None)
    return row * spec.width + column


def _the_cell(position: Position, move: int) -> int:
    return move


BY_LAYOUT: dict[BoardLayout, Callable[[Position, int], int]] = {
    BoardLayout.COLUMNS: _top_of_column,
    BoardLayout.CELLS: _the_cell,
    BoardLayout.LOCAL_BOARDS: _the_cell,
}
# one entry per game family: a view over the registrations
LANDING: Mapping[str, Callable[[Position, int], int]] = view(lambda registration: BY_LAYOUT[registration.layout])


def last_cell(position: Position) -> int | None:
    """The cell of the last move's piece in ``position`` (None at the start)."""
    if not position.history:
        return None
    return LANDING[position.spec.family](position, position.history[-1])
