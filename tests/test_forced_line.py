"""A proven win's forced line ("Red wins: VCF in 7") from the search result to the evaluation's heading."""

from __future__ import annotations

from ai.engine import protocol
from ai.vocab.results import ForcedLine, Info, MoveStats, SearchResult
from game.play.engine_driver import Search
from game.play.engine_events import absorb
from game.play.players import Mode
from game.play.session import Session
from game.rules import get_game
from game.ui.snapshot import graph_label

NAMES = ("Red", "Yellow")


def _analysis(session: Session, ply: int) -> Search:
    moves = session.spec.moves_to_text(session.line[:ply])
    return Search(id=1, kind="analysis", game=session.spec.name, moves=moves, ply=ply, time_ms=100, started=0.0)


def _proof(spec_name: str, moves: str, forced: ForcedLine | None, proven: int = 1) -> tuple[Session, Info]:
    session = Session.from_text(spec_name, moves)
    spec = session.spec
    best = spec.parse_position(moves).legal_moves()[0]
    result = SearchResult(
        best, 1.0, (MoveStats(best, 1, 1.0, proven),), 10, 1.0, 3, (best,), proven=proven, forced=forced
    )
    return session, protocol.result_message("info", spec, result, 1)


def test_a_vcf_reaches_the_heading_with_the_winners_name_and_moves() -> None:
    session, line = _proof("gomoku", "h8 h9 i9", ForcedLine(7, "VCF"))
    search = _analysis(session, 3)
    absorb(session, search, line)
    point = session.eval_at(3)
    assert point is not None and point.exact and point.forced is not None
    assert point.forced.winner == 1  # Yellow is to move after three stones and wins
    assert graph_label(point, NAMES) == "Yellow wins: VCF in 4"


def test_a_plain_proof_keeps_the_usual_heading() -> None:
    session, line = _proof("gomoku", "h8 h9 i9", None)
    search = _analysis(session, 3)
    absorb(session, search, line)
    point = session.eval_at(3)
    assert point is not None and point.exact and point.forced is None
    assert graph_label(point, NAMES) == "Red's winning chance"


def test_a_proven_loss_names_the_opponent_as_the_winner() -> None:
    session, line = _proof("gomoku", "h8 h9", ForcedLine(4, "search"), proven=-1)
    search = _analysis(session, 2)
    absorb(session, search, line)
    point = session.eval_at(2)
    assert point is not None and point.forced is not None
    assert graph_label(point, NAMES) == "Yellow wins in 2"


def test_an_unproven_result_sends_no_forced_line() -> None:
    spec = get_game("gomoku")
    result = SearchResult(112, 0.6, (), 10, 1.0, 3, (112,), proven=None, forced=ForcedLine(5, "VCF"))
    assert protocol.result_message("info", spec, result, 1).forced is None


def test_a_new_game_forgets_the_forced_lines() -> None:
    session, line = _proof("gomoku", "h8 h9 i9", ForcedLine(7, "VCF"))
    search = _analysis(session, 3)
    absorb(session, search, line)
    session.reset()
    assert session.forced == {}


def test_a_proof_that_lists_only_the_winning_move_stresses_it_and_claims_nothing_of_the_others() -> None:
    """A Gomoku proof names one move: it is the move to stress, and "every move wins" would be false."""
    session, line = _proof("gomoku", "h8 h9 i9", ForcedLine(7, "VCF"))
    absorbed = absorb(session, _analysis(session, 3), line)
    heat = absorbed.heat
    assert heat is not None and not heat.complete
    assert heat.common_outcome is None and not heat.uniform
    assert heat.best == next(iter(heat.entries)) and heat.emphasis(heat.best) == 1.0


def test_a_search_over_every_move_still_says_every_move_wins() -> None:
    session = Session.from_text("tictactoe", "a1 b1 b2 c1")  # the search says every move wins
    spec = session.spec
    legal = spec.parse_position("a1 b1 b2 c1").legal_moves()
    children = tuple(MoveStats(m, 1, 1.0, 1) for m in legal)
    result = SearchResult(legal[0], 1.0, children, 10, 1.0, 3, (legal[0],), proven=1)
    heat = absorb(session, _analysis(session, 4), protocol.result_message("info", spec, result, 1)).heat
    assert heat is not None and heat.complete and heat.common_outcome == "win"


def _frame_status(session: Session, mode: Mode, eval_bar: bool = True) -> str:
    """The status line's first text for ``session`` shown at its end (headless frame, no window)."""
    from test_ui_fakes import fresh_pygame

    from game.play.settings import Settings
    from game.play.themes import THEMES
    from game.rules.capabilities import capabilities
    from game.ui.snapshot import FrameFacts, build_frame

    fresh_pygame()
    facts = FrameFacts(
        now=0.0, settings=Settings(mode=mode, eval_bar=eval_bar), session=session, caps=capabilities(session.spec),
        theme=THEMES["classic"], names=NAMES, colours=THEMES["classic"].discs, can_play=True, hover=None,
        key_cursor=None, animation=None, placed=None, heat=None, verdicts=None, eval_shown=1.0, paused=False,
        held=False, analysis_only=False, planned=None, engine_ready=True, search=None, notice=None, overlay=None,
        mouse=(-1, -1), panel_open=False, move_scroll=0,
    )  # fmt: skip
    return build_frame(facts).status.texts[0]


def test_the_status_line_names_the_forced_line_where_the_panel_may_be_hidden() -> None:
    """At 640x480 the heading is behind the menu: the status line carries the proof (the eval bar on)."""
    session, line = _proof("gomoku", "h8 h9 i9 i10", ForcedLine(5, "VCT"))  # Red to move and wins
    absorb(session, _analysis(session, 4), line)
    assert _frame_status(session, Mode.HOTSEAT) == "Red to move · Red wins: VCT in 3"
    assert "wins" not in _frame_status(session, Mode.HOTSEAT, eval_bar=False)  # analysis off: no spoiler
    assert _frame_status(session, Mode.VS_BOT) == "Your move (Red) · Red wins: VCT in 3"


def test_the_status_line_keeps_a_players_loss_to_the_bot_to_the_eval_bar() -> None:
    session, line = _proof("gomoku", "h8 h9 i9 i10", ForcedLine(4, "VCF"), proven=-1)  # Yellow wins
    absorb(session, _analysis(session, 4), line)
    assert _frame_status(session, Mode.HOTSEAT) == "Red to move · Yellow wins: VCF in 2"
    assert "wins" not in _frame_status(session, Mode.VS_BOT)
