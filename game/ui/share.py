"""Share a reviewed game: a PNG (the final board, the eval graph with its marks, the summary) and an animated
GIF of the game (``game.play.gif`` writes it: no imaging library needed). Pure drawing on surfaces of their own;
the app gives the frame of the final position."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame

from game.play.gif import GifFrame, encode
from game.play.themes import Color
from game.rules import Position
from game.ui import text
from game.ui.board_view import Connect4Painter, connect4_geometry
from game.ui.eval_graph import draw_graph
from game.ui.frame import BoardScene, Frame
from game.ui.grid_view import GridPainter, grid_geometry
from game.ui.review_view import CLASS_COLOURS, graph_dots, move_marks

PNG_SIZE = (960, 560)
GIF_AREA = (300, 300)
GIF_DELAY_CS = 60


def _board(surface: pygame.Surface, scene: BoardScene, frame: Frame, area: pygame.Rect) -> None:
    caps = frame.caps
    if caps.gravity:
        Connect4Painter().draw(surface, scene, connect4_geometry(caps.width, caps.height, area))
    else:
        GridPainter().draw(surface, scene, grid_geometry(caps, area))


def _still(scene: BoardScene, position: Position | None = None) -> BoardScene:
    return replace(
        scene,
        position=position or scene.position,
        hover=None,
        preview_player=None,
        animation=None,
        heat=None,
        verdicts=None,
        placed=None,
        key_cursor=None,
        now=0.0,
    )


def render_png(frame: Frame, summary: tuple[str, ...]) -> pygame.Surface:
    """The final board, the graph with the marks and the summary on one picture."""
    w, h = PNG_SIZE
    theme = frame.theme
    surface = pygame.Surface((w, h))
    surface.fill(theme.background)
    _board(surface, _still(frame.board), frame, pygame.Rect(16, 56, 500, h - 72))
    text.draw(surface, f"{frame.title}: {len(frame.moves)} moves", 20, theme.text, (20, 16), bold=True, width=w - 40)
    right = pygame.Rect(540, 56, w - 560, h - 72)
    graph = pygame.Rect(right.left, right.top, right.width, 220)
    draw_graph(
        surface,
        graph,
        theme,
        frame.graph,
        len(frame.graph) - 1,
        frame.board.colours,
        "",
        (-1, -1),
        graph_dots(frame.review),
    )
    y = graph.bottom + 16
    for line in summary:
        text.draw(surface, line, 15, theme.text, (right.left, y), width=right.width)
        y += 24
    marks = move_marks(frame.review)
    marked = [f"{move_number(i)} {frame.moves[i]}{m}" for i, (m, _) in enumerate(marks) if m]
    line = ""
    for item in marked:
        if not text.fits(f"{line} {item}".strip(), 14, right.width):
            text.draw(surface, line, 14, theme.text_dim, (right.left, y), width=right.width)
            y, line = y + 22, ""
        line = f"{line} {item}".strip()
    if line:
        text.draw(surface, line, 14, theme.text_dim, (right.left, y), width=right.width)
    return surface


def _ring(surface: pygame.Surface, frame: Frame, area: pygame.Rect, cell: int, colour: Color) -> None:
    caps = frame.caps
    if caps.gravity:
        g = connect4_geometry(caps.width, caps.height, area)
        row, col = divmod(cell, caps.width)
        x, y = g.center(col, row)
        pygame.draw.circle(surface, colour, (round(x), round(y)), g.radius + 2, width=max(3, g.radius // 6))
    else:
        r = grid_geometry(caps, area).cell_rect(cell)
        pygame.draw.rect(surface, colour, r, width=3)


def _quantize(rgb: np.ndarray) -> np.ndarray:
    """RGB pixels to indices of a 6x7x6 colour cube (252 colours)."""
    r = (rgb[..., 0].astype(np.int32) * 6) >> 8
    g = (rgb[..., 1].astype(np.int32) * 7) >> 8
    b = (rgb[..., 2].astype(np.int32) * 6) >> 8
    out: np.ndarray = (r * 42 + g * 6 + b).astype(np.uint8)
    return out


PALETTE = [
    (round(r * 255 / 5), round(g * 255 / 6), round(b * 255 / 5)) for r in range(6) for g in range(7) for b in range(6)
]


def render_gif(frame: Frame, positions: list[Position], cells: list[int | None], classes: tuple[str, ...]) -> bytes:
    """Every position of the game, the newest disc ringed in its review class's colour."""
    w, h = GIF_AREA
    area = pygame.Rect(0, 0, w, h)
    surface = pygame.Surface((w, h))
    frames: list[GifFrame] = []
    previous: np.ndarray | None = None
    scene = _still(frame.board)
    for ply, pos in enumerate(positions):
        surface.fill(frame.theme.background)
        _board(surface, replace(scene, position=pos, last_move=cells[ply]), frame, area)
        klass = classes[ply - 1] if 0 < ply <= len(classes) else ""
        cell = cells[ply]
        if cell is not None and klass in CLASS_COLOURS and klass not in ("best", "good"):
            _ring(surface, frame, area, cell, CLASS_COLOURS[klass])
        rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)  # rows first
        indices = _quantize(rgb)
        delay = GIF_DELAY_CS * 4 if ply == len(positions) - 1 else GIF_DELAY_CS
        if previous is None:
            frames.append(GifFrame(0, 0, w, h, indices.tobytes(), delay))
        else:
            changed = np.argwhere(indices != previous)
            if len(changed) == 0:
                frames.append(GifFrame(0, 0, 1, 1, indices[:1, :1].tobytes(), delay))
            else:
                (y0, x0), (y1, x1) = changed.min(axis=0), changed.max(axis=0)
                patch = indices[y0 : y1 + 1, x0 : x1 + 1]
                frames.append(GifFrame(int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1), patch.tobytes(), delay))
        previous = indices
    return encode(w, h, PALETTE, frames)


def share_paths(folder: Path, game: str) -> tuple[Path, Path]:
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    base = folder / f"{game.replace(':', '-')}_{stamp}_review"
    return base.with_suffix(".png"), base.with_suffix(".gif")


def save_png(surface: pygame.Surface, path: Path) -> None:
    tmp = path.with_suffix(".tmp.png")
    pygame.image.save(surface, str(tmp))
    tmp.replace(path)


def move_number(ply: int) -> str:
    """The move list's numbering of the move at ``ply`` (0-based): "2." for the first player's, "2…" for the
    second's (moves in pairs, not plies)."""
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '…'}"
