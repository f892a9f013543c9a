"""The game's evaluation after every move; clicking a point goes to that move."""

from __future__ import annotations

import pygame

from game.ui import fonts
from game.ui.themes import Color, Theme, mix

MIN_PLIES = 10


class EvalGraph:
    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.plies = MIN_PLIES

    def _x(self, ply: int) -> float:
        return self.rect.left + 6 + (self.rect.width - 12) * ply / max(1, self.plies)

    def _y(self, value: float) -> float:
        return self.rect.top + 6 + (self.rect.height - 12) * (1 - value)

    def ply_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        share = (pos[0] - self.rect.left - 6) / max(1, self.rect.width - 12)
        return max(0, min(self.plies, round(share * self.plies)))

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        theme: Theme,
        values: list[float | None],
        cursor: int,
        colours: tuple[Color, Color],
        mouse: tuple[int, int],
    ) -> None:
        self.rect = pygame.Rect(rect)
        self.plies = max(MIN_PLIES, len(values) - 1)
        pygame.draw.rect(surface, mix(theme.panel, theme.background, 0.5), rect, border_radius=8)
        mid = self._y(0.5)
        points = [(self._x(i), self._y(v)) for i, v in enumerate(values) if v is not None]
        if len(points) >= 2:
            top_poly = [(points[0][0], mid), *[(x, min(y, mid)) for x, y in points], (points[-1][0], mid)]
            bottom_poly = [(points[0][0], mid), *[(x, max(y, mid)) for x, y in points], (points[-1][0], mid)]
            pygame.draw.polygon(surface, mix(colours[0], theme.panel, 0.45), top_poly)
            pygame.draw.polygon(surface, mix(colours[1], theme.panel, 0.45), bottom_poly)
            pygame.draw.aalines(surface, theme.text_dim, False, points)
        pygame.draw.line(surface, theme.panel_border, (rect.left + 4, mid), (rect.right - 4, mid))
        for x, y in points:
            pygame.draw.aacircle(surface, theme.text_dim, (x, y), 2)
        cx = self._x(cursor)
        pygame.draw.line(surface, theme.accent, (cx, rect.top + 3), (cx, rect.bottom - 4), 2)
        if cursor < len(values) and values[cursor] is not None:
            pygame.draw.aacircle(surface, theme.accent, (cx, self._y(values[cursor])), 4)
        hover = self.ply_at(mouse)
        if hover is not None and hover < len(values):
            v = values[hover]
            text = f"move {hover}" + (f" · {v * 100:.0f}%" if v is not None else "")
            pygame.draw.line(surface, theme.text_dim, (self._x(hover), rect.top + 3), (self._x(hover), rect.bottom - 4))
            fonts.blit_text(surface, text, 11, theme.text_dim, (rect.right - 6, rect.top + 4), "topright")
        if not points:
            fonts.blit_text(surface, "no evaluations yet", 12, theme.text_dim, rect.center, "center")
