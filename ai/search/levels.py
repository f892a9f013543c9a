"""Playing levels: how well the engine plays, defined by a choice rule rather than by a time budget.

A ``go`` with ``"level": "easy"`` (docs/engine-protocol.md) searches with the level's iteration cap
(and the exact solver only where the level allows it), then ``choose`` turns the search into a move:

* **book**: for the first ``book_plies`` plies of a Connect 4 game, a move the opening book proves to
  keep the game's result, drawn at random among those (the upper levels open in the centre and vary
  their openings only among moves that keep the result; in a lost position, the slowest loss);
* otherwise a move drawn from the root's visit counts raised to ``1 / temperature`` (temperature 0:
  the search's own best move). Few iterations spread the visits, so a weak level's mistakes are the
  moves its small search found plausible, never arbitrary ones; ``noise`` is the share of moves
  drawn uniformly among the legal moves instead (Beginner's occasional wild move).

The levels are calibrated by ``python -m ai.benchmarks.ladder`` (error rate against the exact solver
on a fixed set of positions from real games, and games between neighbouring levels). Iteration caps,
not time, set the strength, so a level plays the same on a fast and a slow machine; the ``go``'s
``time_ms`` only bounds the wait.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from ai.vocab.level_table import LEVEL_NAMES, LEVELS, Level, capped_iterations, level
from ai.vocab.results import MoveStats, SearchResult

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "Choice",
    "Level",
    "book_moves",
    "capped_iterations",
    "choose",
    "level",
    "move_probabilities",
    "move_weights",
]

Choice = Literal["best", "book", "sampled"]


def move_weights(lv: Level, children: Sequence[MoveStats], best_move: int) -> dict[int, float]:
    """The probability of each root move under the level's rule (book moves aside)."""
    moves = [c.move for c in children]
    if not moves:
        return {best_move: 1.0}
    spread = {best_move: 1.0}
    if lv.temperature > 0 and any(c.visits > 0 for c in children):
        raw = {
            c.move: float(c.visits) ** (1.0 / lv.temperature)
            for c in children
            if c.proven != -1 or all(o.proven == -1 for o in children)
        }
        wins = [c.move for c in children if c.proven == 1]
        if wins:  # a proven win (e.g. a win in one found by the root expansion) is never passed up
            raw = {m: 1.0 for m in wins}
        total = sum(raw.values())
        if total > 0:
            spread = {m: w / total for m, w in raw.items()}
    if lv.noise <= 0:
        return spread
    uniform = lv.noise / len(moves)
    return {m: (1 - lv.noise) * spread.get(m, 0.0) + uniform for m in moves}


def book_moves(any_position: Any) -> tuple[int, ...]:
    """The moves the opening book proves to keep the result (empty outside the book); in a lost position
    only the slowest losses (every move keeps a loss: the one that resists longest is the book's move)."""
    from ai.vocab.opening_book import load
    from game.rules.connect4 import as_connect4

    position = as_connect4(any_position)
    if position is None:
        return ()
    scores = load().column_scores(position)
    if scores is None:
        return ()
    known = [s for s in scores if s is not None]
    if not known:
        return ()
    best = max(known)
    if best < 0:
        return tuple(c for c, s in enumerate(scores) if s == best)
    return tuple(c for c, s in enumerate(scores) if s is not None and _sign(s) == _sign(best))


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def move_probabilities(lv: Level, position: Any, result: SearchResult) -> tuple[dict[int, float], bool]:
    """The level's probability of each move after ``result`` (the search of ``position``), and whether
    they come from the opening book. ``choose`` draws from these; the ladder benchmark reads them."""
    if position.ply < lv.book_plies and not lv.exact:
        from_book = book_moves(position)
        if from_book:
            return {m: 1.0 / len(from_book) for m in from_book}, True
    return move_weights(lv, result.children, result.best_move), False


def choose(lv: Level, position: Any, result: SearchResult, rng: random.Random) -> tuple[int, Choice]:
    """The move this level plays after ``result`` (the search of ``position``), and how it was chosen."""
    weights, booked = move_probabilities(lv, position, result)
    moves = sorted(weights)
    move = moves[0] if len(moves) == 1 else rng.choices(moves, weights=[weights[m] for m in moves])[0]
    if booked:
        return move, "book"
    return move, "best" if move == result.best_move else "sampled"
