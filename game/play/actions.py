"""What the player asked for, as small typed values: input makes them, ``App.apply`` carries them out.

No pygame, no strings to parse: a button or a key holds one of these values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path


class Command(enum.Enum):
    NEW_GAME = "new game…"  # open the new-game dialog
    UNDO = "undo"
    REDO = "redo"
    FIRST = "first position"
    PREV = "back"
    NEXT = "forward"
    LAST = "latest move"
    CONTINUE = "continue from here"
    HEATMAP = "heatmap"
    EXACT = "exact verdicts"
    EVAL = "eval bar"
    SOUND = "sound"
    PONDER = "think on your time"
    PAUSE = "pause"
    STEP = "step"
    HELP = "help"
    PANEL = "menu"
    SAVE = "save"
    LOAD = "load"
    COPY = "copy"
    PASTE = "paste"
    QUIT = "quit"
    CLOSE = "close"  # the open card or dialog
    PLAY_CURSOR = "play at the cursor"
    CLEAR_CURSOR = "hide the cursor"
    START = "start the new game"
    NEXT_PAGE = "next page"
    RESIGN = "resign"  # network games: the protocol's resign
    OFFER_DRAW = "offer or accept a draw"  # network games
    REMATCH = "offer or accept a rematch"  # network games, once one is over (colours swapped)
    ERASE = "erase a character"  # the dialog's text field
    STOP_SOLVING = "stop solving"  # the solver's background looks at the shown position
    REVIEW = "review the game"  # every move judged (game/play/review_session.py)
    HINT = "hint"  # one best move, shown briefly and counted in the review
    TRAINING = "training mode"  # every evaluation hidden until the game ends or the player asks
    NEXT_MISTAKE = "next mistake"
    PREV_MISTAKE = "previous mistake"
    SHARE = "export a picture and an animation of the game"
    PUZZLES = "puzzle mode"
    PUZZLE_GRADE = "puzzles of the next grade"
    LEARN = "learn from your mistakes"
    BACK_TO_GAME = "back to the game"  # leave Learn or a puzzle: the game as it was
    NEXT_VARIATION = "the next move tried at the shown position"
    PROMOTE = "make the shown line the main line"
    DELETE_MOVE = "delete the shown move and what follows"
    FOLD_VARIATIONS = "fold or unfold the variations in the move list"


class DialogField(enum.Enum):
    GAME = "Game"
    MODE = "Mode"
    NET_ROLE = "Network"
    ADDRESS = "Address"
    LISTEN = "Listen on"
    CLOCK = "Clock"
    COLOUR = "You play"  # a colour, or X / O
    STARTER = "Who starts"
    LEVEL = "Bot level"
    LEVEL2 = "Second bot"
    THREADS = "Search threads"


@dataclass(frozen=True)
class GoTo:
    ply: int


@dataclass(frozen=True)
class ShowVariation:
    """A variation's row in the move list: show that line (its index in the frame's variation rows)."""

    index: int


@dataclass(frozen=True)
class PlayMove:
    move: int


@dataclass(frozen=True)
class CycleTheme:
    direction: int


@dataclass(frozen=True)
class CycleBotLevel:
    player: int
    direction: int


@dataclass(frozen=True)
class ToggleAutoplay:
    """A player row's button: Perfect takes ``player``'s side, or the player takes it back (game/play/autoplay.py)."""

    player: int


@dataclass(frozen=True)
class StepCustomTime:
    player: int
    direction: int


@dataclass(frozen=True)
class MoveCursor:
    dx: int
    dy: int = 0


@dataclass(frozen=True)
class Hover:
    pixel: tuple[int, int]
    move: int | None  # the move under the pixel (None: off the board)


@dataclass(frozen=True)
class ScrollMoves:
    rows: int


@dataclass(frozen=True)
class LoadFile:
    path: Path


@dataclass(frozen=True)
class ChangeChoice:
    field: DialogField
    direction: int


@dataclass(frozen=True)
class TypeText:
    """Characters typed or pasted into the dialog's text field."""

    text: str


Action = (
    Command
    | ShowVariation
    | GoTo
    | PlayMove
    | CycleTheme
    | CycleBotLevel
    | StepCustomTime
    | MoveCursor
    | Hover
    | ScrollMoves
    | LoadFile
    | ChangeChoice
    | TypeText
    | ToggleAutoplay
)
