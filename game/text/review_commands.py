"""The terminal client's ``hint`` and ``review`` commands (``game.play.hints``, ``game.play.review``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from game.play.hints import find_hint
from game.play.review import GameReview, text_lines
from game.rules import GameSpec

HINT_MS = 3000.0
STYLES = {"?!": "yellow", "?": "dark_orange", "??": "red"}


def print_hint(console: Console, spec: GameSpec, moves: Sequence[int]) -> None:
    hint = find_hint(spec, moves, time_ms=HINT_MS)
    if hint is None:
        console.print("no hint: nothing is known about this position yet", style="yellow")
        return
    console.print(f"hint: {hint.text}" + ("" if hint.exact else " (an estimate)"), markup=False)


def print_review(console: Console, spec: GameSpec, moves: Sequence[int]) -> None:
    if not moves:
        console.print("nothing to review yet", style="yellow")
        return
    import time

    from ai.search.review import iter_review

    review = GameReview(spec, moves)
    start = time.perf_counter()
    for numbers in iter_review(spec, moves):
        review.add(numbers)
    for line in text_lines(review, (time.perf_counter() - start) * 1000.0):
        mark = next((m for m in ("??", "?!", "?") if f"{m} " in line.split("  (")[0]), None)
        console.print(line, style=STYLES.get(mark or "", ""), markup=False, highlight=False)
