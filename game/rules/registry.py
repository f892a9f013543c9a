"""Game names, the same on every path (``--game``, save files, engine protocol).

``connect4`` (7x6) or ``connect4:WxH``, ``tictactoe``, ``mnk:MxN:K`` (M columns, N rows,
K in a row), ``gomoku`` (= ``mnk:15x15:5``), ``uttt``; and the names of any family registered at runtime
(``game.rules.family_registration``): each family's registration parses its own names.
"""

from __future__ import annotations

import re

from game.rules.base import GameSpec
from game.rules.errors import NotationError, UnknownGameError
from game.rules.family_registration import registered_families

GAME_NAMES = ("connect4", "connect4:WxH", "tictactoe", "mnk:MxN:K", "gomoku", "uttt")  # the shipped families'
MAX_GRID = 19

_SIZE = r"(\d{1,2})x(\d{1,2})"


def get_game(name: str = "connect4") -> GameSpec:
    """Return the rule set called ``name``; raise UnknownGameError with the accepted names."""
    if not isinstance(name, str):
        raise UnknownGameError(f"game name must be a string, not {type(name).__name__}")
    text = name.strip().lower()
    for registration in registered_families():
        spec = registration.parse_name(text)
        if spec is not None:
            return spec
    raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(game_names())}")


def game_names() -> tuple[str, ...]:
    """The names of every registered family (the shipped ones: ``GAME_NAMES``)."""
    return tuple(n for registration in registered_families() for n in registration.names)


def parse_connect4(text: str) -> GameSpec | None:
    if text == "connect4":
        from game.rules.connect4 import Connect4Spec

        return Connect4Spec()
    if m := re.fullmatch(r"connect4:" + _SIZE, text):
        from game.rules.connect4 import Connect4Spec

        return Connect4Spec(int(m[1]), int(m[2]))
    return None


def parse_uttt(text: str) -> GameSpec | None:
    if text == "uttt":
        from game.rules.uttt import UtttSpec

        return UtttSpec()
    return None


def parse_mnk(text: str) -> GameSpec | None:
    if not (text in ("tictactoe", "gomoku") or text.startswith("mnk:")):
        return None
    from game.rules.mnk import MnkSpec

    if text == "tictactoe":
        return MnkSpec(3, 3, 3)
    if text == "gomoku":
        return MnkSpec(15, 15, 5)
    m = re.fullmatch(r"mnk:" + _SIZE + r":(\d{1,2})", text)
    if not m:
        raise UnknownGameError(f"bad m,n,k game name {text!r}: expected mnk:MxN:K, e.g. mnk:6x6:4")
    w, h, k = int(m[1]), int(m[2]), int(m[3])
    if not (1 <= w <= MAX_GRID and 1 <= h <= MAX_GRID and 2 <= k <= max(w, h)):
        raise NotationError(
            f"m,n,k board {w}x{h} with {k} in a row is not supported: sides 1-{MAX_GRID}, 2 <= K <= the longer side"
        )
    return MnkSpec(w, h, k)
