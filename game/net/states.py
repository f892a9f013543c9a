"""Positions <-> the seed protocol's STATE and ACTION objects, for each game (pure).

Seat N (1 or 2) plays as the rules' player N - 1: seat 1 moves first (X in the grid games).
Rows and columns are 0-based from the bottom-left, as in the rules (``game.rules.base``).

* Connect 4 (any size): pieces ``{"type": "disc", "player", "row", "column"}``; ACTION ``{"column": c}``.
* Ultimate TTT: pieces with ``outer-row/outer-column/inner-row/inner-column``, ``boards`` (won or
  full local boards) and ``constraint``; ACTION the four coordinates.
* tic-tac-toe, m,n,k, Gomoku (an extension): pieces ``{"type": "X"|"O", "player", "row", "column"}``;
  ACTION ``{"row": r, "column": c}``.

A family travels by its layout (``game.rules.family_registration.BoardLayout``): any game on columns as
Connect 4 does, any game on cells as the m,n,k games do, so a family registered at runtime needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.rules.base import GameSpec, Position, Status
from game.rules.errors import IllegalMoveError
from game.rules.family_registration import BoardLayout, view
from game.rules.uttt import ANY_BOARD, UtttPosition, as_uttt

MARKS = ("X", "O")
UTTT_KEYS = ("outer-row", "outer-column", "inner-row", "inner-column")


@dataclass(frozen=True)
class NetGame:
    """How one game family travels in the seed protocol: its STATE's pieces, its ACTION and its points."""

    state: Callable[[Position, int], dict[str, Any]]  # (position, seat to move) -> STATE object
    action_to_move: Callable[[GameSpec, Any], int]  # ACTION -> move (IllegalMoveError when malformed)
    move_to_action: Callable[[GameSpec, int], dict[str, int]]
    points: Callable[[dict[str, float]], dict[str, float]]  # winners -> points


def _int_field(action: Any, key: str, limit: int) -> int:
    if not isinstance(action, dict):
        raise IllegalMoveError("an action must be a JSON object")
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise IllegalMoveError(f"{key} must be an integer 0-{limit - 1}")
    return value


def state_of(position: Position) -> dict[str, Any]:
    """The STATE object of ``position``."""
    return NET_GAMES[position.spec.family].state(position, position.to_move + 1)


def _connect4_state(position: Position, player: int) -> dict[str, Any]:
    return {
        "pieces": _connect4_pieces(position.spec.width, position.history),
        "player": player,
        "previous_player": 3 - player,
    }


def _marks_state(position: Position, player: int) -> dict[str, Any]:
    spec = position.spec
    pieces = [
        {"type": MARKS[owner], "player": owner + 1, "row": r, "column": c}
        for r in range(spec.height)
        for c in range(spec.width)
        if (owner := position.cell(r * spec.width + c)) is not None
    ]
    return {"pieces": pieces, "player": player, "previous_player": 3 - player}


def _connect4_pieces(width: int, history: tuple[int, ...]) -> list[dict[str, Any]]:
    """The discs, bottom row first, from the moves (the game server sends this after every move)."""
    owners: dict[int, int] = {}
    heights = [0] * width
    for ply, column in enumerate(history):
        owners[heights[column] * width + column] = ply % 2 + 1
        heights[column] += 1
    return [
        {"type": "disc", "player": owner, "row": cell // width, "column": cell % width}
        for cell, owner in sorted(owners.items())
    ]


def _uttt_state(any_position: Position, player: int) -> dict[str, Any]:
    position = as_uttt(any_position)
    if position is None:  # (the family says it is one; this tells mypy about the local boards)
        raise TypeError(f"not an Ultimate tic-tac-toe position: {any_position.spec.name}")
    return _uttt_state_of(position, player)


def _uttt_state_of(position: UtttPosition, player: int) -> dict[str, Any]:
    pieces = []
    for cell in range(81):
        owner = position.cell(cell)
        if owner is not None:
            row, col = divmod(cell, 9)
            pieces.append(
                {
                    "player": owner + 1,
                    "type": MARKS[owner],
                    "outer-row": row // 3,
                    "outer-column": col // 3,
                    "inner-row": row % 3,
                    "inner-column": col % 3,
                }
            )
    boards = []
    for board in range(9):
        if not (position.closed_boards >> board) & 1:
            continue
        winner = position.local_winner(board)
        boards.append(
            {
                "player": None if winner is None else winner + 1,
                "type": "full" if winner is None else MARKS[winner],
                "outer-row": board // 3,
                "outer-column": board % 3,
            }
        )
    free = position.board == ANY_BOARD or position.outcome.is_over
    constraint = {
        "outer-row": None if free else position.board // 3,
        "outer-column": None if free else position.board % 3,
    }
    return {
        "pieces": pieces,
        "boards": boards,
        "constraint": constraint,
        "player": player,
        "previous_player": 3 - player,
    }


def action_to_move(spec: GameSpec, action: Any) -> int:
    """The move an ACTION names; IllegalMoveError if it is malformed or off the board (not legality)."""
    return NET_GAMES[spec.family].action_to_move(spec, action)


def move_to_action(spec: GameSpec, move: int) -> dict[str, int]:
    return NET_GAMES[spec.family].move_to_action(spec, move)


def _column_of(spec: GameSpec, action: Any) -> int:
    return _int_field(action, "column", spec.width)


def _cell_of(spec: GameSpec, action: Any) -> int:
    return _int_field(action, "row", spec.height) * spec.width + _int_field(action, "column", spec.width)


def _uttt_cell_of(spec: GameSpec, action: Any) -> int:
    orow, ocol, irow, icol = (_int_field(action, key, 3) for key in UTTT_KEYS)
    return (orow * 3 + irow) * 9 + ocol * 3 + icol


def _column_action(spec: GameSpec, move: int) -> dict[str, int]:
    return {"column": move}


def _cell_action(spec: GameSpec, move: int) -> dict[str, int]:
    row, col = divmod(move, spec.width)
    return {"row": row, "column": col}


def _uttt_action(spec: GameSpec, move: int) -> dict[str, int]:
    row, col = divmod(move, spec.width)
    return {"outer-row": row // 3, "outer-column": col // 3, "inner-row": row % 3, "inner-column": col % 3}


def winners_of(position: Position, loser_seat: int | None = None) -> dict[str, float] | None:
    """``{"1": 1, "2": 0}`` style result: from the rules, or a loss for ``loser_seat`` (time, resign)."""
    if loser_seat is not None:
        return {str(loser_seat): 0, str(3 - loser_seat): 1}
    outcome = position.outcome
    if outcome.status is Status.WIN:
        assert outcome.winner is not None
        return {str(outcome.winner + 1): 1, str(2 - outcome.winner): 0}
    if outcome.status is Status.DRAW:
        return {"1": 0.5, "2": 0.5}
    return None


def points_of(spec: GameSpec, winners: dict[str, float]) -> dict[str, float]:
    """Connect 4: the winners' numbers; the other games +1 / -1, a draw 0 / 0."""
    return NET_GAMES[spec.family].points(winners)


def _winners_as_points(winners: dict[str, float]) -> dict[str, float]:
    return dict(winners)


def _plus_minus_points(winners: dict[str, float]) -> dict[str, float]:
    return {seat: round((value - 0.5) * 2) for seat, value in winners.items()}


BY_LAYOUT: dict[BoardLayout, NetGame] = {
    BoardLayout.COLUMNS: NetGame(_connect4_state, _column_of, _column_action, _winners_as_points),
    BoardLayout.CELLS: NetGame(_marks_state, _cell_of, _cell_action, _plus_minus_points),
    BoardLayout.LOCAL_BOARDS: NetGame(_uttt_state, _uttt_cell_of, _uttt_action, _plus_minus_points),
}
# one entry per game family: a view over the registrations
NET_GAMES: Mapping[str, NetGame] = view(lambda registration: BY_LAYOUT[registration.layout])
