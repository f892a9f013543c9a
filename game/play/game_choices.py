"""The games the new-game dialog offers (names from ``game.rules.registry``), in its order. Their titles come
from each game's capability record (``game.rules.capabilities``)."""

from __future__ import annotations

GAME_CHOICES: tuple[str, ...] = (
    "connect4",
    "connect4:8x7",
    "connect4:9x6",
    "tictactoe",
    "mnk:6x6:4",
    "gomoku",
    "uttt",
)
