"""The app's files and clipboard handler: save, the load card, copy, paste, open a game. Reads the session it
was given; talks back with effects (``game.ui.effects``): a loaded game is an ``OpenGame`` the app carries out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.play.actions import Command
from game.play.game_files import (
    SaveFileError,
    copy_position,
    describe_saved,
    is_connect4_text,
    read_game,
    save_with_evals,
)
from game.play.session import Session
from game.play.settings import games_dir
from game.rules.capabilities import capabilities
from game.ui import files
from game.ui.effects import Effects, Notice, OfferSwitch, OpenGame, ShowOverlay
from game.ui.frame import LoadCard


class FileCommands:
    COMMANDS: tuple[Command, ...] = (Command.SAVE, Command.LOAD, Command.COPY, Command.PASTE)

    def __init__(self, session: Session, saved_text: Callable[[str], str]) -> None:
        self.session = session
        self.saved_text = saved_text  # a game's text with its variations and review (the variations' handler)

    def handle(self, c: Command) -> Effects:
        if c is Command.SAVE:
            return self._report(save_with_evals(self.session, games_dir(), self.saved_text))
        if c is Command.LOAD:
            folder = games_dir()
            found = tuple(files.saved_games(folder))
            return [
                ShowOverlay(LoadCard(found, folder, tuple(describe_saved(p, self.session.spec.name) for p in found)))
            ]
        if c is Command.COPY:
            return self._report(copy_position(self.session, files.copy_text))
        if c is Command.PASTE:
            pasted = files.paste_text()
            if not pasted or not pasted.strip():
                return [Notice("The clipboard holds no position", error=True)]
            return self.load(text=pasted)
        return []

    @staticmethod
    def _report(result: tuple[str, bool]) -> Effects:
        text, ok = result
        return [Notice(text, error=not ok)]

    def load(self, text: str | None = None, path: Path | None = None) -> Effects:
        """Open a saved game or a position; on failure keep the game and say why. A bare Connect 4 position
        pasted over another game asks first, as a new game does (the new-game dialog: Start or Esc)."""
        source = path.name if path is not None else "the clipboard"
        if text is not None and not capabilities(self.session.spec).classic and is_connect4_text(text):
            return [OfferSwitch(text)]
        try:
            game = read_game(self.session.spec.name, text=text, path=path)
            capabilities(game.spec)  # raises ValueError for a game the app cannot show
        except (SaveFileError, ValueError) as exc:
            return [Notice(f"Could not load {source}: {str(exc).splitlines()[0]}", error=True)]
        return [
            OpenGame(game),
            Notice(f"Loaded {source}: {len(game.moves)} moves"),
        ]
