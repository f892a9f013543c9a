"""Exceptions raised by the rules. All are ValueError subclasses with one-line messages."""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every rules error; the message is one line meant for a user."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid here (column full, cell taken, game over...)."""


class NotationError(GameError):
    """Text that is not a move, position or game name in the project's notation."""


class UnknownGameError(NotationError):
    """A game name that is not one of the supported games."""
