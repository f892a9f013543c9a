"""A vertical win-probability bar: the first player's share grows from the bottom."""

from __future__ import annotations

import math

import pygame

from game.ui import fonts
from game.ui.themes import Color, Theme, mix


class EvalBar:
    def __init__(self) -> None:
        self.shown = 0.5  # eased toward the target, in seconds of wall time
        self._first = True

    def update(self, target: float | None, dt: float) -> None:
        if target is None:
            return
        if self._first:  # the first known value is shown at once (no slide from 50%)
            self.shown, self._first = target, False
            return
        self.shown += (target - self.shown) * (1 - math.exp(-dt * 6))

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme, bottom: Color, top: Color, known: bool
    ) -> None:
        radius = min(8, rect.width // 2)
        pygame.draw.rect(surface, mix(top, theme.panel, 0.15), rect, border_radius=radius)
        share = max(0.0, min(1.0, self.shown))
        fill = rect.copy()
        fill.height = round(rect.height * share)
        fill.bottom = rect.bottom
        if fill.height > 0:
            pygame.draw.rect(surface, mix(bottom, theme.panel, 0.15), fill, border_radius=radius)
        mid_y = rect.top + rect.height // 2
        pygame.draw.line(surface, theme.panel_border, (rect.left, mid_y), (rect.right - 1, mid_y), 1)
        pygame.draw.rect(surface, theme.panel_border, rect, width=1, border_radius=radius)
        if not known:
            return
        lead = share >= 0.5
        pct = round((share if lead else 1 - share) * 100)
        label = f"{pct}"
        size = 12
        while size > 7 and fonts.font(size, True).size(label)[0] > rect.width - 3:
            size -= 1
        pos = (rect.centerx, rect.bottom - 4) if lead else (rect.centerx, rect.top + 4)
        anchor = "midbottom" if lead else "midtop"
        colour = (20, 20, 20) if sum(bottom if lead else top) > 400 else (245, 245, 245)
        fonts.blit_text(surface, label, size, colour, pos, anchor, bold=True)
