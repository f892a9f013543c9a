"""The new-game dialog's part of the app: open it on the current setup, show its rows, start the chosen game
(a local one, or a network game: host or join), and leave a network game. A base class of
``game_app.App``, on the attributes the app sets up.
"""

from __future__ import annotations

from game.play.new_game import NewGameChoice, apply_choice, auto_threads, choice_from_settings, choice_rows
from game.play.settings import Settings
from game.play.themes import Theme
from game.play.turns import EngineTurns
from game.rules import GameSpec, get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.ui.frame import NewGameCard, Overlay
from game.ui.net_game import NetGame


class NewGameDialog:
    settings: Settings
    choice: NewGameChoice | None
    overlay: Overlay | None
    net: NetGame | None
    turns: EngineTurns

    @property
    def theme(self) -> Theme:
        raise NotImplementedError

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        raise NotImplementedError

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        raise NotImplementedError

    def save_settings(self) -> None:
        raise NotImplementedError

    def open_new_game_dialog(self, first_launch: bool = False) -> None:
        self.choice = choice_from_settings(self.settings)
        self._show_dialog(first_launch)

    def _show_dialog(self, first_launch: bool) -> None:
        assert self.choice is not None
        try:  # the chosen game's own names (X and O) or the theme's colours
            fixed = capabilities(get_game(self.choice.game)).player_names
        except (GameError, ValueError):
            fixed = None
        names = fixed or self.theme.disc_names
        self.overlay = NewGameCard(choice_rows(self.choice, (names[0], names[1])), first_launch)

    def start_chosen_game(self) -> None:
        assert self.choice is not None
        choice, self.choice, self.overlay = self.choice, None, None
        try:
            spec = get_game(choice.game)
            capabilities(spec)
        except (GameError, ValueError) as exc:
            self.set_notice(f"Cannot start {choice.game}: {str(exc).splitlines()[0]}", error=True)
            return
        net = None
        if choice.typing:
            try:
                net = NetGame.watch(choice.address) if choice.net_role == "watch" else NetGame.join(choice.address)
            except ValueError as exc:
                self.set_notice(str(exc).replace("--connect", "The address"), error=True)
                self.choice = choice
                self._show_dialog(False)
                return
        self.leave_network()
        apply_choice(self.settings, choice)
        self.turns.driver.set_threads(self.settings.search_threads or auto_threads())
        self.new_game(spec)
        if choice.network:
            self.net = net or NetGame.host(spec.name, choice.lan, choice.clock_min)
        self.save_settings()

    def leave_network(self) -> None:
        """End this app's part in a network game (the server keeps the seat for its grace period)."""
        if self.net is not None:
            if self.net.resign():  # leaving a game under way is resigning it, said at once
                self.set_notice("You resigned the network game you left")
            self.net.close()
            self.net = None
            self.settings.net_server = self.settings.net_token = ""
