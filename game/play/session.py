"""The game being shown: the line of moves, the cursor into it, and what the engine said.

No pygame here. ``line`` is every move played (including undone ones kept for redo);
``cursor`` is how many of them are on the board. Playing a move at a cursor before the end
replaces the rest of the line ("continue from here").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai.vocab.results import ForcedLine, PovValue
from game.rules import GameSpec, Position, get_game


@dataclass(frozen=True)
class ForcedNote:
    """A proven win whose forced line the engine knows: who wins and how ("Red wins: VCF in 7")."""

    winner: int
    line: ForcedLine


@dataclass(frozen=True)
class EvalPoint:
    """The first player's winning chance (draws count half) after some moves; ``exact`` when proven,
    ``forced`` when the proof came with its forced line."""

    value: float
    exact: bool = False
    forced: ForcedNote | None = None


@dataclass
class Session:
    spec: GameSpec
    line: list[int] = field(default_factory=list)
    cursor: int = 0
    # the first player's (0) winning chance after ``ply`` moves of the line, from the engine's estimates
    evals: dict[int, float] = field(default_factory=dict)
    # proven values for the first player, by position text: exact results outrank every estimate
    proofs: dict[str, float] = field(default_factory=dict)
    # the forced lines of proven wins, by position text (a subset of ``proofs``' positions)
    forced: dict[str, ForcedNote] = field(default_factory=dict)
    _positions: list[Position] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._rebuild()

    @classmethod
    def from_text(cls, game: str, moves: str = "") -> Session:
        """Parse ``game`` and ``moves``; raises the rules' one-line ValueErrors."""
        spec = get_game(game)
        pos = spec.parse_position(moves)
        return cls(spec, list(pos.history), len(pos.history))

    def _rebuild(self) -> None:
        pos = self.spec.start()
        self._positions = [pos]
        for move in self.line:
            pos = pos.play(move)
            self._positions.append(pos)
        self.cursor = max(0, min(self.cursor, len(self.line)))

    # --- reading -------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._positions[self.cursor]

    @property
    def final_position(self) -> Position:
        return self._positions[-1]

    def position_at(self, ply: int) -> Position:
        return self._positions[ply]

    @property
    def at_end(self) -> bool:
        return self.cursor == len(self.line)

    @property
    def moves_text(self) -> str:
        """The shown position in the game's notation."""
        return self.spec.moves_to_text(self.line[: self.cursor])

    @property
    def line_text(self) -> str:
        return self.spec.moves_to_text(self.line)

    def eval_at(self, ply: int) -> EvalPoint | None:
        """The first player's winning chance after ``ply`` moves, one point of view for the whole game:
        the result when the game is over, else a proof of that position, else the latest estimate."""
        pos = self._positions[ply]
        outcome = pos.outcome
        if outcome.is_over:
            return EvalPoint(0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0), True)
        key = self.spec.moves_to_text(self.line[:ply])
        proof = self.proofs.get(key)
        if proof is not None:
            return EvalPoint(proof, True, self.forced.get(key))
        value = self.evals.get(ply)
        return EvalPoint(value) if value is not None else None

    def eval_series(self) -> tuple[EvalPoint | None, ...]:
        return tuple(self.eval_at(i) for i in range(len(self.line) + 1))

    # --- changing ------------------------------------------------------------------------
    def play(self, move: int) -> Position:
        """Play ``move`` at the cursor; a different move than the line's next one cuts the line."""
        pos = self.position.play(move)  # raises IllegalMoveError
        if self.cursor < len(self.line) and self.line[self.cursor] == move:
            self.cursor += 1
            return pos
        del self.line[self.cursor :]
        del self._positions[self.cursor + 1 :]
        self.evals = {k: v for k, v in self.evals.items() if k <= self.cursor}
        self.line.append(move)
        self._positions.append(pos)
        self.cursor += 1
        return pos

    def set_continuation(self, moves: tuple[int, ...] | list[int]) -> None:
        """Replace the moves after the cursor with ``moves`` (e.g. the rest of a variation from
        ``game.play.variations``, so Redo follows it); raises the rules' errors on an illegal move."""
        positions = [self.position]
        for move in moves:
            positions.append(positions[-1].play(move))
        self.truncate()
        self.line.extend(moves)
        self._positions.extend(positions[1:])

    def truncate(self) -> None:
        """Drop the moves after the cursor ("continue from here")."""
        del self.line[self.cursor :]
        del self._positions[self.cursor + 1 :]
        self.evals = {k: v for k, v in self.evals.items() if k <= self.cursor}

    def go_to(self, ply: int) -> bool:
        ply = max(0, min(ply, len(self.line)))
        changed = ply != self.cursor
        self.cursor = ply
        return changed

    def reset(self, spec: GameSpec | None = None) -> None:
        if spec is not None:
            self.spec = spec
        self.line = []
        self.cursor = 0
        self.evals = {}
        self.proofs = {}
        self.forced = {}
        self._rebuild()

    def load(self, spec: GameSpec, moves: tuple[int, ...], cursor: int | None = None) -> None:
        """Replace the game (moves already validated by ``spec.parse_position``)."""
        self.spec = spec
        self.line = list(moves)
        self.cursor = len(moves) if cursor is None else cursor
        self.evals = {}
        self.proofs = {}
        self.forced = {}
        self._rebuild()

    def record_estimate(self, ply: int, value: PovValue) -> None:
        """Store an engine estimate of the position after ``ply`` moves (kept as the first player's chance)."""
        if 0 <= ply < len(self._positions):
            self.evals[ply] = value.for_player(0)

    def record_eval(self, ply: int, value_for_mover: float) -> None:
        """Store an engine estimate given for the side to move after ``ply`` moves."""
        if 0 <= ply < len(self._positions):
            self.record_estimate(ply, PovValue(value_for_mover, self._positions[ply].to_move))

    def record_proof(
        self, moves: tuple[int, ...] | list[int], mover: int, result: str, forced: ForcedLine | None = None
    ) -> None:
        """Store a proven ``result`` ("win" | "draw" | "loss") for ``mover`` at the position after ``moves``;
        ``forced``: the proven win's forced line, when the engine knows it."""
        value = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
        if len(self.proofs) > 20000:
            self.proofs.clear()
            self.forced.clear()
        key = self.spec.moves_to_text(list(moves))
        self.proofs[key] = PovValue(value, mover).for_player(0)
        winner = {"win": mover, "loss": 1 - mover}.get(result)
        if forced is not None and winner is not None:
            self.forced[key] = ForcedNote(winner, forced)
