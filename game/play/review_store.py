"""A review kept with its game: the ``"review"`` field of a saved game (and of the autosave).

The field keeps the numbers, not the marks (the marks follow from them and the documented thresholds):

``{"version": 1, "exact": true, "positions": {"0": {"scores": [[3, 1], [2, 0]], "source": "book"}, ...}}``

``scores``: ``[move, score]`` pairs as ``ai.search.review.PositionScores`` holds them; estimates add ``"value"`` (the
search's value for the side to move) and ``"visits"`` (``[move, visits]`` pairs); ``"hints"`` lists the plies
(positions) where the player to move took a hint. Readers that do not know the
field ignore it; a bad entry is skipped (the rest of the review and the game still load).
"""

from __future__ import annotations

import json
from typing import Any

from ai.vocab.review_scores import PositionScores
from game.play.review import GameReview
from game.play.savefile import read_field
from game.rules import GameSpec

VERSION = 1
MAX_POSITIONS = 1000


def review_to_field(review: GameReview) -> dict[str, Any]:
    positions: dict[str, Any] = {}
    for ply, numbers in sorted(review.numbers.items()):
        entry: dict[str, Any] = {
            "scores": [[m, int(s) if review.exact else round(s, 4)] for m, s in numbers.scores],
            "source": numbers.source,
        }
        if not numbers.complete:
            entry["complete"] = False
        if numbers.value is not None:
            entry["value"] = round(numbers.value, 4)
        if numbers.visits:
            entry["visits"] = [[m, v] for m, v in numbers.visits]
        positions[str(ply)] = entry
    out: dict[str, Any] = {"version": VERSION, "exact": review.exact, "positions": positions}
    if review.hints:
        out["hints"] = sorted(review.hints)
    return out


def with_review(saved_text: str, review: GameReview) -> str:
    """A saved game's JSON text with the review's field added (the text unchanged when it is not JSON)."""
    try:
        data = json.loads(saved_text)
    except (ValueError, RecursionError):
        return saved_text
    if not isinstance(data, dict):
        return saved_text
    data["review"] = review_to_field(review)
    return json.dumps(data, indent=2) + "\n"


def review_from_text(spec: GameSpec, moves: tuple[int, ...], saved_text: str) -> GameReview | None:
    """The review kept in a saved game's text, or None (no field, another kind of review, nothing usable)."""
    raw = read_field(saved_text, "review")
    if not isinstance(raw, dict) or raw.get("version") != VERSION or not isinstance(raw.get("positions"), dict):
        return None
    review = GameReview(spec, moves)
    if raw.get("exact") is not review.exact:
        return None
    for key, entry in list(raw["positions"].items())[:MAX_POSITIONS]:
        numbers = _position(key, entry, len(moves), review.exact)
        if numbers is not None:
            review.add(numbers)
    hints = raw.get("hints")
    if isinstance(hints, list):
        review.hints = {h for h in hints[:MAX_POSITIONS] if type(h) is int and 0 <= h <= len(moves)}
    return review if review.numbers or review.hints else None


def _pairs(raw: object, kind: type) -> tuple[tuple[int, Any], ...] | None:
    if not isinstance(raw, list):
        return None
    out = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int):
            return None
        value = item[1]
        if isinstance(value, bool) or not isinstance(value, kind):
            return None
        out.append((item[0], value))
    return tuple(out)


def _position(key: object, entry: object, plies: int, exact: bool) -> PositionScores | None:
    if not (isinstance(key, str) and key.isdigit() and int(key) <= plies and isinstance(entry, dict)):
        return None
    scores = _pairs(entry.get("scores"), int if exact else (int, float))  # type: ignore[arg-type]
    if scores is None:
        return None
    source = entry.get("source") if isinstance(entry.get("source"), str) else "saved"
    complete = entry.get("complete", True) is not False
    value = entry.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1):
        return None
    visits = _pairs(entry.get("visits", []), int) or ()
    floats = tuple((m, float(s)) for m, s in scores)
    return PositionScores(int(key), floats, exact, complete, str(source), 0.0, value, visits)
