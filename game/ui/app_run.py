"""The app's start and its loop: ``create_app`` opens the window and builds the ``App`` (its engine, an unfinished
network game to come back to), ``main_loop`` runs its frames until it quits, ``shutdown`` closes it."""

from __future__ import annotations

import sys

import pygame

from game.play.engine_driver import EngineDriver, default_client_factory
from game.play.session import Session
from game.play.settings import Settings
from game.ui import window
from game.ui.game_app import App
from game.ui.net_game import NetGame
from game.ui.sounds import Sounds

SWITCH_INTERVAL_S = 0.001  # (Python's default 5 ms: a frame waited up to that for a review's thread, p99 20 ms)


def create_app(
    settings: Settings,
    session: Session,
    persist: bool = True,
    driver: EngineDriver | None = None,
    first_launch: bool = False,
    notices: list[str] | None = None,
) -> App:
    screen = window.open_window(settings.window)
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # a background thread (a review, a hint) gives the GIL back sooner
    sounds = Sounds(enabled=settings.sound)
    driver = driver or EngineDriver(default_client_factory, threads=settings.search_threads or None)
    app = App(screen, settings, session, driver, sounds, persist, first_launch)
    app.net = NetGame.resume(settings) if persist else None  # an unfinished network game: back to it
    for notice in notices or []:
        app.set_notice(notice, error=True)
    app.turns.driver.start()
    return app


def main_loop(app: App) -> int:
    clock = pygame.time.Clock()
    try:
        while app.step():
            app.screen = pygame.display.get_surface() or app.screen
            pygame.display.flip()
            clock.tick(app.frame_rate())
    except KeyboardInterrupt:
        pass
    finally:
        shutdown(app)
    return 0


def shutdown(app: App) -> None:
    try:
        app.close()
    finally:
        window.close_window()
