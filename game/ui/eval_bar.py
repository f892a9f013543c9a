"""A vertical winning-chance bar: the first player's share grows from the bottom. Its label sits in a
pill wide enough to read; a proven value is written as a result ("win" at the winner's end, "draw") and framed in
the accent colour, an estimate as a percentage with "≈"."""

from __future__ import annotations

import math

import pygame

from game.play.themes import Color, Theme, mix
from game.ui import text
from game.ui.frame import EvalBarState


def eased(shown: float, target: float | None, dt: float) -> float:
    """The bar's next shown value, easing toward ``target`` over wall time."""
    if target is None:
        return shown
    return shown + (target - shown) * (1 - math.exp(-dt * 6))


def label_of(state: EvalBarState) -> str:
    share = max(0.0, min(1.0, state.shown))
    if state.exact:
        return "draw" if abs(share - 0.5) < 0.01 else "win"  # drawn at the winner's end of the bar
    lead = max(share, 1 - share)
    return f"≈{round(lead * 100)}"


def draw_eval_bar(
    surface: pygame.Surface, rect: pygame.Rect, theme: Theme, state: EvalBarState, colours: tuple[Color, Color]
) -> None:
    bottom, top = colours
    radius = min(8, rect.width // 2)
    if not state.seen:  # nothing evaluated yet: an empty bar, not a made-up 50/50
        pygame.draw.rect(surface, mix(theme.panel, theme.background, 0.5), rect, border_radius=radius)
        pygame.draw.rect(surface, theme.panel_border, rect, width=1, border_radius=radius)
        return
    pygame.draw.rect(surface, mix(top, theme.panel, 0.15), rect, border_radius=radius)
    share = max(0.0, min(1.0, state.shown))
    fill = rect.copy()
    fill.height = round(rect.height * share)
    fill.bottom = rect.bottom
    if fill.height > 0:
        pygame.draw.rect(surface, mix(bottom, theme.panel, 0.15), fill, border_radius=radius)
    mid_y = rect.top + rect.height // 2
    pygame.draw.line(surface, theme.panel_border, (rect.left, mid_y), (rect.right - 1, mid_y), 1)
    frame_colour = theme.accent if state.exact else theme.panel_border
    pygame.draw.rect(surface, frame_colour, rect, width=2 if state.exact else 1, border_radius=radius)
    if not state.known:  # the last value stays while the new position is being looked at; no label
        return
    label = label_of(state)
    lead = share >= 0.5
    pill = pygame.Rect(0, 0, rect.width + 12, 20)
    pill.centerx = rect.centerx
    if lead:
        pill.bottom = rect.bottom + 10
    else:
        pill.top = rect.top - 10
    pygame.draw.rect(surface, theme.panel, pill, border_radius=6)
    pygame.draw.rect(surface, frame_colour, pill, width=1, border_radius=6)
    text.draw(surface, label, 12, theme.text, pill.center, "center", bold=state.exact, width=pill.width - 4)
