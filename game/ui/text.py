"""Text that fits: every label is drawn through ``draw``, which shrinks it (never below ``MIN_SIZE``)
and only then shortens it, so nothing is cut at the window's edge or across a neighbour. Every
measurement is of ``fonts.drawable`` text (bounded length, no NUL), so any string fits in bounded time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pygame

from game.play.themes import Color
from game.ui import fonts

MIN_SIZE = 10  # pixels: the smallest text the app draws


@dataclass(frozen=True)
class DrawnText:
    """One text a frame drew (recorded for the layout checks): what reached the screen, where, in what room."""

    label: str  # as asked
    shown: str  # as drawn (shortened with an ellipsis when it had to be)
    size: int
    bold: bool
    rect: pygame.Rect
    room: float | None  # the width it was given (None: none)
    layer: str  # the part of the frame drawing it: "board", "panel", "status", "notice", "overlay", "tooltip"
    surface: int  # id() of the surface drawn on (a painter's cached layer has its own coordinates)


_recording: list[DrawnText] | None = None
_layer = "board"


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Every text drawn inside the block, in order (for tests and the layout checker)."""
    global _recording
    previous, _recording = _recording, []
    try:
        yield _recording
    finally:
        _recording = previous


def layer(name: str) -> None:
    """Name the part of the frame that draws next (what the recorded texts belong to)."""
    global _layer
    _layer = name


def fitted_size(text: str, size: int, width: float, bold: bool = False, min_size: int = MIN_SIZE) -> int:
    """The largest size from ``size`` down to ``min_size`` at which ``text`` fits ``width`` (else ``min_size``)."""
    size = max(min_size, int(size))
    text = fonts.drawable(text)  # bounded and safe before any measurement
    while size > min_size and fonts.font(size, bold).size(text)[0] > width:
        size -= 1
    return size


def fits(text: str, size: int, width: float, bold: bool = False) -> bool:
    return fonts.font(size, bold).size(fonts.drawable(text))[0] <= width


def first_fitting(
    variants: tuple[str, ...], size: int, width: float, bold: bool = False, min_size: int = MIN_SIZE
) -> tuple[str, int]:
    """The longest variant that fits at ``size`` or up to 3 px smaller, else the shortest shrunk to fit
    (down to ``min_size``)."""
    for variant in variants:
        for smaller in range(size, max(min_size, size - 3) - 1, -1):
            if fits(variant, smaller, width, bold):
                return variant, smaller
    last = variants[-1]
    return last, fitted_size(last, size, width, bold, min_size)


def draw(
    surface: pygame.Surface,
    text: str,
    size: int,
    colour: Color,
    pos: tuple[float, float],
    anchor: str = "topleft",
    bold: bool = False,
    width: float | None = None,
    min_size: int = MIN_SIZE,
) -> pygame.Rect:
    """Draw ``text`` anchored at ``pos``; with ``width`` it is shrunk, then shortened, to fit."""
    shown = text
    if width is not None:
        size = fitted_size(text, size, width, bold, min_size)
        shown = fonts.fit_text(text, size, max(1, int(width)), bold)
    size = max(min_size, size)
    rect = fonts.blit_text(surface, shown, size, colour, pos, anchor, bold)
    if _recording is not None:
        _recording.append(DrawnText(text, fonts.drawable(shown), size, bold, rect.copy(), width, _layer, id(surface)))
    return rect


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a single long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in fonts.drawable(text).split():
        trial = f"{current} {word}".strip()
        if current and not fits(trial, size, width, bold):
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
