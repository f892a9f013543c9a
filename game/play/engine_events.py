"""What the engine's lines mean for the game shown, without pygame: estimates and proofs for the eval
graph, the heatmap, the bot's move (an exact look's column scores are cached by ``EngineTurns`` under the
position searched, which need not be the one shown).

Every value is stored from the first player's point of view (``Session.record_eval`` /
``record_proof``). A proof (a proven root, a proven or solved child) is stored for the position it
is about and outranks every estimate of that position, whoever searched it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ai.vocab.results import BestMove, ChildLine, Info, PovValue, Solution, SolvedMove
from game.play.engine_driver import Search, SearchLine
from game.play.exact import scores_from_solution
from game.play.heat import HeatData, engine_children, heat_from_info
from game.play.session import Session
from game.rules.errors import GameError

RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class Absorbed:
    heat: HeatData | None = None
    move: int | None = None  # the move a bot's search chose
    problem: str | None = None  # a one-line complaint about the line


def absorb(session: Session, search: Search, line: SearchLine) -> Absorbed:
    """Record what ``line`` (an info, bestmove or solution line of ``search``) says about the game's line."""
    spec = session.spec
    if spec.moves_to_text(session.line[: search.ply]) != search.moves:
        return Absorbed()  # the line changed under this search
    moves = tuple(session.line[: search.ply])
    mover = session.position_at(search.ply).to_move
    _record_proofs(session, moves, mover, line)
    if isinstance(line, Solution):
        if search.kind != "solve":
            return Absorbed()
        return Absorbed(move=best_scored_move(session, search.ply, scores_from_solution(spec, line)))
    heat = heat_from_info(spec, search.ply, line, session.position_at(search.ply).legal_moves())
    if line.iterations or line.proven:  # a result of 0 iterations says nothing
        session.record_estimate(search.ply, PovValue(line.value, mover))
    if isinstance(line, BestMove) and search.kind == "bot":
        try:
            move = spec.parse_move(line.move)
        except GameError:
            return Absorbed(heat=heat, problem=f"Engine sent a bad move {line.move!r}")
        if heat is not None and line.exact:
            heat = replace(heat, chosen=move)  # the overlay stresses the move the exact play chose
        return Absorbed(heat=heat, move=move)
    return Absorbed(heat=heat)


def _record_proofs(session: Session, moves: tuple[int, ...], mover: int, line: Info | Solution) -> None:
    children: list[tuple[int, ChildLine | SolvedMove]] = []
    if isinstance(line, Info):
        if line.proven in RESULTS:
            session.record_proof(moves, mover, line.proven, line.forced)
        children.extend(engine_children(session.spec, line.children))
    else:
        if line.score is not None:
            session.record_proof(moves, mover, _result_of(line.score))
        children.extend(engine_children(session.spec, line.children))
    for move, child in children:
        result = child.proven if isinstance(child, ChildLine) else None
        if child.score is not None:
            result = _result_of(child.score)
        if result in RESULTS:  # the child's result is for ``mover`` (who plays ``move``)
            session.record_proof((*moves, move), mover, str(result))


def _result_of(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def best_scored_move(session: Session, ply: int, scores: dict[int, int | None]) -> int:
    """The column with the best exact score (ties: nearest the centre; unknown scores last)."""
    spec = session.spec
    legal = session.position_at(ply).legal_moves()
    centre = (spec.width - 1) / 2
    known = {m: s for m, s in scores.items() if s is not None and m in legal}
    pool = [m for m in legal if m in known] or list(legal)
    return max(pool, key=lambda m: (known.get(m, -999), -abs(m - centre)))
