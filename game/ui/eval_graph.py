"""The game's evaluation after every move: one quantity (the first player's winning chance, draws
half) from one point of view for the whole game. Proven points are squares, estimates small dots;
clicking a point goes to that move. Pure geometry (``ply_at``) is shared with hit-testing."""

from __future__ import annotations

import pygame

from game.play.session import EvalPoint
from game.play.themes import Color, Theme, mix
from game.ui import text

MIN_PLIES = 10
LEGEND_H = 16


def plies_of(points: tuple[EvalPoint | None, ...]) -> int:
    return max(MIN_PLIES, len(points) - 1)


def _plot(rect: pygame.Rect) -> pygame.Rect:
    """The plotting area: the graph less its caption line."""
    return pygame.Rect(rect.left + 6, rect.top + LEGEND_H + 2, rect.width - 12, max(10, rect.height - LEGEND_H - 8))


def x_of(rect: pygame.Rect, ply: int, plies: int) -> float:
    plot = _plot(rect)
    return plot.left + plot.width * ply / max(1, plies)


def y_of(rect: pygame.Rect, value: float) -> float:
    plot = _plot(rect)
    return plot.top + plot.height * (1 - value)


def ply_at(rect: pygame.Rect, plies: int, pos: tuple[int, int]) -> int | None:
    if not rect.collidepoint(pos):
        return None
    plot = _plot(rect)
    return max(0, min(plies, round((pos[0] - plot.left) / max(1, plot.width) * plies)))


def draw_graph(
    surface: pygame.Surface,
    rect: pygame.Rect,
    theme: Theme,
    points: tuple[EvalPoint | None, ...],
    cursor: int,
    colours: tuple[Color, Color],
    label: str | tuple[str, ...],
    mouse: tuple[int, int],
    dots: tuple[tuple[int, Color], ...] = (),
) -> None:
    """``dots``: (point, colour) of the review's marked moves (a dot on the curve, click to go)."""
    plies = plies_of(points)
    pygame.draw.rect(surface, mix(theme.panel, theme.background, 0.5), rect, border_radius=8)
    mid = y_of(rect, 0.5)
    xy = [(x_of(rect, i, plies), y_of(rect, p.value)) for i, p in enumerate(points) if p is not None]
    if len(xy) >= 2:
        top_poly = [(xy[0][0], mid), *[(x, min(y, mid)) for x, y in xy], (xy[-1][0], mid)]
        bottom_poly = [(xy[0][0], mid), *[(x, max(y, mid)) for x, y in xy], (xy[-1][0], mid)]
        pygame.draw.polygon(surface, mix(colours[0], theme.panel, 0.45), top_poly)
        pygame.draw.polygon(surface, mix(colours[1], theme.panel, 0.45), bottom_poly)
        pygame.draw.aalines(surface, theme.text_dim, False, xy)
    pygame.draw.line(surface, theme.panel_border, (rect.left + 4, mid), (rect.right - 4, mid))
    spacing = _plot(rect).width / max(1, plies)
    half = max(1, min(3, int(spacing * 0.35)))  # squares that never merge into a bar (a 41-ply proven game)
    for i, p in enumerate(points):
        if p is None:
            continue
        x, y = x_of(rect, i, plies), y_of(rect, p.value)
        if p.exact:
            pygame.draw.rect(
                surface, theme.text, pygame.Rect(round(x) - half, round(y) - half, 2 * half + 1, 2 * half + 1)
            )
        else:
            pygame.draw.aacircle(surface, theme.text_dim, (x, y), 2)
    for i, colour in dots:
        if i < len(points) and points[i] is not None:
            p = points[i]
            assert p is not None
            pygame.draw.circle(surface, colour, (round(x_of(rect, i, plies)), round(y_of(rect, p.value))), 4)
            pygame.draw.circle(surface, theme.panel, (round(x_of(rect, i, plies)), round(y_of(rect, p.value))), 4, 1)
    caption, caption_size = text.first_fitting((label,) if isinstance(label, str) else label, 11, rect.width - 16)
    hover = ply_at(rect, plies, mouse)
    if hover is not None and hover < len(points):
        p = points[hover]
        caption_size = 11
        caption = f"move {hover}" + (f": {p.value * 100:.0f}% {'proven' if p.exact else 'estimate'}" if p else "")
        hx = x_of(rect, hover, plies)
        pygame.draw.line(surface, theme.text_dim, (hx, _plot(rect).top), (hx, rect.bottom - 4))
    text.draw(surface, caption, caption_size, theme.text_dim, (rect.left + 8, rect.top + 3), width=rect.width - 16)
    if not xy:
        text.draw(
            surface,
            "no evaluations yet",
            12,
            theme.text_dim,
            (rect.centerx, _plot(rect).top + 4),
            "midtop",
            width=rect.width - 16,
        )
        return
    cx = x_of(rect, cursor, plies)
    pygame.draw.line(surface, theme.accent, (cx, _plot(rect).top), (cx, rect.bottom - 4), 2)
    if cursor < len(points) and points[cursor] is not None:
        current = points[cursor]
        assert current is not None
        pygame.draw.aacircle(surface, theme.accent, (cx, y_of(rect, current.value)), 4)
