"""The board of the grid games (tic-tac-toe, m,n,k, Gomoku, Ultimate TTT) behind ``BoardView``.

Cells are squares, row 0 at the bottom, with coordinates (``a``.. under the board, ``1``.. on
its left) matching the notation. The heatmap tints each legal cell by its share of the visits
and writes the numbers in the top cells only where they are readable. Ultimate TTT draws the
nine local boards apart, frames the board(s) the side to move may play in, dots the legal cells
and covers a won local board with its winner's tint and a big mark.
"""

from __future__ import annotations

import pygame

from game import GameSpec
from game.ui import fonts
from game.ui.board_view import BoardScene
from game.ui.heat import HeatData, share_text, verdict_text
from game.ui.marks import draw_piece
from game.ui.themes import Theme, mix, shade

PLACE_SECONDS = 0.16  # the scale-in of a new piece
MAX_CELL = 150


class GridView:
    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.width = spec.width
        self.height = spec.height
        self.uttt = spec.name == "uttt"
        self.style = "marks" if spec.name in ("tictactoe", "uttt") else "stones"
        self.player_names: tuple[str, str] | None = ("X", "O") if self.style == "marks" else None
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.cell = 1
        self.gap = 0  # the extra space between UTTT's local boards
        self._static: pygame.Surface | None = None
        self._static_key: tuple | None = None

    # --- geometry --------------------------------------------------------------------------
    def layout(self, area: pygame.Rect, label_rows: int = 0) -> None:
        margin = 0.75  # coordinates on the left and below, the result banner above
        cols = self.width + (0.5 if self.uttt else 0)
        rows = self.height + (0.5 if self.uttt else 0)
        cell = min(area.width / (cols + 2 * margin), area.height / (rows + 2 * margin), MAX_CELL)
        self.cell = max(8, int(cell))
        self.gap = round(self.cell * 0.25) if self.uttt else 0
        w = self.cell * self.width + 2 * self.gap
        h = self.cell * self.height + 2 * self.gap
        self.rect = pygame.Rect(0, 0, w, h)
        self.rect.center = (area.centerx + round(self.cell * margin * 0.3), area.centery - round(self.cell * 0.1))

    def _x(self, col: int) -> int:
        return self.rect.left + col * self.cell + (col // 3) * self.gap

    def _y(self, row: int) -> int:  # top edge of ``row`` (row 0 at the bottom)
        return self.rect.bottom - (row + 1) * self.cell - (row // 3) * self.gap

    def cell_rect(self, index: int) -> pygame.Rect:
        row, col = divmod(index, self.width)
        return pygame.Rect(self._x(col), self._y(row), self.cell, self.cell)

    def center(self, col: int, row: float) -> tuple[float, float]:
        return self.cell_rect(int(row) * self.width + col).center

    def move_at(self, pixel: tuple[int, int]) -> int | None:
        x, y = pixel
        col = next((c for c in range(self.width) if self._x(c) <= x < self._x(c) + self.cell), None)
        row = next((r for r in range(self.height) if self._y(r) <= y < self._y(r) + self.cell), None)
        if col is None or row is None:
            return None
        return row * self.width + col

    def board_rect(self, board: int) -> pygame.Rect:
        """The area of UTTT's local board ``board`` (0 = bottom-left)."""
        first = (board // 3) * 3 * self.width + (board % 3) * 3
        bottom_left = self.cell_rect(first)
        return pygame.Rect(bottom_left.left, bottom_left.bottom - 3 * self.cell, 3 * self.cell, 3 * self.cell)

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, scene: BoardScene) -> None:
        theme, pos = scene.theme, scene.position
        placed = scene.placed if scene.placed is not None and scene.now - scene.placed[1] < PLACE_SECONDS else None
        hidden = placed[0] if placed is not None else None
        win_cells = frozenset(pos.outcome.line) if pos.outcome.winner is not None else frozenset()
        key = (
            tuple(self.rect), self.cell, theme.key, pos.history, hidden, scene.heat,
            scene.colour_of(0), scene.colour_of(1), scene.mark_of(0), scene.mark_of(1), win_cells,
        )
        if key != self._static_key or self._static is None:
            self._static = self._paint_static(scene, hidden, win_cells)
            self._static_key = key
        pad = self._pad()
        surface.blit(self._static, (self.rect.left - pad, self.rect.top - pad))
        if placed is not None:
            owner = pos.cell(placed[0])
            if owner is not None:
                t = (scene.now - placed[1]) / PLACE_SECONDS
                scale = 0.55 + 0.45 * (1 - (1 - t) ** 3)
                self._piece(surface, scene, owner, self.cell_rect(placed[0]), scale)
        legal = pos.legal_moves()
        if scene.preview_player is not None and scene.hover is not None and scene.hover in legal:
            rect = self.cell_rect(scene.hover)
            pygame.draw.rect(surface, mix(theme.hole, scene.colour_of(scene.preview_player), 0.25),
                             rect.inflate(-self._inset() * 2, -self._inset() * 2), width=2, border_radius=6)
            self._piece(surface, scene, scene.preview_player, rect, 1.0, 85 if scene.heat is not None else 120)
        if scene.key_cursor is not None and 0 <= scene.key_cursor < self.width * self.height:
            rect = self.cell_rect(scene.key_cursor).inflate(-2, -2)
            pygame.draw.rect(surface, theme.accent, rect, width=max(2, self.cell // 16), border_radius=6)
        if win_cells and placed is None:
            pulse = 0.5 + 0.5 * abs(((scene.now * 1.2) % 2) - 1)
            width = max(2, round(self.cell * (0.04 + 0.03 * pulse)))
            for index in win_cells:
                if pos.cell(index) == pos.outcome.winner:
                    rect = self.cell_rect(index).inflate(-self._inset() * 2, -self._inset() * 2)
                    pygame.draw.rect(surface, theme.win_ring, rect, width=width, border_radius=6)
        elif pos.history and placed is None:  # the last move: a dot on a stone, a frame round a mark
            last = pos.history[-1]
            rect = self.cell_rect(last).inflate(-self._inset() * 2, -self._inset() * 2)
            owner = pos.cell(last)
            if self.style == "stones" and owner is not None and not theme.marks:
                dot = shade(scene.colour_of(owner), 1.55)
                pygame.draw.aacircle(surface, dot, rect.center, max(2, round(self.cell * 0.07)))
            else:
                pygame.draw.rect(surface, theme.text, rect, width=max(2, self.cell // 24), border_radius=6)

    def _pad(self) -> int:
        """The plate's border, wide enough for the coordinates."""
        if self.cell < 24:
            return max(4, self.cell // 6)
        return max(15, min(26, round(self.cell * 0.3)))

    def _inset(self) -> int:
        return max(1, round(self.cell * 0.05))

    def _piece(self, surface: pygame.Surface, scene: BoardScene, player: int, rect: pygame.Rect,
               scale: float = 1.0, alpha: int = 255) -> None:
        inner = rect.inflate(-self._inset() * 2, -self._inset() * 2)
        draw_piece(surface, self.style, player, scene.colour_of(player), scene.mark_of(player), inner, scale, alpha)

    def _paint_static(self, scene: BoardScene, hidden: int | None, win_cells: frozenset[int]) -> pygame.Surface:
        """Board, cells, heat tints, pieces and local-board marks, redrawn only when one changes."""
        theme, pos = scene.theme, scene.position
        pad = self._pad()
        layer = pygame.Surface((self.rect.width + 2 * pad, self.rect.height + 2 * pad), pygame.SRCALPHA)
        saved = self.rect
        self.rect = self.rect.move(pad - saved.left, pad - saved.top)
        try:
            pygame.draw.rect(layer, theme.board, layer.get_rect(), border_radius=pad * 2)
            legal = set(pos.legal_moves())
            allowed = pos.allowed_boards() if self.uttt else ()
            if self.uttt and len(allowed) == 1:  # sent to one board: frame it (a free choice shows only the dots)
                for board in allowed:
                    frame = self.board_rect(board).inflate(round(self.gap * 0.7), round(self.gap * 0.7))
                    pygame.draw.rect(layer, theme.win_ring, frame, border_radius=pad)
            heat = scene.heat
            top = 1.0
            if heat is not None:
                top = max((e.share for e in heat.entries.values()), default=0.0) or 1.0
            inset = self._inset()
            for index in range(self.width * self.height):
                rect = self.cell_rect(index).inflate(-inset * 2, -inset * 2)
                colour = theme.hole
                entry = heat.entries.get(index) if heat is not None else None
                if entry is not None:
                    rel = entry.share / top
                    colour = mix(theme.hole, mix(theme.heat_cool, theme.heat_warm, rel), 0.15 + 0.6 * rel)
                elif self.uttt and len(allowed) == 1 and index not in legal and pos.cell(index) is None:
                    colour = mix(theme.hole, theme.board, 0.35)  # not playable now
                pygame.draw.rect(layer, colour, rect, border_radius=max(2, self.cell // 10))
                owner = pos.cell(index)
                if owner is not None and index != hidden:
                    faded = bool(win_cells) and index not in win_cells
                    self._piece(layer, scene, owner, self.cell_rect(index), 1.0, 110 if faded else 255)
                elif self.uttt and index in legal and heat is None:
                    pygame.draw.aacircle(layer, mix(theme.hole, theme.heat_warm, 0.8), rect.center,
                                         max(2, self.cell // 12))
            if self.uttt:
                self._local_boards(layer, scene)
            if heat is not None:
                self._heat_labels(layer, heat, theme)
            self._coordinates(layer, theme, pad)
        finally:
            self.rect = saved
        return layer

    def _local_boards(self, layer: pygame.Surface, scene: BoardScene) -> None:
        pos = scene.position
        for board in range(9):
            winner = pos.local_winner(board)  # type: ignore[attr-defined]
            if winner is None:
                continue
            area = self.board_rect(board)
            veil = pygame.Surface(area.size, pygame.SRCALPHA)
            veil.fill((*scene.colour_of(winner), 70))
            layer.blit(veil, area.topleft)
            draw_piece(layer, "marks", winner, scene.colour_of(winner), None, area.inflate(-6, -6), 1.0, 230)

    def _heat_labels(self, layer: pygame.Surface, heat: HeatData, theme: Theme) -> None:
        """Numbers in the most visited cells, as many as stay readable."""
        if self.cell < 30:
            return
        shown = 9 if self.width * self.height <= 9 else 6
        best = heat.best
        size = max(10, min(22, round(self.cell * 0.24)))
        two_lines = self.cell >= 64
        ranked = sorted(heat.entries.values(), key=lambda e: (-e.share, -e.value))[:shown]
        for entry in ranked:
            if entry.share < 0.01 and entry.move != best:
                continue
            rect = self.cell_rect(entry.move)
            background = layer.get_at(rect.center)[:3]  # the tint painted just before
            light = 0.299 * background[0] + 0.587 * background[1] + 0.114 * background[2] > 140
            colour = (24, 28, 36) if light else (242, 244, 248)  # readable on any tint, in every theme
            y = rect.centery - (size * 0.6 if two_lines else 0)
            fonts.blit_text(layer, share_text(entry.share), size, colour, (rect.centerx, y), "center",
                            bold=entry.move == best)
            if two_lines:
                fonts.blit_text(layer, verdict_text(entry), size - 3, mix(colour, background, 0.35),
                                (rect.centerx, y + size * 1.15), "center")

    def _coordinates(self, layer: pygame.Surface, theme: Theme, pad: int) -> None:
        """Column letters inside the bottom edge and row numbers inside the left edge of the plate."""
        if self.cell < 18:
            return
        size = max(9, min(14, round(pad * 0.7)))
        if pad < 12:
            return
        ink = mix(theme.board, (255, 255, 255), 0.75)
        for col in range(self.width):
            x = self._x(col) + self.cell // 2
            fonts.blit_text(layer, "abcdefghijklmnopqrs"[col], size, ink, (x, self.rect.bottom + pad * 0.58), "center")
        for row in range(self.height):
            y = self._y(row) + self.cell // 2
            fonts.blit_text(layer, str(row + 1), size, ink, (self.rect.left - pad * 0.58, y), "center")
