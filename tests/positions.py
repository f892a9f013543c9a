"""Pons' benchmark positions shipped with the tests (``tests/data/connect4-positions``, see its README)."""

from __future__ import annotations

import os
import random
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data" / "connect4-positions"
FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


def positions_dir() -> Path:
    """The folder of the six files: ``$CONNECT4_POSITIONS_DIR`` when set, else the copy in the repository."""
    env = os.environ.get("CONNECT4_POSITIONS_DIR")
    return Path(env) if env else DATA_DIR


def lines_of(name: str) -> list[tuple[str, int]]:
    """``(moves, score)`` of every line of one file."""
    pairs = [line.split() for line in (positions_dir() / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in pairs]


def sample(name: str, count: int, seed: int) -> list[tuple[str, int]]:
    """``count`` lines of one file drawn with a fixed seed."""
    return random.Random(seed).sample(lines_of(name), count)


# A Connect 4 position off the opening book (ply 11, past every level it has or will have: the ply-10 level is
# built in steps) whose columns take the solver seconds (about 90 M nodes): the tests that need a real,
# time-bounded search use it. If a deeper book ever holds it, tests/test_opening_book.py says so.
OFF_BOOK_SEARCH = "57167231176"
WIN_IN_ONE_OFF_BOOK = "2121217773"  # ply 10: the first player wins at once with column 2; its columns (ply 11) are
# past the book
