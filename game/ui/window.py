"""The pygame window: open it, save PNGs, close pygame. Knows nothing of the app object."""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame

from game.play.themes import THEMES
from game.rules.capabilities import GameCapabilities
from game.ui import fonts
from game.ui.discs import disc_sprite
from game.ui.layout import MIN_SIZE
from game.ui.resources import asset_path

FPS = 60
IDLE_FPS = 20  # while no disc drops and the player has not acted for SMOOTH_SECONDS
SMOOTH_SECONDS = 1.0


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
            pygame.Window.from_display_module().minimum_size = MIN_SIZE
    except (AttributeError, pygame.error):
        pass
    pygame.key.set_repeat(350, 60)
    return screen


def save_png(surface: pygame.Surface, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))


def close_window() -> None:
    pygame.quit()


def set_caption(caps: GameCapabilities) -> None:
    """The window's title: the game's, with the product's name for every game but the classic one."""
    pygame.display.set_caption(caps.title if caps.classic else f"{caps.title} · Connect 4 MCTS")
