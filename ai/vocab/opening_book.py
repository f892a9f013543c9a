"""The opening book: exact scores of 7x6 Connect 4 positions near the start, in Pons' convention.

The solver cannot settle the first plies within a move's budget (the empty board takes hours), so
the engine, the ``solve`` command and the solver's own search look these positions up: a book
score is an exact value (for the side to move, as in ``ai.solver.core``), and the solver treats a book
position met during its search as a leaf with that value.

The file (``opening_book.npz``, package data) holds, sorted by key, each position's key (the
bitboard word ``current + mask``, unique per position) folded with its mirror image (the smaller
of the two) and its score (int8). ``tools/make_opening_book.py`` builds it (Dask, resumable),
``python -m ai.benchmarks.verify_book`` proves a sample of entries again with the solver alone.

A few positions of the first plies carry only a proved result (win / draw / loss) and a move
that keeps it (``weak`` arrays): those that were too costly to score exactly.
"""

from __future__ import annotations

import importlib.resources
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from game.rules.base import Position
from game.rules.capabilities import capabilities
from game.rules.connect4 import Connect4Position, as_connect4

BOOK_FILE = "opening_book.npz"
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
WIDTH, HEIGHT = 7, 6


@dataclass(frozen=True)
class BookEntry:
    result: int  # +1 win / 0 draw / -1 loss for the side to move
    move: int  # a 0-based column that keeps that result (the best one for an exact entry)


def position_key(position: Connect4Position) -> int:
    return position.current + position.mask


def mirror_key(key: int, width: int = WIDTH, height: int = HEIGHT) -> int:
    """The key of the mirror image: column groups of ``height + 1`` bits in reverse order."""
    group = height + 1
    low = (1 << group) - 1
    out = 0
    for c in range(width):
        out |= ((key >> (c * group)) & low) << ((width - 1 - c) * group)
    return out


def canonical_key(key: int) -> int:
    return min(key, mirror_key(key))


def mirror_keys(keys: np.ndarray, width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """``mirror_key`` of every word of a uint64 array."""
    group = np.uint64(height + 1)
    low = np.uint64((1 << (height + 1)) - 1)
    out = np.zeros_like(keys)
    for c in range(width):
        out |= ((keys >> (np.uint64(c) * group)) & low) << (np.uint64(width - 1 - c) * group)
    return out


def mirror_text(text: str, width: int = WIDTH) -> str:
    return "".join(str(width + 1 - int(ch)) for ch in text)


class Book:
    """Exact scores by canonical key, plus the weak entries of the first plies."""

    def __init__(self, keys: np.ndarray, scores: np.ndarray, weak: dict[str, BookEntry] | None = None) -> None:
        order = np.argsort(keys, kind="stable")
        self.keys = np.ascontiguousarray(keys[order], dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores[order], dtype=np.int8)
        self.weak = dict(weak or {})

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @cached_property
    def kernel_arrays(self) -> tuple[np.ndarray, np.ndarray, int]:
        """Sorted keys of both mirror images, their scores and the deepest ply, for the solver's kernel."""
        both = np.concatenate([self.keys, mirror_keys(self.keys)])
        values = np.concatenate([self.scores, self.scores])
        both, first = np.unique(both, return_index=True)
        depth = int(ply_of_keys(self.keys).max()) if len(self) else -1
        return both, np.ascontiguousarray(values[first], dtype=np.int8), depth

    @property
    def max_ply(self) -> int:
        return self.kernel_arrays[2]

    def score(self, position: Connect4Position) -> int | None:
        """The exact score of ``position`` for its side to move, if the book has it."""
        if not _is_standard(position) or not len(self):
            return None
        key = canonical_key(position_key(position))
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        return int(self.scores[i]) if i < len(self) and int(self.keys[i]) == key else None

    def column_scores(self, position: Connect4Position) -> tuple[int | None, ...] | None:
        """Every column's score for the player who plays it (None: full), or None unless all are known."""
        if not _is_standard(position):
            return None
        return column_scores_from(position, self.score)

    def entry(self, position: Connect4Position) -> BookEntry | None:
        """The result and best move (ties: centre first), exact where possible, else the weak entry."""
        scores = self.column_scores(position)
        if scores is not None:
            best = max(s for s in scores if s is not None)
            move = next(c for c in CENTRE_FIRST if scores[c] == best)
            return BookEntry((best > 0) - (best < 0), move)
        if not _is_standard(position):
            return None
        text = position.to_text()
        entry = self.weak.get(text)
        if entry is not None:
            return entry
        mirrored = self.weak.get(mirror_text(text))
        return None if mirrored is None else BookEntry(mirrored.result, WIDTH - 1 - mirrored.move)


def column_scores_from(
    position: Connect4Position, score_of: Callable[[Connect4Position], int | None]
) -> tuple[int | None, ...] | None:
    """Every column's score for the player who plays it (None: full) given ``score_of`` (the exact score of a
    position not over, for its side to move, or None), or None unless all are known or the game is over."""
    if position.outcome.is_over:
        return None
    spec = position.spec
    scores: list[int | None] = []
    for col in range(spec.width):
        if not position.can_play(col):
            scores.append(None)
            continue
        child = position.play(col)
        if child.outcome.is_over:
            scores.append((spec.width * spec.height + 1 - position.ply) // 2 if child.outcome.winner is not None else 0)
            continue
        found = score_of(child)
        if found is None:
            return None
        scores.append(-found)
    return tuple(scores)


def ply_of_keys(keys: np.ndarray) -> np.ndarray:
    """Stones on the board of each key ``current + mask``: a column of height k holds a word in
    ``[2**k - 1, 2**(k + 1) - 2]`` (no carry leaves the column), so k is ``floor(log2(word + 1))``."""
    group = np.uint64(HEIGHT + 1)
    low = np.uint64((1 << (HEIGHT + 1)) - 1)
    plies = np.zeros(keys.shape, dtype=np.int64)
    for c in range(WIDTH):
        column = ((keys >> (np.uint64(c) * group)) & low).astype(np.int64)
        plies += np.floor(np.log2(column + 1)).astype(np.int64)
    return plies


def _is_standard(position: Position) -> bool:
    return capabilities(position.spec).classic


def to_bytes(book: Book) -> bytes:
    """The book file: sorted canonical keys and scores, and the weak entries (compressed npz)."""
    texts = sorted(book.weak)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        keys=book.keys,
        scores=book.scores,
        weak_texts=np.array(texts, dtype="U42"),
        weak_results=np.array([book.weak[t].result for t in texts], dtype=np.int8),
        weak_moves=np.array([book.weak[t].move for t in texts], dtype=np.int8),
    )
    return buffer.getvalue()


def from_bytes(data: bytes) -> Book:
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        keys = arrays["keys"].astype(np.uint64)
        scores = arrays["scores"].astype(np.int8)
        weak = {
            str(t): BookEntry(int(r), int(m))
            for t, r, m in zip(arrays["weak_texts"], arrays["weak_results"], arrays["weak_moves"], strict=True)
        }
    if keys.shape != scores.shape:
        raise ValueError("book keys and scores differ in length")
    return Book(keys, scores, weak)


@cache
def load() -> Book:
    """The shipped book (empty when the file is missing or unreadable)."""
    try:
        data = importlib.resources.files("ai").joinpath(BOOK_FILE).read_bytes()
        return from_bytes(data)
    except (OSError, ValueError, KeyError, TypeError):
        return Book(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8))


def lookup(position: Position) -> BookEntry | None:
    """The book's entry for a 7x6 Connect 4 position (or its mirror image), else None."""
    connect4 = as_connect4(position)
    if connect4 is None or not _is_standard(connect4):
        return None
    return load().entry(connect4)


def has_four(stones: int) -> bool:
    """Whether a 7x6 bitboard of one player's stones (7 bits a column) holds four in a row."""
    for step in (1, HEIGHT + 1, HEIGHT, HEIGHT + 2):  # vertical, horizontal, the two diagonals
        pairs = stones & (stones >> step)
        if pairs & (pairs >> (2 * step)):
            return True
    return False


def bitboard_children(current: int, mask: int) -> Iterator[tuple[int, int, int, int]]:
    """Each legal column of a 7x6 bitboard position (``current``: the stones of the side to move, ``mask``: all
    stones) as ``(column, the mover's stones after it, the child's current, the child's mask)``."""
    for col in range(WIDTH):
        if mask >> (col * (HEIGHT + 1) + HEIGHT - 1) & 1:
            continue
        after = mask | (mask + (1 << (col * (HEIGHT + 1))))
        mover = current | (after ^ mask)
        yield col, mover, mover ^ after, after


def book_lines(book: Book, free_plies: int = 3) -> dict[int, str]:
    """Each entry's canonical key -> one move sequence (1-based columns) that reaches it, found by walking down
    from the start through every position up to ``free_plies`` and through book positions below (on bitboards:
    the ply-9 book has 400,000 entries)."""
    entries = {int(k) for k in book.keys}
    found: dict[int, str] = {}
    level = {0: (0, 0, "")}  # canonical key -> (stones of the side to move, all stones, moves)
    while level:
        following: dict[int, tuple[int, int, str]] = {}
        for key in sorted(level):
            current, mask, moves = level[key]
            if key in entries:
                found.setdefault(key, moves)
            elif len(moves) > free_plies:
                continue
            if len(moves) >= book.max_ply:
                continue
            for col, mover, child_current, child_mask in bitboard_children(current, mask):
                if not has_four(mover):
                    following.setdefault(
                        canonical_key(child_current + child_mask), (child_current, child_mask, moves + str(col + 1))
                    )
        level = following
    return found
