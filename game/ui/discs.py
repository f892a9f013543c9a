"""Disc sprites: anti-aliased, shaded, with an optional mark (ring for the first player, cross for
the second) so the colour-blind palette does not rely on colour alone. Cached per size."""

from __future__ import annotations

from functools import lru_cache

import pygame

from game.play.themes import Color, shade


@lru_cache(maxsize=64)
def disc_sprite(color: Color, radius: int, mark: int | None) -> pygame.Surface:
    """A disc of ``radius`` pixels; ``mark`` 0 draws a ring, 1 a cross, None nothing."""
    radius = max(2, radius)
    size = radius * 2 + 4
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (size // 2, size // 2)
    pygame.draw.aacircle(surf, shade(color, 0.72), c, radius)
    pygame.draw.aacircle(surf, color, c, max(1, round(radius * 0.93)))
    pygame.draw.aacircle(surf, shade(color, 0.86), c, max(1, round(radius * 0.72)))
    pygame.draw.aacircle(surf, shade(color, 1.06), c, max(1, round(radius * 0.66)))
    if mark is not None:
        ink = shade(color, 0.35)
        w = max(2, round(radius * 0.16))
        if mark == 0:
            pygame.draw.aacircle(surf, ink, c, max(2, round(radius * 0.42)), width=w)
        else:
            d = radius * 0.34
            pygame.draw.line(surf, ink, (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), w + 1)
            pygame.draw.line(surf, ink, (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), w + 1)
    return surf


def draw_disc(
    surface: pygame.Surface, color: Color, center: tuple[float, float], radius: int, mark: int | None, alpha: int = 255
) -> None:
    sprite = _faded(color, radius, mark, alpha) if alpha < 255 else disc_sprite(color, radius, mark)
    rect = sprite.get_rect(center=(round(center[0]), round(center[1])))
    surface.blit(sprite, rect)


@lru_cache(maxsize=64)
def _faded(color: Color, radius: int, mark: int | None, alpha: int) -> pygame.Surface:
    sprite = disc_sprite(color, radius, mark).copy()
    sprite.set_alpha(alpha)
    return sprite
