"""The opening book: for the first plies of 7x6 Connect 4, the game result and a move that keeps it.

The solver cannot settle the first plies within a move's budget (the empty board takes minutes),
and random playouts favour the wrong columns there, so the engine looks these positions up.
Every entry was proved by our own solver (``tools/make_opening_book.py``, weak win/draw/loss
searches); ``python -m ai.benchmarks.verify_book`` proves them again. Mirror images are found
by reflecting the position.
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import dataclass
from functools import cache

from game import get_game
from game.base import Position
from game.connect4 import Connect4Position

RESULTS = {"win": 1, "draw": 0, "loss": -1}
BOOK_FILE = "opening_book.json"


@dataclass(frozen=True)
class BookEntry:
    result: int  # +1 win / 0 draw / -1 loss for the side to move
    move: int  # a 0-based column that keeps that result


def mirror_moves(moves: tuple[int, ...], width: int) -> tuple[int, ...]:
    return tuple(width - 1 - m for m in moves)


@cache
def entries() -> dict[str, BookEntry]:
    """The book as written: position text -> entry (empty when the file is missing or unreadable)."""
    try:
        text = importlib.resources.files("ai").joinpath(BOOK_FILE).read_text(encoding="utf-8")
        raw = json.loads(text)["connect4"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    spec = get_game("connect4")
    book: dict[str, BookEntry] = {}
    for moves, entry in raw.items():
        book[moves] = BookEntry(RESULTS[entry["result"]], spec.parse_move(entry["move"]))
    return book


def lookup(position: Position) -> BookEntry | None:
    """The book's entry for a 7x6 Connect 4 position (or its mirror image), else None."""
    if not isinstance(position, Connect4Position) or position.spec.name != "connect4":
        return None
    book = entries()
    spec = position.spec
    entry = book.get(position.to_text())
    if entry is not None:
        return entry
    mirrored = book.get(spec.moves_to_text(mirror_moves(position.history, spec.width)))
    if mirrored is not None:
        return BookEntry(mirrored.result, spec.width - 1 - mirrored.move)
    return None
