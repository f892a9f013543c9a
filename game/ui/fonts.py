"""Fonts by pixel size, cached; the bundled DejaVu Sans when present, else pygame's default.

Every string drawn goes through ``drawable`` first (the one place that makes user text safe for the
font renderer): at most ``MAX_DRAWN_CHARS`` characters, control characters such as NUL shown as U+FFFD
or a space, lone surrogates (undecodable bytes of a file name, ``\xff\xfe``) shown as U+FFFD.
``fit_text`` measures O(log n) prefixes, so a 100 kB line fits in bounded time.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pygame

from game.ui.resources import asset_path

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
MAX_DRAWN_CHARS = 1000  # wider than any window at the smallest font size
ELLIPSIS = "…"
_UNDRAWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACES = frozenset("\t\n\r\x0b\x0c")


def _replacement(match: re.Match[str]) -> str:
    return " " if match.group() in _SPACES else "\ufffd"


def drawable(text_: str) -> str:
    """``text_`` made safe to render: bounded length, no control characters, no lone surrogates."""
    if len(text_) > MAX_DRAWN_CHARS:
        text_ = text_[: MAX_DRAWN_CHARS - 1] + ELLIPSIS
    return _UNDRAWABLE.sub(_replacement, text_)


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
    return _render(drawable(text_), max(8, int(size)), bold, (color[0], color[1], color[2]))


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


def width_of(f: pygame.font.Font, text_: str) -> int:
    """The width of ``text_`` (already drawable) in pixels: the one measurement ``fit_text`` makes."""
    return f.size(text_)[0]


def fit_text(text_: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text_`` (made drawable) shortened with an ellipsis so it fits ``max_width`` pixels.

    Binary search on the prefix length: about log2(max_width) measurements of at most ``max_width``
    characters (no glyph is narrower than a pixel that matters here), whatever the length of ``text_``.
    """
    f = font(size, bold)
    text_ = drawable(text_)
    limit = max(1, int(max_width))
    if len(text_) <= limit and width_of(f, text_) <= max_width:
        return text_
    prefix = text_[:limit]
    lo, hi = 0, len(prefix)  # prefix[:lo] + ELLIPSIS fits (or lo == 0); prefix[:hi + 1] + ... does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width_of(f, prefix[:mid] + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return prefix[:lo].rstrip() + ELLIPSIS


def reset() -> None:
    """Forget cached fonts (needed after ``pygame.quit``, e.g. between tests)."""
    font.cache_clear()
    _render.cache_clear()
