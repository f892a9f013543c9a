"""Modal cards drawn over the window: the keyboard help and the list of saved games."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.ui import fonts
from game.ui.themes import Theme

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("1 – 9", "Connect 4: drop a disc in that column"),
    ("← / →  (↑ / ↓)", "move the drop cursor (grid games: the cell cursor)"),
    ("Enter / Space", "play at the cursor"),
    ("Click", "play the column or cell under the mouse"),
    ("U / R", "undo / redo"),
    ("PgUp / PgDn, Ctrl or Shift+←/→", "step through the moves"),
    ("← / → (not your turn)", "step through the moves"),
    ("Home / End", "first position / latest move"),
    ("C", "continue from the shown position"),
    ("N", "new game"),
    ("P / S", "pause / single step (bot vs bot)"),
    ("H", "visit heatmap (analysis on your turn)"),
    ("X", "exact verdicts under the columns (Connect 4)"),
    ("G", "next game (Connect 4 sizes, tic-tac-toe, Gomoku...)"),
    ("E", "eval bar and graph"),
    ("M", "mute / unmute"),
    ("T", "next colour theme"),
    ("Ctrl+S / Ctrl+O", "save / load a game"),
    ("Ctrl+C / Ctrl+V", "copy / paste the position"),
    ("? or F1", "this help"),
    ("Esc", "close this card"),
    ("Ctrl+Q", "quit"),
)


def _card(surface: pygame.Surface, theme: Theme, width: int, height: int) -> pygame.Rect:
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 130))
    surface.blit(veil, (0, 0))
    card = pygame.Rect(0, 0, min(width, surface.get_width() - 40), min(height, surface.get_height() - 40))
    card.center = surface.get_rect().center
    pygame.draw.rect(surface, theme.panel, card, border_radius=14)
    pygame.draw.rect(surface, theme.panel_border, card, width=1, border_radius=14)
    return card


def draw_help(surface: pygame.Surface, theme: Theme) -> None:
    card = _card(surface, theme, 640, 100 + 24 * len(SHORTCUTS))
    fonts.blit_text(surface, "Keyboard shortcuts", 20, theme.text, (card.left + 26, card.top + 18), bold=True)
    top, bottom = card.top + 56, card.bottom - 34
    line = max(12, min(24, (bottom - top) // len(SHORTCUTS)))
    size = max(9, min(14, line - 8))
    key_w = max(fonts.font(size, True).size(key)[0] for key, _ in SHORTCUTS) + 22
    y = top
    for key, what in SHORTCUTS:
        fonts.blit_text(surface, key, size, theme.accent, (card.left + 26, y), bold=True)
        what = fonts.fit_text(what, size, card.width - key_w - 52)
        fonts.blit_text(surface, what, size, theme.text, (card.left + 26 + key_w, y))
        y += line
    fonts.blit_text(surface, "Every key also has a button in the side panel. Esc or a click closes this card.", 12,
                    theme.text_dim, (card.centerx, card.bottom - 12), "midbottom")


class LoadDialog:
    """The newest saved games; click one to load it."""

    def __init__(self, files: list[Path], folder: Path) -> None:
        self.files = files
        self.folder = folder
        self.rows: list[tuple[pygame.Rect, Path]] = []
        self.card = pygame.Rect(0, 0, 0, 0)

    def draw(self, surface: pygame.Surface, theme: Theme, mouse: tuple[int, int]) -> None:
        self.card = card = _card(surface, theme, 560, 130 + 30 * max(1, len(self.files)))
        fonts.blit_text(surface, "Load a saved game", 20, theme.text, (card.left + 24, card.top + 20), bold=True)
        folder = fonts.fit_text(str(self.folder), 12, card.width - 48)
        fonts.blit_text(surface, folder, 12, theme.text_dim, (card.left + 24, card.top + 50))
        self.rows = []
        y = card.top + 76
        if not self.files:
            fonts.blit_text(surface, "No saved games yet (Ctrl+S saves one).", 14, theme.text, (card.left + 24, y))
        for path in self.files:
            if y > card.bottom - 56:
                break
            r = pygame.Rect(card.left + 16, y, card.width - 32, 28)
            if r.collidepoint(mouse):
                pygame.draw.rect(surface, theme.button_hover, r, border_radius=6)
            name = fonts.fit_text(path.name, 14, r.width - 16)
            fonts.blit_text(surface, name, 14, theme.text, (r.left + 8, r.centery), "midleft")
            self.rows.append((r, path))
            y += 30
        fonts.blit_text(surface, "You can also drop a game file or paste a position (Ctrl+V). Esc closes.", 12,
                        theme.text_dim, (card.centerx, card.bottom - 14), "midbottom")

    def path_at(self, pos: tuple[int, int]) -> Path | None:
        return next((p for r, p in self.rows if r.collidepoint(pos)), None)
