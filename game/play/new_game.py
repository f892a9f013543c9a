"""The new-game dialog's choices, without pygame: game, mode, your colour, who starts, bot levels, threads,
and for a network game: host or join, the address to join, where a hosted server listens.

Nothing here changes the game on the board; ``apply_choice`` writes the settings when the player
presses Start, and the app then starts the new game.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from game.play.actions import DialogField
from game.play.game_choices import game_choices
from game.play.net_setup import CLOCK_CHOICES, clock_label
from game.play.players import CUSTOM_STEPS_MS, MODES, BotSetting, Mode, step_custom
from game.play.settings import NET_ROLES, Settings
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError

NETWORK: Literal["network"] = "network"  # a dialog mode: the game is played on a server (the app then plays
# as hot-seat)
DialogMode = Mode | Literal["network"]
DIALOG_MODES: tuple[DialogMode, ...] = (*MODES, NETWORK)
DIALOG_MODE_LABELS: dict[DialogMode, str] = {**{m: m.label for m in MODES}, NETWORK: "Network game"}
MAX_ADDRESS = 80
NET_ROLE_LABELS = {"host": "Host a game", "join": "Join a game", "watch": "Watch a game"}


def cpu_cores() -> int:
    return max(1, os.cpu_count() or 1)


def auto_threads(cores: int | None = None) -> int:
    """The default number of search threads: all cores but one."""
    return max(1, (cores or cpu_cores()) - 1)


@dataclass(frozen=True)
class NewGameChoice:
    game: str
    mode: DialogMode
    colour: int  # vs-bot: the colour you play (0: the theme's first colour)
    first: int  # vs-bot: 0 you start, 1 the bot starts; other modes: the colour that starts
    levels: tuple[BotSetting, BotSetting]  # vs-bot: levels[0] is the bot; bot vs bot: by colour
    threads: int  # 0: automatic
    net_role: str = "host"  # network: "host" starts a server here, "join" connects to one
    address: str = ""  # network join: HOST:PORT as typed
    lan: bool = False  # network host: listen on the local network too
    clock_min: int = 0  # network host: minutes per player (0: no clock)

    @property
    def network(self) -> bool:
        return self.mode == NETWORK

    @property
    def typing(self) -> bool:
        """The address field takes the keys typed (a network game to join or watch)."""
        return self.network and self.net_role in ("join", "watch")

    def typed(self, text: str) -> NewGameChoice:
        """The address with ``text`` (typed or pasted) added: spaces and control characters are left out."""
        clean = "".join(ch for ch in text if ch.isprintable() and not ch.isspace())
        return replace(self, address=(self.address + clean)[:MAX_ADDRESS])

    def erased(self) -> NewGameChoice:
        return replace(self, address=self.address[:-1])

    @property
    def starting_colour(self) -> int:
        """The colour that moves first, whatever the mode (vs-bot keeps it as "you" or "the bot")."""
        if self.mode == Mode.VS_BOT:
            return self.colour if self.first == 0 else 1 - self.colour
        return self.first

    def with_mode(self, mode: DialogMode) -> NewGameChoice:
        """The choice in another mode with the same colour starting (``first`` means "who" against the bot and
        "which colour" otherwise: it is translated, never kept as a bare number)."""
        starter = self.starting_colour
        first = (0 if starter == self.colour else 1) if mode == Mode.VS_BOT else starter
        return replace(self, mode=mode, first=first)

    def changed(self, field: DialogField, direction: int, cores: int | None = None) -> NewGameChoice:
        """The choice with ``field`` moved one step (``direction`` -1 back, +1 forward)."""
        if field is DialogField.GAME:
            return replace(self, game=_step(game_choices(), self.game, direction))
        if field is DialogField.MODE:
            return self.with_mode(_step(DIALOG_MODES, self.mode, direction))
        if field is DialogField.NET_ROLE:
            return replace(self, net_role=_step(NET_ROLES, self.net_role, direction))
        if field is DialogField.ADDRESS:
            return self  # a text field: typed into, not stepped
        if field is DialogField.LISTEN:
            return replace(self, lan=not self.lan)
        if field is DialogField.CLOCK:
            return replace(self, clock_min=_step(CLOCK_CHOICES, self.clock_min, direction))
        if field is DialogField.COLOUR:
            return replace(self, colour=1 - self.colour)
        if field is DialogField.STARTER:
            return replace(self, first=1 - self.first)
        if field in (DialogField.LEVEL, DialogField.LEVEL2):
            i = 0 if field is DialogField.LEVEL else 1
            levels = list(self.levels)
            levels[i] = _stepped_level(levels[i], direction)
            return replace(self, levels=(levels[0], levels[1]))
        if field is DialogField.THREADS:
            options = tuple(range(0, (cores or cpu_cores()) + 1))
            return replace(self, threads=_step(options, self.threads, direction))
        return self


T = TypeVar("T")


def _stepped_level(bot: BotSetting, direction: int) -> BotSetting:
    """The next level in the dialog: past Perfect come the Custom budgets, one step of time each (so the Custom
    level's time is set here too, not only with --bot-time), then the ladder again."""
    if bot.level == "custom":
        moved = step_custom(bot.custom_ms, direction)
        if moved != bot.custom_ms:
            return replace(bot, custom_ms=moved)
    stepped = bot.cycled(direction)
    if stepped.level == "custom":  # entering Custom: from its shortest budget going up, its longest going down
        return replace(stepped, custom_ms=CUSTOM_STEPS_MS[0] if direction > 0 else CUSTOM_STEPS_MS[-1])
    return stepped


def _step(values: tuple[T, ...], current: T, direction: int) -> T:
    i = values.index(current) if current in values else 0
    return values[(i + direction) % len(values)]


@dataclass(frozen=True)
class ChoiceRow:
    field: DialogField
    value: str
    enabled: bool
    editable: bool = False  # a text field (the keys typed go there)
    placeholder: bool = False  # an empty text field: ``value`` says what to type


def choice_rows(
    choice: NewGameChoice, colour_names: tuple[str, str], cores: int | None = None
) -> tuple[ChoiceRow, ...]:
    """The dialog's rows, always the same ones in the same places (rows a mode does not use are disabled)."""
    vs_bot, bots, net = choice.mode == Mode.VS_BOT, choice.mode == Mode.BOT_VS_BOT, choice.network
    host, join = net and choice.net_role == "host", net and choice.typing
    watch = join and choice.net_role == "watch"
    try:  # the top level of a game without an exact solver is not called "Perfect"
        solved = capabilities(get_game(choice.game)).exact_solver
    except (ValueError, GameError):
        solved = True
    if vs_bot:
        starts = "You" if choice.first == 0 else "The bot"
        level, level2 = f"{choice.levels[0].label(solved)}", "—"
    else:
        starts = "Drawn by the server" if net else colour_names[choice.first]
        level = f"{colour_names[0]}: {choice.levels[0].label(solved)}" if bots else "—"
        level2 = f"{colour_names[1]}: {choice.levels[1].label(solved)}" if bots else "—"
    threads = f"Automatic ({auto_threads(cores)})" if choice.threads == 0 else str(choice.threads)
    if join:
        example = "type HOST:PORT/ROOM (e.g. 192.168.1.20:4242/game)"
        address = choice.address or (example if watch else "type HOST:PORT or HOST:PORT/ROOM")
    else:
        address = "shown when the game starts" if host else "—"
    listen = ("Local network (other computers)" if choice.lan else "This computer only") if host else "—"
    return (
        ChoiceRow(DialogField.GAME, "Chosen by the host" if join else title_of(choice.game), not join),
        ChoiceRow(DialogField.MODE, DIALOG_MODE_LABELS[choice.mode], True),
        ChoiceRow(DialogField.NET_ROLE, NET_ROLE_LABELS[choice.net_role] if net else "—", net),
        ChoiceRow(DialogField.ADDRESS, address, join, editable=join, placeholder=join and not choice.address),
        ChoiceRow(DialogField.LISTEN, listen, host),
        ChoiceRow(
            DialogField.CLOCK, clock_label(choice.clock_min) if host else ("Set by the host" if join else "—"), host
        ),
        ChoiceRow(DialogField.COLOUR, colour_names[choice.colour] if vs_bot else "—", vs_bot),
        ChoiceRow(DialogField.STARTER, starts, not net),
        ChoiceRow(DialogField.LEVEL, level, vs_bot or bots),
        ChoiceRow(DialogField.LEVEL2, level2, bots),
        ChoiceRow(DialogField.THREADS, threads, True),
    )


def title_of(game: str) -> str:
    try:
        return capabilities(get_game(game)).title
    except ValueError:
        return game


def choice_from_settings(settings: Settings) -> NewGameChoice:
    """The dialog opens on the current setup."""
    human = settings.human_player
    swap = int(settings.swap_colours)
    colour = human ^ swap
    if settings.mode == Mode.VS_BOT:
        levels = (settings.bots[1 - human], settings.bots[1 - human])
        first = 0 if human == 0 else 1
    else:
        by_colour = {p ^ swap: settings.bots[p] for p in (0, 1)}
        levels = (by_colour[0], by_colour[1])
        first = swap  # the colour of the first player
    choices = game_choices()
    game = settings.game if settings.game in choices else choices[0]
    mode = NETWORK if settings.network else settings.mode
    return NewGameChoice(
        game,
        mode,
        colour,
        first,
        levels,
        settings.search_threads,
        settings.net_role,
        settings.net_address,
        settings.net_lan,
        settings.net_clock_min,
    )


def apply_choice(settings: Settings, choice: NewGameChoice) -> None:
    """Write the chosen setup into ``settings`` (player 0 always moves first)."""
    settings.game = choice.game
    settings.search_threads = choice.threads
    settings.network = choice.network
    settings.net_role, settings.net_address, settings.net_lan = choice.net_role, choice.address, choice.lan
    settings.net_clock_min = choice.clock_min
    if choice.network:  # both players are people; the server says who moves first
        settings.mode, settings.human_player, settings.swap_colours = Mode.HOTSEAT, 0, False
        return
    settings.mode = Mode.parse(choice.mode)
    if choice.mode == Mode.VS_BOT:
        human = 0 if choice.first == 0 else 1
        settings.human_player = human
        settings.swap_colours = bool(choice.colour ^ human)
        settings.bots = [choice.levels[0], choice.levels[0]]  # the bot keeps its level on either side
    else:
        swap = choice.first
        settings.swap_colours = bool(swap)
        settings.bots = [choice.levels[0 ^ swap], choice.levels[1 ^ swap]]
