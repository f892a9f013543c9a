"""What each game is, declared once: the UI asks this record instead of probing positions.

Pure (no pygame, no numba). ``capabilities(spec)`` finds the record through the game's family
(``GameFamily``): one entry per family in ``RECORDS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from game.rules.base import GameFamily, GameSpec
from game.rules.mnk import MnkSpec, as_mnk_spec

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


def _connect4(spec: GameSpec) -> GameCapabilities:
    size = "" if (spec.width, spec.height) == (7, 6) else f" {spec.width}x{spec.height}"
    return GameCapabilities(
        spec.name,
        f"Connect 4{size}",
        spec.width,
        spec.height,
        gravity=True,
        local_boards=False,
        exact_solver=True,
        pieces="discs",
        player_names=None,
        classic=(spec.width, spec.height) == (7, 6),
    )


def _uttt(spec: GameSpec) -> GameCapabilities:
    return GameCapabilities(
        spec.name,
        "Ultimate tic-tac-toe",
        spec.width,
        spec.height,
        gravity=False,
        local_boards=True,
        exact_solver=False,
        pieces="marks",
        player_names=("X", "O"),
    )


def _mnk(spec: GameSpec) -> GameCapabilities:
    mnk = as_mnk_spec(spec)  # (the family says it is one; this tells mypy about ``k``)
    if mnk is None:
        raise ValueError(f"the app cannot show the game {spec.name!r}")
    return GameCapabilities(
        spec.name,
        _mnk_title(mnk),
        spec.width,
        spec.height,
        gravity=False,
        local_boards=False,
        exact_solver=False,
        pieces=_mnk_pieces(mnk),
        player_names=("X", "O") if _mnk_pieces(mnk) == "marks" else None,
    )


# one entry per game family (tests/test_game_families.py checks that none is missing)
RECORDS: dict[GameFamily, Callable[[GameSpec], GameCapabilities]] = {
    GameFamily.CONNECT4: _connect4,
    GameFamily.MNK: _mnk,
    GameFamily.UTTT: _uttt,
}


def capabilities(spec: GameSpec) -> GameCapabilities:
    """The record of ``spec``'s game; ValueError for a rule set the app does not know."""
    record = RECORDS.get(spec.family)
    if record is None:
        raise ValueError(f"the app cannot show the game {spec.name!r}")
    return record(spec)


def _mnk_pieces(spec: MnkSpec) -> PieceStyle:
    return "marks" if (spec.width, spec.height) == (3, 3) else "stones"


def _mnk_title(spec: MnkSpec) -> str:
    w, h, k = spec.width, spec.height, spec.k
    if (w, h, k) == (3, 3, 3):
        return "Tic-tac-toe"
    if (w, h, k) == (15, 15, 5):
        return "Gomoku 15x15"
    words = {3: "Three", 4: "Four", 5: "Five", 6: "Six"}
    return f"{words.get(k, str(k))} in a row {w}x{h}"
