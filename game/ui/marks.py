"""Pieces of the grid games: X and O marks (tic-tac-toe, Ultimate TTT) and round stones (m,n,k, Gomoku).

A mark is drawn twice, dark then in the player's colour, so a light colour (yellow) still reads
on a light cell. ``scale`` (0..1) grows a piece for the placing animation.
"""

from __future__ import annotations

import pygame

from game.play.themes import Color, shade
from game.ui.discs import draw_disc


def draw_x(surface: pygame.Surface, colour: Color, rect: pygame.Rect, scale: float = 1.0, alpha: int = 255) -> None:
    size = rect.width * 0.3 * scale
    if size < 2:
        return
    width = max(2, round(rect.width * 0.12 * scale))
    layer, (cx, cy) = _layer(surface, rect, alpha)
    strokes = [((cx - size, cy - size), (cx + size, cy + size)), ((cx - size, cy + size), (cx + size, cy - size))]
    for ink, w in ((shade(colour, 0.55), width + max(2, width // 3)), (colour, width)):
        for start, end in strokes:
            _stroke(layer, ink, start, end, w)
    _finish(surface, layer, rect, alpha)


def _stroke(
    surface: pygame.Surface, ink: Color, start: tuple[float, float], end: tuple[float, float], width: float
) -> None:
    """A line ``width`` pixels thick (measured across it) with round caps, anti-aliased edges."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1e-6, (dx * dx + dy * dy) ** 0.5)
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    quad = [
        (start[0] + nx, start[1] + ny),
        (end[0] + nx, end[1] + ny),
        (end[0] - nx, end[1] - ny),
        (start[0] - nx, start[1] - ny),
    ]
    pygame.draw.polygon(surface, ink, quad)
    pygame.draw.aalines(surface, ink, True, quad)
    for x, y in (start, end):
        pygame.draw.aacircle(surface, ink, (x, y), width / 2)


def draw_o(surface: pygame.Surface, colour: Color, rect: pygame.Rect, scale: float = 1.0, alpha: int = 255) -> None:
    radius = rect.width * 0.33 * scale
    if radius < 2:
        return
    width = max(2, round(rect.width * 0.11 * scale))
    layer, centre = _layer(surface, rect, alpha)
    outline = max(1, width // 4)
    pygame.draw.aacircle(layer, shade(colour, 0.55), centre, radius + outline, width=width + 2 * outline)
    pygame.draw.aacircle(layer, colour, centre, radius, width=width)
    _finish(surface, layer, rect, alpha)


def draw_piece(
    surface: pygame.Surface,
    style: str,
    player: int,
    colour: Color,
    mark: int | None,
    rect: pygame.Rect,
    scale: float = 1.0,
    alpha: int = 255,
) -> None:
    """``style`` "marks": X for the first player, O for the second; "stones": a disc."""
    if style == "marks":
        (draw_x if player == 0 else draw_o)(surface, colour, rect, scale, alpha)
        return
    radius = round(rect.width * 0.42 * scale)
    if radius >= 2:
        draw_disc(surface, colour, rect.center, radius, mark, alpha)


def _layer(surface: pygame.Surface, rect: pygame.Rect, alpha: int) -> tuple[pygame.Surface, tuple[float, float]]:
    """Where to draw: the surface itself, or a see-through layer for a faded piece."""
    if alpha >= 255:
        return surface, (rect.centerx, rect.centery)
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    return layer, (rect.width / 2, rect.height / 2)


def _finish(surface: pygame.Surface, layer: pygame.Surface, rect: pygame.Rect, alpha: int) -> None:
    if alpha < 255:
        layer.set_alpha(alpha)
        surface.blit(layer, rect.topleft)
