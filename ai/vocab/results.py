"""Search results shared by the search core, the engine process, the tools and the UI.

Values are win probabilities in [0, 1] (a draw counts 0.5). ``proven`` is the exact game result
when the search (or a solver) proved it: +1 win, 0 draw, -1 loss, ``None`` unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

# ``proven`` as the protocol writes it, and back
PROVEN_TEXT: dict[int | None, str | None] = {1: "win", 0: "draw", -1: "loss", None: None}
PROVEN_VALUE: dict[str, int] = {"win": 1, "draw": 0, "loss": -1}


@dataclass(frozen=True)
class MoveStats:
    """One root move: statistics from the side to move at the root (who makes ``move``)."""

    move: int
    visits: int
    value: float  # win probability for the mover
    proven: int | None = None  # +1 win / 0 draw / -1 loss for the mover, None unknown
    score: int | None = None  # exact solver score (Pons' convention, mover's side) when known


@dataclass(frozen=True)
class ForcedLine:
    """How a proven win is forced, when the search knows its line: ``plies`` from the searched position to
    the winning stone (the winner's last move included) and ``kind``: "VCF" (every winner move a four),
    "VCT" (threes and fours) or "search" (a forced win found by the search's own proof)."""

    plies: int
    kind: str

    @property
    def winner_moves(self) -> int:
        """The winner's moves in the line (the side to move wins when ``plies`` is odd)."""
        return (self.plies + 1) // 2

    def describe(self, winner: str) -> str:
        """E.g. "Red wins: VCF in 7" (the winner's moves), "Red wins in 4" for another forced win."""
        if self.kind in ("VCF", "VCT"):
            return f"{winner} wins: {self.kind} in {self.winner_moves}"
        return f"{winner} wins in {self.winner_moves}"


@dataclass(frozen=True)
class SearchResult:
    """What a search found. ``value`` and ``proven`` are for the side to move at the root."""

    best_move: int
    value: float  # the proven result if any, else the best move's value (MCTS: its mean result)
    children: tuple[MoveStats, ...]
    iterations: int
    elapsed_ms: float
    max_depth: int
    pv: tuple[int, ...]
    exact: bool = False
    proven: int | None = None
    forced: ForcedLine | None = None  # with a proven win or loss: its forced line's length, when known


@dataclass(frozen=True)
class PovValue:
    """A win probability together with its point of view (as python-chess's ``PovScore``): ``value`` is
    ``player``'s chance (0 the first player, 1 the second; a draw counts 0.5). ``for_player`` turns it
    to either side, so no caller flips ``1 - value`` by hand."""

    value: float
    player: int

    def for_player(self, player: int) -> float:
        return self.value if player == self.player else 1.0 - self.value

    def pov(self, player: int) -> PovValue:
        return PovValue(self.for_player(player), player)


# -- the engine protocol's replies (docs/engine-protocol.md) -------------------------------------
# Encoded by the engine (``ai.engine.protocol.encode``) and decoded by the client (``ai.engine.protocol.decode``);
# the ``engine_*`` ones are the client's own news about the engine process.

SearchId = int | float | str | bool | None


@dataclass(frozen=True)
class Ready:
    name: str
    version: str
    games: tuple[str, ...]
    startup_ms: float
    threads: int
    prepared: tuple[str, ...] = ()  # games whose compiled code is ready already; others follow ("preparing")
    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True)
class ReadyOk:
    TYPE: ClassVar[str] = "readyok"


@dataclass(frozen=True)
class ChildLine:
    """One root move of an ``info``/``bestmove``: ``proven`` is "win"/"draw"/"loss" or None."""

    move: str
    visits: int
    value: float
    proven: str | None
    score: int | None


@dataclass(frozen=True)
class Info:
    id: SearchId
    iterations: int
    elapsed_ms: float
    value: float
    max_depth: int
    pv: tuple[str, ...]
    exact: bool
    proven: str | None
    children: tuple[ChildLine, ...]
    forced: ForcedLine | None = None  # a proven result's forced line (e.g. a VCF in 7), when the search knows it
    TYPE: ClassVar[str] = "info"


@dataclass(frozen=True)
class BestMove(Info):
    move: str = ""
    level: str | None = None  # the go's level (ai/search/levels.py), None for a plain search
    choice: str | None = None  # with a level: "best", "book" (an opening-book move) or "sampled"
    TYPE: ClassVar[str] = "bestmove"


@dataclass(frozen=True)
class SolvedMove:
    move: str
    score: int | None


@dataclass(frozen=True)
class Solution:
    id: SearchId
    score: int | None
    children: tuple[SolvedMove, ...]
    complete: bool
    elapsed_ms: float
    TYPE: ClassVar[str] = "solution"


@dataclass(frozen=True)
class ErrorReply:
    """A refused line (one line of text); with the ``id`` of a go/solve that will never answer."""

    message: str
    id: SearchId = None
    TYPE: ClassVar[str] = "error"


@dataclass(frozen=True)
class PonderEnd:
    """A ponder (thinking on the opponent's time) ended: by a ``position`` (``played`` is the move it
    added to the pondered position, when it added exactly one), a ``go``/``solve``, a ``stop``, a
    ``setoption`` or another ``ponder``. ``predicted`` is the reply the ponder expected (its most visited
    move; None before it had one) and ``hit`` says the opponent played it. ``kept_visits``: visits of
    the new position's root kept from the pondered tree (the next search starts with them)."""

    id: SearchId
    predicted: str | None
    played: str | None
    hit: bool
    iterations: int
    elapsed_ms: float
    kept_visits: int
    TYPE: ClassVar[str] = "ponderend"


@dataclass(frozen=True)
class Preparing:
    """Compiled code of ``game`` is being prepared: ``done`` of ``total`` steps; ``compiling`` is
    True once a step had to compile (a first launch) rather than load from the cache."""

    game: str
    done: int
    total: int
    label: str
    compiling: bool
    TYPE: ClassVar[str] = "preparing"

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)


@dataclass(frozen=True)
class KernelsBuild:
    """A source checkout's one build of the compiled kernels, in the background (``ai.engine.first_build``):
    ``state`` "building" when it starts, then how it ended: "built", "present", "busy" (another process builds),
    "no-compiler", "no-numba" or "failed"; ``detail`` says more in a line."""

    state: str
    detail: str
    TYPE: ClassVar[str] = "kernels"

    @property
    def running(self) -> bool:
        return self.state == "building"


@dataclass(frozen=True)
class OptionSet:
    """The answer to ``setoption``: the value now in force."""

    name: str
    value: int
    TYPE: ClassVar[str] = "option"


@dataclass(frozen=True)
class EngineRestarted:
    """The client restarted a failed engine; ``resumed``: it sent the running search again (same id), so the
    search's command still gets its answer."""

    message: str
    resumed: bool = False
    TYPE: ClassVar[str] = "engine_restarted"


@dataclass(frozen=True)
class EngineFailed:
    """The engine is not available (it keeps failing); the client keeps retrying with back-off."""

    message: str
    retry_in_s: float
    TYPE: ClassVar[str] = "engine_failed"


@dataclass(frozen=True)
class EngineAvailable:
    """The engine is back after ``EngineFailed``."""

    message: str
    TYPE: ClassVar[str] = "engine_available"


EngineReply = (
    Ready | ReadyOk | Info | BestMove | Solution | ErrorReply | Preparing | KernelsBuild | OptionSet | PonderEnd
)
ClientEvent = EngineRestarted | EngineFailed | EngineAvailable
Reply = EngineReply | ClientEvent
REPLY_TYPES: tuple[type, ...] = (
    Ready,
    ReadyOk,
    Info,
    BestMove,
    Solution,
    ErrorReply,
    Preparing,
    KernelsBuild,
    OptionSet,
    PonderEnd,
    EngineRestarted,
    EngineFailed,
    EngineAvailable,
)
