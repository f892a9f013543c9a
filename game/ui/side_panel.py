"""The right-hand panel: players, game buttons, navigation, toggles, files, moves and eval graph.

``build_panel`` turns the app's state into buttons and areas; the app hit-tests the buttons and
``draw_panel`` paints them. Every keyboard action has a button here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from game.ui import fonts
from game.ui.controller import exact_available
from game.ui.game_choices import game_title
from game.ui.players import MODE_LABELS, is_bot
from game.ui.widgets import Button, draw_button, row_rects

if TYPE_CHECKING:
    from game.ui.game_app import App

ROW = 30
GAP = 6


@dataclass
class PanelLayout:
    rect: pygame.Rect
    buttons: list[Button] = field(default_factory=list)
    headings: list[tuple[str, tuple[int, int]]] = field(default_factory=list)
    moves_rect: pygame.Rect | None = None
    graph_rect: pygame.Rect | None = None


def build_panel(app: App, rect: pygame.Rect) -> PanelLayout:
    s = app.settings
    layout = PanelLayout(rect)
    row_h, gap = (ROW, GAP) if rect.height >= 640 else (26, 4)
    left, width = rect.left + 14, rect.width - 28
    y = rect.top + 12

    def heading(text: str) -> None:
        nonlocal y
        layout.headings.append((text, (left, y)))
        y += 20

    def row(*buttons: tuple[str, str, dict]) -> None:
        nonlocal y
        for r, (label, action, extra) in zip(row_rects(left, y, width, row_h, len(buttons), gap), buttons, strict=True):
            layout.buttons.append(Button(r, label, action, **extra))
        y += row_h + gap

    heading("GAME")
    row((game_title(app.session.spec.name), "game", {"style": "cycle", "tooltip": "Switch game (G): a new game"}))
    heading("PLAYERS")
    row((MODE_LABELS[s.mode], "mode", {"style": "cycle", "tooltip": "Game mode"}))
    if s.mode == "vs-bot":
        order = "You move first" if s.human_player == 0 else "Bot moves first"
        row((order, "order", {"style": "cycle"}), ("Swap colours", "colours", {}))
    for player in (0, 1):
        name = app.player_name(player)
        if is_bot(s.mode, s.human_player, player):
            bot = s.bots[player]
            label_rect, cycle_rect = row_rects(left, y, width, row_h, 2, gap)
            layout.buttons.append(Button(label_rect, f"{name} · Bot", "", style="flat", swatch=app.colour_of(player)))
            layout.buttons.append(Button(cycle_rect, bot.label(), f"bot{player}", style="cycle"))
            y += row_h + gap
            if bot.difficulty.kind == "custom":
                row(("− time", f"custom{player}-", {}), ("+ time", f"custom{player}+", {}))
        else:
            row((f"{name} · Human", "", {"style": "flat", "swatch": app.colour_of(player)}))
    y += 4
    sess = app.session
    row(
        ("New  N", "new", {}),
        ("Undo  U", "undo", {"enabled": sess.cursor > 0}),
        ("Redo  R", "redo", {"enabled": not sess.at_end}),
    )
    if s.mode == "bot-vs-bot":
        row(
            ("Resume  P" if app.paused else "Pause  P", "pause", {"active": app.paused}),
            ("Step  S", "step", {"enabled": app.paused and not sess.final_position.outcome.is_over}),
        )
    nav = row_rects(left, y, width, row_h, 6, gap)
    cont = nav[4].union(nav[5])
    for r, label, action, enabled, tip in (
        (nav[0], "|‹", "first", sess.cursor > 0, "First position (Home)"),
        (nav[1], "‹", "prev", sess.cursor > 0, "Back (PgUp, Ctrl+←)"),
        (nav[2], "›", "next", not sess.at_end, "Forward (PgDn, Ctrl+→)"),
        (nav[3], "›|", "last", not sess.at_end, "Latest move (End)"),
        (cont, "Continue  C", "continue", not sess.at_end, "Continue from the shown position"),
    ):
        layout.buttons.append(Button(r, label, action, enabled=enabled, tooltip=tip))
    y += row_h + gap
    exact_ok = exact_available(sess)
    row(
        ("Heat H", "heatmap", {"active": s.heatmap, "tooltip": "Visit heatmap (H)"}),
        ("Exact X", "exact", {"active": s.exact and exact_ok, "enabled": exact_ok,
                              "tooltip": "Exact verdicts under the columns (solver)"}),
        ("Eval E", "eval", {"active": s.eval_bar}),
        ("Sound M", "sound", {"active": s.sound}),
    )
    row(
        ("Save", "save", {}),
        ("Load", "load", {}),
        ("Copy", "copy", {}),
        ("Paste", "paste", {}),
    )
    row((f"Theme: {app.theme.label}", "theme", {"style": "cycle"}), ("Help  ?", "help", {}))
    y += 4
    remaining = rect.bottom - 12 - y
    if remaining >= 200:  # moves and the graph
        graph_h = max(60, min(130, remaining // 3))
        heading("MOVES")
        moves_bottom = rect.bottom - 12 - graph_h - 28
        layout.moves_rect = pygame.Rect(left, y, width, moves_bottom - y)
        y = moves_bottom + 8
        heading("EVALUATION")
        layout.graph_rect = pygame.Rect(left, y, width, rect.bottom - 12 - y)
    elif remaining >= 64:  # only the moves
        heading("MOVES")
        layout.moves_rect = pygame.Rect(left, y, width, rect.bottom - 12 - y)
    return layout


_cache: dict[str, object] = {"key": None, "surface": None}


def draw_panel(surface: pygame.Surface, app: App, layout: PanelLayout, mouse: tuple[int, int]) -> None:
    """Paint the panel; the painted buttons are cached until a label, a state or the hover changes."""
    theme = app.theme
    hovered = next((i for i, b in enumerate(layout.buttons) if b.enabled and b.rect.collidepoint(mouse)), None)
    key = (
        tuple(layout.rect), theme.key, hovered, tuple(layout.headings),
        tuple((tuple(b.rect), b.label, b.enabled, b.active, b.swatch) for b in layout.buttons),
    )
    if key != _cache["key"] or _cache["surface"] is None:
        _cache["surface"] = _paint(app, layout, mouse)
        _cache["key"] = key
    panel = _cache["surface"]
    assert isinstance(panel, pygame.Surface)
    surface.blit(panel, layout.rect.topleft)


def _paint(app: App, layout: PanelLayout, mouse: tuple[int, int]) -> pygame.Surface:
    theme = app.theme
    panel = pygame.Surface(layout.rect.size)
    panel.fill(theme.panel)
    dx, dy = -layout.rect.left, -layout.rect.top
    local_mouse = (mouse[0] + dx, mouse[1] + dy)
    pygame.draw.line(panel, theme.panel_border, (0, 0), (0, layout.rect.height))
    for text, (x, y) in layout.headings:
        fonts.blit_text(panel, text, 11, theme.text_dim, (x + dx, y + dy), bold=True)
    for b in layout.buttons:
        local = Button(b.rect.move(dx, dy), b.label, b.action, b.enabled, b.active, b.tooltip, b.swatch, b.style)
        draw_button(panel, local, theme, local_mouse, 13)
    hovered = next((b for b in layout.buttons if b.tooltip and b.rect.collidepoint(mouse)), None)
    if hovered is not None:
        img = fonts.text(hovered.tooltip, 12, theme.text)
        box = img.get_rect(midbottom=(hovered.rect.centerx + dx, hovered.rect.top + dy - 4)).inflate(12, 6)
        box.clamp_ip(panel.get_rect())
        pygame.draw.rect(panel, theme.button_hover, box, border_radius=5)
        panel.blit(img, img.get_rect(center=box.center))
    return panel
