"""The moves of the line in numbered pairs; click one to show the position after it, wheel to scroll.

Pure geometry (``move_cells``, ``follow``) shared by drawing and hit-testing; the scroll offset is the
app's state.
"""

from __future__ import annotations

import pygame

from game.play.themes import Color, Theme, mix
from game.ui import fonts, text

ROW_H = 22


def visible_rows(rect: pygame.Rect) -> int:
    return max(1, (rect.height - 8) // ROW_H)


def visual_rows(total_moves: int, inserts: tuple[int, ...] = ()) -> list[tuple[int, int | None]]:
    """The drawn rows: (pair row, None) for a pair of moves, (pair row, i) for the variation ``i`` shown
    indented under the pair it branches from (``inserts``: the pair row of each variation)."""
    by_row: dict[int, list[int]] = {}
    for i, row in enumerate(inserts):
        by_row.setdefault(row, []).append(i)
    out: list[tuple[int, int | None]] = []
    for row in range((total_moves + 1) // 2):
        out.append((row, None))
        out.extend((row, i) for i in by_row.get(row, ()))
    return out


def follow(scroll: int, cursor: int, total_moves: int, rect: pygame.Rect | None, inserts: tuple[int, ...] = ()) -> int:
    """The scroll offset that keeps the move before ``cursor`` in view."""
    if rect is None:
        return scroll
    rows = visual_rows(total_moves, inserts)
    visible = visible_rows(rect)
    pair = max(0, (cursor - 1) // 2)
    row = next((k for k, (r, v) in enumerate(rows) if r == pair and v is None), 0)
    if row < scroll:
        scroll = row
    elif row >= scroll + visible:
        scroll = row - visible + 1
    return max(0, min(scroll, max(0, len(rows) - visible)))


def scrolled(
    scroll: int, rows_delta: int, total_moves: int, rect: pygame.Rect | None, inserts: tuple[int, ...] = ()
) -> int:
    if rect is None:
        return scroll
    rows = len(visual_rows(total_moves, inserts))
    return max(0, min(scroll + rows_delta, max(0, rows - visible_rows(rect))))


def move_cells(
    rect: pygame.Rect, total_moves: int, scroll: int, inserts: tuple[int, ...] = ()
) -> list[tuple[pygame.Rect, int]]:
    """(cell, ply after the move) of every visible move."""
    col_w = (rect.width - 44) // 2
    cells = []
    rows = visual_rows(total_moves, inserts)
    for k in range(scroll, min(len(rows), scroll + visible_rows(rect))):
        row, variation = rows[k]
        if variation is not None:
            continue
        y = rect.top + 4 + (k - scroll) * ROW_H
        for side in (0, 1):
            i = row * 2 + side
            if i < total_moves:
                cells.append((pygame.Rect(rect.left + 40 + side * col_w, y + 1, col_w - 4, ROW_H - 2), i + 1))
    return cells


def variation_cells(
    rect: pygame.Rect, total_moves: int, scroll: int, inserts: tuple[int, ...]
) -> list[tuple[pygame.Rect, int]]:
    """(cell, variation index) of every visible variation row (indented under its pair of moves)."""
    rows = visual_rows(total_moves, inserts)
    cells = []
    for k in range(scroll, min(len(rows), scroll + visible_rows(rect))):
        variation = rows[k][1]
        if variation is not None:
            y = rect.top + 4 + (k - scroll) * ROW_H
            cells.append((pygame.Rect(rect.left + 52, y + 1, rect.width - 60, ROW_H - 2), variation))
    return cells


def fit_words(label: str, size: int, width: float) -> str:
    """``label`` less its last words (then "…") until it fits ``width`` at ``size``."""
    words = label.split(" ")
    shown = label
    while len(words) > 1 and not text.fits(shown, size, width):
        words.pop()
        shown = " ".join(words) + " …"
    return shown


def draw_moves(
    surface: pygame.Surface,
    rect: pygame.Rect,
    theme: Theme,
    moves: tuple[str, ...],
    cursor: int,
    scroll: int,
    colours: tuple[Color, Color],
    mouse: tuple[int, int],
    marks: tuple[tuple[str, Color | None], ...] = (),
    branches: tuple[int, ...] = (),
    variations: tuple[tuple[int, str], ...] = (),
) -> None:
    """``marks``: per move, the review's mark ("?!", "?", "??" or "") and its colour; ``branches``: per move,
    how many other moves were tried at the position before it (a "+n" badge: A steps through them);
    ``variations``: (pair row, label) of each other line, drawn indented under the pair it branches from."""
    pygame.draw.rect(surface, mix(theme.panel, theme.background, 0.5), rect, border_radius=8)
    if not moves:
        text.draw(surface, "no moves yet", 12, theme.text_dim, rect.center, "center", width=rect.width - 8)
        return
    clip = surface.get_clip()
    surface.set_clip(rect)
    inserts = tuple(row for row, _ in variations)
    for cell, index in variation_cells(rect, len(moves), scroll, inserts):
        if cell.collidepoint(mouse):
            pygame.draw.rect(surface, theme.button_hover, cell, border_radius=5)
        label = fit_words(variations[index][1], 12, cell.width - 10)
        text.draw(surface, label, 12, theme.accent, (cell.left + 6, cell.centery), "midleft", width=cell.width - 10)
    for cell, ply in move_cells(rect, len(moves), scroll, inserts):
        if ply % 2 == 1:
            text.draw(surface, f"{(ply + 1) // 2}.", 13, theme.text_dim, (rect.left + 34, cell.centery), "midright")
        current = ply == cursor
        if current:
            pygame.draw.rect(surface, mix(theme.panel, theme.accent, 0.3), cell, border_radius=5)
        elif cell.collidepoint(mouse):
            pygame.draw.rect(surface, theme.button_hover, cell, border_radius=5)
        pygame.draw.aacircle(surface, colours[(ply - 1) % 2], (cell.left + 9, cell.centery), 5)
        colour = theme.text if ply <= cursor else theme.text_dim
        mark, mark_colour = marks[ply - 1] if ply - 1 < len(marks) else ("", None)
        others = branches[ply - 1] if ply - 1 < len(branches) else 0
        badge = f"+{others}" if others else ""
        extra = (fonts.font(13, True).size(mark)[0] + 3 if mark else 0) + (
            fonts.font(11).size(badge)[0] + 4 if badge else 0
        )
        drawn = text.draw(
            surface,
            moves[ply - 1],
            13,
            colour,
            (cell.left + 20, cell.centery),
            "midleft",
            bold=current,
            width=cell.width - 22 - extra,
        )
        x = drawn.right + 3
        if mark and mark_colour is not None:  # the review's mark right after the move
            x = text.draw(surface, mark, 13, mark_colour, (x, cell.centery), "midleft", bold=True).right + 4
        if badge:  # other moves tried here (A steps through them)
            text.draw(surface, badge, 11, theme.accent, (x, cell.centery), "midleft")
    surface.set_clip(clip)
    rows, visible = len(visual_rows(len(moves), inserts)), visible_rows(rect)
    if rows > visible:  # a thin scroll indicator
        track = rect.inflate(0, -8)
        h = max(16, track.height * visible // rows)
        y = track.top + (track.height - h) * scroll // max(1, rows - visible)
        pygame.draw.rect(surface, theme.panel_border, (rect.right - 5, y, 3, h), border_radius=2)
