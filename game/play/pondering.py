"""Thinking on the player's time in a game against the bot: whether the bot ponders, and on what.

The "Think on your time" setting (``Settings.ponder``) is "auto" until the player toggles it: on at the
levels where players expect full strength (``PONDER_LEVELS``), off below them; "on" and "off" are the
player's own choice. Only levels whose strength is their time can think ahead: Beginner to Hard are
defined by a fixed search (an iteration cap from a fresh tree, ai/search/levels.py), which pondering would
change, so for them the setting does not apply (``ponder_applies``) and the app shows no toggle.
No pygame: ``EngineTurns`` asks ``wanted_ponder`` every frame and the engine
adapter starts, keeps or stops the ponder to match, so any change of position ends it within a frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.vocab.level_table import level
from game.play.players import Mode, is_bot
from game.play.session import Session
from game.play.settings import Settings

PONDER_CHOICES = ("auto", "on", "off")
PONDER_LEVELS = ("perfect", "custom")  # where "auto" thinks on the player's time


@dataclass(frozen=True)
class PonderWant:
    """Ponder ``moves`` of ``game`` (the human to move); ``exact`` as the bot's own searches."""

    game: str
    moves: str
    exact: bool


def ponder_applies(settings: Settings) -> bool:
    """Whether the bot of a game against it can think on the player's time: its level plays by time
    (Perfect, Custom), not by a fixed search, and it searches at all (not Random)."""
    bot = settings.bots[1 - settings.human_player].difficulty
    if bot.kind not in ("search", "custom"):
        return False
    return bot.engine_level is None or level(bot.engine_level).plays_by_time


def ponder_on(settings: Settings) -> bool:
    """The setting in force for the bot of a game against it (its level decides while "auto")."""
    if not ponder_applies(settings):
        return False
    if settings.ponder != "auto":
        return settings.ponder == "on"
    return settings.bots[1 - settings.human_player].level in PONDER_LEVELS


def toggled(settings: Settings) -> str:
    """The setting after the player's toggle: the opposite of what is in force, kept from now on."""
    return "off" if ponder_on(settings) else "on"


def wanted_ponder(settings: Settings, session: Session, busy: bool) -> PonderWant | None:
    """What the bot should think about now, or None: only in a game against it, at the latest
    position with the human to move, while no other search runs (``busy``) and the setting is on."""
    position = session.position
    if settings.mode != Mode.VS_BOT or busy or not session.at_end or position.outcome.is_over:
        return None
    if is_bot(settings.mode, settings.human_player, position.to_move) or not ponder_on(settings):
        return None
    bot = settings.bots[1 - settings.human_player].difficulty
    return PonderWant(session.spec.name, session.moves_text, bot.exact)
