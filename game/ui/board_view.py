"""The Connect 4 board: its geometry (a frozen value computed by the layout) and its painter.

Columns of round holes; the top margin holds the preview disc, the bottom one two label rows
(visit share, exact verdict or win rate). The label rows are always reserved, so the board keeps
its size when the heatmap or the verdicts are switched on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pygame

from game.play.exact import LEGEND_VARIANTS, ROW_LEGEND, SHORT_FORM, Verdict, score_verdict
from game.play.heat import HeatData, share_text
from game.play.themes import Theme, heat_colour, mix, shade
from game.ui import text
from game.ui.discs import draw_disc
from game.ui.frame import BoardScene

LABEL_ROWS = 2
TOP_CELLS = 1.15  # the preview disc above the board
LABEL_CELLS = 0.25 + 0.42 * LABEL_ROWS


class HasConnect4Painter(Protocol):
    """The app's painters (``game.ui.view.Painters``), as far as this geometry needs them."""

    @property
    def connect4(self) -> Connect4Painter: ...


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

    def cell_center(self, cell: int) -> tuple[tuple[float, float], int]:
        """The middle of ``cell`` (``row * width + col``) and the radius of a piece there."""
        row, col = divmod(cell, self.width)
        return self.center(col, row), self.radius

    def banner_center(self, banner_h: int) -> tuple[int, int]:
        """Where the banner goes: over the holes, in the preview disc's row."""
        return self.frame.centerx, self.rect.top - round(self.cell * 0.62)

    def heat_tip(self, verdicts: dict[int, Verdict] | None, mouse: tuple[int, int]) -> str | None:
        return legend_tip(self, verdicts, mouse)

    def paint(self, surface: pygame.Surface, scene: BoardScene, painters: HasConnect4Painter) -> None:
        painters.connect4.draw(surface, scene, self)

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
                    if t <= 0:
                        continue  # nothing stands out: the holes stay holes
                    column = pygame.Rect(local.rect.left + move * g.cell, local.rect.top, g.cell, g.rect.height)
                    back.fill(mix(theme.hole, heat_colour(theme, t), 0.1 + 0.3 * t), column)  # a light tint
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


@dataclass(frozen=True)
class VerdictRow:
    """How the verdict row is drawn: one form (see ``Verdict.forms``) and one font size for every column."""

    form: int
    size: int
    bold: bool  # exact verdicts in bold (only while the row's size leaves room for it)
    labels: dict[int, str]

    @property
    def needs_legend(self) -> bool:
        return self.form >= SHORT_FORM


def label_room(g: Connect4Geometry) -> int:
    """The width one column's label may take: the column less a visible gap to its neighbours."""
    return g.cell - max(4, g.cell // 8)


def label_size(g: Connect4Geometry) -> int:
    return max(text.MIN_SIZE, min(18, round(g.cell * 0.26)))


def verdict_row(g: Connect4Geometry, verdicts: dict[int, Verdict]) -> VerdictRow:
    """The longest form that fits every column at the row's size (or up to 3 px smaller), else the
    shortest at the size that fits them all: never a row of mixed forms or sizes."""
    size, room = label_size(g), label_room(g)
    moves = sorted(verdicts)
    for bold in (True, False):
        for form in range(4):
            labels = {m: verdicts[m].forms()[form] for m in moves}
            for smaller in range(size, max(text.MIN_SIZE, size - 3) - 1, -1):
                if all(
                    text.fits(label, smaller, room, bold and verdicts[m].kind == "exact") for m, label in labels.items()
                ):
                    return VerdictRow(form, smaller, bold, labels)
    labels = {m: verdicts[m].forms()[3] for m in moves}
    return VerdictRow(3, text.MIN_SIZE, False, labels)


def _labels(
    surface: pygame.Surface,
    g: Connect4Geometry,
    heat: HeatData | None,
    verdicts: dict[int, Verdict] | None,
    theme: Theme,
) -> None:
    """Two rows under the columns: the visit share, then the verdict (or the win rate). The verdict row keeps
    its place whether the share row is shown or not, and uses one form and one size throughout; its short
    form comes with a legend (in the share row's place when that is free)."""
    row_h = g.cell * 0.42
    room = label_room(g)
    y0 = g.labels_top
    shares_shown = _share_row(surface, g, heat, theme, room)
    row = _verdicts_with_estimates(g, heat, verdicts)
    if not row:
        return
    shape = verdict_row(g, row)
    colours = {"win": theme.win_text, "loss": theme.loss_text, "draw": theme.text}
    for move, label in shape.labels.items():
        verdict = row[move]
        exact = verdict.kind == "exact"
        colour = colours.get(verdict.outcome or "", theme.text_dim) if exact or verdicts else theme.text_dim
        x, _ = g.center(move, 0)
        text.draw(surface, label, shape.size, colour, (x, y0 + row_h), "midtop", bold=shape.bold and exact, width=room)
    if shape.needs_legend and not shares_shown:
        legend, legend_size = text.first_fitting(LEGEND_VARIANTS, max(text.MIN_SIZE, shape.size - 1), g.rect.width)
        text.draw(surface, legend, legend_size, theme.text_dim, (g.rect.centerx, y0), "midtop", width=g.rect.width)


def _share_row(surface: pygame.Surface, g: Connect4Geometry, heat: HeatData | None, theme: Theme, room: int) -> bool:
    """The visit shares under the columns, one size and one form for the row: "45%", else "45" where the columns
    are narrow. True when the row was drawn."""
    best = heat.best if heat is not None else None
    visited = heat is not None and heat.visited
    shares: dict[int, tuple[str, bool]] = {}
    for move in range(g.width):
        entry = heat.entries.get(move) if heat is not None else None
        if entry is not None and visited:  # (no row of dashes where the book settled every move: its verdicts say more)
            shares[move] = (share_text(entry.share, visited), move == best)
    if not shares:
        return False
    size = label_size(g)
    plain = {m: (label.rstrip("%"), bold) for m, (label, bold) in shares.items()}
    share_size = min(text.fitted_size(label, size, room, bold) for label, bold in shares.values())
    if not all(text.fits(label, share_size, room, bold) for label, bold in shares.values()):
        shares = plain
        share_size = min(text.fitted_size(label, size, room, bold) for label, bold in shares.values())
    for move, (label, bold) in shares.items():
        colour = theme.accent if bold else theme.text
        x, _ = g.center(move, 0)
        text.draw(surface, label, share_size, colour, (x, g.labels_top), "midtop", bold=bold, width=room)
    return True


def _verdicts_with_estimates(
    g: Connect4Geometry, heat: HeatData | None, verdicts: dict[int, Verdict] | None
) -> dict[int, Verdict]:
    """The verdict row: the exact verdicts, then for the other columns the book's (or the solver's) score, a
    proven outcome or the search's win rate."""
    row: dict[int, Verdict] = dict(verdicts or {})
    if heat is None:
        return row
    for move, entry in heat.entries.items():
        if move in row:
            continue
        if entry.score is not None:  # the book's (or the solver's) score: the result and its length
            row[move] = score_verdict(g.width * g.height, heat.ply, entry.score)
        elif entry.outcome is not None:
            row[move] = Verdict(entry.outcome, "exact", entry.outcome)
        else:
            row[move] = Verdict(f"{entry.value * 100:.0f}%", "estimate")
    return row


def legend_tip(g: Connect4Geometry, verdicts: dict[int, Verdict] | None, mouse: tuple[int, int]) -> str | None:
    """The legend as a tooltip over a short-form verdict row (the share row takes the legend's place)."""
    if not verdicts or not verdict_row(g, verdicts).needs_legend:
        return None
    area = pygame.Rect(g.rect.left, g.labels_top, g.rect.width, round(g.cell * 0.84))
    return ROW_LEGEND if area.collidepoint(mouse) else None


def _heat_key(heat: HeatData | None) -> object:
    return heat.key if heat is not None else None
