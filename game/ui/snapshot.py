"""Pieces of the frame snapshot built from explicit facts (no app object): the panel model, the result
banner, the notices. Pure functions, no pygame."""

from __future__ import annotations

from dataclasses import dataclass

from game import Position
from game.ui.frame import Banner, Notice, PanelModel, PlayerRow
from game.ui.players import MODE_LABELS, BotSetting, is_bot
from game.ui.session import Session
from game.ui.settings import Settings
from game.ui.themes import Color, Theme

NOTICE_SECONDS = 6.0
ERROR_SECONDS = 9.0


@dataclass(frozen=True)
class TimedNotice:
    notice: Notice
    until: float
    position: str | None  # a notice about this position goes when the position changes

    def live(self, now: float, position: str) -> bool:
        return now <= self.until and (self.position is None or self.position == position)


def timed_notice(text: str, now: float, error: bool, position: str | None = None) -> TimedNotice:
    line = text.splitlines()[0] if text else ""
    return TimedNotice(Notice(line, error), now + (ERROR_SECONDS if error else NOTICE_SECONDS), position)


def panel_model(settings: Settings, session: Session, names: tuple[str, str], colours: tuple[Color, Color],
                theme: Theme, paused: bool, exact_available: bool) -> PanelModel:
    players = tuple(_player_row(settings, p, names[p], colours[p]) for p in (0, 1))
    bvb = settings.mode == "bot-vs-bot"
    return PanelModel(
        mode_label=MODE_LABELS.get(settings.mode, settings.mode),
        players=(players[0], players[1]),
        bot_vs_bot=bvb,
        paused=paused,
        can_step=paused and not session.final_position.outcome.is_over,
        can_undo=session.cursor > 0,
        can_redo=not session.at_end,
        at_start=session.cursor == 0,
        at_end=session.at_end,
        heatmap=settings.heatmap,
        exact=settings.exact,
        exact_available=exact_available,
        eval_bar=settings.eval_bar,
        sound=settings.sound,
        theme_label=theme.label,
    )


def _player_row(settings: Settings, player: int, name: str, colour: Color) -> PlayerRow:
    if not is_bot(settings.mode, settings.human_player, player):
        return PlayerRow(name, colour, None, False)
    bot: BotSetting = settings.bots[player]
    return PlayerRow(name, colour, bot.label(), bot.difficulty.kind == "custom")


def banner_for(position: Position, names: tuple[str, str], colours: tuple[Color, Color], vs_bot: bool,
               human: int) -> Banner | None:
    outcome = position.outcome
    if not outcome.is_over:
        return None
    if outcome.winner is None:
        return Banner("Draw", "N: new game · U: undo", None)
    text = f"{names[outcome.winner]} wins"
    if vs_bot:
        text += " · you win!" if outcome.winner == human else " · the bot wins"
    return Banner(text, "N: new game · U: undo", colours[outcome.winner])


def subtitle(settings: Settings, names: tuple[str, str]) -> str:
    parts = []
    for p in (0, 1):
        who = f"Bot ({settings.bots[p].label()})" if is_bot(settings.mode, settings.human_player, p) else "Human"
        parts.append(f"{names[p]}: {who}")
    return f"{MODE_LABELS.get(settings.mode, settings.mode)} · " + " vs ".join(parts)
