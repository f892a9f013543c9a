"""The pygame window: create it, run the 60 fps loop, save PNGs, shut down cleanly."""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.ui import fonts  # noqa: E402
from game.ui.discs import disc_sprite  # noqa: E402
from game.ui.engine_driver import EngineDriver, default_client_factory  # noqa: E402
from game.ui.game_app import App  # noqa: E402
from game.ui.resources import asset_path  # noqa: E402
from game.ui.session import Session  # noqa: E402
from game.ui.settings import MIN_WINDOW, Settings  # noqa: E402
from game.ui.sounds import Sounds  # noqa: E402
from game.ui.themes import THEMES  # noqa: E402

FPS = 60


def _icon() -> pygame.Surface:
    """The bundled icon (assets/icon.png), or a drawn one if it cannot be read."""
    try:
        return pygame.image.load(str(asset_path("icon.png")))
    except (pygame.error, OSError, FileNotFoundError):
        pass
    icon = pygame.Surface((64, 64), pygame.SRCALPHA)
    pygame.draw.rect(icon, THEMES["classic"].board, icon.get_rect(), border_radius=12)
    icon.blit(disc_sprite(THEMES["classic"].discs[0], 13, None), (2, 32))
    icon.blit(disc_sprite(THEMES["classic"].discs[1], 13, None), (32, 32))
    icon.blit(disc_sprite(THEMES["classic"].discs[0], 13, None), (32, 2))
    return icon


def open_window(size: tuple[int, int]) -> pygame.Surface:
    pygame.display.init()
    pygame.font.init()
    fonts.reset()
    pygame.display.set_caption("Connect 4")
    try:
        pygame.display.set_icon(_icon())
    except pygame.error:
        pass
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = MIN_WINDOW
    except (AttributeError, pygame.error):
        pass
    pygame.key.set_repeat(350, 60)
    return screen


def create_app(settings: Settings, session: Session, persist: bool = True, driver: EngineDriver | None = None) -> App:
    screen = open_window(settings.window)
    sounds = Sounds(enabled=settings.sound)
    app = App(screen, settings, session, driver or EngineDriver(default_client_factory), sounds, autosave=persist)
    app.persist = persist
    app.driver.start()
    return app


def main_loop(app: App) -> int:
    clock = pygame.time.Clock()
    try:
        while app.step():
            app.screen = pygame.display.get_surface()
            pygame.display.flip()
            clock.tick(FPS)
    except KeyboardInterrupt:
        pass
    finally:
        shutdown(app)
    return 0


def save_png(surface: pygame.Surface, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))


def shutdown(app: App) -> None:
    try:
        app.close()
    finally:
        time.sleep(0)
        pygame.quit()
