"""The board of the grid games (tic-tac-toe, m,n,k, Gomoku, Ultimate TTT): geometry and painter.

Cells are squares, row 0 at the bottom, with coordinates (``a``.. under the board, ``1``.. on
its left) matching the notation. The heatmap tints each legal cell (see ``HeatData.emphasis``) and
writes numbers in the most visited cells where they are readable. Ultimate TTT draws the nine local
boards apart, frames the board(s) the side to move may play in, dots the legal cells and covers a won
local board with its winner's tint and a big mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pygame

from game.play.heat import HeatData, share_text, verdict_text
from game.play.themes import Theme, heat_colour, mix, shade
from game.rules.capabilities import GameCapabilities, PieceStyle
from game.ui import text
from game.ui.frame import BoardScene
from game.ui.marks import draw_piece

PLACE_SECONDS = 0.16  # the scale-in of a new piece
MAX_CELL = 150
LABEL_MIN_CELL = 44  # smaller cells carry no numbers (they would be under 10 px)


class HasGridPainter(Protocol):
    """The app's painters (``game.ui.view.Painters``), as far as this geometry needs them."""

    @property
    def grid(self) -> GridPainter: ...


@dataclass(frozen=True)
class GridGeometry:
    width: int
    height: int
    rect: pygame.Rect  # the cells
    cell: int
    gap: int  # the extra space between Ultimate TTT's local boards
    style: PieceStyle

    @property
    def pad(self) -> int:
        """The plate's border, wide enough for 10 px coordinates."""
        return max(14, min(26, round(self.cell * 0.3)))

    @property
    def frame(self) -> pygame.Rect:
        return self.rect.inflate(2 * self.pad, 2 * self.pad)

    @property
    def inset(self) -> int:
        return max(1, round(self.cell * 0.05))

    def x(self, col: int) -> int:
        return self.rect.left + col * self.cell + (col // 3) * self.gap

    def y(self, row: int) -> int:  # top edge of ``row`` (row 0 at the bottom)
        return self.rect.bottom - (row + 1) * self.cell - (row // 3) * self.gap

    def cell_rect(self, index: int) -> pygame.Rect:
        row, col = divmod(index, self.width)
        return pygame.Rect(self.x(col), self.y(row), self.cell, self.cell)

    def move_at(self, pixel: tuple[int, int]) -> int | None:
        px, py = pixel
        col = next((c for c in range(self.width) if self.x(c) <= px < self.x(c) + self.cell), None)
        row = next((r for r in range(self.height) if self.y(r) <= py < self.y(r) + self.cell), None)
        return None if col is None or row is None else row * self.width + col

    def board_rect(self, board: int) -> pygame.Rect:
        """The area of Ultimate TTT's local board ``board`` (0 = bottom-left)."""
        bottom_left = self.cell_rect((board // 3) * 3 * self.width + (board % 3) * 3)
        return pygame.Rect(bottom_left.left, bottom_left.bottom - 3 * self.cell, 3 * self.cell, 3 * self.cell)

    def cell_center(self, cell: int) -> tuple[tuple[float, float], int]:
        """The middle of ``cell`` and the radius of a piece there."""
        r = self.cell_rect(cell)
        return (float(r.centerx), float(r.centery)), max(3, r.width // 2 - 3)

    def banner_center(self, banner_h: int) -> tuple[int, int]:
        """Where the banner goes: above the board's plate."""
        return self.frame.centerx, self.frame.top - banner_h // 2 - 2

    def heat_tip(self, verdicts: object, mouse: tuple[int, int]) -> str | None:
        """No verdict row under a grid: no legend to show."""
        return None

    def paint(self, surface: pygame.Surface, scene: BoardScene, painters: HasGridPainter) -> None:
        painters.grid.draw(surface, scene, self)

    def moved(self, dx: int, dy: int) -> GridGeometry:
        return GridGeometry(self.width, self.height, self.rect.move(dx, dy), self.cell, self.gap, self.style)


def grid_geometry(caps: GameCapabilities, area: pygame.Rect) -> GridGeometry:
    extra = 0.5 if caps.local_boards else 0.0
    cols, rows = caps.width + extra, caps.height + extra
    cell = max(8, int(min((area.width - 32) / cols, (area.height - 32) / rows, MAX_CELL)))
    gap = round(cell * 0.25) if caps.local_boards else 0
    rect = pygame.Rect(0, 0, cell * caps.width + 2 * gap, cell * caps.height + 2 * gap)
    rect.center = area.center
    return GridGeometry(caps.width, caps.height, rect, cell, gap, caps.pieces)


class GridPainter:
    """Draws a scene on a geometry; remembers only painted layers keyed by their inputs."""

    def __init__(self) -> None:
        self._layers: dict[tuple[object, ...], pygame.Surface] = {}

    def draw(self, surface: pygame.Surface, scene: BoardScene, g: GridGeometry) -> None:
        theme, pos = scene.theme, scene.position
        placed = scene.placed if scene.placed is not None and scene.now - scene.placed[1] < PLACE_SECONDS else None
        hidden = placed[0] if placed is not None else None
        win_cells = frozenset(pos.outcome.line) if pos.outcome.winner is not None else frozenset()
        key = (tuple(g.rect), g.cell, theme.key, pos.history, hidden, _heat_key(scene.heat), scene.colours, scene.marks)
        layer = self._layers.get(key)
        if layer is None:
            layer = self._paint_static(scene, g, hidden, win_cells)
            self._layers = {key: layer}
        surface.blit(layer, (g.rect.left - g.pad, g.rect.top - g.pad))
        if placed is not None:
            owner = pos.cell(placed[0])
            if owner is not None:
                t = (scene.now - placed[1]) / PLACE_SECONDS
                _piece(surface, scene, g, owner, g.cell_rect(placed[0]), 0.55 + 0.45 * (1 - (1 - t) ** 3))
        legal = pos.legal_moves()
        if scene.preview_player is not None and scene.hover is not None and scene.hover in legal:
            rect = g.cell_rect(scene.hover)
            pygame.draw.rect(
                surface,
                mix(theme.hole, scene.colour_of(scene.preview_player), 0.25),
                rect.inflate(-g.inset * 2, -g.inset * 2),
                width=2,
                border_radius=6,
            )
            _piece(surface, scene, g, scene.preview_player, rect, 1.0, 85 if scene.heat is not None else 120)
        if scene.key_cursor is not None and 0 <= scene.key_cursor < g.width * g.height:
            rect = g.cell_rect(scene.key_cursor).inflate(-2, -2)
            width = max(3, g.cell // 12)
            pygame.draw.rect(surface, (20, 20, 24), rect, width=width + 2, border_radius=6)  # seen on any board
            pygame.draw.rect(surface, (255, 255, 255), rect.inflate(-4, -4), width=max(2, width - 1), border_radius=5)
        self._markers(surface, scene, g, win_cells, placed is None)

    def _markers(
        self, surface: pygame.Surface, scene: BoardScene, g: GridGeometry, win_cells: frozenset[int], settled: bool
    ) -> None:
        pos, theme = scene.position, scene.theme
        if not settled:
            return
        if win_cells:
            pulse = 0.5 + 0.5 * abs(((scene.now * 1.2) % 2) - 1)
            width = max(2, round(g.cell * (0.04 + 0.03 * pulse)))
            for index in win_cells:
                if pos.cell(index) == pos.outcome.winner:
                    rect = g.cell_rect(index).inflate(-g.inset * 2, -g.inset * 2)
                    pygame.draw.rect(surface, theme.win_ring, rect, width=width, border_radius=6)
        elif pos.history:  # the last move: a dot on a stone, a frame round a mark
            last = pos.history[-1]
            rect = g.cell_rect(last).inflate(-g.inset * 2, -g.inset * 2)
            owner = pos.cell(last)
            if g.style == "stones" and owner is not None and not theme.marks:
                pygame.draw.aacircle(
                    surface, shade(scene.colour_of(owner), 1.55), rect.center, max(2, round(g.cell * 0.07))
                )
            else:
                pygame.draw.rect(surface, theme.text, rect, width=max(2, g.cell // 24), border_radius=6)

    def _paint_static(
        self, scene: BoardScene, g: GridGeometry, hidden: int | None, win_cells: frozenset[int]
    ) -> pygame.Surface:
        """Board, cells, heat tints, pieces and local-board marks, redrawn only when one changes."""
        theme, pos, pad = scene.theme, scene.position, g.pad
        layer = pygame.Surface((g.rect.width + 2 * pad, g.rect.height + 2 * pad), pygame.SRCALPHA)
        local = g.moved(pad - g.rect.left, pad - g.rect.top)
        pygame.draw.rect(layer, theme.board, layer.get_rect(), border_radius=pad * 2)
        legal = set(pos.legal_moves())
        allowed = scene.allowed_boards
        sent = len(allowed) == 1  # sent to one board: frame it (a free choice shows only the dots)
        for board in allowed if sent else ():
            frame = local.board_rect(board).inflate(round(g.gap * 0.7), round(g.gap * 0.7))
            pygame.draw.rect(layer, theme.win_ring, frame, border_radius=pad)
        heat = scene.heat
        for index in range(g.width * g.height):
            rect = local.cell_rect(index).inflate(-g.inset * 2, -g.inset * 2)
            colour = theme.hole
            if heat is not None and index in heat.entries:
                t = heat.emphasis(index)
                colour = mix(theme.hole, heat_colour(theme, t), 0.2 + 0.65 * t)
            elif scene.local_winners and sent and index not in legal and pos.cell(index) is None:
                colour = mix(theme.hole, theme.board, 0.35)  # not playable now
            pygame.draw.rect(layer, colour, rect, border_radius=max(2, g.cell // 10))
            owner = pos.cell(index)
            if owner is not None and index != hidden:
                faded = bool(win_cells) and index not in win_cells
                _piece(layer, scene, local, owner, local.cell_rect(index), 1.0, 110 if faded else 255)
            elif scene.local_winners and index in legal and heat is None:
                pygame.draw.aacircle(layer, mix(theme.hole, theme.heat_warm, 0.8), rect.center, max(2, g.cell // 12))
        for board, winner in enumerate(scene.local_winners):
            if winner is not None:
                area = local.board_rect(board)
                veil = pygame.Surface(area.size, pygame.SRCALPHA)
                veil.fill((*scene.colour_of(winner), 70))
                layer.blit(veil, area.topleft)
                draw_piece(layer, "marks", winner, scene.colour_of(winner), None, area.inflate(-6, -6), 1.0, 230)
        if heat is not None:
            _heat_labels(layer, local, heat)
        _coordinates(layer, local, theme, pad)
        return layer


def _piece(
    surface: pygame.Surface,
    scene: BoardScene,
    g: GridGeometry,
    player: int,
    rect: pygame.Rect,
    scale: float = 1.0,
    alpha: int = 255,
) -> None:
    inner = rect.inflate(-g.inset * 2, -g.inset * 2)
    draw_piece(surface, g.style, player, scene.colour_of(player), scene.mark_of(player), inner, scale, alpha)


def _heat_labels(layer: pygame.Surface, g: GridGeometry, heat: HeatData) -> None:
    """Numbers in the most stressed cells, as many as stay readable (none when no move stands out)."""
    if g.cell < LABEL_MIN_CELL or heat.uniform:
        return
    shown = 9 if g.width * g.height <= 9 else 6
    best = heat.best
    size = max(text.MIN_SIZE + 1, min(22, round(g.cell * 0.24)))
    two_lines = g.cell >= 64
    ranked = sorted(heat.entries.values(), key=lambda e: -heat.emphasis(e.move))[:shown]
    for entry in ranked:
        if heat.emphasis(entry.move) <= 0.05 and entry.move != best:
            continue
        rect = g.cell_rect(entry.move)
        background = layer.get_at(rect.center)[:3]
        light = 0.299 * background[0] + 0.587 * background[1] + 0.114 * background[2] > 140
        colour = (24, 28, 36) if light else (242, 244, 248)  # readable on any tint, in every theme
        y = rect.centery - (size * 0.6 if two_lines else 0)
        text.draw(
            layer,
            share_text(entry.share, heat.visited),
            size,
            colour,
            (rect.centerx, y),
            "center",
            bold=entry.move == best,
            width=g.cell - 4,
        )
        if two_lines:
            text.draw(
                layer,
                verdict_text(entry),
                size - 3,
                colour,
                (rect.centerx, y + size * 1.15),
                "center",
                width=g.cell - 4,
            )


def _coordinates(layer: pygame.Surface, g: GridGeometry, theme: Theme, pad: int) -> None:
    """Column letters inside the bottom edge and row numbers inside the left edge of the plate."""
    size = max(text.MIN_SIZE, min(14, round(pad * 0.7)))
    ink = mix(theme.board, (255, 255, 255), 0.8)
    for col in range(g.width):
        x = g.x(col) + g.cell // 2
        text.draw(layer, "abcdefghijklmnopqrs"[col], size, ink, (x, g.rect.bottom + pad * 0.55), "center")
    for row in range(g.height):
        y = g.y(row) + g.cell // 2
        text.draw(layer, str(row + 1), size, ink, (g.rect.left - pad * 0.55, y), "center")


def _heat_key(heat: HeatData | None) -> object:
    return heat.key if heat is not None else None
