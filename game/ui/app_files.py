"""The app's files and clipboard: save, the load card, copy, paste, open a game. A base class of
``game_app.App`` (kept apart so the app object stays small), on the attributes the app sets up."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from game.play.actions import Command
from game.play.game_files import (
    SaveFileError,
    copy_position,
    describe_saved,
    is_connect4_text,
    read_game,
    restore_evals,
    save_with_evals,
)
from game.play.new_game import NewGameChoice
from game.play.session import Session
from game.play.settings import Settings, games_dir
from game.rules import GameSpec
from game.ui import files
from game.ui.frame import LoadCard, Overlay

FILE_COMMANDS = (Command.SAVE, Command.LOAD, Command.COPY, Command.PASTE)


class FileCommands:
    settings: Settings
    session: Session
    overlay: Overlay | None
    choice: NewGameChoice | None
    paused: bool
    pending_paste: str | None

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        raise NotImplementedError

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        raise NotImplementedError

    def open_new_game_dialog(self, first_launch: bool = False) -> None:
        raise NotImplementedError

    def _show_dialog(self, first_launch: bool) -> None:
        raise NotImplementedError

    def saved_text(self, text: str) -> str:
        raise NotImplementedError

    def loaded_text(self, text: str) -> None:
        raise NotImplementedError

    def file_command(self, c: Command) -> None:
        if c is Command.SAVE:
            self._report(save_with_evals(self.session, games_dir(), self.saved_text))
        elif c is Command.LOAD:
            folder = games_dir()
            found = tuple(files.saved_games(folder))
            self.overlay = LoadCard(found, folder, tuple(describe_saved(p, self.session.spec.name) for p in found))
        elif c is Command.COPY:
            self._report(copy_position(self.session, files.copy_text))
        elif c is Command.PASTE:
            pasted = files.paste_text()
            if not pasted or not pasted.strip():
                self.set_notice("The clipboard holds no position", error=True)
            else:
                self.load(text=pasted)

    def _report(self, result: tuple[str, bool]) -> None:
        text, ok = result
        self.set_notice(text, error=not ok)

    def load(self, text: str | None = None, path: Path | None = None) -> None:
        """Open a saved game or a position; on failure keep the game and say why. A bare Connect 4 position
        pasted over another game asks first, as a new game does (the new-game dialog: Start or Esc)."""
        source = path.name if path is not None else "the clipboard"
        if text is not None and self.session.spec.name != "connect4" and is_connect4_text(text):
            self.open_new_game_dialog()
            assert self.choice is not None
            self.choice = replace(self.choice, game="connect4")
            self._show_dialog(False)
            self.pending_paste = text
            self.set_notice(f"{text.strip()} is a Connect 4 position: Start switches to Connect 4 and opens it")
            return
        try:
            game = read_game(self.session.spec.name, text=text, path=path)
            self.new_game(game.spec, game.moves, game.cursor)
        except (SaveFileError, ValueError) as exc:
            self.set_notice(f"Could not load {source}: {str(exc).splitlines()[0]}", error=True)
            return
        restore_evals(self.session, game.evals)
        self.loaded_text(game.text)
        self.paused = self.settings.mode == "bot-vs-bot"
        self.set_notice(f"Loaded {source}: {len(game.moves)} moves")
