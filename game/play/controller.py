"""Turn logic without pygame: whose move it is, which search the engine should run, why a move is refused."""

from __future__ import annotations

from typing import cast

from game.play.engine_driver import SearchKind
from game.play.players import Mode, is_bot
from game.play.session import Session
from game.play.settings import Settings
from game.rules import Position
from game.rules.capabilities import GameCapabilities
from game.rules.uttt import UtttPosition, board_name, board_of

ANALYSIS_HEATMAP_MS = 20000  # analysis on a human's turn with the heatmap on
ANALYSIS_EVAL_MS = 1500  # a short look for the eval bar and graph
MIN_BOT_DELAY = 0.45  # seconds a bot's turn lasts at least, so its move can be followed


def bot_to_move(settings: Settings, session: Session) -> bool:
    return is_bot(settings.mode, settings.human_player, session.position.to_move)


def wanted_search(
    settings: Settings,
    session: Session,
    paused: bool,
    step: bool,
    exact_budget: int | None = None,
    analysis_only: bool = False,
    exact_solver: bool = False,
) -> tuple[SearchKind, int] | None:
    """("bot" | "solve" | "analysis" | "exact", time_ms) for the shown position, or None.

    A "bot" budget of 0 means a move without the engine (the Random level); "solve" asks the
    engine's exact solver for every column's score and plays the best one. With exact verdicts on
    (``exact_solver``: the game has a solver), a position the solver has not finished gets an "exact"
    look of ``exact_budget`` ms first (when no bot is to move), then the usual analysis.
    ``analysis_only`` (screenshots) holds the bots back: their turns are analysed instead.
    """
    if session.position.outcome.is_over:
        return None
    want = _turn_search(settings, session, paused, step)
    if want is not None and want[0] in ("bot", "solve"):
        if not analysis_only:
            return want
        want = ("analysis", ANALYSIS_HEATMAP_MS)
    if settings.exact and exact_solver and exact_budget is not None:
        return ("exact", exact_budget)
    return want


def _turn_search(settings: Settings, session: Session, paused: bool, step: bool) -> tuple[SearchKind, int] | None:
    pos = session.position
    if session.at_end and bot_to_move(settings, session):
        if settings.mode == Mode.BOT_VS_BOT and paused and not step:
            return _analysis(settings)
        bot = settings.bots[pos.to_move]
        if bot.difficulty.kind == "solve":
            return ("solve", bot.time_ms or 300)
        return ("bot", bot.time_ms or 0)
    return _analysis(settings)


def _analysis(settings: Settings) -> tuple[SearchKind, int] | None:
    if settings.heatmap:
        return ("analysis", ANALYSIS_HEATMAP_MS)
    if settings.eval_bar or settings.exact:
        return ("analysis", ANALYSIS_EVAL_MS)
    return None


def undo_target(settings: Settings, session: Session) -> int:
    """Where Undo goes: one move back, or back to the human's last turn against a bot."""
    target = max(0, session.cursor - 1)
    if settings.mode == Mode.VS_BOT:
        while target > 0 and is_bot(settings.mode, settings.human_player, session.position_at(target).to_move):
            target -= 1
    return target


def redo_target(settings: Settings, session: Session) -> int:
    target = min(len(session.line), session.cursor + 1)
    if settings.mode == Mode.VS_BOT:
        while target < len(session.line) and is_bot(
            settings.mode, settings.human_player, session.position_at(target).to_move
        ):
            target += 1
    return target


def refusal_text(caps: GameCapabilities, pos: Position, move: int) -> str | None:
    """A short reason for an Ultimate TTT cell outside the board(s) one may play in (else None)."""
    if not caps.local_boards or pos.outcome.is_over:
        return None
    boards = cast(UtttPosition, pos).allowed_boards()
    if not 0 <= move < caps.cells or board_of(move) in boards or len(boards) != 1:
        return None
    return f"Play in the framed board {board_name(boards[0])}"
