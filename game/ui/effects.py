"""What a handler asks of the app: the one way the app's handlers talk back.

A handler (``app_commands``, ``app_dialog``, ``app_files``, ``app_review``, ``app_puzzles``, ``app_variations``,
``net_game``) owns its state and reads the play model it was given (the session, the settings); whatever it
wants done beyond its own state, it returns as a list of these values, and ``App.carry_out`` applies them in
order, in one place. Effects are data only (what to do, never an object that does it): the app builds
what they ask for. The engine's turns (``game.play.turns.EngineTurns``) talk back the same way: their
notices become ``Notice`` effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from game.play.actions import Command
from game.play.game_files import LoadedGame
from game.play.net_match import Role
from game.play.net_setup import Where
from game.rules import GameSpec
from game.ui.frame import Overlay


@dataclass(frozen=True)
class Notice:
    """Show a line of text under the board for a while."""

    text: str
    error: bool = False
    about_position: bool = False  # gone once the shown position changes


@dataclass(frozen=True)
class ShowPly:
    """Show the position after ``ply`` moves; with ``continuation``: then the line goes on with those moves."""

    ply: int
    continuation: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PlayOnBoard:
    """Play ``move`` at the shown position (with the drop animation), as a bot's move or the server's."""

    move: int


@dataclass(frozen=True)
class BotMove:
    """A bot's move is due: played like ``PlayOnBoard``, and a step asked for in bot-vs-bot is done."""

    move: int


@dataclass(frozen=True)
class HumanMove:
    """This app's player plays ``move`` (judged when it answers a puzzle, sent in a network game)."""

    move: int


@dataclass(frozen=True)
class StartGame:
    """A new game of ``spec`` (None: the same game) from ``moves``, showing the position after ``cursor``."""

    spec: GameSpec | None = None
    moves: tuple[int, ...] = ()
    cursor: int | None = None


@dataclass(frozen=True)
class OpenGame:
    """A game read from a file or the clipboard: a new game, then its evaluations, variations and review."""

    game: LoadedGame


@dataclass(frozen=True)
class LayerShown:
    """A layer (Learn, a puzzle) opened or closed over the game: the board shows another game or the kept one
    again (the app takes its capabilities, stops the drop animation and the search)."""


@dataclass(frozen=True)
class LoadText:
    """Open a position or a game given as text (a paste kept while the new-game dialog asked)."""

    text: str


@dataclass(frozen=True)
class OfferSwitch:
    """A Connect 4 position pasted over another game: the new-game dialog opens on Connect 4 to ask first."""

    text: str


@dataclass(frozen=True)
class ShowOverlay:
    """Show a card over the board (None: close it)."""

    overlay: Overlay | None


@dataclass(frozen=True)
class Connect:
    """Take part in a network game once any network game under way was left: host a game of ``game`` (on the
    local network with ``lan``, ``clock_min`` minutes per player), or join or watch the game ``where``."""

    role: Role
    game: str
    where: Where | None = None
    lan: bool = False
    clock_min: int = 0


@dataclass(frozen=True)
class LeaveNetwork:
    """End this app's part in a network game (the server keeps the seat for its grace period)."""


@dataclass(frozen=True)
class RememberSeat:
    """Keep a network game's server and our seat token in the settings, to come back to it ("": forget it)."""

    server: str
    token: str


@dataclass(frozen=True)
class SetThreads:
    threads: int


@dataclass(frozen=True)
class CancelSearch:
    """Whatever the engine searches is of no use any more."""


@dataclass(frozen=True)
class SaveSettings:
    pass


@dataclass(frozen=True)
class GameChanged:
    """The game changed (kept in the tree of variations and the autosave at the end of the frame)."""


Effect = (
    Notice
    | ShowPly
    | PlayOnBoard
    | BotMove
    | HumanMove
    | StartGame
    | OpenGame
    | LayerShown
    | LoadText
    | OfferSwitch
    | ShowOverlay
    | Connect
    | LeaveNetwork
    | RememberSeat
    | SetThreads
    | CancelSearch
    | SaveSettings
    | GameChanged
)
Effects = list[Effect]


class Handler(Protocol):
    """A handler of the app's commands: the app's routing table sends it the commands it names."""

    COMMANDS: tuple[Command, ...]

    def handle(self, c: Command) -> Effects: ...
