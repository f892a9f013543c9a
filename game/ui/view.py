"""Window layout and the drawing of one frame: top bar, eval bar, board, side panel, status bar."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from game.ui import fonts, overlays
from game.ui.board_view import BoardScene, label_rows
from game.ui.game_choices import game_title
from game.ui.side_panel import build_panel, draw_panel
from game.ui.status import draw_status, title_text
from game.ui.widgets import Button, draw_button

if TYPE_CHECKING:
    from game.ui.game_app import App

TOP_H = 46
STATUS_H = 44
PANEL_W = 316
NARROW = 880  # below this width the side panel becomes a drawer


@dataclass
class Layout:
    size: tuple[int, int]
    top: pygame.Rect
    status: pygame.Rect
    panel: pygame.Rect
    panel_visible: bool
    narrow: bool
    eval_rect: pygame.Rect | None
    board_area: pygame.Rect
    top_buttons: list[Button] = field(default_factory=list)


def compute_layout(app: App) -> Layout:
    w, h = app.screen.get_size()
    top = pygame.Rect(0, 0, w, TOP_H)
    status = pygame.Rect(0, h - STATUS_H, w, STATUS_H)
    narrow = w < NARROW
    panel_w = min(PANEL_W, w - 40)
    panel = pygame.Rect(w - panel_w, TOP_H, panel_w, h - TOP_H - STATUS_H)
    panel_visible = (not narrow) or app.panel_open
    right = w - (0 if narrow else panel_w)
    left = 16
    eval_rect = None
    body_top, body_bottom = TOP_H + 12, h - STATUS_H - 10
    if app.settings.eval_bar:
        eval_rect = pygame.Rect(left, body_top + 8, 22, body_bottom - body_top - 16)
        left += 34
    board_area = pygame.Rect(left, body_top, right - left - 16, body_bottom - body_top)
    buttons = [Button(pygame.Rect(w - 46, 8, 34, 30), "?", "help", tooltip="Shortcuts (?)")]
    if narrow:
        buttons.append(Button(pygame.Rect(w - 132, 8, 80, 30), "Menu ≡", "panel", active=app.panel_open))
    verdicts = app.settings.exact and app.session.spec.name.startswith("connect4")
    app.view.layout(board_area, label_rows(app.settings.heatmap, verdicts))
    if eval_rect is not None:  # the bar spans the board's height
        board = app.view.rect
        pad = max(4, app.view.cell // 8) if hasattr(app.view, "cell") else 0
        eval_left = max(16, board.left - 44 - pad)
        eval_rect = pygame.Rect(eval_left, board.top - pad, eval_rect.width, board.height + 2 * pad)
    layout = Layout((w, h), top, status, panel, panel_visible, narrow, eval_rect, board_area, buttons)
    if panel_visible:
        app.panel = build_panel(app, panel)
    else:
        app.panel = build_panel(app, pygame.Rect(-10000, -10000, 0, 0))
        app.panel.buttons = []
    return layout


def draw(app: App) -> None:
    surface, theme, layout = app.screen, app.theme, app.layout
    body = pygame.Rect(0, layout.top.bottom, surface.get_width(), layout.status.top - layout.top.bottom)
    if layout.panel_visible and not layout.narrow:
        body.width = layout.panel.left  # the panel paints its own background
    surface.fill(theme.background, body)
    sess = app.session
    pos = sess.position
    # board
    grid = not hasattr(pos, "column_height")
    hover = app.key_cursor if app.key_cursor is not None and not grid else app.hover
    can_play = app.human_can_play() and app.overlay is None
    heat = None
    if app.settings.heatmap and app.heat is not None and app.heat_moves == sess.moves_text and not pos.outcome.is_over:
        heat = app.heat
    last = None
    if sess.cursor > 0 and hasattr(pos, "column_height"):
        col = sess.line[sess.cursor - 1]
        last = (pos.column_height(col) - 1) * sess.spec.width + col
    scene = BoardScene(
        position=pos,
        theme=theme,
        colour_of=app.colour_of,
        mark_of=app.mark_of,
        now=app.now,
        hover=hover if can_play else None,
        preview_player=pos.to_move if can_play else None,
        animation=app.animation,
        heat=heat,
        last_move=last,
        placed=app.placed,
        key_cursor=app.key_cursor if grid and can_play else None,
        verdicts=app.verdicts(),
    )
    app.view.draw(surface, scene)
    if pos.outcome.is_over and (app.animation is None or app.animation.done(app.now)):
        _result_banner(app, surface)
    if layout.eval_rect is not None:
        value = sess.eval_at(sess.cursor)
        app.eval_bar.draw(surface, layout.eval_rect, theme, app.colour_of(0), app.colour_of(1), value is not None)
    # top bar
    surface.fill(theme.panel, layout.top)
    pygame.draw.line(surface, theme.panel_border, layout.top.bottomleft, layout.top.bottomright)
    title = fonts.blit_text(surface, game_title(sess.spec.name), 18, theme.text, (16, layout.top.centery), "midleft",
                            bold=True)
    sub = fonts.fit_text(title_text(app), 13, max(40, layout.top.width - title.right - 160))
    fonts.blit_text(surface, sub, 13, theme.text_dim, (title.right + 12, layout.top.centery + 1), "midleft")
    for b in layout.top_buttons:
        draw_button(surface, b, theme, app.mouse, 14)
    # side panel
    if layout.panel_visible:
        draw_panel(surface, app, app.panel, app.mouse)
        values = [sess.eval_at(i) for i in range(len(sess.line) + 1)]
        if app.panel.moves_rect is not None:
            moves = [sess.spec.move_to_text(m) for m in sess.line]
            app.move_list.draw(surface, app.panel.moves_rect, theme, moves, sess.cursor,
                               (app.colour_of(0), app.colour_of(1)), app.mouse)
        else:
            app.move_list.rect = pygame.Rect(0, 0, 0, 0)
        if app.panel.graph_rect is not None:
            app.eval_graph.draw(surface, app.panel.graph_rect, theme, values, sess.cursor,
                                (app.colour_of(0), app.colour_of(1)), app.mouse)
        else:
            app.eval_graph.rect = pygame.Rect(0, 0, 0, 0)
    else:
        app.move_list.rect = pygame.Rect(0, 0, 0, 0)
        app.eval_graph.rect = pygame.Rect(0, 0, 0, 0)
    draw_status(surface, app, layout.status)
    if app.overlay == "help":
        overlays.draw_help(surface, theme)
    elif app.overlay == "load" and app.load_dialog is not None:
        app.load_dialog.draw(surface, theme, app.mouse)


def _result_banner(app: App, surface: pygame.Surface) -> None:
    """A pill above the board with the result, where the preview disc hovers during play."""
    theme, pos, board = app.theme, app.session.position, app.view.rect
    winner = pos.outcome.winner
    text = "Draw" if winner is None else f"{app.player_name(winner)} wins"
    if winner is not None and app.settings.mode == "vs-bot":
        text += " · you win!" if not app.is_bot(winner) else " · the bot wins"
    hint = "  N: new game  ·  U: undo"
    size = max(13, min(20, board.width // 30))
    main_img = fonts.text(text, size, theme.text, True)
    hint_img = fonts.text(hint, size - 3, theme.text_dim)
    dot = size if winner is not None else 0
    w = main_img.get_width() + hint_img.get_width() + dot + 40
    h = main_img.get_height() + 14
    top_space = board.top - app.layout.board_area.top
    pill = pygame.Rect(0, 0, w, h)
    pill.center = (board.centerx, board.top - max(h // 2 + 6, min(top_space // 2, 60)))
    pygame.draw.rect(surface, theme.panel, pill, border_radius=h // 2)
    pygame.draw.rect(surface, theme.panel_border, pill, width=1, border_radius=h // 2)
    x = pill.left + 18
    if winner is not None:
        pygame.draw.aacircle(surface, app.colour_of(winner), (x + dot // 2, pill.centery), dot // 2)
        x += dot + 8
    surface.blit(main_img, main_img.get_rect(midleft=(x, pill.centery)))
    x += main_img.get_width()
    surface.blit(hint_img, hint_img.get_rect(midleft=(x, pill.centery + 1)))
