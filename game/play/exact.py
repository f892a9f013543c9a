"""Exact verdicts under the Connect 4 columns: the solver's scores in words a player reads.

No pygame. A solver score (Pascal Pons' convention, see ``ai/solver/core.py``) for the player who
plays a column at ply ``p`` (stones on the board before the move) of a W x H board is:

* ``s > 0``: the mover wins with a stone played at ply ``q`` where ``(W*H + 1 - q) // 2 == s``
  and ``q`` has the parity of ``p``; that stone is the mover's ``(q - p) / 2 + 1``-th from now
  (this column's stone counts as the first): "win in N" ("win now" for N = 1).
* ``s < 0``: the opponent wins at ply ``q`` with ``(W*H + 1 - q) // 2 == -s`` and the parity of
  ``p + 1``; the mover has then played ``(q - p + 1) / 2`` stones: "loss in N".
* ``s == 0``: "draw".

On 7x6 at the start (p = 0) a score s is a win with the mover's ``22 - s``-th stone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.vocab.results import Solution
from game.play.heat import HeatData, engine_children
from game.rules import GameSpec

# the solver's first look at a position, then longer ones while it runs out: the engine's solver keeps its table,
# so each look goes on from the last (past the ply-9 book a few positions need 3-5 s on two cores)
EXACT_TIME_MS = (500, 1500, 5000)  # time_ms of each look (one name for a time budget: see ai.client.api)
EXACT_MS = EXACT_TIME_MS[0]
CACHE_SIZE = 256


@dataclass(frozen=True)
class Verdict:
    """What the label under one column says."""

    text: str  # "win in 5", "draw", "loss in 8", "52%", "solving…", "?"
    kind: str  # "exact" | "estimate" | "pending" (the solver is still on it) | "unknown"
    outcome: str | None = None  # "win" | "draw" | "loss" (exact only), for the colour
    moves: int | None = None  # the N of "win in N" / "loss in N"

    def variants(self) -> tuple[str, ...]:
        """The label, longest first: shorter forms for narrow columns, never cut ("loss in 14", "L14")."""
        if self.kind == "estimate":
            return (f"≈{self.text}", self.text)
        if self.kind == "pending":
            return (self.text, "…")
        if self.outcome in ("win", "loss") and self.moves is not None:
            letter = "W" if self.outcome == "win" else "L"
            return (self.text, f"{self.outcome} {self.moves}", f"{letter}{self.moves}")
        if self.outcome is not None:
            return (self.text, self.text[0].upper())
        return (self.text,)

    def forms(self) -> tuple[str, str, str, str]:
        """The label in each of the row's forms (one form for the whole row): full words, short words,
        letters with the number of moves (``W15``/``D``/``L2``), letters alone (``W``/``D``/``L``)."""
        if self.kind == "estimate":
            number = self.text.rstrip("%")
            return (f"≈{self.text}", f"≈{self.text}", f"≈{number}", f"≈{number}")
        if self.kind == "pending":
            return (self.text, "…", "…", "…")
        if self.outcome in ("win", "loss", "draw"):
            letter = self.outcome[0].upper()
            if self.moves is not None and self.outcome != "draw":
                return (self.text, f"{self.outcome} {self.moves}", f"{letter}{self.moves}", letter)
            return (self.text, self.outcome, letter, letter)
        return (self.text,) * 4


ROW_LEGEND = "W win · D draw · L loss · the number: your moves to the end"
LEGEND_VARIANTS = (ROW_LEGEND, "W win · D draw · L loss · number: moves left", "W win · D draw · L loss", "W/D/L")
SHORT_FORM = 2  # the first form of ``Verdict.forms`` that needs the legend


def moves_until_end(cells: int, ply: int, score: int) -> int:
    """How many stones the mover plays (this one included) until the game ends, for ``score != 0``."""
    target = abs(score)
    mover_ends = score > 0
    parity = ply % 2 if mover_ends else (ply + 1) % 2
    for q in (cells + 1 - 2 * target, cells - 2 * target):
        if q % 2 == parity:
            break
    if mover_ends:
        return (q - ply) // 2 + 1
    return (q - ply + 1) // 2


def score_verdict(cells: int, ply: int, score: int) -> Verdict:
    """The verdict of a column scored ``score`` for the player who plays it at ``ply``."""
    if score == 0:
        return Verdict("draw", "exact", "draw")
    n = max(1, moves_until_end(cells, ply, score))
    if score > 0:
        return Verdict("win now" if n == 1 else f"win in {n}", "exact", "win", n)
    return Verdict(f"loss in {n}", "exact", "loss", n)


def scores_from_solution(spec: GameSpec, solution: Solution) -> dict[int, int | None]:
    """Column -> exact score (None: unknown) from a ``solution`` line; children of unreadable moves are skipped."""
    return {move: child.score for move, child in engine_children(spec, solution.children)}


def column_verdicts(
    spec: GameSpec,
    ply: int,
    legal: tuple[int, ...],
    scores: dict[int, int | None] | None,
    heat: HeatData | None,
    pending: bool = False,
) -> dict[int, Verdict]:
    """A verdict per legal column: exact when the solver (or a proven search score) knows it, else the
    search's win-rate estimate once the solver is done or stopped ("solving…" while it is still at work,
    ``pending``), else unknown."""
    cells = spec.width * spec.height
    out: dict[int, Verdict] = {}
    for move in legal:
        score = scores.get(move) if scores else None
        entry = heat.entries.get(move) if heat is not None else None
        if score is None and entry is not None and entry.score is not None:
            score = entry.score  # the search proved it with the solver
        if score is not None:
            out[move] = score_verdict(cells, ply, score)
        elif entry is not None and entry.proven is not None:  # the search proved the result, not its length
            out[move] = Verdict(entry.proven, "exact", entry.proven)
        elif pending:  # never a bare percentage where the solver is still at work: a win may be one look away
            out[move] = Verdict("solving…", "pending")
        elif entry is not None:
            out[move] = Verdict(f"{entry.value * 100:.0f}%", "estimate")
        else:
            out[move] = Verdict("?", "unknown")
    return out


_RANK = {"loss": 0, "draw": 1, "win": 2}


def by_elimination(verdicts: dict[int, Verdict], result: str | None) -> dict[int, Verdict]:
    """Columns that follow from the position's proven ``result`` (for the side to move) and the other columns:
    in a lost position every column loses; in a won or drawn one whose exact columns all fall short, the one
    column left open must reach the result. Others are kept as they are."""
    if result not in _RANK:
        return verdicts
    open_moves = [m for m, v in verdicts.items() if v.kind != "exact"]
    if not open_moves:
        return verdicts
    if result == "loss":
        return {m: Verdict("loss", "exact", "loss") if m in open_moves else v for m, v in verdicts.items()}
    reached = any(_RANK.get(v.outcome or "", -1) >= _RANK[result] for v in verdicts.values() if v.kind == "exact")
    if reached or len(open_moves) != 1:
        return verdicts
    return {**verdicts, open_moves[0]: Verdict(result, "exact", result)}


class ExactCache:
    """Solver answers per position text, with the budget they were given. A position whose columns are not all
    settled after the listed looks gets further looks of the last budget (the engine's solver goes on from its
    table) until they are, or until the player stops them (``stop``)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], tuple[dict[int, int | None], int]] = {}
        self._looks: dict[tuple[str, str], int] = {}  # looks given beyond the listed budgets
        self._stopped: set[tuple[str, str]] = set()

    def get(self, game: str, moves: str) -> dict[int, int | None] | None:
        entry = self._entries.get((game, moves))
        return entry[0] if entry is not None else None

    def put(self, game: str, moves: str, scores: dict[int, int | None], time_ms: int = EXACT_MS) -> None:
        if len(self._entries) >= CACHE_SIZE:
            oldest = next(iter(self._entries))
            self._entries.pop(oldest)
            self._looks.pop(oldest, None)
        key = (game, moves)
        known = self._entries.get(key)
        if known is not None and time_ms >= EXACT_TIME_MS[-1]:
            self._looks[key] = self._looks.get(key, 0) + 1
            merged = {m: scores.get(m) if scores.get(m) is not None else known[0].get(m) for m in scores}
            scores = merged  # (a later look never forgets what an earlier one proved)
        self._entries[key] = (scores, time_ms)

    def settled(self, game: str, moves: str) -> bool:
        entry = self._entries.get((game, moves))
        return entry is not None and bool(entry[0]) and all(v is not None for v in entry[0].values())

    def next_budget(self, game: str, moves: str) -> int | None:
        """The budget of the solver's next look at this position, or None when it is known enough (or stopped)."""
        entry = self._entries.get((game, moves))
        if entry is None:
            return EXACT_TIME_MS[0]
        if self.settled(game, moves) or (game, moves) in self._stopped:
            return None
        used = entry[1]
        return next((b for b in EXACT_TIME_MS if b > used), EXACT_TIME_MS[-1])

    def in_background(self, game: str, moves: str) -> int | None:
        """The columns still open once the listed looks are over (the solver goes on with them), else None."""
        entry = self._entries.get((game, moves))
        if entry is None or entry[1] < EXACT_TIME_MS[-1] or self.settled(game, moves):
            return None
        if (game, moves) in self._stopped:
            return None
        return sum(v is None for v in entry[0].values())

    def first_looks_done(self, game: str, moves: str) -> bool:
        entry = self._entries.get((game, moves))
        return entry is not None and (entry[1] >= EXACT_TIME_MS[-1] or self.settled(game, moves))

    def stop(self, game: str, moves: str) -> None:
        """No more looks at this position (the player stopped them): its open columns stay estimates."""
        self._stopped.add((game, moves))
