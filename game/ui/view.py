"""The drawing of one frame: top bar, eval bar, board, side panel, status bar, notices and cards.

``draw(surface, frame, layout)`` reads the frame and the layout and writes nothing else than pixels
(the board painters keep caches of painted layers, keyed by everything they depend on).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play.themes import Theme
from game.ui import fonts, text
from game.ui.board_view import Connect4Painter
from game.ui.eval_bar import draw_eval_bar
from game.ui.eval_graph import draw_graph
from game.ui.frame import Banner, Frame, HelpCard, LoadCard, NewGameCard
from game.ui.grid_view import GridPainter
from game.ui.layout import Layout, title_room
from game.ui.move_list import draw_moves
from game.ui.notice_place import place_notice
from game.ui.overlays import draw_help, draw_load, draw_new_game
from game.ui.review_view import draw_board_marks, draw_graph_extras, graph_dots, move_marks
from game.ui.side_panel import draw_panel, draw_tooltip
from game.ui.status import draw_notice, draw_status
from game.ui.widgets import draw_button

_CONNECT4 = Connect4Painter()
_GRID = GridPainter()


@dataclass(frozen=True)
class Painters:
    """The painters of the two board geometries (each keeps its cached layers); a geometry paints itself with
    its own one, so the view never asks which geometry it has."""

    connect4: Connect4Painter
    grid: GridPainter


def draw(surface: pygame.Surface, frame: Frame, layout: Layout) -> None:
    theme = frame.theme
    text.layer("board")
    surface.fill(theme.background, layout.body)
    layout.board.paint(surface, frame.board, Painters(_CONNECT4, _GRID))
    draw_board_marks(surface, frame, layout)
    if frame.banner is not None:
        _banner(surface, frame.banner, layout, theme)
    if frame.eval_bar is not None:
        draw_eval_bar(surface, layout.eval_rect, theme, frame.eval_bar, frame.board.colours)
    text.layer("top")
    _top_bar(surface, frame, layout)
    text.layer("drawer" if layout.narrow else "panel")  # (a narrow window's drawer lies over the board)
    colours = frame.board.colours
    panel = layout.panel
    if panel is not None:
        draw_panel(surface, panel, theme, frame.mouse)
        if panel.moves_rect is not None:
            draw_moves(
                surface,
                panel.moves_rect,
                theme,
                frame.moves,
                frame.cursor,
                frame.move_scroll,
                colours,
                frame.mouse,
                move_marks(frame.review),
                frame.branches,
                frame.variation_rows,
            )
        if panel.graph_rect is not None:
            draw_graph(
                surface,
                panel.graph_rect,
                theme,
                frame.graph,
                frame.cursor,
                colours,
                frame.graph_label,
                frame.mouse,
                graph_dots(frame.review),
            )
            if frame.review is not None:
                draw_graph_extras(surface, panel.graph_rect, frame.review, theme)
    text.layer("status")
    draw_status(surface, frame.status, layout.status, theme, frame.now, layout.status_text_rect)
    for b in layout.status_buttons:
        draw_button(surface, b, theme, frame.mouse, 12)
    if frame.status.notice is not None:
        text.layer("notice")
        notice = frame.status.notice
        draw_notice(surface, notice, place_notice(layout, notice.text, notice.error), theme)
    overlay = frame.overlay
    text.layer("overlay" if overlay is not None else "tooltip")
    if isinstance(overlay, HelpCard):
        draw_help(surface, overlay, theme)
    elif isinstance(overlay, LoadCard) and layout.card is not None:
        draw_load(surface, overlay, layout.card, theme, frame.mouse)
    elif isinstance(overlay, NewGameCard) and layout.card is not None:
        draw_new_game(surface, overlay, layout.card, theme, frame.mouse)
    elif overlay is None:
        draw_tooltip(surface, layout.buttons, theme, frame.mouse, surface.get_rect())
        if frame.board.heat is not None:
            tip = layout.board.heat_tip(frame.board.verdicts, frame.mouse)
            if tip is not None:
                _legend_tip(surface, tip, frame.mouse, layout.body, theme)


def _legend_tip(surface: pygame.Surface, tip: str, mouse: tuple[int, int], bounds: pygame.Rect, theme: Theme) -> None:
    box = pygame.Rect(0, 0, min(bounds.width - 12, fonts.font(12).size(tip)[0] + 16), 22)
    box.midbottom = (mouse[0], mouse[1] - 12)
    box.clamp_ip(bounds)
    pygame.draw.rect(surface, theme.button_hover, box, border_radius=5)
    pygame.draw.rect(surface, theme.panel_border, box, width=1, border_radius=5)
    text.draw(surface, tip, 12, theme.text, box.center, "center", width=box.width - 8)


def _top_bar(surface: pygame.Surface, frame: Frame, layout: Layout) -> None:
    theme, bar = frame.theme, layout.top
    surface.fill(theme.panel, bar)
    pygame.draw.line(surface, theme.panel_border, bar.bottomleft, bar.bottomright)
    room = title_room(layout) - 14
    big = 18 if bar.height > 40 else 15
    title = text.draw(surface, frame.title, big, theme.text, (14, bar.centery), "midleft", bold=True, width=room)
    sub_room = room - title.width - 12
    if sub_room > 60:
        sub, size = text.first_fitting((frame.subtitle,), 13, sub_room)
        if text.fits(sub, size, sub_room):
            text.draw(surface, sub, size, theme.text_dim, (title.right + 12, bar.centery + 1), "midleft")
    for b in layout.top_buttons:
        draw_button(surface, b, theme, frame.mouse, 13)


def _banner(surface: pygame.Surface, banner: Banner, layout: Layout, theme: Theme) -> None:
    """A pill above the board with the result (in the room reserved for it, off the board's frame)."""
    frame_rect = layout.board.frame
    size = max(12, min(18, frame_rect.width // 28))
    max_w = min(layout.board_area.width, frame_rect.width + 80)
    dot = size if banner.colour is not None else 0
    main_size = text.fitted_size(banner.text, size, max_w - dot - 40, bold=True)
    main_w = fonts.font(main_size, True).size(banner.text)[0]
    hint_room = max_w - dot - 48 - main_w
    show_hint = text.fits(banner.hint, size - 3, hint_room)
    hint_w = fonts.font(size - 3).size(banner.hint)[0] if show_hint else 0
    h = fonts.font(main_size, True).get_height() + 10
    pill = pygame.Rect(0, 0, main_w + hint_w + dot + 40, h)
    pill.center = layout.banner_center
    pill.clamp_ip(layout.body)
    pygame.draw.rect(surface, theme.panel, pill, border_radius=h // 2)
    pygame.draw.rect(surface, theme.panel_border, pill, width=1, border_radius=h // 2)
    x = pill.left + 16
    if banner.colour is not None:
        pygame.draw.aacircle(surface, banner.colour, (x + dot // 2, pill.centery), dot // 2)
        x += dot + 8
    drawn = text.draw(surface, banner.text, main_size, theme.text, (x, pill.centery), "midleft", bold=True)
    if show_hint:
        text.draw(surface, banner.hint, size - 3, theme.text_dim, (drawn.right + 8, pill.centery + 1), "midleft")
