"""Review a game: ``python main.py review MOVES|FILE [--json]``, and the model the app's review stands on.

``GameReview`` collects the numbers ``ai.search.review`` finds (in any order, one position at a time) and turns each
move into a ``MoveReview`` (``game.play.review_model``) as soon as the numbers it needs are in: exact reviews
judge a move from its own position's column scores, estimated reviews need the position after it too.
``start_review`` runs a review in a thread (``ai.search.review.ReviewJob``) for a UI that polls it between frames.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from ai.vocab.review_scores import PositionScores
from game.play.exact import score_verdict
from game.play.review_model import (
    BLUNDER_POINTS,
    CLASSES,
    INACCURACY_POINTS,
    INACCURACY_STONES,
    MISTAKE_POINTS,
    MISTAKE_STONES,
    MoveReview,
    PlayerSummary,
    classify_exact,
    review_estimated_move,
    review_exact_move,
    summarize,
)
from game.play.review_search import (
    DEFAULT_ITERATIONS,
    DEFAULT_SEED,
    ReviewJob,
    is_exact_game,
    iter_review,
    prepare,
)
from game.play.savefile import SaveFileError, load_game, read_small_text
from game.play.variations import MoveTree, tree_of_saved_text
from game.rules import GameSpec, Position, get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError

FORMAT = "connect4-mcts-review"
BIG_BOARD_MS = 10_000.0  # the command's limit per position on boards larger than 7x6 (unless --time-ms)


class GameReview:
    """The marks of one game's moves, filled in as the numbers arrive."""

    def __init__(self, spec: GameSpec, moves: Sequence[int], *, exact: bool | None = None) -> None:
        self.spec = spec
        self.moves = tuple(moves)
        self.exact = is_exact_game(spec) if exact is None else exact
        self.positions: list[Position] = [spec.start()]
        for move in self.moves:
            self.positions.append(self.positions[-1].play(move))
        self.numbers: dict[int, PositionScores] = {}
        self.reviews: dict[int, MoveReview] = {}
        self.hints: set[int] = set()  # plies (positions) where the player to move took a hint
        self.max_score = (spec.width * spec.height + 1 - 6) // 2  # exact scores: a win with the 4th stone

    @property
    def plies(self) -> int:
        return len(self.moves)

    def prefix(self, plies: int) -> GameReview:
        """The review of the game's first ``plies`` moves: what holds of a line that leaves (or stops short of)
        the reviewed game after them."""
        kept = GameReview(self.spec, self.moves[:plies], exact=self.exact)
        for ply in sorted(p for p in self.numbers if p <= plies):
            kept.add(self.numbers[ply])
        kept.hints = {h for h in self.hints if h <= plies}
        return kept

    @property
    def complete(self) -> bool:
        return len(self.reviews) == self.plies

    def add(self, numbers: PositionScores) -> list[MoveReview]:
        """Take one position's numbers; return the moves this judges (none, one or two)."""
        self.numbers[numbers.ply] = numbers
        judged = []
        for ply in (numbers.ply - 1, numbers.ply):
            if 0 <= ply < self.plies and ply not in self.reviews:
                review = self._judge(ply)
                if review is not None:
                    self.reviews[ply] = review
                    judged.append(review)
        return judged

    def _judge(self, ply: int) -> MoveReview | None:
        mover = self.positions[ply].to_move
        here = self.numbers.get(ply)
        if here is None:
            return None
        if self.exact:  # a partly known position is not judged: an unknown column may be the best
            return (
                review_exact_move(ply, mover, self.moves[ply], here.scores, self.max_score) if here.complete else None
            )
        after = self.numbers.get(ply + 1)
        after_value = None if after is None or after.value is None else 1 - after.value
        return review_estimated_move(ply, mover, self.moves[ply], here.scores, here.visits, here.value, after_value)

    def summary(self) -> tuple[PlayerSummary, ...]:
        return summarize(self.reviews.values())

    def marked(self, player: int | None = None) -> list[int]:
        """The plies of the inaccuracies, mistakes and blunders (of ``player``, or of both), in game order."""
        return [
            p
            for p, r in sorted(self.reviews.items())
            if r.mark and (player is None or r.mover == player)  # only the marked classes carry a mark
        ]

    def better_variations(self, tree: MoveTree) -> list[tuple[int, int, str]]:
        """``(ply, move, class)`` of each variation's first move on the main line that scores better than the
        main line's move there (exact reviews: from the column scores of the reviewed position)."""
        out = []
        for path, moves in tree.branch_points():
            ply = len(path)
            review = self.reviews.get(ply)
            if review is None or tuple(path) != self.moves[:ply] or not self.exact:
                continue
            scores = dict(review.scores)
            for move in moves[1:]:
                score = scores.get(move)
                if score is not None and review.played_score is not None and score > review.played_score:
                    best = review.best_score if review.best_score is not None else score
                    out.append((ply, move, classify_exact(int(best), int(score))))
        return sorted(out)

    def verdict(self, ply: int, score: float | None) -> str:
        """An exact score of a move at ``ply`` in words ("win in 5"), or an estimate as a percentage."""
        if score is None:
            return "?"
        if self.exact:
            return score_verdict(self.spec.width * self.spec.height, ply, int(score)).text
        return f"≈{score * 100:.0f}%"

    def to_json(self) -> dict[str, Any]:
        text = self.spec.move_to_text
        plies = []
        for ply, review in sorted(self.reviews.items()):
            plies.append(
                {
                    "ply": ply,
                    "move_number": ply + 1,
                    "player": review.mover + 1,
                    "played": text(review.played),
                    "class": review.klass,
                    "mark": review.mark,
                    "scores": {text(m): (int(s) if self.exact else round(s, 4)) for m, s in review.scores},
                    "best": [text(m) for m in review.best_moves],
                    "played_score": _number(review.played_score, self.exact),
                    "best_score": _number(review.best_score, self.exact),
                    "played_verdict": self.verdict(ply, review.played_score),
                    "best_verdict": self.verdict(ply, review.best_score),
                    "chance_before": round(review.before, 2),
                    "chance_after": round(review.after, 2),
                    "accuracy": round(review.accuracy, 1),
                    "source": self.numbers[ply].source,
                }
            )
        return {
            "format": FORMAT,
            "version": 1,
            "game": self.spec.name,
            "moves": self.spec.moves_to_text(self.moves),
            "exact": self.exact,
            "estimate": not self.exact,
            "complete": self.complete,
            "thresholds": thresholds(self.exact),
            "plies": plies,
            "summary": [
                _summary_json(s) | {"hints": sum(1 for p in self.hints if self.positions[p].to_move == s.player)}
                for s in self.summary()
            ],
        }


def _number(value: float | None, exact: bool) -> float | int | None:
    if value is None:
        return None
    return int(value) if exact else round(value, 4)


def _summary_json(summary: PlayerSummary) -> dict[str, Any]:
    accuracy = None if summary.accuracy is None else round(summary.accuracy, 1)
    return {"player": summary.player + 1, "moves": summary.moves, "counts": dict(summary.counts), "accuracy": accuracy}


def thresholds(exact: bool) -> dict[str, Any]:
    if exact:
        return {"unit": "stones", "inaccuracy": INACCURACY_STONES, "mistake": MISTAKE_STONES, "blunder": "result"}
    return {"unit": "points", "inaccuracy": INACCURACY_POINTS, "mistake": MISTAKE_POINTS, "blunder": BLUNDER_POINTS}


def prepare_review(spec: GameSpec) -> None:
    """Load the book and the solver in the background (call it when a game starts: the review is then quick)."""
    prepare(spec)


def start_review(
    spec: GameSpec,
    moves: Sequence[int],
    *,
    shown: int | None = None,
    time_ms: float | None = None,
    threads: int | None = None,
    nice: int = 0,
) -> tuple[GameReview, ReviewJob]:
    """A review model and the job filling it: call ``review.add`` for each of ``job.poll()``'s results
    (``threads``: the solver's; 1 leaves a core to the frames of a UI; ``nice``: the thread's niceness)."""
    job = ReviewJob(spec, moves, shown=shown, time_ms=time_ms, threads=threads, nice=nice)
    return GameReview(spec, moves), job


# --- the command ------------------------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_or_moves", metavar="MOVES|FILE", help="moves (e.g. 4453) or a saved game file")
    parser.add_argument("--game", default="connect4", help="the game of MOVES (a file names its own)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time-ms",
        type=float,
        default=None,
        help=f"exact reviews: a limit per position (default none on 7x6; {BIG_BOARD_MS:.0f} on larger boards)",
    )
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="estimates: MCTS iterations")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="estimates: random seed")


def _fail(message: str) -> int:
    line = (message.splitlines() or ["bad input"])[0]
    print(f"error: {line[:200]}", file=sys.stderr)
    return 2


def load_moves(argument: str, game: str) -> tuple[GameSpec, tuple[int, ...], MoveTree | None]:
    """The game of a saved file (when ``argument`` names one, with its variations) or of moves text;
    SaveFileError / GameError / VariationError (one line)."""
    if os.path.isfile(argument):
        spec, moves, _cursor = load_game(argument, game)
        return spec, moves, tree_of_saved_text(spec, moves, read_small_text(argument))
    if any(sep in argument for sep in ("/", os.sep)) or argument.endswith(".json"):
        raise SaveFileError(f"no such file: {argument[:160]}")
    spec = get_game(game)
    return spec, tuple(spec.parse_position(argument).history), None


def run(args: argparse.Namespace) -> int:
    try:
        spec, moves, tree = load_moves(args.game_or_moves, args.game)
    except (SaveFileError, GameError, ValueError, OSError) as exc:
        return _fail(str(exc))
    if not moves:
        return _fail("no moves to review")
    if args.time_ms is not None and not 1 <= args.time_ms <= 3_600_000:
        return _fail("--time-ms must be between 1 and 3600000")
    if not 1 <= args.iterations <= 10_000_000:
        return _fail("--iterations must be between 1 and 10000000")
    review = GameReview(spec, moves)
    time_ms = args.time_ms
    if time_ms is None and review.exact and spec.width * spec.height > 42:
        time_ms = BIG_BOARD_MS  # no book, and a search that may never end: unknown rather than stuck
    start = time.perf_counter()
    for numbers in iter_review(spec, moves, time_ms=time_ms, iterations=args.iterations, seed=args.seed):
        review.add(numbers)
    elapsed = (time.perf_counter() - start) * 1000.0
    better = review.better_variations(tree) if tree is not None else []
    text = spec.move_to_text
    if args.json:
        data = review.to_json()
        data["elapsed_ms"] = round(elapsed, 1)
        if not review.exact:
            data["iterations"], data["seed"] = args.iterations, args.seed
        if tree is not None:
            data["better_variations"] = [{"ply": p, "move": text(m), "class": k} for p, m, k in better]
        print(json.dumps(data))
        return 0
    lines = text_lines(review, elapsed)
    lines += [f"variation at move {p + 1}: {text(m)} was better ({k})" for p, m, k in better]
    print("\n".join(lines))
    return 0


GAMESOLVER_URL = "https://connect4.gamesolver.org/?pos="


def share_text(review: GameReview) -> str:
    """A short text summary to copy: the game, each player's accuracy and marks, the marked moves, and (7x6
    Connect 4) the position string in connect4.gamesolver.org's form (columns 1-7 from the empty board)."""
    moves = review.spec.moves_to_text(review.moves)
    kind = "exact review" if review.exact else "estimated review"
    lines = [f"{review.spec.name} {moves} ({kind})"]
    for s in review.summary():
        accuracy = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
        marks = ", ".join(f"{s.count(k)} {k}" for k in ("inaccuracy", "mistake", "blunder") if s.count(k))
        lines.append(f"player {s.player + 1}: accuracy {accuracy}" + (f" ({marks})" if marks else ""))
    marked = [f"{p + 1}. {review.spec.move_to_text(review.moves[p])}{review.reviews[p].mark}" for p in review.marked()]
    if marked:
        lines.append("marked: " + " ".join(marked))
    if capabilities(review.spec).classic:
        lines.append(GAMESOLVER_URL + moves)
    return "\n".join(lines)


def text_lines(review: GameReview, elapsed_ms: float | None = None) -> list[str]:
    kind = "exact (opening book + solver)" if review.exact else "estimates (MCTS at a fixed iteration count)"
    head = f"{review.spec.name} {review.spec.moves_to_text(review.moves)}: {kind}"
    lines = [head + ("" if elapsed_ms is None else f", {elapsed_ms / 1000:.2f} s")]
    text = review.spec.move_to_text
    for ply in range(review.plies):
        r = review.reviews.get(ply)
        if r is None:
            lines.append(f"{ply + 1:>3}. {text(review.moves[ply])} unknown")
            continue
        line = f"{ply + 1:>3}. {text(r.played)}{r.mark} {r.klass}"
        if r.klass != "best":
            best = "/".join(text(m) for m in r.best_moves)
            line += (
                f"  (played {text(r.played)}: {review.verdict(ply, r.played_score)}; "
                f"best {best}: {review.verdict(ply, r.best_score)})"
            )
        lines.append(line)
    for s in review.summary():
        counts = ", ".join(f"{k} {s.count(k)}" for k in CLASSES)
        accuracy = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
        lines.append(f"player {s.player + 1}: {s.moves} moves, accuracy {accuracy}; {counts}")
    return lines
