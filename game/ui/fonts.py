"""Fonts by pixel size, cached; the bundled DejaVu Sans when present, else pygame's default."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

from game.ui.resources import asset_path

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    size = max(8, int(size))
    path: Path = asset_path("fonts", _FILES[bold])
    if path.exists():
        try:
            return pygame.font.Font(str(path), size)
        except (OSError, pygame.error):
            pass
    f = pygame.font.Font(None, int(size * 1.3))
    f.bold = bold
    return f


@lru_cache(maxsize=512)
def _render(text: str, size: int, bold: bool, color: tuple[int, int, int]) -> pygame.Surface:
    return font(size, bold).render(text, True, color)


def text(text_: str, size: int, color: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
    """A rendered line of text (cached: the same labels are drawn every frame)."""
    return _render(text_, max(8, int(size)), bold, tuple(color))  # type: ignore[arg-type]


def blit_text(
    surface: pygame.Surface,
    text_: str,
    size: int,
    color: tuple[int, int, int],
    pos: tuple[float, float],
    anchor: str = "topleft",
    bold: bool = False,
) -> pygame.Rect:
    img = text(text_, size, color, bold)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, rect)
    return rect


def fit_text(text_: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text_`` shortened with an ellipsis so it fits ``max_width`` pixels."""
    f = font(size, bold)
    if f.size(text_)[0] <= max_width:
        return text_
    while text_ and f.size(text_ + "…")[0] > max_width:
        text_ = text_[:-1]
    return text_ + "…"


def reset() -> None:
    """Forget cached fonts (needed after ``pygame.quit``, e.g. between tests)."""
    font.cache_clear()
    _render.cache_clear()
