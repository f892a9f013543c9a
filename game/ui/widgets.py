"""Buttons and small drawing helpers. Widgets are rebuilt from the app's state every frame and
clicked by hit-testing the list from the latest layout."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.ui import fonts
from game.ui.themes import Color, Theme, mix


@dataclass
class Button:
    rect: pygame.Rect
    label: str
    action: str
    enabled: bool = True
    active: bool = False  # a toggle that is on
    tooltip: str = ""
    swatch: Color | None = None  # a small disc drawn before the label
    style: str = "button"  # "button" | "cycle" | "flat"

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


def draw_button(surface: pygame.Surface, b: Button, theme: Theme, mouse: tuple[int, int], font_size: int) -> None:
    hover = b.enabled and b.rect.collidepoint(mouse)
    if b.active:
        bg = mix(theme.button, theme.accent, 0.28 if not hover else 0.4)
    else:
        bg = theme.button_hover if hover else theme.button
    if b.style != "flat" or hover or b.active:
        pygame.draw.rect(surface, bg, b.rect, border_radius=7)
    if b.style == "cycle":
        pygame.draw.rect(surface, theme.panel_border, b.rect, width=1, border_radius=7)
    colour = theme.button_text if b.enabled else mix(theme.button_text, theme.button, 0.6)
    label = b.label
    left = b.rect.left + 10
    if b.style == "cycle":
        fonts.blit_text(surface, "‹", font_size + 2, theme.text_dim, (b.rect.left + 9, b.rect.centery), "midleft")
        fonts.blit_text(surface, "›", font_size + 2, theme.text_dim, (b.rect.right - 9, b.rect.centery), "midright")
        label = fonts.fit_text(label, font_size, b.rect.width - 40)
        fonts.blit_text(surface, label, font_size, colour, b.rect.center, "center")
        return
    if b.swatch is not None:
        pygame.draw.aacircle(surface, b.swatch, (left + 6, b.rect.centery), 6)
        left += 18
    label = fonts.fit_text(label, font_size, b.rect.width - 12)
    if b.swatch is not None:
        fonts.blit_text(surface, label, font_size, colour, (left, b.rect.centery), "midleft")
    else:
        fonts.blit_text(surface, label, font_size, colour, b.rect.center, "center", bold=b.active)


def row_rects(left: int, top: int, width: int, height: int, count: int, gap: int = 6) -> list[pygame.Rect]:
    """``count`` equal rectangles side by side filling ``width``."""
    w = (width - gap * (count - 1)) / count
    return [pygame.Rect(round(left + i * (w + gap)), top, round(w), height) for i in range(count)]


def draw_progress(surface: pygame.Surface, rect: pygame.Rect, share: float, theme: Theme, colour: Color) -> None:
    pygame.draw.rect(surface, mix(theme.panel, theme.panel_border, 0.8), rect, border_radius=rect.height // 2)
    filled = rect.copy()
    filled.width = max(rect.height, round(rect.width * max(0.0, min(1.0, share))))
    pygame.draw.rect(surface, colour, filled, border_radius=rect.height // 2)
