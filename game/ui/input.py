"""Mouse and keyboard: events become moves or actions (see ``overlays.SHORTCUTS`` for the keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import actions

if TYPE_CHECKING:
    from game.ui.game_app import App

_LETTERS = {
    pygame.K_u: "undo",
    pygame.K_r: "redo",
    pygame.K_n: "new",
    pygame.K_h: "heatmap",
    pygame.K_e: "eval",
    pygame.K_m: "sound",
    pygame.K_t: "theme",
    pygame.K_c: "continue",
    pygame.K_p: "pause",
    pygame.K_s: "step",
    pygame.K_x: "exact",
    pygame.K_g: "game",
    pygame.K_F1: "help",
    pygame.K_HOME: "first",
    pygame.K_END: "last",
    pygame.K_PAGEUP: "prev",
    pygame.K_PAGEDOWN: "next",
}
_CTRL = {pygame.K_s: "save", pygame.K_o: "load", pygame.K_c: "copy", pygame.K_v: "paste", pygame.K_q: "quit",
         pygame.K_z: "undo", pygame.K_y: "redo", pygame.K_LEFT: "prev", pygame.K_RIGHT: "next"}
_DIGITS = {getattr(pygame, f"K_{i}"): i - 1 for i in range(1, 10)} | {
    getattr(pygame, f"K_KP{i}"): i - 1 for i in range(1, 10)
}


def handle_event(app: App, event: pygame.event.Event) -> None:
    if event.type == pygame.QUIT:
        app.running = False
    elif event.type == pygame.MOUSEMOTION:
        app.mouse = event.pos
        app.hover = app.view.move_at(event.pos) if app.layout.board_area.collidepoint(event.pos) else None
        if app.hover is not None:
            app.key_cursor = None
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
        app.mouse = event.pos
        _click(app, event.pos, -1 if event.button == 3 else 1)
    elif event.type == pygame.MOUSEWHEEL:
        if app.move_list.rect.collidepoint(app.mouse):
            app.move_list.wheel(event.y, len(app.session.line))
    elif event.type == pygame.KEYDOWN:
        _key(app, event)
    elif event.type == pygame.DROPFILE:
        actions.load_path(app, event.file)


def _click(app: App, pos: tuple[int, int], direction: int) -> None:
    if app.overlay == "help":
        app.overlay = None
        return
    if app.overlay == "load":
        dialog = app.load_dialog
        path = dialog.path_at(pos) if dialog else None
        if path is not None:
            actions.load_path(app, path)
        elif dialog is None or not dialog.card.collidepoint(pos):
            app.overlay = None
        return
    for button in app.layout.top_buttons:
        if button.hit(pos):
            actions.perform(app, button.action, direction)
            return
    if app.layout.panel_visible:
        for button in app.panel.buttons:
            if button.action and button.hit(pos):
                actions.perform(app, button.action, direction)
                return
        ply = app.move_list.ply_at(pos) if app.move_list.rect.collidepoint(pos) else None
        if ply is None:
            ply = app.eval_graph.ply_at(pos)
        if ply is not None:
            app.go_to(min(ply, len(app.session.line)))
            return
        if app.panel.rect.collidepoint(pos):
            return
    if direction == 1 and app.layout.board_area.collidepoint(pos):
        move = app.view.move_at(pos)
        if move is not None and app.human_can_play():
            app.play_move(move)


def _key(app: App, event: pygame.event.Event) -> None:
    key, mods = event.key, event.mod
    text = getattr(event, "unicode", "") or ""
    if app.overlay:
        if key == pygame.K_ESCAPE or text == "?" or key == pygame.K_F1 or (app.overlay == "help" and key == pygame.K_h):
            app.overlay = None
        return
    if text == "?" or (key == pygame.K_SLASH and mods & pygame.KMOD_SHIFT):
        actions.perform(app, "help")
        return
    if mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
        if key in _CTRL:
            actions.perform(app, _CTRL[key])
        return
    grid = not _drops(app)
    if key in _DIGITS and not grid:
        if app.human_can_play():
            app.play_move(_DIGITS[key])
        return
    if grid and key in _ARROWS and not mods & pygame.KMOD_SHIFT and _drop_cursor_active(app):
        _move_cell_cursor(app, *_ARROWS[key])
        return
    if key in (pygame.K_LEFT, pygame.K_RIGHT):
        step = -1 if key == pygame.K_LEFT else 1
        if mods & pygame.KMOD_SHIFT or not _drop_cursor_active(app):
            actions.perform(app, "prev" if step < 0 else "next")
        else:
            _move_cursor(app, step)
        return
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
        if app.settings.mode == "bot-vs-bot" and key == pygame.K_SPACE and app.session.at_end:
            actions.perform(app, "pause")
        elif _drop_cursor_active(app) and app.key_cursor is not None:
            app.play_move(app.key_cursor)
        elif _drop_cursor_active(app) and app.hover is not None:
            app.play_move(app.hover)
        return
    if key == pygame.K_ESCAPE:
        app.key_cursor = None
        return
    if key in _LETTERS:
        actions.perform(app, _LETTERS[key])


_ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}


def _drops(app: App) -> bool:
    """Connect 4 (discs drop into columns) rather than a grid game (pieces go on cells)."""
    return hasattr(app.session.position, "column_height")


def _move_cell_cursor(app: App, dx: int, dy: int) -> None:
    """Move the keyboard's cell cursor one cell (wrapping); it starts on the hovered or a central legal cell."""
    spec, pos = app.session.spec, app.session.position
    w, h = spec.width, spec.height
    if app.key_cursor is None:
        legal = pos.legal_moves()
        if app.hover is not None:
            app.key_cursor = app.hover
        elif legal:  # the legal cell nearest the centre
            cx, cy = (w - 1) / 2, (h - 1) / 2
            app.key_cursor = min(legal, key=lambda m: (abs(m % w - cx) + abs(m // w - cy), m))
        else:
            app.key_cursor = (h // 2) * w + w // 2
        return
    row, col = divmod(app.key_cursor, w)
    app.key_cursor = ((row + dy) % h) * w + (col + dx) % w


def _drop_cursor_active(app: App) -> bool:
    """Arrows steer the drop cursor when a human is to move at the latest position."""
    return app.session.at_end and app.human_can_play()


def _move_cursor(app: App, step: int) -> None:
    legal = app.session.position.legal_moves()
    if not legal:
        return
    width = app.session.spec.width
    fallback = app.hover if app.hover is not None else width // 2 - step
    start = app.key_cursor if app.key_cursor is not None else fallback
    col = start
    for _ in range(width):
        col = (col + step) % width
        if col in legal:
            break
    app.key_cursor = col
