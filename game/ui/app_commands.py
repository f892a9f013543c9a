"""Two handlers of the app's commands (see ``effects``): the history and the bots' pause (``History``: undo,
redo, the arrows, continue from here, pause and step) and the window's own (``WindowCommands``:
help, the drawer, the key cursor, quit). Each answers ``handle(command)`` with the effects the app carries out.
"""

from __future__ import annotations

from collections.abc import Callable

from game.play.actions import Command
from game.play.controller import redo_target, undo_target
from game.play.players import Mode
from game.play.session import Session
from game.play.settings import Settings
from game.rules.capabilities import GameCapabilities
from game.ui import cursor as cursors
from game.ui.effects import CancelSearch, Effects, GameChanged, HumanMove, Notice, ShowOverlay, ShowPly
from game.ui.frame import HelpCard, Overlay


class History:
    """Moving through the game and holding the bots: owns whether bot-vs-bot is paused (and asked to step)
    and whether "continue from here" was asked once."""

    COMMANDS: tuple[Command, ...] = (
        Command.UNDO,
        Command.REDO,
        Command.FIRST,
        Command.PREV,
        Command.NEXT,
        Command.LAST,
        Command.CONTINUE,
        Command.PAUSE,
        Command.STEP,
    )

    def __init__(self, settings: Settings, session: Session) -> None:
        self.settings, self.session = settings, session
        self.paused = False
        self.step_requested = False
        self.continue_asked: tuple[str, int] | None = None  # Continue pressed once here (it asks before dropping)

    @property
    def bots_only(self) -> bool:
        return self.settings.mode == Mode.BOT_VS_BOT

    @property
    def held(self) -> bool:
        """Bot-vs-bot is paused and no step is asked for: no bot moves."""
        return self.bots_only and self.paused and not self.step_requested

    def started(self, moves: tuple[int, ...]) -> None:
        """A new game: bot-vs-bot from a given position starts paused."""
        self.paused = self.bots_only and bool(moves)
        self.step_requested = False

    def handle(self, c: Command) -> Effects:
        s, sess = self.settings, self.session
        if c is Command.UNDO:
            if sess.cursor == 0:
                return []
            self.paused = self.paused or self.bots_only
            return [CancelSearch(), ShowPly(undo_target(s, sess))]
        if c is Command.REDO:
            return [CancelSearch(), ShowPly(redo_target(s, sess))]
        if c is Command.CONTINUE:
            return self._continue()
        if c is Command.PAUSE and self.bots_only:
            self.paused, self.step_requested = not self.paused, False
        elif c is Command.STEP and self.bots_only and self.paused:
            self.step_requested = True
        elif c in (Command.FIRST, Command.PREV, Command.NEXT, Command.LAST):
            jumps = {Command.FIRST: 0, Command.PREV: sess.cursor - 1, Command.NEXT: sess.cursor + 1}
            return [ShowPly(jumps.get(c, len(sess.line)))]
        return []

    def _continue(self) -> Effects:
        sess = self.session
        if sess.at_end:
            return []
        dropped = len(sess.line) - sess.cursor
        asked = (sess.moves_text, len(sess.line))
        if self.continue_asked != asked:  # the later moves would be lost: asked first
            self.continue_asked = asked
            later = "move" if dropped == 1 else f"{dropped} moves"
            return [
                Notice(f"Continue drops the later {later}: press C again to play on from here", about_position=True)
            ]
        self.continue_asked = None
        sess.truncate()
        return [GameChanged()]


class WindowCommands:
    """The window's commands: the help card and its pages, the drawer, the key cursor, quit. Owns the pointer
    (the mouse, the hovered move, the key cursor), whether the drawer (the narrow window's panel) is open and
    whether the app runs; reads the card shown."""

    COMMANDS: tuple[Command, ...] = (
        Command.HELP,
        Command.NEXT_PAGE,
        Command.PANEL,
        Command.PLAY_CURSOR,
        Command.CLEAR_CURSOR,
        Command.QUIT,
    )

    def __init__(self, overlay: Callable[[], Overlay | None]) -> None:
        self._overlay = overlay
        self.running = True
        self.panel_open = False
        self.mouse = (-1, -1)
        self.hover: int | None = None
        self.key_cursor: int | None = None

    def handle(self, c: Command) -> Effects:
        overlay = self._overlay()
        if c is Command.HELP:
            return [ShowOverlay(None if isinstance(overlay, HelpCard) else HelpCard())]
        if c is Command.NEXT_PAGE and isinstance(overlay, HelpCard):
            return [ShowOverlay(HelpCard(overlay.page + 1))]
        if c is Command.PLAY_CURSOR:
            target = self.key_cursor if self.key_cursor is not None else self.hover
            return [] if target is None else [HumanMove(target)]
        if c is Command.PANEL:
            self.panel_open = not self.panel_open
        elif c is Command.CLEAR_CURSOR:
            self.key_cursor = None
        elif c is Command.QUIT:
            self.running = False
        return []

    def hovered(self, pixel: tuple[int, int], move: int | None) -> None:
        self.mouse, self.hover = pixel, move
        if move is not None:
            self.key_cursor = None

    def move_cursor(self, dx: int, dy: int, legal: tuple[int, ...], caps: GameCapabilities) -> None:
        if caps.gravity:
            self.key_cursor = cursors.next_column(legal, caps.width, self.key_cursor, self.hover, dx)
        else:
            self.key_cursor = cursors.next_cell(legal, caps.width, caps.height, self.key_cursor, self.hover, dx, dy)
