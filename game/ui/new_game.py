"""The new-game dialog's choices, without pygame: game, mode, your colour, who starts, bot levels, threads.

Nothing here changes the game on the board; ``apply_choice`` writes the settings when the player
presses Start, and the app then starts the new game.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TypeVar

from game import get_game
from game.capabilities import capabilities
from game.ui.actions import DialogField
from game.ui.game_choices import GAME_CHOICES
from game.ui.players import MODE_LABELS, MODES, BotSetting
from game.ui.settings import Settings


def cpu_cores() -> int:
    return max(1, os.cpu_count() or 1)


def auto_threads(cores: int | None = None) -> int:
    """The default number of search threads: all cores but one."""
    return max(1, (cores or cpu_cores()) - 1)


@dataclass(frozen=True)
class NewGameChoice:
    game: str
    mode: str
    colour: int  # vs-bot: the colour you play (0: the theme's first colour)
    first: int  # vs-bot: 0 you start, 1 the bot starts; other modes: the colour that starts
    levels: tuple[BotSetting, BotSetting]  # vs-bot: levels[0] is the bot; bot vs bot: by colour
    threads: int  # 0: automatic

    def changed(self, field: DialogField, direction: int, cores: int | None = None) -> NewGameChoice:
        """The choice with ``field`` moved one step (``direction`` -1 back, +1 forward)."""
        if field is DialogField.GAME:
            return replace(self, game=_step(GAME_CHOICES, self.game, direction))
        if field is DialogField.MODE:
            return replace(self, mode=_step(MODES, self.mode, direction))
        if field is DialogField.COLOUR:
            return replace(self, colour=1 - self.colour)
        if field is DialogField.STARTER:
            return replace(self, first=1 - self.first)
        if field in (DialogField.LEVEL, DialogField.LEVEL2):
            i = 0 if field is DialogField.LEVEL else 1
            levels = list(self.levels)
            levels[i] = levels[i].cycled(direction)
            return replace(self, levels=(levels[0], levels[1]))
        if field is DialogField.THREADS:
            options = tuple(range(0, (cores or cpu_cores()) + 1))
            return replace(self, threads=_step(options, self.threads, direction))
        return self


T = TypeVar("T")


def _step(values: tuple[T, ...], current: T, direction: int) -> T:
    i = values.index(current) if current in values else 0
    return values[(i + direction) % len(values)]


@dataclass(frozen=True)
class ChoiceRow:
    field: DialogField
    value: str
    enabled: bool


def choice_rows(choice: NewGameChoice, colour_names: tuple[str, str],
                cores: int | None = None) -> tuple[ChoiceRow, ...]:
    """The dialog's rows, always the same ones in the same places (rows a mode does not use are disabled)."""
    vs_bot, bots = choice.mode == "vs-bot", choice.mode == "bot-vs-bot"
    if vs_bot:
        starts = "You" if choice.first == 0 else "The bot"
        level, level2 = f"{choice.levels[0].label()}", "—"
    else:
        starts = colour_names[choice.first]
        level = f"{colour_names[0]}: {choice.levels[0].label()}" if bots else "—"
        level2 = f"{colour_names[1]}: {choice.levels[1].label()}" if bots else "—"
    threads = f"Automatic ({auto_threads(cores)})" if choice.threads == 0 else str(choice.threads)
    return (
        ChoiceRow(DialogField.GAME, title_of(choice.game), True),
        ChoiceRow(DialogField.MODE, MODE_LABELS[choice.mode], True),
        ChoiceRow(DialogField.COLOUR, colour_names[choice.colour] if vs_bot else "—", vs_bot),
        ChoiceRow(DialogField.STARTER, starts, True),
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
    if settings.mode == "vs-bot":
        levels = (settings.bots[1 - human], settings.bots[1 - human])
        first = 0 if human == 0 else 1
    else:
        by_colour = {p ^ swap: settings.bots[p] for p in (0, 1)}
        levels = (by_colour[0], by_colour[1])
        first = swap  # the colour of the first player
    game = settings.game if settings.game in GAME_CHOICES else GAME_CHOICES[0]
    return NewGameChoice(game, settings.mode, colour, first, levels, settings.search_threads)


def apply_choice(settings: Settings, choice: NewGameChoice) -> None:
    """Write the chosen setup into ``settings`` (player 0 always moves first)."""
    settings.game = choice.game
    settings.mode = choice.mode
    settings.search_threads = choice.threads
    if choice.mode == "vs-bot":
        human = 0 if choice.first == 0 else 1
        settings.human_player = human
        settings.swap_colours = bool(choice.colour ^ human)
        settings.bots = [choice.levels[0], choice.levels[0]]  # the bot keeps its level on either side
    else:
        swap = choice.first
        settings.swap_colours = bool(swap)
        settings.bots = [choice.levels[0 ^ swap], choice.levels[1 ^ swap]]
