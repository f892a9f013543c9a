"""The small API every game implements (shaped after OpenSpiel's State and python-chess's Board).

A *game* (``GameSpec``) is a rule set with a name such as ``connect4`` or ``mnk:6x6:4``.
A *position* is immutable and hashable; ``play`` returns a new position.
Moves are plain ints:

* Connect 4: the 0-based column index.
* Grid games: the cell index ``row * width + col`` with row 0 at the bottom.

Cells (for drawing and winning lines) use the same ``row * width + col`` index in every game.
Players are 0 (moves first) and 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


class Status(enum.Enum):
    ONGOING = "ongoing"
    WIN = "win"
    DRAW = "draw"


@dataclass(frozen=True)
class Outcome:
    """The result of a position: ongoing, a win for ``winner`` along ``line``, or a draw."""

    status: Status
    winner: int | None = None
    line: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.status is not Status.ONGOING


ONGOING = Outcome(Status.ONGOING)
DRAW = Outcome(Status.DRAW)


@runtime_checkable
class Position(Protocol):
    """What the search, the UI and the tools may ask of any position."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def to_move(self) -> int: ...

    @property
    def ply(self) -> int: ...

    @property
    def history(self) -> tuple[int, ...]: ...

    @property
    def outcome(self) -> Outcome: ...

    def legal_moves(self) -> tuple[int, ...]: ...

    def play(self, move: int) -> Position: ...

    def cell(self, index: int) -> int | None:
        """Owner (0 or 1) of the cell ``row * width + col``, or None if empty."""
        ...

    def to_text(self) -> str: ...


class GameFamily(enum.StrEnum):
    """The kinds of rule set, one per rules module. Each floor that treats the games differently (the app's
    capabilities, the terminal's drawing, the network states, the search kernels) keeps one entry per family
    in a table keyed by this (tests/test_game_families.py checks that every family has one on every floor),
    instead of asking ``isinstance`` of the rule classes. Those tables are views over one registration per
    family (``game.rules.family_registration``): a family a plugin registers at runtime is a plain string key,
    which is why ``GameSpec.family`` is typed ``str`` (these members are strings too)."""

    CONNECT4 = "connect4"  # game/rules/connect4.py (any size)
    MNK = "mnk"  # game/rules/mnk.py: tic-tac-toe, gomoku, m,n,k games
    UTTT = "uttt"  # game/rules/uttt.py: ultimate tic-tac-toe


@runtime_checkable
class GameSpec(Protocol):
    """A rule set: its name, family, board size, notation and start position."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...  # a GameFamily member, or the key of a family registered at runtime

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def start(self) -> Position: ...

    def parse_move(self, text: str) -> int: ...

    def move_to_text(self, move: int) -> str: ...

    def parse_position(self, text: str) -> Position: ...

    def parse_moves(self, text: str) -> tuple[int, ...]: ...

    def moves_to_text(self, moves: tuple[int, ...] | list[int]) -> str: ...
