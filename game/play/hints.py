"""Hints and "learn from your mistakes": the best move of a position, and a review's mistakes as puzzles.

No pygame. ``find_hint`` asks ``ai.search.review.score_position`` through ``review_search`` (exact on Connect 4:
book, then the solver within a time limit; MCTS estimates elsewhere) and ``hint_from_scores`` picks the one move
to show: the best score (exact) or the search's choice (estimates), ties broken towards the centre. A hint taken
is counted in the review (``GameReview.hints``). ``mistake_puzzles`` turns a player's inaccuracies, mistakes and
blunders into puzzles: the position before the move, and every move of the best class accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.vocab.review_scores import PositionScores
from game.play.exact import score_verdict
from game.play.review import GameReview
from game.play.review_model import INACCURACY_POINTS, MARKS
from game.play.review_search import score_position
from game.rules import GameSpec
from game.rules.capabilities import capabilities


@dataclass(frozen=True)
class Hint:
    ply: int  # the hint is for the position after this many moves
    move: int
    text: str  # "4: win in 5", "c3: ≈62%"
    exact: bool


def _centre_key(spec: GameSpec, move: int) -> float:
    """Distance of a move from the board's centre (columns for Connect 4, cells elsewhere)."""
    if capabilities(spec).gravity:
        return abs(move - (spec.width - 1) / 2)
    row, col = divmod(move, spec.width)
    return abs(row - (spec.height - 1) / 2) + abs(col - (spec.width - 1) / 2)


def hint_from_scores(spec: GameSpec, numbers: PositionScores) -> Hint | None:
    """The move to show for ``numbers`` (None when no move is known)."""
    if not numbers.scores:
        return None
    if numbers.exact:
        best = max(s for _, s in numbers.scores)
        candidates = [m for m, s in numbers.scores if s == best]
        move = min(candidates, key=lambda m: (_centre_key(spec, m), m))
        words = score_verdict(spec.width * spec.height, numbers.ply, int(best)).text
        return Hint(numbers.ply, move, f"{spec.move_to_text(move)}: {words}", True)
    visits = dict(numbers.visits)
    most = max(visits.values(), default=0)
    candidates = [m for m, _ in numbers.scores if visits.get(m, 0) == most] or [m for m, _ in numbers.scores]
    move = min(candidates, key=lambda m: (_centre_key(spec, m), m))
    value = dict(numbers.scores)[move]
    return Hint(numbers.ply, move, f"{spec.move_to_text(move)}: ≈{value * 100:.0f}%", False)


def find_hint(spec: GameSpec, moves: Sequence[int], *, time_ms: float = 3000.0) -> Hint | None:
    """The best move at the position after ``moves`` (None when the game is over or nothing is known in time)."""
    numbers = score_position(spec, moves, time_ms=time_ms)
    return None if numbers is None else hint_from_scores(spec, numbers)


def record_hint(review: GameReview, ply: int) -> None:
    """Count a hint taken at the position after ``ply`` moves (for its side to move)."""
    if 0 <= ply <= review.plies:
        review.hints.add(ply)


@dataclass(frozen=True)
class MistakePuzzle:
    """ "Find a better move for <player>": the position after ``moves``; any of ``accepted`` solves it."""

    ply: int
    player: int
    moves: tuple[int, ...]
    played: int
    klass: str
    accepted: tuple[int, ...]
    best_moves: tuple[int, ...]

    def solved_by(self, move: int) -> bool:
        return move in self.accepted


def mistake_puzzles(review: GameReview, player: int) -> list[MistakePuzzle]:
    """The marked moves (inaccuracy, mistake, blunder) of ``player``, in game order, as puzzles. Accepted: every
    move of the best class (exact: the best score; estimates: the search's choice and any move whose value is
    within the inaccuracy threshold of the best value)."""
    out = []
    for ply in review.marked(player):
        r = review.reviews[ply]
        if not MARKS[r.klass]:
            continue
        if r.exact:
            accepted = r.best_moves
        else:
            top = max((s for _, s in r.scores), default=0.0)
            near = {m for m, s in r.scores if (top - s) * 100 < INACCURACY_POINTS}
            accepted = tuple(sorted(near | set(r.best_moves)))
        out.append(MistakePuzzle(ply, r.mover, review.moves[:ply], r.played, r.klass, accepted, r.best_moves))
    return out
