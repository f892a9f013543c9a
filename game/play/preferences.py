"""Actions that only change the player's preferences (settings), applied to a ``Settings`` value.
No pygame, no app object: ``App.apply`` hands these actions here and saves the settings after."""

from __future__ import annotations

from dataclasses import replace

from game.play import autoplay
from game.play.actions import Action, Command, CycleBotLevel, CycleTheme, StepCustomTime, ToggleAutoplay
from game.play.players import step_custom
from game.play.pondering import ponder_applies, toggled
from game.play.settings import Settings
from game.play.themes import THEME_ORDER

TOGGLES = (Command.HEATMAP, Command.EXACT, Command.EVAL, Command.SOUND, Command.PONDER)


def is_preference(action: Action) -> bool:
    return isinstance(action, CycleTheme | CycleBotLevel | StepCustomTime | ToggleAutoplay) or action in TOGGLES


def unpauses(action: Action) -> bool:
    """A side handed to Perfect (or taken back) plays on at once: a paused bot-vs-bot game resumes."""
    return isinstance(action, ToggleAutoplay)


def change(settings: Settings, action: Action, exact_solver: bool, network: bool = False) -> str | None:
    """Apply ``action`` to ``settings``; returns an error to show when it cannot apply. In a network
    game (``network``) both sides are people: no side can be handed to the bot."""
    if network and isinstance(action, ToggleAutoplay | CycleBotLevel | StepCustomTime):
        return "In a network game both sides are played by people"
    match action:
        case CycleTheme(direction):
            i = THEME_ORDER.index(settings.theme) if settings.theme in THEME_ORDER else 0
            settings.theme = THEME_ORDER[(i + direction) % len(THEME_ORDER)]
        case CycleBotLevel(player, direction):
            settings.bots[player] = settings.bots[player].cycled(direction)
        case ToggleAutoplay(player):
            autoplay.toggle(settings, player)
        case StepCustomTime(player, direction):
            bot = settings.bots[player]
            settings.bots[player] = replace(bot, custom_ms=step_custom(bot.custom_ms, direction))
        case Command.HEATMAP:
            settings.heatmap = not settings.heatmap
        case Command.EXACT:
            if not exact_solver:
                return "Exact verdicts are for Connect 4 boards only"
            settings.exact = not settings.exact
        case Command.EVAL:
            settings.eval_bar = not settings.eval_bar
        case Command.SOUND:
            settings.sound = not settings.sound
        case Command.PONDER:
            if not ponder_applies(settings):
                return "Thinking on your time is for Perfect and Custom: the other levels play a fixed search"
            settings.ponder = toggled(settings)
    return None
