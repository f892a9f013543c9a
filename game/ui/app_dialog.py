"""The new-game dialog's handler: open it on the current setup, show its rows, change them, start the chosen game
(a local one, or a network game: host, join or watch). Owns the dialog's choices while it is open and a Connect 4
position pasted over another game (opened on Start); talks back with effects (``game.ui.effects``).
"""

from __future__ import annotations

from dataclasses import replace

from game.play.actions import Command, DialogField
from game.play.net_match import Role
from game.play.net_setup import offered_address, parse_where, where_to_watch
from game.play.new_game import NewGameChoice, apply_choice, auto_threads, choice_from_settings, choice_rows
from game.play.settings import Settings
from game.play.themes import THEMES, Theme
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.ui import files
from game.ui.effects import (
    Connect,
    Effects,
    LeaveNetwork,
    LoadText,
    Notice,
    SaveSettings,
    SetThreads,
    ShowOverlay,
    StartGame,
)
from game.ui.frame import NewGameCard


def theme_of(settings: Settings) -> Theme:
    return THEMES.get(settings.theme, THEMES["classic"])


class NewGameDialog:
    COMMANDS: tuple[Command, ...] = (Command.NEW_GAME, Command.START, Command.CLOSE)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.choice: NewGameChoice | None = None  # the dialog's choices while it is open
        self.first_launch = False  # opened at the first launch (its card says welcome)
        self.pending_paste: str | None = None  # a Connect 4 position pasted over another game, opened on Start

    @property
    def typing(self) -> bool:
        return self.choice is not None and self.choice.typing

    def open(self, first_launch: bool = False) -> Effects:
        choice = choice_from_settings(self.settings)
        address = offered_address(choice.address, files.paste_text())
        self.choice, self.first_launch = replace(choice, address=address), first_launch
        return self._shown()

    def _shown(self) -> Effects:
        assert self.choice is not None
        try:  # the chosen game's own names (X and O) or the theme's colours
            fixed = capabilities(get_game(self.choice.game)).player_names
        except (GameError, ValueError):
            fixed = None
        names = fixed or theme_of(self.settings).disc_names
        return [ShowOverlay(NewGameCard(choice_rows(self.choice, (names[0], names[1])), self.first_launch))]

    # --- what the player does in it -----------------------------------------------------------------------------
    def change(self, field: DialogField, direction: int) -> Effects:
        if self.choice is None:
            return []
        self.choice = self.choice.changed(field, direction)
        return self._shown()

    def type_text(self, typed: str) -> Effects:
        if not self.typing:
            return []
        assert self.choice is not None
        self.choice = self.choice.typed(typed)
        return self._shown()

    def take(self, c: Command) -> Effects | None:
        """The address field takes Paste and Erase while it is typed in (None: not this handler's command)."""
        if not self.typing or c not in (Command.PASTE, Command.ERASE):
            return None
        assert self.choice is not None
        self.choice = self.choice.typed(files.paste_text() or "") if c is Command.PASTE else self.choice.erased()
        return self._shown()

    def handle(self, c: Command) -> Effects:
        if c is Command.NEW_GAME:
            return self.open()
        if c is Command.START and self.choice is not None:
            pasted, self.pending_paste = self.pending_paste, None
            return self._start(pasted)
        if c is Command.CLOSE:
            self.choice, self.pending_paste = None, None
            return [ShowOverlay(None)]
        return []

    def offer_switch(self, text: str) -> Effects:
        """A Connect 4 position pasted over another game: the dialog on Connect 4 asks first (Start or Esc)."""
        self.open()
        assert self.choice is not None
        self.choice = replace(self.choice, game="connect4")
        self.pending_paste = text
        return [
            *self._shown(),
            Notice(f"{text.strip()} is a Connect 4 position: Start switches to Connect 4 and opens it"),
        ]

    def _start(self, pasted: str | None) -> Effects:
        assert self.choice is not None
        choice, self.choice = self.choice, None
        try:
            spec = get_game(choice.game)
            capabilities(spec)
        except (GameError, ValueError) as exc:
            return [ShowOverlay(None), Notice(f"Cannot start {choice.game}: {str(exc).splitlines()[0]}", error=True)]
        where = None
        if choice.typing:
            try:
                where = where_to_watch(choice.address) if choice.net_role == "watch" else parse_where(choice.address)
            except ValueError as exc:
                self.choice = choice
                return [Notice(str(exc).replace("--connect", "The address"), error=True), *self._shown()]
        apply_choice(self.settings, choice)
        effects: Effects = [
            ShowOverlay(None),
            LeaveNetwork(),
            SetThreads(self.settings.search_threads or auto_threads()),
            StartGame(spec),
        ]
        if choice.network:
            role: Role = "watch" if choice.net_role == "watch" else "join" if where is not None else "host"
            effects.append(Connect(role, spec.name, where, choice.lan, choice.clock_min))
        effects.append(SaveSettings())
        if pasted is not None and capabilities(spec).classic:
            effects.append(LoadText(pasted))
        return effects
