"""The app's commands (buttons and keys that are no preference): the dialogs, history, pause and step, the
solver's background looks, the drawer, files, the cursor, quit. A base class of ``game_app.App`` (kept apart
so the app object stays small), on the attributes and methods the app sets up."""

from __future__ import annotations

from pathlib import Path

from game.play.actions import Command
from game.play.controller import redo_target, undo_target
from game.play.new_game import NewGameChoice
from game.play.session import Session
from game.play.settings import Settings
from game.play.turns import EngineTurns
from game.ui.app_files import FILE_COMMANDS
from game.ui.frame import HelpCard, Overlay


class Commands:
    settings: Settings
    session: Session
    turns: EngineTurns
    overlay: Overlay | None
    choice: NewGameChoice | None
    paused: bool
    step_requested: bool
    panel_open: bool
    running: bool
    key_cursor: int | None
    hover: int | None
    pending_paste: str | None
    continue_asked: tuple[str, int] | None
    _dirty_game: bool

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        raise NotImplementedError

    def open_new_game_dialog(self, first_launch: bool = False) -> None:
        raise NotImplementedError

    def start_chosen_game(self) -> None:
        raise NotImplementedError

    def load(self, text: str | None = None, path: Path | None = None) -> None:
        raise NotImplementedError

    def file_command(self, c: Command) -> None:
        raise NotImplementedError

    def cancel_search(self) -> None:
        raise NotImplementedError

    def go_to(self, ply: int) -> None:
        raise NotImplementedError

    def human_move(self, move: int) -> None:
        raise NotImplementedError

    def command(self, c: Command) -> None:
        """Carry out ``c`` (a network game's own commands were handled before)."""
        s, sess = self.settings, self.session
        if c is Command.NEW_GAME:
            self.open_new_game_dialog()
        elif c is Command.START and self.choice is not None:
            pasted, self.pending_paste = self.pending_paste, None
            self.start_chosen_game()
            if pasted is not None and self.overlay is None and self.session.spec.name == "connect4":
                self.load(text=pasted)
        elif c is Command.CLOSE:
            self.overlay, self.choice, self.pending_paste = None, None, None
        elif c is Command.NEXT_PAGE and isinstance(self.overlay, HelpCard):
            self.overlay = HelpCard(self.overlay.page + 1)
        elif c is Command.HELP:
            self.overlay = None if isinstance(self.overlay, HelpCard) else HelpCard()
        elif c is Command.UNDO and sess.cursor > 0:
            self.cancel_search()
            if s.mode == "bot-vs-bot":
                self.paused = True
            self.go_to(undo_target(s, sess))
        elif c is Command.REDO:
            self.cancel_search()
            self.go_to(redo_target(s, sess))
        elif c in (Command.FIRST, Command.PREV, Command.NEXT, Command.LAST):
            self.go_to(
                {
                    Command.FIRST: 0,
                    Command.PREV: sess.cursor - 1,
                    Command.NEXT: sess.cursor + 1,
                    Command.LAST: len(sess.line),
                }[c]
            )
        elif c is Command.CONTINUE and not sess.at_end:
            dropped = len(sess.line) - sess.cursor
            asked = (sess.moves_text, len(sess.line))
            if self.continue_asked != asked:  # the later moves would be lost: asked first
                self.continue_asked = asked
                later = "move" if dropped == 1 else f"{dropped} moves"
                self.set_notice(
                    f"Continue drops the later {later}: press C again to play on from here", about_position=True
                )
                return
            self.continue_asked = None
            sess.truncate()
            self._dirty_game = True
        elif c is Command.PAUSE and s.mode == "bot-vs-bot":
            self.paused, self.step_requested = not self.paused, False
        elif c is Command.STEP and s.mode == "bot-vs-bot" and self.paused:
            self.step_requested = True
        elif c is Command.STOP_SOLVING:
            self.turns.stop_solving(sess)
        elif c is Command.PANEL:
            self.panel_open = not self.panel_open
        elif c in FILE_COMMANDS:
            self.file_command(c)
        elif c is Command.PLAY_CURSOR:
            target = self.key_cursor if self.key_cursor is not None else self.hover
            if target is not None:
                self.human_move(target)
        elif c is Command.CLEAR_CURSOR:
            self.key_cursor = None
        elif c is Command.QUIT:
            self.running = False
