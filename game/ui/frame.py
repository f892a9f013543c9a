"""One frame's snapshot: everything drawing needs, immutable, built by the app each frame.

Drawing code takes ``(surface, frame, layout)`` and writes no state. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.play.exact import Verdict
from game.play.heat import HeatData
from game.play.new_game import ChoiceRow
from game.play.session import EvalPoint
from game.play.themes import Color, Theme
from game.rules import Position
from game.rules.capabilities import GameCapabilities
from game.ui.animation import DropAnimation


@dataclass(frozen=True)
class BoardScene:
    """Everything one frame of the board depends on."""

    position: Position
    theme: Theme
    colours: tuple[Color, Color]  # by player (0 moves first)
    marks: tuple[int | None, int | None]  # the colour-blind theme's disc marks, by player
    now: float
    hover: int | None = None  # the move under the mouse or keyboard cursor
    preview_player: int | None = None  # whose piece the preview shows (None: no preview)
    animation: DropAnimation | None = None
    heat: HeatData | None = None
    last_move: int | None = None  # the cell of the newest piece
    placed: tuple[int, float] | None = None  # grid games: (cell, when) of the newest piece
    key_cursor: int | None = None  # the keyboard's cell (grid games)
    verdicts: dict[int, Verdict] | None = None  # exact verdicts per column (Connect 4)
    allowed_boards: tuple[int, ...] = ()  # Ultimate TTT: the local boards the side to move may play in
    local_winners: tuple[int | None, ...] = ()  # Ultimate TTT: the winner of each local board

    def colour_of(self, player: int) -> Color:
        return self.colours[player]

    def mark_of(self, player: int) -> int | None:
        return self.marks[player]


@dataclass(frozen=True)
class Banner:
    text: str
    hint: str
    colour: Color | None  # the winner's colour (None: a draw)


@dataclass(frozen=True)
class PlayerRow:
    name: str
    colour: Color
    bot_label: str | None  # None: a human
    custom: bool  # the bot's level is a custom budget (its - / + buttons are shown)
    detail: str = ""  # the bot level's time per move (its tooltip)


@dataclass(frozen=True)
class NetPanel:
    """A network game's part of the panel: resign and draw take the place of undo and redo."""

    you: int | None  # the player (0 moves first) this app plays; None before the server seats it
    can_resign: bool
    draw_label: str  # "Offer draw", "Accept draw", "Draw offered"
    can_draw: bool
    clocks: tuple[str, str] | None = None  # by player, as shown (None: no clock)
    running: int | None = None  # the player whose clock runs
    flagged: int | None = None  # the player whose flag fell
    rematch_label: str | None = None  # after the game: "Rematch", "Accept" (offered to us), "Offered"
    can_rematch: bool = False
    watching: bool = False  # a spectator: both rows are players, nobody is "you"


@dataclass(frozen=True)
class PanelModel:
    mode_label: str
    players: tuple[PlayerRow, PlayerRow]
    bot_vs_bot: bool
    paused: bool
    can_step: bool
    can_undo: bool
    can_redo: bool
    at_start: bool
    at_end: bool
    heatmap: bool
    exact: bool
    exact_available: bool
    eval_bar: bool
    sound: bool
    theme_label: str
    network: NetPanel | None = None
    ponder: bool | None = None  # "Think on your time" in force (None: not a game against the bot)
    ponder_applies: bool = False  # the bot's level plays by time (Perfect, Custom), so thinking ahead helps it
    over: bool = False  # the game is over (Pause and Think have nothing left to do)
    sound_available: bool = True  # an audio device opened (else the Sound button says there is none)
    reviewed: bool = False  # the game has a review (Review is lit; Share works)
    training: bool = False  # training mode is on


@dataclass(frozen=True)
class Progress:
    label: tuple[str, ...]  # variants, longest first
    fraction: float | None  # None: unknown (an indeterminate bar, never a made-up fraction)
    colour: Color


@dataclass(frozen=True)
class Notice:
    text: str
    error: bool


@dataclass(frozen=True)
class Status:
    texts: tuple[str, ...]  # variants, longest first
    dot: Color | None
    bold: bool
    progress: Progress | None
    notice: Notice | None
    stop_solving: bool = False  # the solver works on in the background: the bar offers to stop it
    back_to_game: bool = False  # a layer (Learn, a puzzle) is open over the game: the bar offers to leave it


@dataclass(frozen=True)
class EvalBarState:
    shown: float  # the first player's share, eased
    known: bool  # the shown position has a value (else the bar keeps the last one, without a label)
    exact: bool
    seen: bool = True  # any value at all so far (else the bar is drawn empty)


@dataclass(frozen=True)
class HelpCard:
    page: int = 0


@dataclass(frozen=True)
class LoadCard:
    files: tuple[Path, ...]
    folder: Path
    labels: tuple[str, ...] = ()  # per file: the game, its moves, when it was saved (else the file name)


@dataclass(frozen=True)
class NewGameCard:
    rows: tuple[ChoiceRow, ...]
    first_launch: bool


Overlay = HelpCard | LoadCard | NewGameCard


@dataclass(frozen=True)
class ReviewView:
    """The review's part of a frame (``game.ui.review_view`` draws it): marks, the shown move's note, hints."""

    classes: tuple[str, ...]  # per move of the line: its class ("" not reviewed)
    note: tuple[str, ...] = ()  # the shown move's verdicts, longest first (empty: none)
    note_class: str = ""
    played: int | None = None  # the shown move (its disc gets a ring in its class's colour)
    best: int | None = None  # the better move (a ghost disc at the position before)
    best_cell: int | None = None  # where the better move's disc would have landed
    summary: tuple[str, ...] = ()  # per player accuracy and counts, longest first
    progress: float | None = None  # the running review's share of positions scored (None: not running)
    hint: int | None = None  # a hint's move on show
    hint_cell: int | None = None
    hint_label: str = "hint"
    training: bool = False  # evaluations hidden


@dataclass(frozen=True)
class Frame:
    now: float
    theme: Theme
    caps: GameCapabilities
    title: str
    subtitle: str
    board: BoardScene
    banner: Banner | None
    eval_bar: EvalBarState | None
    panel: PanelModel
    moves: tuple[str, ...]
    cursor: int
    move_scroll: int
    graph: tuple[EvalPoint | None, ...]
    graph_label: str | tuple[str, ...]  # whose chance the graph shows ("Red's winning chance"), or variants
    status: Status
    overlay: Overlay | None
    mouse: tuple[int, int]
    panel_open: bool
    review: ReviewView | None = None
    branches: tuple[int, ...] = ()  # per move of the line: other moves tried at the position before it
    variation_rows: tuple[tuple[int, str], ...] = ()  # (pair row, label) of each other line, in the move list
