"""The playing levels' table: each level's iteration cap, temperature, exactness, book plies and noise.

Pure data (no search, no book): the UI and the clients read it to know a level's nature (e.g. whether its
strength is its time, so thinking on the opponent's time helps it); ``ai.search.levels`` turns a search into a
move by these rules, and documents them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    iterations: int | None  # the cap on the search's iterations (None: the go's own budget)
    temperature: float  # 0: the best move; else visits ** (1 / temperature)
    exact: bool = False  # the exact solver (and the book) may choose the move
    book_plies: int = 0  # plies from the start where a book move that keeps the result is played
    noise: float = 0.0  # share of uniformly random moves
    wait_ms: int = 1000  # the time a client gives a move at this level (it only bounds the wait)

    @property
    def plays_by_time(self) -> bool:
        """Its strength is its time (no iteration cap), so thinking on the opponent's time adds to it."""
        return self.iterations is None


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 40, 1.0, noise=0.2, wait_ms=1000),
        Level("easy", 200, 1.0, book_plies=1, wait_ms=1000),
        Level("medium", 1000, 0.6, book_plies=2, wait_ms=2000),
        Level("hard", 400_000, 0.0, book_plies=6, wait_ms=3000),
        Level("perfect", None, 0.0, exact=True, book_plies=99, wait_ms=5000),
    )
}
LEVEL_NAMES = tuple(LEVELS)


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r} (one of: {', '.join(LEVEL_NAMES)})") from None


def capped_iterations(lv: Level, iterations: int | None) -> int | None:
    """The search's iteration budget at this level: the smaller of the go's and the level's cap."""
    if lv.iterations is None:
        return iterations
    return lv.iterations if iterations is None else min(iterations, lv.iterations)
