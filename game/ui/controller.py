"""Turn logic without pygame: whose move it is, which search the engine should run, undo/redo targets."""

from __future__ import annotations

from typing import Any

from game.errors import GameError
from game.ui.players import is_bot
from game.ui.session import Session
from game.ui.settings import Settings

ANALYSIS_HEATMAP_MS = 20000  # analysis on a human's turn with the heatmap on
ANALYSIS_EVAL_MS = 1500  # a short look for the eval bar and graph
MIN_BOT_DELAY = 0.45  # seconds a bot's turn lasts at least, so its move can be followed


def bot_to_move(settings: Settings, session: Session) -> bool:
    return is_bot(settings.mode, settings.human_player, session.position.to_move)


def exact_available(session: Session) -> bool:
    """Exact verdicts exist for Connect 4 boards (the engine's solver)."""
    return session.spec.name.startswith("connect4")


def wanted_search(
    settings: Settings, session: Session, paused: bool, step: bool, exact_budget: int | None = None,
    analysis_only: bool = False,
) -> tuple[str, int] | None:
    """("bot" | "solve" | "analysis" | "exact", budget_ms) for the shown position, or None.

    A "bot" budget of 0 means a move without the engine (the Random level); "solve" asks the
    engine's exact solver for every column's score and plays the best one. With exact analysis
    on, a position the solver has not finished gets an "exact" look of ``exact_budget`` ms first
    (when no bot is to move), then the usual analysis (its estimates fill the columns the solver missed).
    ``analysis_only`` (screenshots) holds the bots back: their turns are analysed instead.
    """
    pos = session.position
    if pos.outcome.is_over:
        return None
    want = _turn_search(settings, session, paused, step)
    if want is not None and want[0] in ("bot", "solve"):
        if not analysis_only:
            return want
        want = ("analysis", ANALYSIS_HEATMAP_MS)
    if settings.exact and exact_available(session) and exact_budget is not None:
        return ("exact", exact_budget)
    return want


def _turn_search(settings: Settings, session: Session, paused: bool, step: bool) -> tuple[str, int] | None:
    pos = session.position
    if session.at_end and bot_to_move(settings, session):
        if settings.mode == "bot-vs-bot" and paused and not step:
            return _analysis(settings)
        bot = settings.bots[pos.to_move]
        if bot.difficulty.kind == "solve":
            return ("solve", bot.time_ms or 300)
        return ("bot", bot.time_ms or 0)
    return _analysis(settings)


def _analysis(settings: Settings) -> tuple[str, int] | None:
    if settings.heatmap:
        return ("analysis", ANALYSIS_HEATMAP_MS)
    if settings.eval_bar or settings.exact:
        return ("analysis", ANALYSIS_EVAL_MS)
    return None


def undo_target(settings: Settings, session: Session) -> int:
    """Where Undo goes: one move back, or back to the human's last turn against a bot."""
    target = max(0, session.cursor - 1)
    if settings.mode == "vs-bot":
        while target > 0 and is_bot(settings.mode, settings.human_player, session.position_at(target).to_move):
            target -= 1
    return target


def redo_target(settings: Settings, session: Session) -> int:
    target = min(len(session.line), session.cursor + 1)
    if settings.mode == "vs-bot":
        while target < len(session.line) and is_bot(
            settings.mode, settings.human_player, session.position_at(target).to_move
        ):
            target += 1
    return target


def refusal_text(pos: Any, move: int) -> str | None:
    """A short reason for an Ultimate TTT cell outside the board(s) one may play in (else None)."""
    allowed = getattr(pos, "allowed_boards", None)
    if allowed is None or pos.outcome.is_over:
        return None
    from game.uttt import board_name, board_of

    boards = allowed()
    if not 0 <= move < 81 or board_of(move) in boards or len(boards) != 1:
        return None
    return f"Play in the framed board {board_name(boards[0])}"


def best_scored_move(session: Session, msg: dict[str, Any]) -> int:
    """The column with the best exact score in a solver answer (ties: nearest the centre)."""
    spec, pos = session.spec, session.position
    legal = pos.legal_moves()
    centre = (spec.width - 1) / 2
    scores: dict[int, int] = {}
    for child in msg.get("children") or []:
        if not isinstance(child, dict) or not isinstance(child.get("score"), int):
            continue
        try:
            move = spec.parse_move(str(child.get("move")))
        except GameError:
            continue
        if move in legal:
            scores[move] = child["score"]
    pool = [m for m in legal if m in scores] or list(legal)
    return max(pool, key=lambda m: (scores.get(m, -999), -abs(m - centre)))
