"""Pure game rules: immutable positions, one notation, no pygame and no numba."""

from game.rules.base import DRAW, ONGOING, GameSpec, Outcome, Position, Status
from game.rules.connect4 import Connect4Position, Connect4Spec
from game.rules.errors import GameError, IllegalMoveError, NotationError, UnknownGameError
from game.rules.registry import GAME_NAMES, get_game

__all__ = [
    "DRAW",
    "GAME_NAMES",
    "ONGOING",
    "Connect4Position",
    "Connect4Spec",
    "GameError",
    "GameSpec",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "Position",
    "Status",
    "UnknownGameError",
    "get_game",
]
