"""Game names, the same on every path (``--game``, save files, engine protocol).

``connect4`` (7x6) or ``connect4:WxH``, ``tictactoe``, ``mnk:MxN:K`` (M columns, N rows,
K in a row), ``gomoku`` (= ``mnk:15x15:5``), ``uttt``.
"""

from __future__ import annotations

import re

from game.rules.base import GameSpec
from game.rules.errors import NotationError, UnknownGameError

GAME_NAMES = ("connect4", "connect4:WxH", "tictactoe", "mnk:MxN:K", "gomoku", "uttt")
MAX_GRID = 19

_SIZE = r"(\d{1,2})x(\d{1,2})"


def get_game(name: str = "connect4") -> GameSpec:
    """Return the rule set called ``name``; raise UnknownGameError with the accepted names."""
    if not isinstance(name, str):
        raise UnknownGameError(f"game name must be a string, not {type(name).__name__}")
    text = name.strip().lower()
    if text == "connect4":
        from game.rules.connect4 import Connect4Spec

        return Connect4Spec()
    if m := re.fullmatch(r"connect4:" + _SIZE, text):
        from game.rules.connect4 import Connect4Spec

        return Connect4Spec(int(m[1]), int(m[2]))
    if text in ("tictactoe", "gomoku") or text.startswith("mnk:"):
        return _mnk(text)
    if text == "uttt":
        from game.rules.uttt import UtttSpec

        return UtttSpec()
    raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(GAME_NAMES)}")


def _mnk(text: str) -> GameSpec:
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
