"""Games between playing levels, in-process, with the engine's own rule (``ai.search.levels``): the ladder's
games and the games its position set comes from.

A ``LevelPlayer`` does what the engine does for a ``go`` with a level: a fresh tree for a capped level,
the level's search, then ``ai.search.levels.choose`` with its own seeded random numbers. ``random`` (not an
engine level) plays uniformly random moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ai.search.hybrid import HybridSearcher
from ai.search.levels import LEVELS, Level, choose, move_probabilities
from game.rules import get_game

RANDOM = "random"


class LevelPlayer:
    """One side of a game: a level (or ``random``) with its own searcher and seeded choices."""

    def __init__(self, name: str, seed: int, time_ms: float = 1000.0, levels: dict[str, Level] | None = None) -> None:
        table = LEVELS if levels is None else levels
        if name != RANDOM and name not in table:
            raise ValueError(f"unknown level {name!r} (one of: {RANDOM}, {', '.join(table)})")
        self.name = name
        self.level: Level | None = table.get(name)
        self.time_ms = time_ms  # the go's time bound (the capped levels end on their cap first)
        self.rng = random.Random(seed)
        self.searcher: Any = None
        if self.level is not None:
            self.searcher = HybridSearcher(get_game("connect4"), seed=seed)

    def move(self, position: Any) -> int:
        return self.decide(position)[0]

    def decide(self, position: Any) -> tuple[int, dict[int, float]]:
        """The move played at ``position`` and the probability the level gave each move."""
        lv = self.level
        if lv is None:
            legal = position.legal_moves()
            return int(self.rng.choice(legal)), {m: 1.0 / len(legal) for m in legal}
        self.searcher.set_position(position)
        if lv.iterations is not None:
            self.searcher.forget()
        result = self.searcher.search(
            time_ms=self.time_ms, iterations=lv.iterations, exact=lv.exact, early_stop=lv.iterations is None
        )  # as the engine: a capped level's whole cap
        return choose(lv, position, result, self.rng)[0], move_probabilities(lv, position, result)[0]

    def close(self) -> None:
        if self.searcher is not None:
            self.searcher.close()


@dataclass(frozen=True)
class Game:
    first: str
    second: str
    moves: str  # the whole game in notation
    winner: int | None  # 0 the first player, 1 the second, None a draw


def play_game(first: LevelPlayer, second: LevelPlayer, opening: str = "") -> Game:
    spec = get_game("connect4")
    position = spec.parse_position(opening)
    sides = (first, second)
    while not position.outcome.is_over:
        position = position.play(sides[position.ply % 2].move(position))
    return Game(first.name, second.name, position.to_text(), position.outcome.winner)
