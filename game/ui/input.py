"""Mouse and keyboard: pygame events become action values (see ``overlays.SHORTCUTS`` for the keys).

``actions_for(event, layout, context)`` hit-tests the layout that was drawn; it reads nothing else and
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from game.play import actions
from game.play.actions import (
    Action,
    Command,
    CycleTheme,
    GoTo,
    Hover,
    LoadFile,
    MoveCursor,
    PlayMove,
    ScrollMoves,
    ShowVariation,
)
from game.ui.eval_graph import ply_at
from game.ui.frame import HelpCard, NewGameCard, Overlay
from game.ui.layout import Layout
from game.ui.move_list import move_cells, variation_cells

_LETTERS = {
    pygame.K_u: Command.UNDO,
    pygame.K_r: Command.REDO,
    pygame.K_n: Command.NEW_GAME,
    pygame.K_g: Command.NEW_GAME,
    pygame.K_h: Command.HEATMAP,
    pygame.K_e: Command.EVAL,
    pygame.K_m: Command.SOUND,
    pygame.K_c: Command.CONTINUE,
    pygame.K_p: Command.PAUSE,
    pygame.K_s: Command.STEP,
    pygame.K_x: Command.EXACT,
    pygame.K_v: Command.REVIEW,
    pygame.K_i: Command.HINT,
    pygame.K_k: Command.TRAINING,
    pygame.K_z: Command.PUZZLES,
    pygame.K_a: Command.NEXT_VARIATION,
    pygame.K_f: Command.FOLD_VARIATIONS,
    pygame.K_l: Command.LEARN,
    pygame.K_RIGHTBRACKET: Command.NEXT_MISTAKE,
    pygame.K_LEFTBRACKET: Command.PREV_MISTAKE,
    pygame.K_F1: Command.HELP,
    pygame.K_HOME: Command.FIRST,
    pygame.K_END: Command.LAST,
    pygame.K_PAGEUP: Command.PREV,
    pygame.K_PAGEDOWN: Command.NEXT,
    pygame.K_ESCAPE: Command.CLEAR_CURSOR,
}
_CTRL = {
    pygame.K_s: Command.SAVE,
    pygame.K_o: Command.LOAD,
    pygame.K_c: Command.COPY,
    pygame.K_v: Command.PASTE,
    pygame.K_q: Command.QUIT,
    pygame.K_z: Command.UNDO,
    pygame.K_y: Command.REDO,
    pygame.K_LEFT: Command.PREV,
    pygame.K_RIGHT: Command.NEXT,
    pygame.K_e: Command.SHARE,
    pygame.K_p: Command.PROMOTE,
    pygame.K_d: Command.DELETE_MOVE,
}
_DIGITS = {getattr(pygame, f"K_{i}"): i - 1 for i in range(1, 10)} | {
    getattr(pygame, f"K_KP{i}"): i - 1 for i in range(1, 10)
}
_ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
_PLAY_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


@dataclass(frozen=True)
class InputContext:
    overlay: Overlay | None
    gravity: bool  # Connect 4: digits drop discs, left/right steer the drop cursor
    cursor_active: bool  # a human may play at the latest position: arrows steer the cursor
    space_pauses: bool  # bot vs bot at the latest position
    moves: int  # moves in the line
    move_scroll: int  # the move list's first visible row
    graph_plies: int
    typing: bool = False  # the new-game dialog's text field takes the keys typed
    drawer_open: bool = False  # a narrow window's "Menu ≡" panel is open over the board
    inserts: tuple[int, ...] = ()  # the move list's variation rows: the pair row each is drawn under
    layer_open: bool = False  # Learn or a puzzle over the game: Esc goes back to the game


def actions_for(event: pygame.event.Event, layout: Layout, ctx: InputContext) -> list[Action]:
    if event.type == pygame.QUIT:
        return [Command.QUIT]
    if event.type == pygame.MOUSEMOTION:
        pixel = (int(event.pos[0]), int(event.pos[1]))
        on_board = (
            layout.board_area.collidepoint(pixel)
            and ctx.overlay is None
            and not ctx.drawer_open
            and not _on_panel(layout, pixel)
        )
        return [Hover(pixel, layout.board.move_at(pixel) if on_board else None)]
    if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
        return _click(layout, ctx, (int(event.pos[0]), int(event.pos[1])), event.button == 3)
    if event.type == pygame.MOUSEWHEEL:
        return [ScrollMoves(-int(event.y))]
    if event.type == pygame.KEYDOWN:
        return _key(event, ctx)
    if event.type == pygame.DROPFILE:
        return [LoadFile(Path(event.file))]
    return []


def _on_panel(layout: Layout, pixel: tuple[int, int]) -> bool:
    return layout.panel is not None and layout.panel.rect.collidepoint(pixel)


def _click(layout: Layout, ctx: InputContext, pixel: tuple[int, int], secondary: bool) -> list[Action]:
    if isinstance(ctx.overlay, HelpCard):
        return [Command.NEXT_PAGE]
    for button in layout.buttons:
        action = button.action_at(pixel, secondary)
        if action is not None:
            return [action]
    if ctx.overlay is not None:
        card = layout.card
        return [] if card is not None and card.rect.collidepoint(pixel) else [Command.CLOSE]
    if ctx.drawer_open and not _on_panel(layout, pixel):
        return [Command.PANEL]  # a click beside the open drawer closes it (it is never a move)
    panel = layout.panel
    if panel is not None:
        if panel.moves_rect is not None and panel.moves_rect.collidepoint(pixel):
            for cell, index in variation_cells(panel.moves_rect, ctx.moves, ctx.move_scroll, ctx.inserts):
                if cell.collidepoint(pixel):
                    return [ShowVariation(index)]
            cells = move_cells(panel.moves_rect, ctx.moves, ctx.move_scroll, ctx.inserts)
            return [GoTo(ply) for cell, ply in cells if cell.collidepoint(pixel)]
        if panel.graph_rect is not None:
            ply = ply_at(panel.graph_rect, ctx.graph_plies, pixel)
            if ply is not None:
                return [GoTo(min(ply, ctx.moves))]
        if panel.rect.collidepoint(pixel):
            return []
    if not secondary and layout.board_area.collidepoint(pixel):
        move = layout.board.move_at(pixel)
        if move is not None:
            return [PlayMove(move)]
    return []


def _typed(key: int, mods: int, typed: str) -> list[Action]:
    """A key in the dialog's text field: a character, Backspace, or Ctrl+V (paste)."""
    if mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
        return [Command.PASTE] if key == pygame.K_v else []
    if key == pygame.K_BACKSPACE:
        return [Command.ERASE]
    return [actions.TypeText(typed)] if typed and typed.isprintable() else []


def _key(event: pygame.event.Event, ctx: InputContext) -> list[Action]:
    key, mods = event.key, event.mod
    typed = getattr(event, "unicode", "") or ""
    if ctx.overlay is not None:
        if key == pygame.K_ESCAPE or typed == "?" or key == pygame.K_F1:
            return [Command.CLOSE]
        if isinstance(ctx.overlay, HelpCard):
            return [Command.NEXT_PAGE]
        if isinstance(ctx.overlay, NewGameCard) and key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return [Command.START]
        if ctx.typing:
            return _typed(key, mods, typed)
        return []
    if ctx.drawer_open and key == pygame.K_ESCAPE:
        return [Command.PANEL]
    if ctx.layer_open and key == pygame.K_ESCAPE:
        return [Command.BACK_TO_GAME]
    if typed == "?" or (key == pygame.K_SLASH and mods & pygame.KMOD_SHIFT):
        return [Command.HELP]
    if mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
        return [_CTRL[key]] if key in _CTRL else []
    if key in _DIGITS and ctx.gravity:
        return [PlayMove(_DIGITS[key])]
    if key in _ARROWS and ctx.cursor_active and not mods & pygame.KMOD_SHIFT:
        dx, dy = _ARROWS[key]
        if ctx.gravity and dy:
            return []
        return [MoveCursor(dx, dy)]
    if key in (pygame.K_LEFT, pygame.K_RIGHT):
        return [Command.PREV if key == pygame.K_LEFT else Command.NEXT]
    if key in _PLAY_KEYS:
        if ctx.space_pauses and key == pygame.K_SPACE:
            return [Command.PAUSE]
        return [Command.PLAY_CURSOR]
    if key == pygame.K_t:
        return [CycleTheme(-1 if mods & pygame.KMOD_SHIFT else 1)]
    if key == pygame.K_z and mods & pygame.KMOD_SHIFT:
        return [Command.PUZZLE_GRADE]
    return [_LETTERS[key]] if key in _LETTERS else []
