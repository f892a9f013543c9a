"""What the heatmap shows: each move's share of the visits and its win rate, from an engine info line,
and which moves it stresses. No pygame.

Where exact results are known (a proven child, a solver score) they decide: a proven loss is never
stressed while another move is not lost, a proven win is stressed most, and ``best`` is the move the
engine's exact play picks (fastest win, else the most visited move no proof rules out, slowest loss).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from ai.vocab.results import ChildLine, Info, SolvedMove
from game.rules import GameSpec
from game.rules.errors import GameError

UNIFORM_SPREAD = 1e-6  # shares closer than this tell the moves apart no more


@dataclass(frozen=True)
class HeatEntry:
    move: int
    share: float  # share of the root's visits, 0..1
    value: float  # win probability for the player making this move
    proven: str | None = None  # "win" | "loss" | "draw" from the mover's side
    score: int | None = None  # exact solver score (Pons' convention, mover's side)

    @property
    def outcome(self) -> str | None:
        """The exact result of this move for its mover, when known."""
        if self.score is not None:
            return "win" if self.score > 0 else "loss" if self.score < 0 else "draw"
        return self.proven

    def rank(self) -> tuple[int, int, float, float]:
        """Bigger is better for the mover: exact wins first (faster first), proven losses last (slower first)."""
        outcome = self.outcome
        group = {"win": 2, "loss": 0}.get(outcome or "", 1)
        length = self.score if self.score is not None else 0
        return (group, length, self.share, self.value)


@dataclass(frozen=True)
class HeatData:
    ply: int  # the position (number of moves of the line) the search ran on
    entries: dict[int, HeatEntry]
    iterations: int = 0
    chosen: int | None = None  # the move an exact search decided to play (it outranks the visits)
    complete: bool = True  # the entries are every legal move (a proof may list only the move that wins)

    @property
    def key(self) -> tuple[object, ...]:
        """A hashable stand-in for this heat (for caches of painted layers)."""
        return (self.ply, self.iterations, self.chosen, tuple(sorted(self.entries.items())))

    @property
    def visited(self) -> bool:
        """Whether the search visited any move (not when the book or the solver settled them all first)."""
        return any(entry.share > 0 for entry in self.entries.values())

    @property
    def all_lost(self) -> bool:
        return bool(self.entries) and all(e.outcome == "loss" for e in self.entries.values())

    @property
    def common_outcome(self) -> str | None:
        """ "win", "draw" or "loss" when every legal move is proven to end that way."""
        if not self.complete:
            return None
        outcomes = {e.outcome for e in self.entries.values()}
        return next(iter(outcomes)) if len(outcomes) == 1 else None

    @property
    def uniform(self) -> bool:
        """No move stands out: every move proven equal (same result, same length), or equal shares and
        nothing proven. The overlay then stresses no move and labels none (the status line says why)."""
        values = list(self.entries.values())
        if self.common_outcome is not None and len({e.score for e in values}) == 1:
            return True
        if any(e.outcome is not None for e in values):
            return False
        shares = [e.share for e in values]
        return not shares or max(shares) - min(shares) < UNIFORM_SPREAD

    @property
    def best(self) -> int | None:
        """The move the overlay marks: None when nothing stands out or every move loses."""
        if not self.entries or self.uniform or self.all_lost:
            return None
        if self.chosen in self.entries:
            return self.chosen
        return max(self.entries.values(), key=HeatEntry.rank).move

    def emphasis(self, move: int) -> float:
        """How strongly the overlay paints ``move``, 0..1 (the best move 1)."""
        entry = self.entries.get(move)
        if entry is None or self.uniform or self.all_lost:
            return 0.0
        if move == self.best:
            return 1.0
        if entry.outcome == "loss":
            return 0.0
        if entry.outcome == "win":
            return 0.9
        alive = [e.share for e in self.entries.values() if e.outcome != "loss"]
        top = max(alive, default=0.0) or 1.0
        best = self.entries[self.best] if self.best is not None else None
        ceiling = 0.35 if best is not None and best.outcome == "win" else 0.85  # a proven win outshines visits
        return ceiling * entry.share / top

    def with_scores(self, scores: Mapping[int, int | None] | None) -> HeatData:
        """This heat with the solver's known scores filled in."""
        if not scores:
            return self
        entries = {m: replace(e, score=scores[m]) if scores.get(m) is not None else e for m, e in self.entries.items()}
        return replace(self, entries=entries)


Child = TypeVar("Child", ChildLine, SolvedMove)
RESULTS = ("win", "loss", "draw")


def engine_children(spec: GameSpec, children: Iterable[Child]) -> Iterator[tuple[int, Child]]:
    """``(move, child)`` for each child of an engine line whose move this game can read; others are skipped."""
    for child in children:
        try:
            yield spec.parse_move(child.move), child
        except GameError:
            continue


def heat_from_info(spec: GameSpec, ply: int, info: Info, legal: Collection[int] | None = None) -> HeatData | None:
    """The heat of an info/bestmove line's ``children``; None when there is nothing usable. ``legal``: the
    position's legal moves, to tell whether the children are all of them."""
    parsed = [
        (move, child.visits, child.value, child.proven if child.proven in RESULTS else None, child.score)
        for move, child in engine_children(spec, info.children)
    ]
    if not parsed:
        return None
    total = sum(p[1] for p in parsed)
    entries = {m: HeatEntry(m, (v / total) if total else 0.0, val, pr, sc) for m, v, val, pr, sc in parsed}
    complete = legal is None or set(legal) <= entries.keys()
    return HeatData(ply, entries, info.iterations, complete=complete)


def share_text(share: float, searched: bool = True) -> str:
    """A visit share as a label: whole percents, "<1%" for a sliver, "0%" only for none at all; a dash when
    the search visited nothing at all (``searched`` False: the book or the solver settled every move first)."""
    if not searched:
        return "–"
    if 0 < share < 0.005:
        return "<1%"
    return f"{share * 100:.0f}%"


def verdict_text(entry: HeatEntry) -> str:
    """The second label under a column: the proven result, or the win rate."""
    return entry.outcome or f"{entry.value * 100:.0f}%"
