"""Draw the app icon (a piece of a Connect 4 board with red and yellow discs) as assets/icon.png.

Pure numpy + zlib (no pygame, no Pillow), anti-aliased by 4x supersampling.
Run from the repository root: ``.venv/bin/python tools/make_icon.py [SIZE]`` (default 256).
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np

BOARD = (36, 92, 200)
BOARD_EDGE = (22, 60, 150)
HOLE = (16, 24, 44)
RED = (224, 52, 52)
RED_RIM = (168, 30, 36)
YELLOW = (250, 204, 40)
YELLOW_RIM = (205, 150, 20)
SUPERSAMPLE = 4

# 3x3 window onto a board, top row first: "." empty, "r" red, "y" yellow (a red diagonal about to win)
CELLS = (
    "..r",
    ".ry",
    "ryy",
)


def _rounded_square(xs: np.ndarray, ys: np.ndarray, lo: float, hi: float, radius: float) -> np.ndarray:  # noqa: E501
    cx = np.clip(xs, lo + radius, hi - radius)
    cy = np.clip(ys, lo + radius, hi - radius)
    result: np.ndarray = (xs - cx) ** 2 + (ys - cy) ** 2 <= radius**2
    return result


def draw(size: int) -> np.ndarray:
    """RGBA image, shape (size, size, 4), uint8."""
    big = size * SUPERSAMPLE
    ys, xs = np.mgrid[0:big, 0:big].astype(np.float64) / big  # 0..1 coordinates
    rgba = np.zeros((big, big, 4), dtype=np.float64)

    def paint(mask: np.ndarray, colour: tuple[int, int, int]) -> None:
        rgba[mask, :3] = colour
        rgba[mask, 3] = 255

    paint(_rounded_square(xs, ys, 0.02, 0.98, 0.16), BOARD_EDGE)
    paint(_rounded_square(xs, ys, 0.05, 0.95, 0.13), BOARD)
    pitch = 0.9 / len(CELLS)
    hole_r = pitch * 0.40
    for row, line in enumerate(CELLS):
        for col, cell in enumerate(line):
            cx = 0.05 + pitch * (col + 0.5)
            cy = 0.05 + pitch * (row + 0.5)
            dist = np.hypot(xs - cx, ys - cy)
            paint(dist <= hole_r, HOLE)
            if cell == ".":
                continue
            face, rim = (RED, RED_RIM) if cell == "r" else (YELLOW, YELLOW_RIM)
            paint(dist <= hole_r * 0.96, rim)
            paint(dist <= hole_r * 0.74, face)
            # a soft highlight towards the top left
            shine = np.hypot(xs - (cx - hole_r * 0.28), ys - (cy - hole_r * 0.28)) <= hole_r * 0.22
            rgba[shine & (dist <= hole_r * 0.74), :3] = rgba[shine & (dist <= hole_r * 0.74), :3] * 0.6 + 255 * 0.4

    # average SUPERSAMPLE x SUPERSAMPLE blocks, colours weighted by alpha
    blocks = rgba.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE, 4)
    alpha = blocks[..., 3].mean(axis=(1, 3))
    weight = blocks[..., 3:4]
    colour_sum = (blocks[..., :3] * weight).sum(axis=(1, 3))
    weight_sum = weight.sum(axis=(1, 3))
    colour = np.divide(colour_sum, weight_sum, out=np.zeros_like(colour_sum), where=weight_sum > 0)
    out = np.dstack([colour, alpha])
    icon: np.ndarray = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return icon


def png_bytes(rgba: np.ndarray) -> bytes:
    height, width, _ = rgba.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(height))  # filter type 0 per scanline
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main(argv: list[str]) -> int:
    size = int(argv[0]) if argv else 256
    if not 16 <= size <= 1024:
        print(f"make_icon: size {size}: expected 16 to 1024", file=sys.stderr)
        return 2
    target = Path(__file__).resolve().parents[1] / "assets" / "icon.png"
    target.write_bytes(png_bytes(draw(size)))
    print(f"wrote {target} ({size}x{size})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
