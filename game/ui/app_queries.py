"""What the headless runs (screenshot, smoke test, frame benchmark) and the tests ask of the app.

A base class of ``game_app.App`` (kept apart so the app object stays small): plain queries and two
switches, on the attributes the app sets up.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.play.session import Session
from game.play.settings import Settings
from game.play.themes import THEMES, Color, Theme
from game.play.turns import EngineTurns
from game.rules.capabilities import GameCapabilities
from game.ui import window
from game.ui.frame import NewGameCard, Overlay
from game.ui.motion import Motion
from game.ui.snapshot import TimedNotice


class AppQueries:
    screen: pygame.Surface
    settings: Settings
    session: Session
    caps: GameCapabilities
    turns: EngineTurns
    motion: Motion
    overlay: Overlay | None
    notice: TimedNotice | None
    analysis_only: bool

    @property
    def theme(self) -> Theme:
        return THEMES.get(self.settings.theme, THEMES["classic"])

    def colour_of(self, player: int) -> Color:
        return self.theme.discs[player ^ int(self.settings.swap_colours)]

    def player_name(self, player: int) -> str:
        if self.caps.player_names is not None:
            return self.caps.player_names[player]
        return self.theme.disc_names[player ^ int(self.settings.swap_colours)]

    def names(self) -> tuple[str, str]:
        return self.player_name(0), self.player_name(1)

    def missing_analysis(self) -> list[str]:
        """What the shown position still lacks from the engine for a faithful picture (empty: nothing)."""
        if isinstance(self.overlay, NewGameCard):
            return []  # the start screen: nothing is analysed behind it
        return self.turns.missing_analysis(self.settings, self.session, self.caps)

    def engine_problem(self) -> str | None:
        """Why the engine will not deliver (unavailable, or it refused this game's searches)."""
        return self.turns.problem(self.session.spec.name)

    def engine_ready(self) -> bool:
        return self.turns.driver.start() and self.turns.driver.is_ready

    def hold_bots(self) -> None:
        self.analysis_only = True

    def hurry(self) -> None:
        """Bots move at once and discs fall fast (smoke test, benchmarks)."""
        self.turns.min_bot_delay, self.motion.gravity = 0.02, self.motion.gravity * 12

    def clear_notice(self) -> None:
        self.notice = None

    def game_finished(self) -> bool:
        return self.session.final_position.outcome.is_over and self.motion.animation is None

    def moves_played(self) -> int:
        return len(self.session.line)

    def result_line(self) -> str:
        outcome = self.session.final_position.outcome
        result = "draw" if outcome.winner is None else f"{self.player_name(outcome.winner)} won"
        return f"{result} ({self.session.line_text})"

    def bot_iterations(self) -> int | None:
        return self.turns.bot_iterations()

    def save_png(self, path: Path) -> None:
        window.save_png(self.screen, path)
