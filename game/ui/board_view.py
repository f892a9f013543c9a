"""The Connect 4 board: its geometry (a frozen value computed by the layout) and its painter.

Columns of round holes; the top margin holds the preview disc, the bottom one two label rows
(visit share, exact verdict or win rate). The label rows are always reserved, so the board keeps
its size when the heatmap or the verdicts are switched on.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play.exact import Verdict
from game.play.heat import HeatData, share_text, verdict_text
from game.play.themes import Theme, heat_colour, mix, shade
from game.ui import text
from game.ui.discs import draw_disc
from game.ui.frame import BoardScene

LABEL_ROWS = 2
TOP_CELLS = 1.15  # the preview disc above the board
LABEL_CELLS = 0.25 + 0.42 * LABEL_ROWS


@dataclass(frozen=True)
class Connect4Geometry:
    width: int
    height: int
    rect: pygame.Rect  # the holes
    cell: int

    @property
    def labels_top(self) -> int:
        return self.rect.bottom + round(self.cell * 0.2)

    @property
    def pad(self) -> int:
        return max(4, self.cell // 8)

    @property
    def frame(self) -> pygame.Rect:
        """Everything the board draws: plate, preview disc, labels."""
        top = self.rect.top - round(self.cell * TOP_CELLS)
        bottom = self.rect.bottom + round(self.cell * LABEL_CELLS)
        return pygame.Rect(self.rect.left - self.pad, top, self.rect.width + 2 * self.pad, bottom - top)

    @property
    def radius(self) -> int:
        return max(3, round(self.cell * 0.4))

    def center(self, col: int, row: float) -> tuple[float, float]:
        return self.rect.left + (col + 0.5) * self.cell, self.rect.bottom - (row + 0.5) * self.cell

    def move_at(self, pixel: tuple[int, int]) -> int | None:
        x, y = pixel
        if not (self.rect.left <= x < self.rect.right):
            return None
        if not (self.rect.top - self.cell * 1.2 <= y < self.labels_top + self.cell * 0.9):
            return None
        return int((x - self.rect.left) // self.cell)


def connect4_geometry(width: int, height: int, area: pygame.Rect) -> Connect4Geometry:
    cell = max(8, int(min(area.width / (width + 0.3), area.height / (height + TOP_CELLS + LABEL_CELLS))))
    w, h = cell * width, cell * height
    total_h = h + cell * (TOP_CELLS + LABEL_CELLS)
    top = area.top + (area.height - total_h) / 2 + cell * TOP_CELLS
    return Connect4Geometry(width, height, pygame.Rect(round(area.centerx - w / 2), round(top), w, h), cell)


class Connect4Painter:
    """Draws a scene on a geometry. Its only memory is a cache of painted layers keyed by their inputs."""

    def __init__(self) -> None:
        self._plates: dict[tuple[object, ...], pygame.Surface] = {}
        self._backs: dict[tuple[object, ...], pygame.Surface] = {}

    def _plate(self, g: Connect4Geometry, theme: Theme) -> pygame.Surface:
        key = (g.rect.size, g.cell, g.width, g.height, theme.key)
        plate = self._plates.get(key)
        if plate is not None:
            return plate
        w, h = g.rect.size
        pad = g.pad
        plate = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
        pygame.draw.rect(plate, (*theme.board, 255), plate.get_rect(), border_radius=pad * 2)
        stamp = pygame.Surface(plate.get_size(), pygame.SRCALPHA)
        hole = round(g.cell * 0.41)
        rim = shade(theme.board, 0.78)
        centres = [
            (pad + (c + 0.5) * g.cell, pad + h - (r + 0.5) * g.cell) for c in range(g.width) for r in range(g.height)
        ]
        for cx, cy in centres:
            pygame.draw.aacircle(stamp, (0, 0, 0, 255), (cx, cy), hole)
        plate.blit(stamp, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
        for cx, cy in centres:
            pygame.draw.aacircle(plate, rim, (cx, cy), hole + 1, width=max(1, g.cell // 28))
        self._plates = {key: plate}
        return plate

    def _backdrop(
        self,
        scene: BoardScene,
        g: Connect4Geometry,
        hidden: int | None,
        win_cells: set[int],
        settled: bool,
        hover: int | None,
    ) -> pygame.Surface:
        key = (
            g.rect.size,
            g.cell,
            scene.theme.key,
            scene.position.history,
            hidden,
            _heat_key(scene.heat),
            hover,
            scene.preview_player,
            settled,
            scene.colours,
            scene.marks,
        )
        back = self._backs.get(key)
        if back is not None:
            return back
        theme, pad = scene.theme, g.pad
        local = Connect4Geometry(g.width, g.height, pygame.Rect(pad, pad, g.rect.width, g.rect.height), g.cell)
        back = pygame.Surface((g.rect.width + 2 * pad, g.rect.height + 2 * pad), pygame.SRCALPHA)
        back.fill(theme.hole, back.get_rect().inflate(-pad, -pad))
        if scene.heat is not None:
            for move in scene.heat.entries:
                if 0 <= move < g.width:
                    t = scene.heat.emphasis(move)
                    column = pygame.Rect(local.rect.left + move * g.cell, local.rect.top, g.cell, g.rect.height)
                    back.fill(mix(theme.hole, heat_colour(theme, t), 0.18 + 0.6 * t), column)
        elif hover is not None and scene.preview_player is not None:
            column = pygame.Rect(local.rect.left + hover * g.cell, local.rect.top, g.cell, g.rect.height)
            back.fill(mix(theme.hole, scene.colour_of(scene.preview_player), 0.2), column)
        pos = scene.position
        for index in range(g.width * g.height):
            owner = pos.cell(index)
            if owner is None or index == hidden:
                continue
            row, col = divmod(index, g.width)
            faded = bool(win_cells) and settled and index not in win_cells  # the winning four stands out
            draw_disc(
                back,
                scene.colour_of(owner),
                local.center(col, row),
                g.radius,
                scene.mark_of(owner),
                150 if faded else 255,
            )
        if len(self._backs) > 8:
            self._backs.clear()
        self._backs[key] = back
        return back

    def draw(self, surface: pygame.Surface, scene: BoardScene, g: Connect4Geometry) -> None:
        theme, pos, anim = scene.theme, scene.position, scene.animation
        plate = self._plate(g, theme)
        plate_rect = plate.get_rect(topleft=(g.rect.left - g.pad, g.rect.top - g.pad))
        hidden = anim.row * g.width + anim.col if anim is not None else None
        win_cells = set(pos.outcome.line) if pos.outcome.winner is not None else set()
        settled = anim is None or anim.done(scene.now)
        legal = pos.legal_moves()
        hover = scene.hover if scene.preview_player is not None and scene.hover in legal else None
        pygame.draw.rect(surface, theme.board_shadow, plate_rect.move(0, max(3, g.cell // 14)), border_radius=g.pad * 2)
        surface.blit(self._backdrop(scene, g, hidden, win_cells, settled, hover), plate_rect.topleft)
        if anim is not None:
            x, y = g.center(anim.col, anim.row_at(scene.now))
            clip = surface.get_clip()
            surface.set_clip(pygame.Rect(plate_rect.left, 0, plate_rect.width, plate_rect.bottom).clip(clip))
            draw_disc(surface, scene.colour_of(anim.player), (x, y), g.radius, scene.mark_of(anim.player))
            surface.set_clip(clip)
        surface.blit(plate, plate_rect)
        self._markers(surface, scene, g, win_cells, settled)
        if hover is not None and scene.preview_player is not None:
            x, _ = g.center(hover, 0)
            player = scene.preview_player
            draw_disc(
                surface, scene.colour_of(player), (x, g.rect.top - g.cell * 0.62), g.radius, scene.mark_of(player), 170
            )
        if scene.heat is not None or scene.verdicts is not None:
            _labels(surface, g, scene.heat, scene.verdicts, theme)

    def _markers(
        self, surface: pygame.Surface, scene: BoardScene, g: Connect4Geometry, win_cells: set[int], settled: bool
    ) -> None:
        r = g.radius
        if win_cells and settled:
            pulse = 0.5 + 0.5 * abs(((scene.now * 1.2) % 2) - 1)
            width = max(2, round(g.cell * (0.06 + 0.03 * pulse)))
            for index in win_cells:
                row, col = divmod(index, g.width)
                pygame.draw.aacircle(surface, scene.theme.win_ring, g.center(col, row), r - width // 2, width=width)
        elif scene.last_move is not None and settled:
            owner = scene.position.cell(scene.last_move)
            if owner is not None:
                row, col = divmod(scene.last_move, g.width)
                if scene.theme.marks:  # a dot would blur the ring / cross marks: outline the disc instead
                    width = max(2, round(r * 0.08))
                    pygame.draw.aacircle(surface, scene.theme.text, g.center(col, row), r - width // 2, width=width)
                else:
                    pygame.draw.aacircle(
                        surface, shade(scene.colour_of(owner), 1.55), g.center(col, row), max(2, round(r * 0.16))
                    )


def _labels(
    surface: pygame.Surface,
    g: Connect4Geometry,
    heat: HeatData | None,
    verdicts: dict[int, Verdict] | None,
    theme: Theme,
) -> None:
    """Two rows under the columns: the visit share, then the verdict (or the win rate)."""
    row_h = g.cell * 0.42
    size = max(text.MIN_SIZE, min(18, round(g.cell * 0.26)))
    width = g.cell - 2
    y0 = g.labels_top
    best = heat.best if heat is not None else None
    visited = heat is not None and heat.visited
    for move in range(g.width):
        x, _ = g.center(move, 0)
        entry = heat.entries.get(move) if heat is not None else None
        if entry is not None:
            colour = theme.accent if move == best else theme.text
            text.draw(
                surface,
                share_text(entry.share, visited),
                size,
                colour,
                (x, y0),
                "midtop",
                bold=move == best,
                width=width,
            )
        verdict = verdicts.get(move) if verdicts is not None else None
        y1 = y0 + (row_h if heat is not None else 0)
        if verdict is not None:
            exact = verdict.kind == "exact"
            colours = {"win": theme.win_text, "loss": theme.loss_text, "draw": theme.text}
            colour = colours.get(verdict.outcome or "", theme.text_dim)
            label, vsize = text.first_fitting(verdict.variants(), size, width, bold=exact)
            text.draw(surface, label, vsize, colour, (x, y1), "midtop", bold=exact)
        elif entry is not None:
            label, vsize = text.first_fitting((verdict_text(entry),), size - 1, width)
            text.draw(surface, label, vsize, theme.text_dim, (x, y1), "midtop")


def _heat_key(heat: HeatData | None) -> object:
    return heat.key if heat is not None else None
