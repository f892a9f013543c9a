"""A small animated GIF writer (GIF89a, one global palette, LZW), so that sharing a game needs no imaging
library. Frames are rectangles of palette indices placed on the canvas (the first covers it; later ones only
where the picture changed); each is shown ``delay_cs`` hundredths of a second, the animation loops."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

MAX_CODES = 4096


@dataclass(frozen=True)
class GifFrame:
    left: int
    top: int
    width: int
    height: int
    pixels: bytes  # width * height palette indices, row by row
    delay_cs: int = 50


def lzw(pixels: bytes, min_code_size: int = 8) -> bytes:
    """The LZW-compressed data of ``pixels`` (indices below ``2 ** min_code_size``), packed LSB first."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    out = bytearray()
    bits, nbits = 0, 0

    def emit(code: int, size: int) -> None:
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8

    def fresh() -> dict[bytes, int]:
        return {bytes([i]): i for i in range(clear)}

    table, next_code, size = fresh(), end + 1, min_code_size + 1
    emit(clear, size)
    current = b""
    for value in pixels:
        candidate = current + bytes([value])
        if candidate in table:
            current = candidate
            continue
        emit(table[current], size)
        if next_code < MAX_CODES:
            table[candidate] = next_code
            if next_code == 1 << size and size < 12:
                size += 1
            next_code += 1
        else:  # the table is full: start again
            emit(clear, size)
            table, next_code, size = fresh(), end + 1, min_code_size + 1
        current = bytes([value])
    if current:
        emit(table[current], size)
    emit(end, size)
    if nbits:
        out.append(bits & 0xFF)
    return bytes(out)


def _blocks(data: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i : i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


def encode(width: int, height: int, palette: Sequence[tuple[int, int, int]], frames: Sequence[GifFrame]) -> bytes:
    """The bytes of a looping GIF of ``frames`` on a ``width`` x ``height`` canvas (``palette``: up to 256)."""
    if not frames or not 0 < len(palette) <= 256:
        raise ValueError("a GIF needs at least one frame and 1-256 palette colours")
    colours = list(palette) + [(0, 0, 0)] * (256 - len(palette))
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", width, height, 0xF7, 0, 0)  # global table of 256 colours
    for r, g, b in colours:
        out += bytes((r, g, b))
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop for ever
    for f in frames:
        if len(f.pixels) != f.width * f.height:
            raise ValueError("a frame's pixels do not match its size")
        out += b"\x21\xf9\x04" + struct.pack("<BHBB", 0x04, max(0, f.delay_cs), 0, 0)  # kept under the next one
        out += b"\x2c" + struct.pack("<HHHHB", f.left, f.top, f.width, f.height, 0)
        out.append(8)
        out += _blocks(lzw(f.pixels, 8))
    out.append(0x3B)
    return bytes(out)
