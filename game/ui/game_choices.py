"""The games offered by the app's game picker (names from ``game.registry``) and their titles."""

from __future__ import annotations

import re

GAME_CHOICES: tuple[str, ...] = (
    "connect4",
    "connect4:8x7",
    "connect4:9x6",
    "tictactoe",
    "mnk:6x6:4",
    "gomoku",
    "uttt",
)


def game_title(name: str) -> str:
    """A player-facing title: ``connect4:8x7`` -> "Connect 4 · 8x7", ``mnk:6x6:4`` -> "6x6 four in a row"."""
    if name == "connect4":
        return "Connect 4"
    if m := re.fullmatch(r"connect4:(\d+x\d+)", name):
        return f"Connect 4 · {m[1]}"
    if name == "tictactoe":
        return "Tic-tac-toe"
    if name == "gomoku":
        return "Gomoku"
    if name == "uttt":
        return "Ultimate tic-tac-toe"
    if m := re.fullmatch(r"mnk:(\d+x\d+):(\d+)", name):
        return f"m,n,k {m[1]} · {m[2]} in a row"
    return name


def next_game(current: str, direction: int = 1) -> str:
    """The next game of the picker (the current one may be a game not in the list)."""
    if current not in GAME_CHOICES:
        return GAME_CHOICES[0 if direction > 0 else -1]
    i = GAME_CHOICES.index(current) + direction
    return GAME_CHOICES[i % len(GAME_CHOICES)]
