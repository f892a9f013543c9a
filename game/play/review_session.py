"""The app's review of the game it shows: a progressive review kept in step with the line, the hints taken,
and what the board, the move list and the graph show of it. No pygame (``game.ui.review_view`` draws it).

``ReviewState.start`` runs ``game.play.review.start_review`` (one solver thread: the other core draws frames),
``poll`` (each frame) feeds ``GameReview.add`` with what the job found; the review stays attached while the
shown line begins with the reviewed moves (playing on keeps the marks of the moves before), and is dropped when
the line changes under it. ``ask_hint`` looks for the best move in a thread (``hints.find_hint``); the hint is
counted in the review (now or when one starts later).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from ai.vocab.review_scores import PositionScores
from game.play.hints import Hint, MistakePuzzle, find_hint, mistake_puzzles, record_hint
from game.play.review import BIG_BOARD_MS, GameReview, prepare_review, share_text, start_review
from game.play.review_model import BEST, GOOD, exact_chance
from game.play.review_search import ReviewJob
from game.play.review_store import review_from_text, with_review
from game.rules import GameSpec
from game.rules.capabilities import capabilities

REVIEW_NICE = 10  # the review's thread gives way to the frames (the machine may have two cores)
HINT_SECONDS = 4.0  # how long the hint's ghost disc stays on the board

__all__ = [
    "HINT_SECONDS",
    "GameReview",
    "Hint",
    "MarkNote",
    "MistakePuzzle",
    "PositionScores",
    "ReviewState",
    "first_player_value",
    "prepare_once",
    "prepare_review",
    "share_text",
]


@dataclass(frozen=True)
class MarkNote:
    """What the board says at the position after a reviewed move: the move, its class and both verdicts."""

    ply: int  # the move's ply (the board shows the position after it)
    played: int
    best: int | None  # the best move when another was better (None: the played move was best)
    klass: str
    mark: str
    texts: tuple[str, ...]  # longest first: "played 6: loss in 12; best 4: win in 19", shorter forms


_PREPARED: set[bool] = set()  # exact (True) and estimated (False) reviews prepared in this process


def prepare_once(spec: GameSpec) -> None:
    """``prepare_review`` the first time a game of its kind starts (the book and the solver load once)."""
    exact = capabilities(spec).exact_solver
    if exact not in _PREPARED:
        _PREPARED.add(exact)
        prepare_review(spec)


def first_player_value(numbers: PositionScores, mover: int, max_score: int) -> tuple[float, bool] | None:
    """The first player's winning chance at a reviewed position and whether it is proven (exact: on the
    review's scale, a loss 0-0.25, a draw 0.5, a win 0.75-1, so the graph shows how far a result is)."""
    if not numbers.scores:
        return None
    if numbers.exact:
        if not numbers.complete:
            return None
        best = max(s for _, s in numbers.scores)
        value = exact_chance(int(best), max_score) / 100.0
        return (value if mover == 0 else 1.0 - value), True
    if numbers.value is None:
        return None
    return (numbers.value if mover == 0 else 1.0 - numbers.value), False


def proven_result(value: float) -> float:
    """A proven value on the review's scale (a win 0.75-1, a draw 0.5, a loss 0-0.25) as the result alone (1, 0.5,
    0): what the eval graph shows of a proof during play too, so one result sits at one height."""
    return 1.0 if value > 0.5 else 0.0 if value < 0.5 else 0.5


class ReviewState:
    def __init__(self) -> None:
        self.review: GameReview | None = None
        self._job: ReviewJob | None = None
        self.hints: set[int] = set()  # plies where a hint was shown, for the next review
        self._hint_thread: threading.Thread | None = None
        self._hint_result: list[Hint | None] = []
        self._hint_asked: tuple[str, tuple[int, ...]] | None = None
        self.hint: Hint | None = None  # the hint on show
        self.hint_label = "hint"  # its ghost disc's word ("answer" after a puzzle)
        self.hint_until = 0.0
        self.error: str | None = None
        self.just_finished = False  # the review ended since the app last looked (it says how it went)

    # --- the review ---------------------------------------------------------------------------
    def start(self, spec: GameSpec, line: Sequence[int], shown: int | None = None) -> None:
        """Review ``line`` (the whole game), the shown position first."""
        self.stop()
        big = spec.width * spec.height > 42  # no book and searches that may never end: a limit, as the command's
        time_ms = BIG_BOARD_MS if big else None
        review, job = start_review(spec, tuple(line), shown=shown, time_ms=time_ms, threads=1, nice=REVIEW_NICE)
        review.hints |= {h for h in self.hints if h <= review.plies}
        self.review, self._job, self.error = review, job, None

    def stop(self) -> None:
        job = self._job
        if job is not None:
            job.stop()
        self._job = None

    def forget(self) -> None:
        """A new game: no review, no hints."""
        self.stop()
        self.review, self.hint, self.error = None, None, None
        self.hints = set()
        self._hint_asked = None

    @property
    def running(self) -> bool:
        return self._job is not None

    def progress(self) -> float | None:
        """The share of the positions scored so far while a review runs (None: none runs)."""
        if self.review is None or self._job is None:
            return None
        return min(1.0, len(self.review.numbers) / (self.review.plies + 1))

    def poll(self) -> list[PositionScores]:
        """Take the job's new results (and return them: the app puts them on its eval graph)."""
        job, review = self._job, self.review
        if job is None or review is None:
            return []
        found = job.poll()
        if job.done:
            found += job.poll()
        for numbers in found:
            review.add(numbers)
        if job.done:
            err = job.error
            self.error = None if err is None else (str(err).splitlines() or [type(err).__name__])[0]
            self._job = None
            self.just_finished = True
        return found

    def finished_text(self) -> str | None:
        """Once, after a review ended: how much of the game it judged."""
        review = self.review
        if not self.just_finished or review is None:
            return None
        self.just_finished = False
        marked = len(review.marked())
        done = f"Review done: {marked} marked move{'s' if marked != 1 else ''}; [ and ] go to them"
        if len(review.reviews) < review.plies:
            done = f"Review done: {len(review.reviews)} of {review.plies} moves judged (no answer in time for the rest)"
        return done

    def keep_in_step(self, spec: GameSpec, line: Sequence[int]) -> None:
        """Drop the review of another game (a variation keeps it: the moves it shares with the review keep
        their marks)."""
        review = self.review
        if review is not None and review.spec.name != spec.name:
            self.stop()
            self.review = None

    def common(self, line: Sequence[int]) -> int:
        """How many first moves ``line`` shares with the reviewed game."""
        review = self.review
        if review is None:
            return 0
        n = 0
        for a, b in zip(line, review.moves, strict=False):
            if a != b:
                break
            n += 1
        return n

    def attach(self, spec: GameSpec, line: Sequence[int], saved_text: str) -> None:
        """Take the review kept in a saved game's text (none: no review)."""
        self.stop()
        self.review = review_from_text(spec, tuple(line), saved_text) if saved_text else None
        self.hints = set(self.review.hints) if self.review is not None else set()

    def saved(self, saved_text: str, line: Sequence[int] | None = None) -> str:
        """A saved game's text with the review (when there is one) kept in it: of the moves it shares with
        ``line`` (the game saved) when the line left the reviewed game or stops short of it."""
        review = self.review
        if review is None:
            return saved_text
        common = review.plies if line is None else self.common(line)
        if common < review.plies:
            review = review.prefix(common)
        return with_review(saved_text, review) if review.numbers or review.hints else saved_text

    # --- what is shown ------------------------------------------------------------------------
    def marks(self, line: Sequence[int]) -> tuple[str, ...]:
        """Per move of ``line``: its class ("" unknown, or a move the reviewed game did not play)."""
        review = self.review
        if review is None:
            return ("",) * len(line)
        common = self.common(line)
        return tuple(review.reviews[p].klass if p in review.reviews and p < common else "" for p in range(len(line)))

    def marked(self, line: Sequence[int] | None = None) -> list[int]:
        if self.review is None:
            return []
        limit = self.review.plies if line is None else self.common(line)
        return [p for p in self.review.marked() if p < limit]

    def jump(self, line: Sequence[int], cursor: int, direction: int) -> int | None:
        """The cursor that shows the next (``direction`` 1) or previous (-1) marked move of either side."""
        targets = [p + 1 for p in self.marked(line)]  # the position after the marked move
        if direction > 0:
            return next((t for t in targets if t > cursor), None)
        return next((t for t in reversed(targets) if t < cursor), None)

    def note(self, line: Sequence[int], cursor: int, names: tuple[str, str] | None = None) -> MarkNote | None:
        """The reviewed move that led to the position after ``cursor`` moves of ``line``, in words (``names``: the
        mover is named, since the verdicts shown under the board are then the other side's)."""
        review = self.review
        ply = cursor - 1
        if review is None or ply not in review.reviews or cursor > self.common(line):
            return None
        r = review.reviews[ply]
        text = review.spec.move_to_text
        played_v = review.verdict(ply, r.played_score)
        who = f"{names[r.mover]} " if names is not None else ""
        if r.klass == BEST:
            texts: tuple[str, ...] = (
                f"{who}played {text(r.played)}: {played_v}, the best move",
                f"{text(r.played)}: {played_v}, best",
            )
            return MarkNote(ply, r.played, None, r.klass, r.mark, texts)
        best = r.best_moves[0] if r.best_moves else None
        best_t = "/".join(text(m) for m in r.best_moves[:3])
        best_v = review.verdict(ply, r.best_score)
        label = r.klass if r.klass != GOOD else "good"
        texts = (
            f"{label}: {who}played {text(r.played)}: {played_v}; best {best_t}: {best_v}",
            f"played {text(r.played)}: {played_v}; best {best_t}: {best_v}",
            f"{text(r.played)}: {played_v}; best {best_t}: {best_v}",
        )
        return MarkNote(ply, r.played, best, r.klass, r.mark, texts)

    def summary_texts(self, names: tuple[str, str]) -> tuple[str, ...]:
        """Per player accuracy and counts, longest first (empty without a review)."""
        review = self.review
        if review is None:
            return ()
        words, long, short, brief = [], [], [], []
        for s in review.summary():
            acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
            counts = {k: s.count(k) for k in ("inaccuracy", "mistake", "blunder")}
            words.append(f"{names[s.player]} {acc} · {count_words(counts)}")
            brief.append(f"{names[s.player]} {acc}: {count_words(counts, short=True)}")
            marks = f"{counts['inaccuracy']}?! {counts['mistake']}? {counts['blunder']}??"
            long.append(f"{names[s.player]} {acc} · {marks}")
            short.append(f"{acc} {marks}")
        kind = "" if review.exact else " (estimates)"
        return (
            " | ".join(words) + kind,
            " | ".join(words),
            " | ".join(brief),
            " | ".join(long),
            " | ".join(short),
        )

    def puzzles(self, player: int) -> list[MistakePuzzle]:
        return [] if self.review is None else mistake_puzzles(self.review, player)

    # --- hints --------------------------------------------------------------------------------
    def ask_hint(self, spec: GameSpec, moves: Sequence[int]) -> bool:
        """Look for the best move after ``moves`` in a thread; False when one is already being looked for."""
        if self._hint_thread is not None and self._hint_thread.is_alive():
            return False
        found: list[Hint | None] = []
        key = (spec.name, tuple(moves))

        def work() -> None:
            try:
                found.append(find_hint(spec, key[1]))
            except Exception:  # the hint is a courtesy: a failure shows as "no hint"
                found.append(None)

        self._hint_result, self._hint_asked = found, key
        self._hint_thread = threading.Thread(target=work, name="hint", daemon=True)
        self._hint_thread.start()
        return True

    @property
    def hint_pending(self) -> bool:
        return self._hint_asked is not None

    def poll_hint(self, now: float) -> tuple[Hint | None, bool]:
        """(the hint found since the last call, whether one was found at all): counted and put on show."""
        if self._hint_asked is None or not self._hint_result:
            return None, False
        hint = self._hint_result[0]
        self._hint_asked = None
        if hint is None:
            return None, True
        self.hints.add(hint.ply)
        if self.review is not None:
            record_hint(self.review, hint.ply)
        self.hint, self.hint_until, self.hint_label = hint, now + HINT_SECONDS, "hint"
        return hint, True

    def shown_hint(self, now: float, ply: int) -> Hint | None:
        """The hint on show at the position after ``ply`` moves (also just after a move was played there)."""
        hint = self.hint
        return hint if hint is not None and now <= self.hint_until and hint.ply in (ply, ply - 1) else None

    def wait_hint(self, timeout: float) -> bool:
        """Tests: wait for the hint's thread."""
        thread = self._hint_thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def wait(self, timeout: float) -> bool:
        """Tests and tools: wait for the running review to end."""
        job = self._job
        return True if job is None else bool(job.wait(timeout))


PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


SHORT_WORDS = {"inaccuracy": "inacc.", "mistake": "mist.", "blunder": "blund."}


def count_words(counts: dict[str, int], short: bool = False) -> str:
    """ "1 inaccuracy, 2 mistakes" (the kinds that occurred, in that order); "no mistakes" when none did;
    ``short``: "1 inacc., 2 mist." for a narrow room."""
    if short:
        parts = [f"{n} {SHORT_WORDS[kind]}" for kind, n in counts.items() if n]
        return ", ".join(parts) if parts else "none"
    parts = [f"{n} {kind if n == 1 else PLURALS[kind]}" for kind, n in counts.items() if n]
    return ", ".join(parts) if parts else "no mistakes"
