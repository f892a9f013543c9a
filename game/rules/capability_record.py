"""The capability record of a game: what the app and the tools ask of a game instead of probing its positions
(made per family by ``game.rules.capabilities``). Its own module so the family registrations can name it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PieceStyle = Literal["discs", "marks", "stones"]


@dataclass(frozen=True)
class GameCapabilities:
    name: str  # the registry name, e.g. "connect4:8x7"
    title: str  # what a player calls it, e.g. "Four in a row 6x6"
    width: int
    height: int
    gravity: bool  # moves are columns and pieces fall to the lowest empty cell
    local_boards: bool  # Ultimate tic-tac-toe: nine local boards, the last move sends you to one
    exact_solver: bool  # the engine's exact solver covers this game (exact verdicts, Perfect play)
    pieces: PieceStyle
    player_names: tuple[str, str] | None  # fixed names (X and O); None: the theme's colour names
    # the classic 7x6 Connect 4 (the default game): the opening book, the puzzles and connect4.gamesolver.org
    # know its positions, and a position of it is written without the game's name ("4453")
    classic: bool = False

    @property
    def cells(self) -> int:
        return self.width * self.height
