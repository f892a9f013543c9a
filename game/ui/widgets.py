"""Buttons and small drawing helpers. Buttons are values made by the layout each frame; a click is
hit-tested against the buttons that were drawn. A selector (``‹ value ›``) goes back on its left arrow
(or a right click) and forward elsewhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pygame

from game.play.actions import Action
from game.play.themes import Color, Theme, mix
from game.ui import text

ARROW_W = 26  # the clickable width of a selector's arrows

ButtonStyle = Literal["button", "cycle", "flat", "field", "hint"]  # field: a text box; hint: an empty one


@dataclass(frozen=True)
class Button:
    rect: pygame.Rect
    label: str
    action: Action | None
    back: Action | None = None  # a selector's step back (its "‹")
    enabled: bool = True
    active: bool = False  # a toggle that is on
    tooltip: str = ""
    swatch: Color | None = None  # a small disc drawn before the label
    style: ButtonStyle = "button"

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.action is not None and self.rect.collidepoint(pos)

    def action_at(self, pos: tuple[int, int], secondary: bool = False) -> Action | None:
        """The action of a click at ``pos`` (``secondary``: the right button), None when it misses."""
        if not self.hit(pos):
            return None
        if self.back is not None and (secondary or pos[0] < self.rect.left + ARROW_W):
            return self.back
        return None if secondary and self.style != "cycle" else self.action


def draw_button(surface: pygame.Surface, b: Button, theme: Theme, mouse: tuple[int, int], font_size: int) -> None:
    hover = b.enabled and b.action is not None and b.rect.collidepoint(mouse)
    if b.active:
        bg = mix(theme.button, theme.accent, 0.4 if hover else 0.28)
    else:
        bg = theme.button_hover if hover else theme.button
    if b.style in ("field", "hint"):
        _draw_field(surface, b, theme, font_size)
        return
    if b.style != "flat" or hover or b.active:
        pygame.draw.rect(surface, bg, b.rect, border_radius=7)
    colour = theme.button_text if b.enabled else mix(theme.button_text, theme.button, 0.6)
    if b.style == "cycle":
        pygame.draw.rect(surface, theme.panel_border, b.rect, width=1, border_radius=7)
        arrow = theme.text if b.enabled else colour
        for label, x, anchor in (("‹", b.rect.left + 9, "midleft"), ("›", b.rect.right - 9, "midright")):
            text.draw(surface, label, font_size + 3, arrow, (x, b.rect.centery - 1), anchor, bold=True)
        text.draw(surface, b.label, font_size, colour, b.rect.center, "center", width=b.rect.width - 2 * ARROW_W)
        return
    left = b.rect.left + 8
    if b.swatch is not None:
        pygame.draw.aacircle(surface, b.swatch, (left + 6, b.rect.centery), 6)
        left += 18
        text.draw(surface, b.label, font_size, colour, (left, b.rect.centery), "midleft", width=b.rect.right - left - 4)
    else:
        text.draw(surface, b.label, font_size, colour, b.rect.center, "center", bold=b.active, width=b.rect.width - 8)


def _draw_field(surface: pygame.Surface, b: Button, theme: Theme, font_size: int) -> None:
    """A text box with its caret (``hint``: the box is empty and shows what to type, dimmed)."""
    pygame.draw.rect(surface, theme.panel, b.rect, border_radius=5)
    pygame.draw.rect(surface, theme.accent, b.rect, width=2, border_radius=5)
    left = b.rect.left + 10
    if b.style == "hint":
        caret_x = left
        text.draw(
            surface, b.label, font_size, theme.text_dim, (left + 4, b.rect.centery), "midleft", width=b.rect.width - 24
        )
    else:
        drawn = text.draw(
            surface, b.label, font_size, theme.text, (left, b.rect.centery), "midleft", width=b.rect.width - 24
        )
        caret_x = drawn.right + 2
    pygame.draw.line(surface, theme.text, (caret_x, b.rect.top + 6), (caret_x, b.rect.bottom - 7), 2)


def row_rects(left: int, top: int, width: int, height: int, count: int, gap: int = 6) -> list[pygame.Rect]:
    """``count`` equal rectangles side by side filling ``width``."""
    w = (width - gap * (count - 1)) / count
    return [pygame.Rect(round(left + i * (w + gap)), top, round(w), height) for i in range(count)]


def draw_progress(
    surface: pygame.Surface, rect: pygame.Rect, share: float | None, theme: Theme, colour: Color, now: float
) -> None:
    """A bar filled to ``share``; with ``share`` None a block sweeps across (work of unknown length)."""
    pygame.draw.rect(surface, mix(theme.panel, theme.panel_border, 0.8), rect, border_radius=rect.height // 2)
    filled = rect.copy()
    if share is None:
        filled.width = max(rect.height, rect.width // 4)
        phase = (now * 0.7) % 1.0
        filled.left = rect.left + round((rect.width - filled.width) * (1 - abs(1 - 2 * phase)))
    else:
        filled.width = max(rect.height, round(rect.width * max(0.0, min(1.0, share))))
    pygame.draw.rect(surface, colour, filled, border_radius=rect.height // 2)
