"""The right-hand panel: players, game buttons, navigation, toggles, files, moves and eval graph.

``build_panel`` turns the frame's panel model into buttons and areas (the same rows in the same
places during a game); ``draw_panel`` paints them. Every keyboard action has a button here.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play import autoplay
from game.play.actions import Command, CycleBotLevel, CycleTheme, StepCustomTime, ToggleAutoplay
from game.play.themes import Color, Theme
from game.ui import fonts, text
from game.ui.frame import NetPanel, PanelModel, PlayerRow
from game.ui.widgets import Button, draw_button, row_rects

TOOLTIPS = {
    Command.PONDER: "Think on your time: the bot searches while you think (on by default at Perfect)",
    Command.REMATCH: "Play again, colours swapped (it starts when both ask)",
}
MIN_REVIEW_ROW_H = 380  # a panel lower than this has no room for the review's row of buttons
PONDER_OFF_TIP = "Think on your time: for Perfect and Custom (Beginner to Hard play a fixed search)"


@dataclass(frozen=True)
class PanelLayout:
    rect: pygame.Rect
    buttons: tuple[Button, ...]
    headings: tuple[tuple[str, pygame.Rect], ...]
    moves_rect: pygame.Rect | None
    graph_rect: pygame.Rect | None
    font_size: int


def build_panel(rect: pygame.Rect, m: PanelModel) -> PanelLayout:
    compact = rect.height < 560
    row_h, gap = (24, 4) if compact else (30, 6)
    heading_h = 16 if compact else 20
    left, width = rect.left + 12, rect.width - 24
    y = rect.top + (8 if compact else 12)
    buttons: list[Button] = []
    headings: list[tuple[str, pygame.Rect]] = []

    def heading(label: str) -> None:
        nonlocal y
        headings.append((label, pygame.Rect(left, y, width, heading_h - 4)))
        y += heading_h

    def row(*items: Button) -> None:
        nonlocal y
        y += row_h + gap
        buttons.extend(items)

    def rects(count: int) -> list[pygame.Rect]:
        return row_rects(left, y, width, row_h, count, gap)

    heading(f"PLAYERS · {m.mode_label.upper()}")
    net = m.network
    for player, p in enumerate(m.players):
        if net is not None:
            row(*net_player_row(pygame.Rect(left, y, width, row_h), player, p.name, p.colour, net))
            continue
        if p.bot_label is None:
            row(Button(rects(1)[0], f"{p.name} · Human", None, style="flat", swatch=p.colour))
            continue
        items = _bot_player_row(pygame.Rect(left, y, width, row_h), player, p, gap, compact)
        row(*items)
    if net is None:  # in a network game both sides are people
        hands = [autoplay.button_text(p.bot_label is None, p.name) for p in m.players]
        row(
            *(
                Button(r, label, ToggleAutoplay(player), swatch=p.colour, tooltip=tip)
                for player, (r, p, (label, tip)) in enumerate(zip(rects(2), m.players, hands, strict=True))
            )
        )
    y += 4
    top_row, bots_row = _action_rows(m)
    row(
        *(
            Button(
                r,
                label,
                action,
                enabled=enabled,
                active=active,
                tooltip=TOOLTIPS.get(action, "") if enabled or action is not Command.PONDER else PONDER_OFF_TIP,
            )
            for r, (label, action, enabled, active) in zip(rects(len(top_row)), top_row, strict=True)
        )
    )
    if bots_row:
        row(
            *(
                Button(r, label, action, enabled=enabled, active=active)
                for r, (label, action, enabled, active) in zip(rects(len(bots_row)), bots_row, strict=True)
            )
        )
    nav = rects(6)
    row(
        Button(nav[0], "|‹", Command.FIRST, enabled=not m.at_start, tooltip="First position (Home)"),
        Button(nav[1], "‹", Command.PREV, enabled=not m.at_start, tooltip="Back (PgUp, Ctrl+←)"),
        Button(nav[2], "›", Command.NEXT, enabled=not m.at_end, tooltip="Forward (PgDn, Ctrl+→)"),
        Button(nav[3], "›|", Command.LAST, enabled=not m.at_end, tooltip="Latest move (End)"),
        Button(
            nav[4].union(nav[5]),
            "Continue C",
            Command.CONTINUE,
            enabled=not m.at_end and net is None,
            tooltip="Play on from the shown position",
        ),
    )
    toggles = rects(4)
    row(
        Button(toggles[0], "Heat H", Command.HEATMAP, active=m.heatmap, tooltip="Visit heatmap (H)"),
        Button(
            toggles[1],
            "Exact X",
            Command.EXACT,
            active=m.exact and m.exact_available,
            enabled=m.exact_available,
            tooltip="Exact verdicts under the columns (X)",
        ),
        Button(toggles[2], "Eval E", Command.EVAL, active=m.eval_bar, tooltip="Eval bar (E)"),
        Button(toggles[3], "Sound M", Command.SOUND, active=m.sound, tooltip="Sound (M)")
        if m.sound_available
        else Button(toggles[3], "No audio", Command.SOUND, enabled=False),
    )
    review = weighted_rects(left, y, width, row_h, (1.3, 0.95, 1.05, 0.9), gap)  # "Review V" is the longest
    if rect.height >= MIN_REVIEW_ROW_H:  # (a tiny window keeps its keys: V, I, K, Ctrl+E)
        row(
            Button(
                review[0], "Review V", Command.REVIEW, active=m.reviewed, tooltip="Judge every move of the game (V)"
            ),
            Button(review[1], "Hint I", Command.HINT, tooltip="Show one best move (I)"),
            Button(review[2], "Train K", Command.TRAINING, active=m.training, tooltip="Training: hide evaluations (K)"),
            Button(review[3], "Share", Command.SHARE, enabled=m.reviewed, tooltip="PNG and GIF of the game (Ctrl+E)"),
        )
    files = rects(4)
    row(
        Button(files[0], "Save", Command.SAVE, tooltip="Save the game (Ctrl+S)"),
        Button(files[1], "Load", Command.LOAD, tooltip="Open a saved game (Ctrl+O)"),
        Button(files[2], "Copy", Command.COPY, tooltip="Copy the position (Ctrl+C)"),
        Button(files[3], "Paste", Command.PASTE, tooltip="Paste a position (Ctrl+V)"),
    )
    theme_r, help_r = row_rects(left, y, width, row_h, 3, gap)[:2], row_rects(left, y, width, row_h, 3, gap)[2]
    row(
        Button(
            theme_r[0].union(theme_r[1]),
            m.theme_label,
            CycleTheme(1),
            CycleTheme(-1),
            style="cycle",
            tooltip="Colour theme (T)",
        ),
        Button(help_r, "Help ?", Command.HELP),
    )
    y += 2
    moves_rect = graph_rect = None
    remaining = rect.bottom - 8 - y
    if remaining >= 2 * heading_h + 90:
        graph_h = max(50, min(300, round((remaining - 2 * heading_h) * 0.45)))  # (it grows with the window)
        heading("MOVES")
        moves_bottom = rect.bottom - 8 - graph_h - heading_h - 4
        moves_rect = pygame.Rect(left, y, width, moves_bottom - y)
        y = moves_bottom + 4
        heading("EVALUATION")
        graph_rect = pygame.Rect(left, y, width, rect.bottom - 8 - y)
    elif remaining >= heading_h + 50:
        heading("EVALUATION")
        graph_rect = pygame.Rect(left, y, width, rect.bottom - 8 - y)
    return PanelLayout(rect, tuple(buttons), tuple(headings), moves_rect, graph_rect, 12 if compact else 13)


def weighted_rects(
    left: int, top: int, width: int, height: int, weights: tuple[float, ...], gap: int
) -> list[pygame.Rect]:
    """Rectangles side by side filling ``width``, each as wide as its share of ``weights``."""
    room = width - gap * (len(weights) - 1)
    out, x = [], float(left)
    for i, w in enumerate(weights):
        right = left + width if i == len(weights) - 1 else x + room * w / sum(weights)
        out.append(pygame.Rect(round(x), top, round(right) - round(x), height))
        x = right + gap
    return out


def net_player_row(r: pygame.Rect, player: int, name: str, colour: Color, net: NetPanel) -> list[Button]:
    """A network game's player row: the name, who plays it, and its clock at the right (when there is one)."""
    who = "Player" if net.watching else "?" if net.you is None else ("You" if player == net.you else "Opponent")
    if net.clocks is None:
        return [Button(r, f"{name} · {who}", None, style="flat", swatch=colour)]
    clock_w = 86
    name_r = pygame.Rect(r.left, r.top, r.width - clock_w - 6, r.height)
    clock_r = pygame.Rect(name_r.right + 6, r.top, clock_w, r.height)
    flagged = net.flagged == player
    label = f"Flag {net.clocks[player]}" if flagged else net.clocks[player]
    tip = "Out of time" if flagged else "Time left (runs on its player's move)"
    return [
        Button(name_r, f"{name} · {who}", None, style="flat", swatch=colour),
        Button(clock_r, label, None, active=net.running == player or flagged, tooltip=tip),
    ]


def draw_panel(surface: pygame.Surface, panel: PanelLayout, theme: Theme, mouse: tuple[int, int]) -> None:
    surface.fill(theme.panel, panel.rect)
    pygame.draw.line(surface, theme.panel_border, panel.rect.topleft, panel.rect.bottomleft)
    for label, r in panel.headings:
        text.draw(surface, label, 11, theme.text_dim, r.topleft, bold=True, width=r.width)
    for b in panel.buttons:
        draw_button(surface, b, theme, mouse, panel.font_size)


def draw_tooltip(
    surface: pygame.Surface, buttons: tuple[Button, ...], theme: Theme, mouse: tuple[int, int], bounds: pygame.Rect
) -> None:
    """The hovered button's tooltip, below it (it never covers the row or heading above)."""
    hovered = next((b for b in buttons if b.tooltip and b.enabled and b.rect.collidepoint(mouse)), None)
    if hovered is None:
        return
    box = tooltip_rect(hovered, fonts.font(12).size(hovered.tooltip)[0], bounds)
    pygame.draw.rect(surface, theme.button_hover, box, border_radius=5)
    pygame.draw.rect(surface, theme.panel_border, box, width=1, border_radius=5)
    text.draw(surface, hovered.tooltip, 12, theme.text, box.center, "center", width=box.width - 8)


def tooltip_rect(button: Button, text_width: int, bounds: pygame.Rect) -> pygame.Rect:
    """Where a button's tooltip goes: just below the button (above it only at the bottom edge)."""
    box = pygame.Rect(0, 0, min(bounds.width - 12, text_width) + 12, 22)
    box.midtop = (button.rect.centerx, button.rect.bottom + 4)
    if box.bottom > bounds.bottom:
        box.bottom = button.rect.top - 4
    box.clamp_ip(bounds)
    return box


def _bot_player_row(area: pygame.Rect, player: int, p: PlayerRow, gap: int, compact: bool) -> list[Button]:
    """A bot's row: its name, its level (a cycle) and, for the custom level, less and more time."""
    left, y, width, row_h = area.left, area.top, area.width, area.height
    label = f"{p.name} · Bot"
    font_size = 12 if compact else 13
    name_w = min(round(width * 0.5), max(round(width * 0.36), fonts.font(font_size).size(label)[0] + 32))
    name = pygame.Rect(left, y, name_w, row_h)
    rest = pygame.Rect(left + name_w + gap, y, width - name_w - gap, row_h)
    items = [Button(name, label, None, style="flat", swatch=p.colour)]
    if p.custom:
        minus_w = 30
        selector = pygame.Rect(rest.left, y, rest.width - 2 * (minus_w + gap), row_h)
        minus = pygame.Rect(selector.right + gap, y, minus_w, row_h)
        plus = pygame.Rect(minus.right + gap, y, minus_w, row_h)
        items += [
            Button(minus, "−", StepCustomTime(player, -1), tooltip="Less time"),
            Button(plus, "+", StepCustomTime(player, 1), tooltip="More time"),
        ]
    else:
        selector = rest
    assert p.bot_label is not None
    items.insert(
        1,
        Button(
            selector,
            p.bot_label,
            CycleBotLevel(player, 1),
            CycleBotLevel(player, -1),
            style="cycle",
            tooltip=f"Bot level ({p.detail}): ‹ easier, › harder",
        ),
    )
    return items


ActionRow = list[tuple[str, Command, bool, bool]]  # (label, command, enabled, active)


def _action_rows(m: PanelModel) -> tuple[ActionRow, ActionRow]:
    """The game's commands (new, undo/redo or resign/draw/rematch, think) and the bots' own row (pause, step)."""
    net = m.network
    top_row: ActionRow = [
        ("New… N", Command.NEW_GAME, True, False),
        ("Undo U", Command.UNDO, m.can_undo, False),
        ("Redo R", Command.REDO, m.can_redo, False),
    ]
    if net is not None:  # undo and redo would fork the shared game: the protocol's resign and draw instead
        top_row[1:] = [
            ("Resign", Command.RESIGN, net.can_resign, False),
            (net.draw_label, Command.OFFER_DRAW, net.can_draw, False),
        ]
        if net.rematch_label is not None:  # the game is over: a rematch in the draw's place
            top_row[2] = (net.rematch_label, Command.REMATCH, net.can_rematch, net.rematch_label != "Rematch")
    if m.ponder is not None:
        top_row.append(("Think", Command.PONDER, m.ponder_applies, m.ponder and not m.over))
    bots_row: ActionRow = []
    if m.bot_vs_bot:  # a row of their own: "Resume P" is never cut to "Resu…"
        bots_row = [
            ("Resume P" if m.paused else "Pause P", Command.PAUSE, not m.over, m.paused),
            ("Step S", Command.STEP, m.can_step, False),
        ]
    return top_row, bots_row
