"""Drawing a board and finding the move under the mouse, behind a small interface.

``BoardView`` is what the app needs from any game's board; ``Connect4View`` draws columns that
discs fall into. A grid-game view (tic-tac-toe, m,n,k, Gomoku, Ultimate TTT) implements the same
three methods and is returned by ``make_board_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import pygame

from game import GameSpec, Position
from game.connect4 import Connect4Spec
from game.ui import fonts
from game.ui.animation import DropAnimation
from game.ui.discs import draw_disc
from game.ui.exact import Verdict
from game.ui.heat import HeatData, share_text, verdict_text
from game.ui.themes import Color, Theme, mix, shade


@dataclass
class BoardScene:
    """Everything one frame of the board depends on."""

    position: Position
    theme: Theme
    colour_of: Callable[[int], Color]
    mark_of: Callable[[int], int | None]
    now: float
    hover: int | None = None  # the move under the mouse or keyboard cursor
    preview_player: int | None = None  # whose disc hovers over the board (None: no preview)
    animation: DropAnimation | None = None
    heat: HeatData | None = None
    last_move: int | None = None
    placed: tuple[int, float] | None = None  # grid games: (cell, when) of the newest piece
    key_cursor: int | None = None  # the keyboard's cell (grid games)
    verdicts: dict[int, Verdict] | None = None  # exact verdicts per column (Connect 4)


class BoardView(Protocol):
    rect: pygame.Rect

    def layout(self, area: pygame.Rect, label_rows: int = 0) -> None: ...

    def move_at(self, pixel: tuple[int, int]) -> int | None: ...

    def draw(self, surface: pygame.Surface, scene: BoardScene) -> None: ...


def make_board_view(spec: GameSpec) -> BoardView:
    if isinstance(spec, Connect4Spec):
        return Connect4View(spec.width, spec.height)
    from game.ui.grid_view import GridView

    return GridView(spec)


def label_rows(heat: bool, verdicts: bool) -> int:
    """Lines of text under a Connect 4 board: visit share and win rate, or share, verdict and its kind."""
    if verdicts:
        return 3 if heat else 2
    return 2 if heat else 0


class Connect4View:
    """Columns of round holes; the top margin holds the preview disc, the bottom one the heat labels."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.cell = 1
        self.area = pygame.Rect(0, 0, 1, 1)
        self.labels_top = 0
        self._plate_key: tuple | None = None
        self._plate: pygame.Surface | None = None
        self._back: pygame.Surface | None = None
        self._back_key: tuple | None = None

    # --- geometry --------------------------------------------------------------------------
    def layout(self, area: pygame.Rect, label_rows: int = 0) -> None:
        self.area = pygame.Rect(area)
        label_cells = 0.25 + 0.35 * label_rows if label_rows else 0.25
        cell = min(area.width / (self.width + 0.3), area.height / (self.height + 1.15 + label_cells))
        self.cell = max(8, int(cell))
        w, h = self.cell * self.width, self.cell * self.height
        total_h = h + self.cell * (1.15 + label_cells)
        top = area.top + (area.height - total_h) / 2 + self.cell * 1.15
        self.rect = pygame.Rect(round(area.centerx - w / 2), round(top), w, h)
        self.labels_top = self.rect.bottom + round(self.cell * 0.2)

    @property
    def radius(self) -> int:
        return max(3, round(self.cell * 0.4))

    def center(self, col: int, row: float) -> tuple[float, float]:
        x = self.rect.left + (col + 0.5) * self.cell
        y = self.rect.bottom - (row + 0.5) * self.cell
        return x, y

    def move_at(self, pixel: tuple[int, int]) -> int | None:
        x, y = pixel
        if not (self.rect.left <= x < self.rect.right):
            return None
        if not (self.rect.top - self.cell * 1.2 <= y < self.labels_top + self.cell * 0.9):
            return None
        return int((x - self.rect.left) // self.cell)

    # --- drawing ---------------------------------------------------------------------------
    def _build_plate(self, theme: Theme) -> None:
        key = (self.rect.size, self.cell, theme.key)
        if key == self._plate_key:
            return
        w, h = self.rect.size
        pad = max(4, self.cell // 8)
        plate = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
        pygame.draw.rect(plate, (*theme.board, 255), plate.get_rect(), border_radius=pad * 2)
        stamp = pygame.Surface(plate.get_size(), pygame.SRCALPHA)
        hole = round(self.cell * 0.41)
        for col in range(self.width):
            for row in range(self.height):
                cx = pad + (col + 0.5) * self.cell
                cy = pad + h - (row + 0.5) * self.cell
                pygame.draw.aacircle(stamp, (0, 0, 0, 255), (cx, cy), hole)
        plate.blit(stamp, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
        rim = shade(theme.board, 0.78)
        for col in range(self.width):
            for row in range(self.height):
                cx = pad + (col + 0.5) * self.cell
                cy = pad + h - (row + 0.5) * self.cell
                pygame.draw.aacircle(plate, rim, (cx, cy), hole + 1, width=max(1, self.cell // 28))
        self._plate = plate
        self._plate_key = key

    def _draw_heat(self, surface: pygame.Surface, heat: HeatData, theme: Theme) -> None:
        """Tint each column's holes from cool to warm by its share of the visits."""
        top_share = max((e.share for e in heat.entries.values()), default=0) or 1
        for move, entry in heat.entries.items():
            if not 0 <= move < self.width:
                continue
            rel = entry.share / top_share
            colour = mix(theme.heat_cool, theme.heat_warm, rel)
            rect = pygame.Rect(self.rect.left + move * self.cell, self.rect.top, self.cell, self.rect.height)
            surface.fill(mix(theme.hole, colour, 0.12 + 0.5 * rel), rect)

    def _draw_backdrop(
        self,
        scene: BoardScene,
        plate_rect: pygame.Rect,
        pad: int,
        hidden: int | None,
        win_cells: set[int],
        settled: bool,
        hover: int | None,
    ) -> pygame.Surface:
        """What lies behind the plate (hole colour, heat or hover tint, settled discs), drawn once per change."""
        theme = scene.theme
        back = pygame.Surface(plate_rect.size, pygame.SRCALPHA)
        origin = (plate_rect.left, plate_rect.top)
        local = back.get_rect()
        back.fill(theme.hole, local.inflate(-pad, -pad))
        saved = self.rect
        self.rect = self.rect.move(-origin[0], -origin[1])  # draw in the layer's coordinates
        try:
            if scene.heat is not None:
                self._draw_heat(back, scene.heat, theme)
            elif hover is not None and scene.preview_player is not None:
                col_rect = pygame.Rect(self.rect.left + hover * self.cell, self.rect.top, self.cell, self.rect.height)
                back.fill(mix(theme.hole, scene.colour_of(scene.preview_player), 0.2), col_rect)
            r = self.radius
            pos = scene.position
            for index in range(self.width * self.height):
                owner = pos.cell(index)
                if owner is None or index == hidden:
                    continue
                row, col = divmod(index, self.width)
                faded = bool(win_cells) and settled and index not in win_cells  # let the winning four stand out
                alpha = 150 if faded else 255
                draw_disc(back, scene.colour_of(owner), self.center(col, row), r, scene.mark_of(owner), alpha)
        finally:
            self.rect = saved
        return back.convert_alpha() if pygame.display.get_surface() is not None else back

    def draw(self, surface: pygame.Surface, scene: BoardScene) -> None:
        theme = scene.theme
        self._build_plate(theme)
        assert self._plate is not None
        pad = (self._plate.get_width() - self.rect.width) // 2
        plate_rect = self._plate.get_rect(topleft=(self.rect.left - pad, self.rect.top - pad))
        pos = scene.position
        anim = scene.animation
        hidden = anim.row * self.width + anim.col if anim is not None else None
        win_cells = set(pos.outcome.line) if pos.outcome.winner is not None else set()
        settled = anim is None or anim.done(scene.now)
        hover = scene.hover if scene.preview_player is not None and scene.hover in pos.legal_moves() else None
        key = (
            self._plate_key, pos.history, hidden, scene.heat, hover, scene.preview_player, settled,
            scene.colour_of(0), scene.colour_of(1), scene.mark_of(0), scene.mark_of(1),
        )
        if key != self._back_key or self._back is None:
            self._back = self._draw_backdrop(scene, plate_rect, pad, hidden, win_cells, settled, hover)
            self._back_key = key
        shadow = plate_rect.move(0, max(3, self.cell // 14))
        pygame.draw.rect(surface, theme.board_shadow, shadow, border_radius=pad * 2)
        surface.blit(self._back, plate_rect.topleft)
        r = self.radius
        if anim is not None:
            row = anim.row_at(scene.now)
            x, y = self.center(anim.col, row)
            clip = surface.get_clip()
            above_board = pygame.Rect(plate_rect.left, 0, plate_rect.width, plate_rect.bottom)
            surface.set_clip(above_board.clip(clip or surface.get_rect()))
            draw_disc(surface, scene.colour_of(anim.player), (x, y), r, scene.mark_of(anim.player))
            surface.set_clip(clip)
        surface.blit(self._plate, plate_rect)
        self._draw_markers(surface, scene, win_cells, anim)
        if scene.preview_player is not None and scene.hover is not None and scene.hover in pos.legal_moves():
            x, _ = self.center(scene.hover, 0)
            y = self.rect.top - self.cell * 0.62
            player = scene.preview_player
            draw_disc(surface, scene.colour_of(player), (x, y), r, scene.mark_of(player), 170)
        if scene.heat is not None or scene.verdicts is not None:
            self._draw_labels(surface, scene.heat, scene.verdicts, theme)

    def _draw_markers(
        self, surface: pygame.Surface, scene: BoardScene, win_cells: set[int], anim: DropAnimation | None
    ) -> None:
        r = self.radius
        if win_cells and (anim is None or anim.done(scene.now)):
            pulse = 0.5 + 0.5 * abs(((scene.now * 1.2) % 2) - 1)
            width = max(2, round(self.cell * (0.06 + 0.03 * pulse)))
            for index in win_cells:
                row, col = divmod(index, self.width)
                pygame.draw.aacircle(surface, scene.theme.win_ring, self.center(col, row), r - width // 2, width=width)
        elif scene.last_move is not None and (anim is None or anim.done(scene.now)):
            index = scene.last_move
            owner = scene.position.cell(index)
            if owner is not None:
                row, col = divmod(index, self.width)
                if scene.theme.marks:  # a dot would blur the ring / cross marks: outline the disc instead
                    width = max(2, round(r * 0.08))
                    pygame.draw.aacircle(surface, scene.theme.text, self.center(col, row), r - width // 2, width=width)
                else:
                    dot = shade(scene.colour_of(owner), 1.55)
                    pygame.draw.aacircle(surface, dot, self.center(col, row), max(2, round(r * 0.16)))

    def _draw_labels(
        self, surface: pygame.Surface, heat: HeatData | None, verdicts: dict[int, Verdict] | None, theme: Theme
    ) -> None:
        size = max(10, min(18, round(self.cell * 0.2)))
        y0 = self.labels_top
        if heat is not None:
            best = heat.best
            for move, entry in heat.entries.items():
                x, _ = self.center(move, 0)
                colour = theme.accent if move == best else theme.text
                share = share_text(entry.share)
                fonts.blit_text(surface, share, size, colour, (x, y0), "midtop", bold=move == best)
                if verdicts is None:
                    fonts.blit_text(surface, verdict_text(entry), size - 1, theme.text_dim, (x, y0 + size * 1.3),
                                    "midtop")
            y0 += round(size * 1.3)
        if verdicts is None:
            return
        for move, verdict in verdicts.items():
            x, _ = self.center(move, 0)
            colours = {"win": (22, 163, 74), "loss": (220, 38, 38), "draw": theme.text}
            colour = colours.get(verdict.outcome or "", theme.text_dim)
            bold = verdict.kind == "exact"
            vsize = size - 1
            while vsize > 9 and fonts.font(vsize, bold).size(verdict.text)[0] > self.cell - 4:
                vsize -= 1
            text = fonts.fit_text(verdict.text, vsize, self.cell - 2, bold=bold)
            fonts.blit_text(surface, text, vsize, colour, (x, y0), "midtop", bold=bold)
            fonts.blit_text(surface, verdict.kind, max(9, size - 5), theme.text_dim, (x, y0 + size * 1.2), "midtop")
