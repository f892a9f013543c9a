"""Where a notice (a toast) goes: somewhere it covers nothing the player reads.

Never over the board, its labels or its verdict row (``layout.board.frame`` holds them all), nor over the side
panel: in the free strip under the board when the window has one tall enough, else over the status bar's text
(the status comes back when the notice goes), the status bar's buttons left free. A notice longer than the bar
holds grows upwards from the bar's bottom in the smallest text size that keeps it whole.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.ui import fonts, text
from game.ui.layout import Layout

MAX_W = 560
SIZES = (13, 12)  # the toast's text size, and the smaller one tried in the status bar
PAD_X = 14  # each side, inside the box
PAD_Y = 4
MIN_STRIP_W = 240


@dataclass(frozen=True)
class NoticePlace:
    box: pygame.Rect
    lines: tuple[str, ...]
    size: int


def board_part(layout: Layout) -> pygame.Rect:
    """The body less the side panel (a drawer over a tiny window leaves the whole body)."""
    body = layout.body
    if layout.panel is None:
        return body
    left = pygame.Rect(body.left, body.top, layout.panel.rect.left - body.left, body.height)
    return left if left.width >= MIN_STRIP_W or not layout.narrow else body


def _lines(words: str, size: int, width: int, bold: bool) -> tuple[str, ...]:
    return tuple(text.wrap(words, size, width - 2 * PAD_X, bold=bold))


def _height(lines: tuple[str, ...], size: int) -> int:
    return 2 * PAD_Y + fonts.font(size).get_linesize() * len(lines)


def place_notice(layout: Layout, words: str, error: bool = False) -> NoticePlace:
    """The box of a notice saying ``words`` in ``layout`` (see the module's docstring)."""
    part = board_part(layout)
    frame = layout.board.frame
    strip = pygame.Rect(part.left, frame.bottom + 2, part.width, part.bottom - frame.bottom - 4)
    width = min(strip.width - 16, MAX_W)
    if width >= MIN_STRIP_W:
        lines = _lines(words, SIZES[0], width, error)
        height = _height(lines, SIZES[0])
        if height <= strip.height:
            box = pygame.Rect(0, 0, width, height)
            box.midbottom = (strip.centerx, strip.bottom)
            return NoticePlace(box, lines, SIZES[0])
    bar = layout.status_text_rect.inflate(-4, -4)
    size, lines = SIZES[-1], _lines(words, SIZES[-1], bar.width, error)
    for size in SIZES:
        lines = _lines(words, size, bar.width, error)
        if _height(lines, size) <= bar.height:
            break
    height = max(bar.height, _height(lines, size))
    return NoticePlace(pygame.Rect(bar.left, bar.bottom - height, bar.width, height), lines, size)
