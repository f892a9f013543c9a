"""Cards drawn over the window: the keyboard help, the saved games, the new-game dialog.

Each card's layout is a value (``CardLayout``) made from the window size and the card's content;
drawing takes the surface, the card and its layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play.actions import ChangeChoice, Command, LoadFile
from game.play.themes import Theme
from game.ui import fonts, text
from game.ui.frame import HelpCard, LoadCard, NewGameCard
from game.ui.widgets import Button, draw_button, row_rects

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("1 – 9", "Connect 4: drop a disc in that column"),
    ("← / →", "move the drop cursor"),
    ("arrows", "grid games: move the cell cursor"),
    ("Enter / Space", "play at the cursor"),
    ("Click", "play the column or cell under the mouse"),
    ("U / R", "undo / redo"),
    ("PgUp / PgDn", "step through the moves"),
    ("Ctrl+← / →", "step through the moves"),
    ("Home / End", "first position / latest move"),
    ("C", "continue from the shown position"),
    ("N or G", "new game (choose game, mode, sides)"),
    ("P / S", "pause / single step (bot vs bot)"),
    ("H", "visit heatmap (analysis on your turn)"),
    ("X", "exact verdicts (Connect 4)"),
    ("E", "eval bar"),
    ("M", "mute / unmute"),
    ("T", "next colour theme"),
    ("V", "review the game: every move judged (the shown position first)"),
    ("[ / ]", "previous / next mistake of either side"),
    ("Marks", "?! 3-5 stones thrown away · ? 6 or more · ?? changes the result"),
    ("Other games", "estimates: ?! 10, ? 20, ?? 30 points of winning chance lost"),
    ("I", "hint: one best move, shown briefly (counted in the review)"),
    ("K", "training: hide every evaluation until the game ends"),
    ("Z / Shift+Z", "puzzles: find the one move that wins or holds the draw / next grade"),
    ("L", "after a review: learn from your mistakes, one by one"),
    ("A / F", "variations: the next move tried at the shown position / fold them"),
    ("Ctrl+P / Ctrl+D", "make the shown line the main line / delete the shown move on"),
    ("Ctrl+E", "share: a PNG of the reviewed game and a GIF of its moves"),
    ("Ctrl+S / Ctrl+O", "save / load a game"),
    ("Ctrl+C / Ctrl+V", "copy / paste the position"),
    ("? or F1", "this help"),
    ("Esc", "close this card"),
    ("Ctrl+Q", "quit"),
)


@dataclass(frozen=True)
class CardLayout:
    rect: pygame.Rect
    buttons: tuple[Button, ...]
    labels: tuple[tuple[str, pygame.Rect, bool], ...] = ()  # (text, where, enabled)


def _card_rect(size: tuple[int, int], width: int, height: int) -> pygame.Rect:
    card = pygame.Rect(0, 0, min(width, size[0] - 16), min(height, size[1] - 16))
    card.center = (size[0] // 2, size[1] // 2)
    return card


def _veil(surface: pygame.Surface, card: pygame.Rect, theme: Theme) -> None:
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 130))
    surface.blit(veil, (0, 0))
    pygame.draw.rect(surface, theme.panel, card, border_radius=14)
    pygame.draw.rect(surface, theme.panel_border, card, width=1, border_radius=14)


def help_pages(size: tuple[int, int]) -> tuple[pygame.Rect, int, int]:
    """The help card, its line height and how many shortcuts fit on one page."""
    card = _card_rect(size, 620, 90 + 24 * len(SHORTCUTS))
    line = max(16, min(24, (card.height - 80) // len(SHORTCUTS)))
    return card, line, max(1, (card.height - 80) // line)


def draw_help(surface: pygame.Surface, card_state: HelpCard, theme: Theme) -> None:
    card, line, per_page = help_pages(surface.get_size())
    _veil(surface, card, theme)
    pages = (len(SHORTCUTS) + per_page - 1) // per_page
    page = card_state.page % pages
    title = "Keyboard shortcuts" + (f" ({page + 1}/{pages})" if pages > 1 else "")
    text.draw(surface, title, 18, theme.text, (card.left + 20, card.top + 14), bold=True, width=card.width - 40)
    shown = SHORTCUTS[page * per_page : (page + 1) * per_page]
    size = max(text.MIN_SIZE, min(14, line - 8))
    key_w = min(card.width // 3, max(fonts.font(size, True).size(k)[0] for k, _ in SHORTCUTS) + 16)
    y = card.top + 48
    for key, what in shown:
        text.draw(surface, key, size, theme.accent, (card.left + 20, y), bold=True, width=key_w - 8)
        text.draw(surface, what, size, theme.text, (card.left + 20 + key_w, y), width=card.width - key_w - 40)
        y += line
    hint = "Click or any key: next page · Esc closes" if pages > 1 else "Most keys have a button too · Esc closes"
    text.draw(surface, hint, 12, theme.text_dim, (card.centerx, card.bottom - 10), "midbottom", width=card.width - 24)


def load_card_layout(size: tuple[int, int], card_state: LoadCard) -> CardLayout:
    card = _card_rect(size, 560, 150 + 30 * max(1, len(card_state.files)))
    rows = max(0, (card.height - 130) // 30)
    buttons = [
        Button(
            pygame.Rect(card.left + 14, card.top + 70 + 30 * i, card.width - 28, 28),
            card_state.labels[i] if i < len(card_state.labels) else path.name,
            LoadFile(path),
            style="flat",
            tooltip=path.name,
        )
        for i, path in enumerate(card_state.files[:rows])
    ]
    close = pygame.Rect(0, 0, 110, 30)
    close.bottomright = (card.right - 14, card.bottom - 12)
    buttons.append(Button(close, "Close", Command.CLOSE))
    return CardLayout(card, tuple(buttons))


def draw_load(
    surface: pygame.Surface, card_state: LoadCard, layout: CardLayout, theme: Theme, mouse: tuple[int, int]
) -> None:
    card = layout.rect
    _veil(surface, card, theme)
    text.draw(
        surface, "Load a saved game", 18, theme.text, (card.left + 20, card.top + 14), bold=True, width=card.width - 40
    )
    text.draw(
        surface,
        str(card_state.folder),
        12,
        theme.text_dim,
        (card.left + 20, card.top + 44),
        width=card.width - 40,
        min_size=10,
    )
    if not card_state.files:
        text.draw(
            surface,
            "No saved games yet (Ctrl+S saves one).",
            14,
            theme.text,
            (card.left + 20, card.top + 74),
            width=card.width - 40,
        )
    for b in layout.buttons:
        draw_button(surface, b, theme, mouse, 13)
    close = layout.buttons[-1].rect
    text.draw(
        surface,
        "Or drop a game file on the window.",
        12,
        theme.text_dim,
        (card.left + 20, close.centery),
        "midleft",
        width=close.left - card.left - 30,
    )


def new_game_layout(size: tuple[int, int], card_state: NewGameCard) -> CardLayout:
    rows = card_state.rows
    compact = size[1] < 520 or 70 + len(rows) * 40 + 32 + 40 > size[1] - 16  # (940x540: the roomy card is too tall)
    row_h, gap = (24, 4) if compact else (32, 8)
    if compact and 62 + len(rows) * (row_h + gap) + row_h > size[1] - 16:  # a small window: tighter rows
        gap = 2
        row_h = max(14, (size[1] - 16 - 62 - len(rows) * gap) // (len(rows) + 1))
    card = _card_rect(size, 520, 70 + len(rows) * (row_h + gap) + row_h + 40)
    label_w = min(160, card.width // 3)
    y = card.top + (44 if compact else 56)
    buttons: list[Button] = []
    labels: list[tuple[str, pygame.Rect, bool]] = []
    for r in rows:
        labels.append((r.field.value, pygame.Rect(card.left + 20, y, label_w - 8, row_h), r.enabled))
        rect = pygame.Rect(card.left + 20 + label_w, y, card.width - 40 - label_w, row_h)
        if r.editable:  # the address to join: typed into (a click on it changes nothing)
            buttons.append(Button(rect, r.value, ChangeChoice(r.field, 0), style="hint" if r.placeholder else "field"))
        else:
            buttons.append(
                Button(
                    rect, r.value, ChangeChoice(r.field, 1), ChangeChoice(r.field, -1), enabled=r.enabled, style="cycle"
                )
            )
        y += row_h + gap
    left_r, right_r = row_rects(card.right - 20 - 250, card.bottom - 14 - row_h, 250, row_h, 2, 10)
    buttons.append(Button(right_r, "Start", Command.START, active=True))
    buttons.append(Button(left_r, "Cancel", Command.CLOSE))
    return CardLayout(card, tuple(buttons), tuple(labels))


def draw_new_game(
    surface: pygame.Surface, card_state: NewGameCard, layout: CardLayout, theme: Theme, mouse: tuple[int, int]
) -> None:
    card = layout.rect
    _veil(surface, card, theme)
    title = "Welcome! Choose a game" if card_state.first_launch else "New game"
    compact = card.height < 330
    text.draw(
        surface,
        title,
        16 if compact else 20,
        theme.text,
        (card.left + 20, card.top + 12),
        bold=True,
        width=card.width - 40,
    )
    for label, rect, enabled in layout.labels:
        text.draw(
            surface,
            label,
            13,
            theme.text if enabled else theme.text_dim,
            (rect.left, rect.centery),
            "midleft",
            width=rect.width,
        )
    for b in layout.buttons:
        draw_button(surface, b, theme, mouse, 13)
    start = layout.buttons[-1].rect
    room = start.left - card.left - 30
    hints = (
        ("Type or paste the address · Enter starts", "Enter starts · Esc cancels", "Enter · Esc")
        if any(b.style in ("field", "hint") for b in layout.buttons)
        else ("Enter starts · Esc cancels", "Enter · Esc")
    )
    hint, size = text.first_fitting(hints, 12, room)
    if text.fits(hint, size, room):
        text.draw(surface, hint, size, theme.text_dim, (card.left + 20, start.centery), "midleft")
