"""The layout check: every text a frame drew fits its box, is whole, and runs into no other text.

``text.draw`` records what it drew (``text.recording``): the label, what reached the screen, its rectangle,
the room it was given and the part of the frame that drew it. ``problems`` reads such a record. Texts of the
frame's fixed parts (board, top bar, panel, status bar) may not overlap one another; a toast, a tooltip or a
dialog is drawn over them on purpose, so each of those is only checked against texts of its own kind.
"""

from __future__ import annotations

import itertools

import pygame

from game.ui.text import DrawnText

FIXED_LAYERS = ("board", "top", "panel", "status")
TOUCH = 1  # pixels two text boxes may share (anti-aliased edges)


def problems(drawn: list[DrawnText], bounds: pygame.Rect) -> list[str]:
    """What is wrong with the texts of one frame drawn on a surface of ``bounds`` (empty: nothing)."""
    found: list[str] = []
    screen = [d for d in drawn if d.surface == drawn[0].surface] if drawn else []
    for d in drawn:
        where = f"{d.label!r} ({d.layer}, {d.size}px at {tuple(d.rect)})"
        if d.surface == screen[0].surface and not bounds.contains(d.rect):
            found.append(f"{where} leaves the window")
        if d.room is not None and d.rect.width > d.room + 1:
            found.append(f"{where} is wider than its room of {d.room:.0f} px")
        if d.shown != d.label and d.label.strip():
            found.append(f"{where} was cut to {d.shown!r}")
    groups: dict[tuple[int, str], list[DrawnText]] = {}
    for d in drawn:
        kind = "fixed" if d.layer in FIXED_LAYERS else d.layer
        groups.setdefault((d.surface, kind), []).append(d)
    for texts in groups.values():
        for a, b in itertools.combinations(texts, 2):
            if _overlap(a.rect, b.rect):
                found.append(f"{a.label!r} ({a.layer}) runs into {b.label!r} ({b.layer}) at {tuple(a.rect)}")
    return found


def _overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    if a.width == 0 or b.width == 0:
        return False
    return a.inflate(-2 * TOUCH, -2 * TOUCH).colliderect(b.inflate(-2 * TOUCH, -2 * TOUCH))
