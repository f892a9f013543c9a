"""What the headless runs (screenshot, smoke test, frame benchmark) ask of the app: ``AppProbe(app)`` offers
``headless.Run``'s few methods on a running app (plain queries and two switches), so the app object itself
keeps only what it does."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.ui import window
from game.ui.frame import NewGameCard

if TYPE_CHECKING:
    from game.ui.game_app import App


class AppProbe:
    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def running(self) -> bool:
        return self.app.window.running

    def step(self, events: list[pygame.event.Event] | None = None, now: float | None = None) -> bool:
        return self.app.step(events, now)

    def missing_analysis(self) -> list[str]:
        """What the shown position still lacks from the engine for a faithful picture (empty: nothing)."""
        app = self.app
        if isinstance(app.overlay, NewGameCard):
            return []  # the start screen: nothing is analysed behind it
        return app.turns.missing_analysis(app.settings, app.session, app.caps)

    def engine_problem(self) -> str | None:
        return self.app.engine.problem()

    def engine_ready(self) -> bool:
        return self.app.engine.ready()

    def hold_bots(self) -> None:
        """Bots search but never move (screenshots)."""
        self.app.engine.analysis_only = True

    def hurry(self) -> None:
        """Bots move at once and discs fall fast (smoke test, benchmarks)."""
        app = self.app
        app.turns.min_bot_delay, app.motion.gravity = 0.02, app.motion.gravity * 12

    def clear_notice(self) -> None:
        self.app.notice = None

    def game_finished(self) -> bool:
        return self.app.session.final_position.outcome.is_over and self.app.motion.animation is None

    def moves_played(self) -> int:
        return len(self.app.session.line)

    def result_line(self) -> str:
        session = self.app.session
        outcome = session.final_position.outcome
        result = "draw" if outcome.winner is None else f"{self.app.player_name(outcome.winner)} won"
        return f"{result} ({session.line_text})"

    def bot_iterations(self) -> int | None:
        return self.app.turns.bot_iterations()

    def save_png(self, path: Path) -> None:
        window.save_png(self.app.screen, path)
