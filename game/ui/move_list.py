"""The moves of the line in numbered pairs; click one to show the position after it, wheel to scroll."""

from __future__ import annotations

import pygame

from game.ui import fonts
from game.ui.themes import Color, Theme, mix


class MoveList:
    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.scroll = 0  # first visible row
        self._cells: list[tuple[pygame.Rect, int]] = []  # (rect, ply after the move)
        self._follow = -1

    def row_height(self) -> int:
        return 22

    def ply_at(self, pos: tuple[int, int]) -> int | None:
        for rect, ply in self._cells:
            if rect.collidepoint(pos):
                return ply
        return None

    def wheel(self, dy: int, total_moves: int) -> None:
        rows = (total_moves + 1) // 2
        visible = max(1, self.rect.height // self.row_height())
        self.scroll = max(0, min(self.scroll - dy, max(0, rows - visible)))

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        theme: Theme,
        moves: list[str],
        cursor: int,
        colours: tuple[Color, Color],
        mouse: tuple[int, int],
    ) -> None:
        self.rect = pygame.Rect(rect)
        pygame.draw.rect(surface, mix(theme.panel, theme.background, 0.5), rect, border_radius=8)
        rh = self.row_height()
        rows = (len(moves) + 1) // 2
        visible = max(1, (rect.height - 8) // rh)
        if cursor != self._follow:  # keep the current move in view when it changes
            row = max(0, (cursor - 1) // 2)
            if row < self.scroll:
                self.scroll = row
            elif row >= self.scroll + visible:
                self.scroll = row - visible + 1
            self._follow = cursor
        self.scroll = max(0, min(self.scroll, max(0, rows - visible)))
        self._cells = []
        if not moves:
            fonts.blit_text(surface, "no moves yet", 12, theme.text_dim, rect.center, "center")
            return
        col_w = (rect.width - 44) // 2
        clip = surface.get_clip()
        surface.set_clip(rect)
        for row in range(self.scroll, min(rows, self.scroll + visible)):
            y = rect.top + 4 + (row - self.scroll) * rh
            fonts.blit_text(surface, f"{row + 1}.", 13, theme.text_dim, (rect.left + 34, y + rh // 2), "midright")
            for side in (0, 1):
                i = row * 2 + side
                if i >= len(moves):
                    break
                cell = pygame.Rect(rect.left + 40 + side * col_w, y + 1, col_w - 4, rh - 2)
                ply = i + 1
                self._cells.append((cell, ply))
                current = ply == cursor
                if current:
                    pygame.draw.rect(surface, mix(theme.panel, theme.accent, 0.3), cell, border_radius=5)
                elif cell.collidepoint(mouse):
                    pygame.draw.rect(surface, theme.button_hover, cell, border_radius=5)
                pygame.draw.aacircle(surface, colours[side], (cell.left + 9, cell.centery), 5)
                colour = theme.text if ply <= cursor else theme.text_dim
                fonts.blit_text(surface, moves[i], 13, colour, (cell.left + 20, cell.centery), "midleft", bold=current)
        surface.set_clip(clip)
        if rows > visible:  # a thin scroll indicator
            track = rect.inflate(0, -8)
            h = max(16, track.height * visible // rows)
            y = track.top + (track.height - h) * self.scroll // max(1, rows - visible)
            pygame.draw.rect(surface, theme.panel_border, (rect.right - 5, y, 3, h), border_radius=2)
