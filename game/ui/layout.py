"""Where everything goes, computed from the window size and the frame: a frozen value.

Input hit-tests the layout that was drawn; nothing here draws or keeps state. The board keeps its
size when the heatmap, the verdicts or the eval bar are toggled (their room is always reserved).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play.actions import Command
from game.ui.board_view import Connect4Geometry, connect4_geometry
from game.ui.frame import Frame, LoadCard, NewGameCard
from game.ui.grid_view import GridGeometry, grid_geometry
from game.ui.overlays import CardLayout, load_card_layout, new_game_layout
from game.ui.side_panel import PanelLayout, build_panel
from game.ui.widgets import Button

MIN_SIZE = (400, 300)  # the smallest window the app lays out
PANEL_W = 316
PANEL_SHARE = 0.28  # of the window's width, from 1130 px on
PANEL_MAX_W = 460
NARROW = 880  # below this width the side panel becomes a drawer
EVAL_W = 22
BANNER_H = 34  # room above a grid board for the result banner

BoardGeometry = Connect4Geometry | GridGeometry


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    top: pygame.Rect
    status: pygame.Rect
    body: pygame.Rect
    narrow: bool
    board_area: pygame.Rect
    board: BoardGeometry
    eval_rect: pygame.Rect
    top_buttons: tuple[Button, ...]
    panel: PanelLayout | None  # None: the drawer is closed
    card: CardLayout | None  # the open dialog's buttons
    status_buttons: tuple[Button, ...] = ()  # "Stop solving" while the solver works in the background

    @property
    def status_text_rect(self) -> pygame.Rect:
        """The status bar less its buttons."""
        if not self.status_buttons:
            return self.status
        left = min(b.rect.left for b in self.status_buttons) - 8
        return pygame.Rect(self.status.left, self.status.top, left - self.status.left, self.status.height)

    @property
    def buttons(self) -> tuple[Button, ...]:
        """Every clickable button, the topmost first."""
        if self.card is not None:
            return self.card.buttons
        return self.top_buttons + self.status_buttons + (self.panel.buttons if self.panel is not None else ())

    @property
    def banner_center(self) -> tuple[int, int]:
        return self.board.banner_center(BANNER_H)


def bar_heights(size: tuple[int, int]) -> tuple[int, int]:
    w, h = size
    return (34, 34) if h < 560 or w < 640 else (46, 44)


def compute_layout(size: tuple[int, int], frame: Frame) -> Layout:
    w, h = max(size[0], 1), max(size[1], 1)
    top_h, status_h = bar_heights((w, h))
    top = pygame.Rect(0, 0, w, top_h)
    status = pygame.Rect(0, h - status_h, w, status_h)
    body = pygame.Rect(0, top.bottom, w, status.top - top.bottom)
    narrow = w < NARROW
    panel_w = min(max(PANEL_W, round(w * PANEL_SHARE)), PANEL_MAX_W, w - 40)  # it grows with the window
    right = w - (0 if narrow else panel_w)
    left = 12 + EVAL_W + 14  # the eval bar's column is always reserved
    margin = 8 if h < 560 else 12
    area_top = body.top + margin + (0 if frame.caps.gravity else BANNER_H)
    board_area = pygame.Rect(left, area_top, max(40, right - left - 12), max(40, body.bottom - margin - area_top))
    board: BoardGeometry
    if frame.caps.gravity:
        board = connect4_geometry(frame.caps.width, frame.caps.height, board_area)
    else:
        board = grid_geometry(frame.caps, board_area)
    outline = board.rect
    eval_rect = pygame.Rect(max(8, board.frame.left - EVAL_W - 14), outline.top, EVAL_W, outline.height)
    size_b = 30 if top_h > 40 else 26
    # no tooltips up here: they would fall over the drawer's first heading
    buttons = [Button(pygame.Rect(w - size_b - 10, (top_h - size_b) // 2, size_b + 4, size_b), "?", Command.HELP)]
    new_w = 64
    new_rect = pygame.Rect(buttons[0].rect.left - new_w - 8, buttons[0].rect.top, new_w, size_b)
    buttons.append(Button(new_rect, "New…", Command.NEW_GAME))
    if narrow:
        menu = pygame.Rect(new_rect.left - 78, new_rect.top, 70, size_b)
        buttons.append(Button(menu, "Menu ≡", Command.PANEL, active=frame.panel_open))
    panel = None
    if not narrow or frame.panel_open:
        panel = build_panel(pygame.Rect(w - panel_w, body.top, panel_w, body.height), frame.panel)
    card = None
    if isinstance(frame.overlay, NewGameCard):
        card = new_game_layout((w, h), frame.overlay)
    elif isinstance(frame.overlay, LoadCard):
        card = load_card_layout((w, h), frame.overlay)
    stop: tuple[Button, ...] = ()
    if frame.status.stop_solving:
        stop_w = 104 if w >= 640 else 64
        stop_rect = pygame.Rect(w - stop_w - 10, status.top + (status_h - size_b) // 2, stop_w, size_b)
        stop = (Button(stop_rect, "Stop solving" if w >= 640 else "Stop", Command.STOP_SOLVING),)
    if frame.status.back_to_game:
        back_w = 136 if w >= 640 else 64
        right_edge = stop[0].rect.left - 8 if stop else w - 10
        back_rect = pygame.Rect(right_edge - back_w, status.top + (status_h - size_b) // 2, back_w, size_b)
        stop += (Button(back_rect, "Back to the game" if w >= 640 else "Back", Command.BACK_TO_GAME),)
    return Layout((w, h), top, status, body, narrow, board_area, board, eval_rect, tuple(buttons), panel, card, stop)


def title_room(layout: Layout) -> int:
    """The right edge the title text may reach (the top bar's buttons start there)."""
    return min(b.rect.left for b in layout.top_buttons) - 12
