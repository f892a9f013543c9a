"""Marks for the moves of a game: best, good, inaccuracy, mistake or blunder, and each player's accuracy.

No engine and no pygame here: the numbers come from ``ai.search.review`` (or a test), this module only judges them.
The thresholds and the formula are documented in ``docs/review.md``.

Exact reviews (Connect 4): scores in Pons' convention for the player of the move (``ai/solver/core.py``): the sign
is the theoretical result (win / draw / loss with perfect play after it), the size how soon it comes, one
point per stone of the mover. A move is judged by comparing its score with the best move's:

* **blunder** (``??``): it changes the result (a win into a draw or a loss, a draw into a loss);
* same result, the mover throws away ``d`` = best score - played score stones (a win that takes ``d`` stones
  longer, a loss that comes ``d`` stones sooner): **mistake** (``?``) for ``d >= MISTAKE_STONES``,
  **inaccuracy** (``?!``) for ``d >= INACCURACY_STONES``, **good** (no mark) below, **best** for ``d == 0``.

Estimated reviews (other games): the drop of the mover's winning chance (percentage points, draws half), from
searches at a fixed iteration count: the search's choice's value minus the played move's value in the search
of the position before the move (when the played move got at least ``MIN_VISITS`` visits and
``MIN_VISIT_SHARE`` of them: one search, so both values carry the same bias), else the position's value
minus the mover's chance in the next position's search: **blunder** from 30, **mistake** from 20,
**inaccuracy** from 10 (lichess' thresholds), **best** when the move is the search's choice, else **good**.

Accuracy of a move: ``103.1668 * exp(-0.04354 * drop) - 3.1669`` clamped to 0..100 (lichess' curve), where
``drop`` is the loss of winning chance in points; a player's accuracy is the mean over their moves. Exact
scores count as winning chances on a scale that keeps the result first: a loss is 0-25, a draw 50, a win
75-100 (quicker wins higher, slower losses higher).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
MARKS = {BEST: "", GOOD: "", INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}

INACCURACY_STONES = 3  # exact: a win this many stones longer (or a loss this many sooner) is an inaccuracy
MISTAKE_STONES = 6  # ... and from this many a mistake
INACCURACY_POINTS = 10.0  # estimates: drop of the winning chance, percentage points (lichess)
MISTAKE_POINTS = 20.0
BLUNDER_POINTS = 30.0
MIN_VISITS, MIN_VISIT_SHARE = 100, 0.05  # estimates: a played move searched this much is judged by its own value


def sign(score: float) -> int:
    return (score > 0) - (score < 0)


def exact_chance(score: int, max_score: int) -> float:
    """An exact score as a winning chance in points for the mover: loss 0-25, draw 50, win 75-100."""
    if score == 0:
        return 50.0
    span = max(1, max_score - 1)
    depth = min(1.0, (abs(score) - 1) / span)  # 0: the slowest win (or slowest loss), 1: the quickest
    return 75.0 + 25.0 * depth if score > 0 else 25.0 - 25.0 * depth


def move_accuracy(drop: float) -> float:
    """Accuracy (0-100) of a move that lost ``drop`` points of winning chance (lichess' curve)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669
    return max(0.0, min(100.0, value))


def classify_exact(best: int, played: int) -> str:
    """The class of a move scored ``played`` where the best move scores ``best`` (exact, same player)."""
    if played > best:
        raise ValueError(f"the played move's score {played} is above the best score {best}")
    if sign(played) < sign(best):
        return BLUNDER
    thrown = best - played
    if thrown == 0:
        return BEST
    if thrown >= MISTAKE_STONES:
        return MISTAKE
    if thrown >= INACCURACY_STONES:
        return INACCURACY
    return GOOD


def classify_drop(drop_points: float, is_engine_choice: bool) -> str:
    """The class of an estimated move from the drop of the mover's winning chance (points)."""
    if drop_points >= BLUNDER_POINTS:
        return BLUNDER
    if drop_points >= MISTAKE_POINTS:
        return MISTAKE
    if drop_points >= INACCURACY_POINTS:
        return INACCURACY
    return BEST if is_engine_choice else GOOD


@dataclass(frozen=True)
class MoveReview:
    """The judgement of the move played after ``ply`` moves by ``mover`` (0: first player)."""

    ply: int
    mover: int
    played: int
    klass: str
    best_moves: tuple[int, ...]
    scores: tuple[tuple[int, float], ...]  # (move, score) as in ai.search.review.PositionScores
    exact: bool
    before: float  # the mover's winning chance before the move, points (exact: on the scale above)
    after: float  # ... after it
    played_score: float | None = None  # exact: the played move's score; estimates: its value for the mover
    best_score: float | None = None

    @property
    def mark(self) -> str:
        return MARKS[self.klass]

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.drop)


def review_exact_move(
    ply: int, mover: int, played: int, scores: Sequence[tuple[int, float]], max_score: int
) -> MoveReview | None:
    """Judge an exact move from every legal move's score (None when the played move's score is unknown)."""
    table = {int(m): int(s) for m, s in scores}
    if played not in table or not table:
        return None
    best = max(table.values())
    got = table[played]
    best_moves = tuple(sorted(m for m, s in table.items() if s == best))
    return MoveReview(
        ply,
        mover,
        played,
        classify_exact(best, got),
        best_moves,
        tuple(scores),
        True,
        exact_chance(best, max_score),
        exact_chance(got, max_score),
        got,
        best,
    )


def searched_enough(played: int, visits: Sequence[tuple[int, int]]) -> bool:
    """Whether the played move's value in the search before it is worth comparing (enough visits)."""
    total = sum(v for _, v in visits)
    return total > 0 and dict(visits).get(played, 0) >= max(MIN_VISITS, MIN_VISIT_SHARE * total)


def review_estimated_move(
    ply: int,
    mover: int,
    played: int,
    scores: Sequence[tuple[int, float]],
    visits: Sequence[tuple[int, int]],
    value_before: float | None = None,
    value_after_for_mover: float | None = None,
) -> MoveReview | None:
    """Judge a move from one search of the position before it: the engine's choice is the move with the most
    visits; the drop is its value minus the played move's value, both from that search, when the played move
    was searched enough (``searched_enough``); else the drop is the search's value of the position
    (``value_before``) minus the mover's chance in the next position (``value_after_for_mover``, from the next
    search), and None until that is known."""
    most = max((v for _, v in visits), default=0)
    choices = tuple(sorted(m for m, v in visits if v == most)) if most > 0 else ()
    values = dict(scores)
    best_value = values.get(choices[0]) if choices else max(values.values(), default=None)
    if best_value is not None and played in values and searched_enough(played, visits):
        before, after = best_value, values[played]
    elif value_before is not None and value_after_for_mover is not None:
        before, after = value_before, value_after_for_mover
    else:
        return None
    drop = max(0.0, round((before - after) * 100.0, 9))  # 0.7 - 0.5 is 20 points, not 19.999...96
    klass = classify_drop(drop, played in choices)
    return MoveReview(
        ply,
        mover,
        played,
        klass,
        choices,
        tuple(scores),
        False,
        before * 100.0,
        after * 100.0,
        values.get(played),
        best_value,
    )


@dataclass(frozen=True)
class PlayerSummary:
    player: int
    moves: int
    counts: tuple[tuple[str, int], ...]  # (class, count) for every class, in CLASSES order
    accuracy: float | None  # mean of the move accuracies (None without a reviewed move)

    def count(self, klass: str) -> int:
        return dict(self.counts)[klass]


def summarize(reviews: Iterable[MoveReview], players: int = 2) -> tuple[PlayerSummary, ...]:
    """Per player: how many moves of each class and the accuracy (mean of the move accuracies)."""
    by_player: list[list[MoveReview]] = [[] for _ in range(players)]
    for review in reviews:
        by_player[review.mover].append(review)
    out = []
    for player, own in enumerate(by_player):
        counts = tuple((k, sum(1 for r in own if r.klass == k)) for k in CLASSES)
        accuracy = sum(r.accuracy for r in own) / len(own) if own else None
        out.append(PlayerSummary(player, len(own), counts, accuracy))
    return tuple(out)
