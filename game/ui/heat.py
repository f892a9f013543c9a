"""What the heatmap shows: each move's share of the visits and its win rate, from an engine info line."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from game import GameSpec
from game.errors import GameError


@dataclass(frozen=True)
class HeatEntry:
    move: int
    share: float  # share of the root's visits, 0..1
    value: float  # win probability for the player making this move
    proven: str | None = None  # "win" | "loss" | "draw" from the mover's side
    score: int | None = None


@dataclass(frozen=True)
class HeatData:
    ply: int  # the position (number of moves of the line) the search ran on
    entries: dict[int, HeatEntry]
    iterations: int = 0

    @property
    def best(self) -> int | None:
        if not self.entries:
            return None
        return max(self.entries.values(), key=lambda e: (e.share, e.value)).move


def engine_children(spec: GameSpec, children: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(move, child)`` for each well-formed child of an engine line; malformed ones are skipped."""
    for child in children if isinstance(children, list) else ():
        if not isinstance(child, dict):
            continue
        try:
            yield spec.parse_move(str(child.get("move"))), child
        except GameError:
            continue


def exact_score(value: Any) -> int | None:
    """An engine ``score`` field: an int (not a bool), else unknown."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def heat_from_info(spec: GameSpec, ply: int, msg: dict) -> HeatData | None:
    """Parse the ``children`` of an info/bestmove line; None when there is nothing usable."""
    children = msg.get("children")
    if not isinstance(children, list) or not children:
        return None
    parsed: list[tuple[int, int, float, str | None, int | None]] = []
    for move, child in engine_children(spec, children):
        visits = child.get("visits", 0)
        value = child.get("value", 0.5)
        proven = child.get("proven")
        score = child.get("score")
        parsed.append(
            (
                move,
                int(visits) if isinstance(visits, int | float) else 0,
                float(value) if isinstance(value, int | float) else 0.5,
                proven if proven in ("win", "loss", "draw") else None,
                exact_score(score),
            )
        )
    total = sum(p[1] for p in parsed)
    if not parsed:
        return None
    entries = {
        m: HeatEntry(m, (v / total) if total else 0.0, val, pr, sc) for m, v, val, pr, sc in parsed
    }
    iterations = msg.get("iterations", total)
    return HeatData(ply, entries, int(iterations) if isinstance(iterations, int | float) else total)


def share_text(share: float) -> str:
    """A visit share as a label: whole percents, "<1%" for a sliver, "0%" only for none at all."""
    if 0 < share < 0.005:
        return "<1%"
    return f"{share * 100:.0f}%"


def verdict_text(entry: HeatEntry) -> str:
    """The second label under a column: the win rate, or the proven result."""
    if entry.proven == "win":
        return "win"
    if entry.proven == "loss":
        return "loss"
    if entry.proven == "draw":
        return "draw"
    return f"{entry.value * 100:.0f}%"
