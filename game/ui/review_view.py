"""The review on screen: the shown move's ring and the better move's ghost disc on the board with both verdicts,
a hint's ghost disc, the review's progress and summary on the eval graph. Reads the frame, writes pixels."""

from __future__ import annotations

import pygame

from game.play.themes import Color, Theme, mix
from game.ui import fonts, text
from game.ui.frame import Frame, ReviewView
from game.ui.layout import Layout

CLASS_COLOURS: dict[str, Color] = {
    "best": (70, 180, 100),
    "good": (120, 170, 200),
    "inaccuracy": (225, 185, 45),
    "mistake": (240, 130, 40),
    "blunder": (225, 55, 55),
}
MARKED = ("inaccuracy", "mistake", "blunder")
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def class_colour(klass: str, fallback: Color) -> Color:
    return CLASS_COLOURS.get(klass, fallback)


def graph_dots(review: ReviewView | None) -> tuple[tuple[int, Color], ...]:
    """(graph point, colour) of each marked move: the point after the move."""
    if review is None or review.training:
        return ()
    return tuple((ply + 1, CLASS_COLOURS[k]) for ply, k in enumerate(review.classes) if k in MARKED)


def move_marks(review: ReviewView | None) -> tuple[tuple[str, Color | None], ...]:
    """Per move of the line: the review's mark and its colour (none in training mode)."""
    if review is None or review.training:
        return ()
    return tuple((MARKS.get(k, ""), CLASS_COLOURS.get(k)) for k in review.classes)


def _cell_center(layout: Layout, cell: int) -> tuple[tuple[float, float], int] | None:
    return layout.board.cell_center(cell)


def _ghost(surface: pygame.Surface, layout: Layout, cell: int, colour: Color, label: str, theme: Theme) -> None:
    where = _cell_center(layout, cell)
    if where is None:
        return
    (x, y), radius = where
    ghost = pygame.Surface((2 * radius + 4, 2 * radius + 4), pygame.SRCALPHA)
    pygame.draw.circle(ghost, (*colour, 110), (radius + 2, radius + 2), radius)
    surface.blit(ghost, (round(x) - radius - 2, round(y) - radius - 2))
    pygame.draw.circle(surface, colour, (round(x), round(y)), radius, width=max(2, radius // 8))
    size = max(text.MIN_SIZE, min(15, radius // 2 + 2))
    if text.fits(label, size, radius * 1.8, bold=True):
        text.draw(surface, label, size, theme.text, (x, y), "center", bold=True)


def draw_board_marks(surface: pygame.Surface, frame: Frame, layout: Layout) -> None:
    """The shown move's ring, the better move's ghost, the hint's ghost and the verdicts' pill."""
    review = frame.review
    if review is None:
        return
    theme = frame.theme
    if review.hint_cell is not None:
        _ghost(surface, layout, review.hint_cell, theme.accent, review.hint_label, theme)
    if review.training:
        return
    colour = class_colour(review.note_class, theme.accent)
    last = frame.board.last_move
    if review.note and last is not None:
        where = _cell_center(layout, last)
        if where is not None:
            (x, y), radius = where
            pygame.draw.circle(surface, colour, (round(x), round(y)), radius + 3, width=max(3, radius // 7))
    if review.note and review.best_cell is not None:
        _ghost(surface, layout, review.best_cell, CLASS_COLOURS["best"], "best", theme)
    if review.note and frame.banner is None:
        _note_pill(surface, review, layout, theme, colour)


def _note_pill(surface: pygame.Surface, review: ReviewView, layout: Layout, theme: Theme, colour: Color) -> None:
    frame_rect = layout.board.frame
    max_w = min(layout.board_area.width, frame_rect.width + 60)
    size = max(12, min(16, frame_rect.width // 34))
    label, lsize = text.first_fitting(review.note, size, max_w - 44, bold=True)
    if not text.fits(label, lsize, max_w - 44, bold=True):
        return  # (no room at all: the status bar says it)
    w = fonts.font(lsize, True).size(label)[0]
    h = fonts.font(lsize, True).get_height() + 10
    pill = pygame.Rect(0, 0, w + 44, h)
    pill.center = layout.banner_center
    pill.clamp_ip(layout.body)
    pygame.draw.rect(surface, theme.panel, pill, border_radius=h // 2)
    pygame.draw.rect(surface, colour, pill, width=2, border_radius=h // 2)
    pygame.draw.circle(surface, colour, (pill.left + 16, pill.centery), 6)
    text.draw(surface, label, lsize, theme.text, (pill.left + 30, pill.centery), "midleft", bold=True)


def draw_graph_extras(surface: pygame.Surface, rect: pygame.Rect, review: ReviewView, theme: Theme) -> None:
    """The running review's progress: a thin bar along the graph's bottom edge."""
    if review.progress is None:
        return
    track = pygame.Rect(rect.left + 8, rect.bottom - 5, rect.width - 16, 3)
    pygame.draw.rect(surface, mix(theme.panel, theme.text_dim, 0.3), track, border_radius=1)
    done = track.copy()
    done.width = max(2, round(track.width * review.progress))
    pygame.draw.rect(surface, theme.accent, done, border_radius=1)
