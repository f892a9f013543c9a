"""Exact verdicts under the Connect 4 columns, the Perfect level and screenshots that wait for the engine."""

from __future__ import annotations

import itertools
import random
from functools import cache
from pathlib import Path
from typing import Any

import pygame
import pytest
from test_ui_fakes import FakeEngineClient

from game.play import controller
from game.play.book_facts import BookFacts
from game.play.engine_driver import EngineDriver
from game.play.exact import EXACT_MS, Verdict, column_verdicts, score_verdict
from game.play.heat import HeatData, HeatEntry
from game.play.players import BotSetting, Mode
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.ui import headless
from game.ui.app_probe import AppProbe
from game.ui.app_run import create_app, shutdown
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(180)


def make_app(game: str = "connect4", moves: str = "", mode: str = Mode.HOTSEAT, client: Any = None, **kw: Any) -> Any:
    settings = Settings(mode=Mode.parse(mode), window=(1000, 700), sound=False, **{"eval_bar": False, **kw})
    client = client if client is not None else FakeEngineClient()
    factory = client if callable(client) and not isinstance(client, FakeEngineClient) else (lambda: client)
    app = create_app(settings, Session.from_text(game, moves), persist=False, driver=EngineDriver(factory))
    app.turns.min_bot_delay = 0.0
    app.turns.book = BookFacts(enabled=False)  # the engine's answers (the book's: test_ui_board_labels)
    return app, client


def key(k: int, text: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text)


def run_for(app: Any, seconds: float, fps: int = 60) -> None:
    now = app.now
    for _ in range(int(seconds * fps)):
        now += 1 / fps
        app.step([], now=now)


# --- the score -> words conversion, checked against a plain minimax -------------------------------
@cache
def _best(pos: Any) -> tuple[int, int]:
    """The side to move's best ``_after`` under play that wins fastest and loses slowest."""
    return max(_after(pos, move) for move in pos.legal_moves())


def _after(pos: Any, move: Any) -> tuple[int, int]:
    """(1, -n): a win with the mover's n-th stone from now (this one is the first); (-1, n): a loss
    after the mover placed n stones; (0, 0): a draw. ``max`` of these picks the best move."""
    child = pos.play(move)
    if child.outcome.winner is not None:
        return (1, -1)
    if child.outcome.is_over:
        return (0, 0)
    result, k = _best(child)
    if result == 1:  # the opponent wins with its n-th stone: I placed n stones (this one and n - 1 more)
        return (-1, -k)
    if result == -1:  # the opponent loses after placing n stones: my (n + 1)-th stone wins
        return (1, -(k + 1))
    return (0, 0)


def _verdict_by_minimax(pos: Any, move: Any) -> str:
    result, stones = _after(pos, move)
    if result == 0:
        return "draw"
    if result == 1:
        n = -stones
        return "win now" if n == 1 else f"win in {n}"
    return f"loss in {stones}"


def _random_position(game: str, ply: int, seed: int) -> Any:
    """A position reached by ``ply`` random moves that is not over yet (seeded, so reproducible)."""
    rng = random.Random(seed)
    spec = get_game(game)
    while True:
        pos = spec.start()
        for _ in range(ply):
            if pos.outcome.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if not pos.outcome.is_over:
            return pos


@pytest.mark.parametrize(
    "game,ply",
    [("connect4:4x4", 4), ("connect4:4x4", 7), ("connect4:5x4", 8), ("connect4:4x5", 9), ("connect4:5x4", 11)],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_scores_become_the_right_number_of_moves(game: Any, ply: Any, seed: Any) -> None:
    from ai.solver.core import analyze_columns

    pos = _random_position(game, ply, seed)
    spec = pos.spec
    columns = analyze_columns(pos)
    assert columns.complete
    cells = spec.width * spec.height
    for move in pos.legal_moves():
        words = score_verdict(cells, pos.ply, columns.scores[move]).text
        assert words == _verdict_by_minimax(pos, move), (game, pos.to_text(), spec.move_to_text(move))


def test_verdicts_fall_back_to_estimates_then_unknown() -> None:
    spec = get_game("connect4")
    heat = HeatData(
        4, {3: HeatEntry(3, 0.6, 0.61), 2: HeatEntry(2, 0.3, 0.4, "loss", -2), 1: HeatEntry(1, 0.1, 1.0, "win")}
    )
    verdicts = column_verdicts(spec, 4, (0, 1, 2, 3), {0: None, 2: None, 3: None}, heat)
    assert verdicts[3].kind == "estimate" and verdicts[3].text == "61%"
    assert verdicts[2].kind == "exact" and verdicts[2].outcome == "loss"  # scored by the search's solver
    assert verdicts[1].text == "win" and verdicts[1].kind == "exact"  # proven by the search, length unknown
    assert verdicts[0].kind == "unknown"
    assert score_verdict(42, 0, 0).text == "draw" and score_verdict(42, 0, 1).text == "win in 21"
    pending = column_verdicts(spec, 4, (0, 3), {0: None}, None, pending=True)  # the solver is still on them
    assert [v.text for v in pending.values()] == ["solving…", "solving…"] and pending[0].kind == "pending"
    assert pending[0].variants() == ("solving…", "…")  # a narrow column still says it


def test_columns_say_solving_until_the_solver_answers() -> None:
    app, client = make_app(moves="4453", exact=True)
    try:
        app.step([])
        assert {v.kind for v in app.engine.verdicts(app.caps).values()} == {"pending"}  # asked, not answered yet
        run_for(app, 0.2)
        assert {v.kind for v in app.engine.verdicts(app.caps).values()} == {"exact"}
    finally:
        shutdown(app)


# --- the app ------------------------------------------------------------------------------------
def test_exact_toggle_asks_the_solver_and_shows_verdicts() -> None:
    app, client = make_app(moves="4453")
    try:
        app.step([key(pygame.K_x, "x")])
        assert app.settings.exact
        run_for(app, 0.3)
        solves = [s for s in client.searches if "solve_ms" in s]
        assert solves and solves[0]["solve_ms"] == EXACT_MS and solves[0]["moves"] == "4453"
        verdicts = app.engine.verdicts(app.caps)
        assert verdicts is not None and set(verdicts) == set(app.session.position.legal_moves())
        # the fake scores its preferred (first legal) column +5, the others -1, at ply 4 of 7x6:
        # +5 = a win at ply 32, the mover's 15th stone from now; -1 = a loss at ply 41, after 19 stones
        assert verdicts[0].text == "win in 15" and verdicts[0].kind == "exact"
        assert all(v.text == "loss in 19" for m, v in verdicts.items() if m != 0)
        assert any(s.get("time_ms") for s in client.searches)  # then the usual analysis
        app.play_move(3)
        run_for(app, 0.2)
        assert [s["moves"] for s in client.searches if "solve_ms" in s][:2] == ["4453", "44534"]
        app.step([key(pygame.K_x, "x")])
        assert not app.settings.exact and app.engine.verdicts(app.caps) is None
    finally:
        shutdown(app)


def test_exact_is_for_connect4_only() -> None:
    app, client = make_app("tictactoe")
    try:
        app.step([key(pygame.K_x, "x")])
        assert not app.settings.exact
        assert app.notice is not None and "Connect 4" in app.notice.notice.text
        assert not any("solve_ms" in s for s in client.searches)
    finally:
        shutdown(app)


def test_perfect_level_asks_for_exact_play_with_five_seconds() -> None:
    app, client = make_app(mode=Mode.VS_BOT, bots=[BotSetting("perfect"), BotSetting("perfect")])
    try:
        app.play_move(3)
        run_for(app, 0.1)
        bot = [s for s in client.searches if s.get("time_ms") == 5000]
        assert bot and bot[0]["exact"] is True and bot[0]["level"] == "perfect"
    finally:
        shutdown(app)
    app, client = make_app(mode=Mode.VS_BOT, bots=[BotSetting("hard"), BotSetting("hard")])
    try:
        app.play_move(3)
        run_for(app, 0.1)
        assert [(s["exact"], s["level"]) for s in client.searches if s.get("level")] == [(False, "hard")]
    finally:
        shutdown(app)


@pytest.mark.slow
def test_exact_verdicts_with_the_real_engine() -> Any:
    settings = Settings(mode=Mode.HOTSEAT, window=(1000, 700), sound=False, eval_bar=False, exact=True)
    app = create_app(settings, Session.from_text("connect4", "44536655"), persist=False)
    try:

        def solved() -> bool:
            assert app.turns.driver.unavailable is None, app.turns.driver.unavailable
            app.step()
            return app.turns.exact_cache.get("connect4", "44536655") is not None

        wait_until(solved, 120, "a solution from the engine")
        verdicts = app.engine.verdicts(app.caps)
        assert verdicts is not None
        assert verdicts[6].text == "win now" and verdicts[6].kind == "exact"  # red completes 4-5-6-7
        assert verdicts[5].text == "loss in 1"  # column 6 lets yellow win on top of it
    finally:
        shutdown(app)


# --- screenshots wait for the analysis ------------------------------------------------------------
def test_screenshot_waits_for_the_heatmap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app, client = make_app(moves="4453", mode=Mode.VS_BOT, heatmap=True)
    app.settings.eval_bar = True
    shot = tmp_path / "heat.png"
    assert headless.screenshot(AppProbe(app), shot, 3.0, False) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and shot.exists()
    assert app.turns.heat is not None and app.turns.heat_moves == "4453" and app.session.eval_at(4) is not None
    image = pygame.image.load(str(shot))
    hot, cold = (image.get_at(tuple(map(round, app.layout.board.center(col, 5)))) for col in (0, 6))
    assert hot != cold  # the fake engine's favourite column is tinted warmer in the picture


def test_screenshot_without_an_engine_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise OSError("no engine here")

    app, _ = make_app(moves="4453", client=broken, heatmap=True)
    shot = tmp_path / "noengine.png"
    assert headless.screenshot(AppProbe(app), shot, 3.0, False) == 0
    err = capsys.readouterr().err
    assert shot.exists() and "warning" in err and "no engine here" in err


def test_an_unfinished_solve_is_retried_with_longer_budgets() -> None:
    from game.play.exact import EXACT_TIME_MS, ExactCache

    cache = ExactCache()
    assert cache.next_budget("connect4", "44") == EXACT_TIME_MS[0]
    for used, following in itertools.pairwise(EXACT_TIME_MS):
        cache.put("connect4", "44", {0: None, 3: 2}, used)
        assert cache.next_budget("connect4", "44") == following > used
    assert sum(EXACT_TIME_MS) >= 5000  # the slowest positions past the book take 3-5 s on two cores
    cache.put("connect4", "44", {0: None, 3: 2}, EXACT_TIME_MS[-1])
    assert cache.next_budget("connect4", "44") == EXACT_TIME_MS[-1]  # it keeps solving (issue 37 #7) ...
    cache.stop("connect4", "44")
    assert cache.next_budget("connect4", "44") is None  # ... until the player stops it: estimates fill the rest
    cache.put("connect4", "4", {0: -1, 3: 2}, EXACT_TIME_MS[0])
    assert cache.next_budget("connect4", "4") is None  # complete
    settings = Settings(mode=Mode.VS_BOT, human_player=0, exact=True, heatmap=True)
    human_turn, bot_turn = Session.from_text("connect4", "44"), Session.from_text("connect4", "4")
    assert controller.wanted_search(settings, human_turn, False, False, 500, exact_solver=True) == ("exact", 500)
    assert (controller.wanted_search(settings, human_turn, False, False, None) or ("",))[0] == "analysis"
    assert (controller.wanted_search(settings, bot_turn, False, False, 500) or ("",))[0] == "bot"  # the bot first
    held_back = controller.wanted_search(settings, bot_turn, False, False, 500, analysis_only=True, exact_solver=True)
    assert held_back == ("exact", 500)
    settings.exact = False
    wanted = controller.wanted_search(settings, human_turn, False, False, 500, exact_solver=True)
    assert wanted is not None and wanted[0] == "analysis"


def test_a_solution_line_is_not_taken_for_a_heatmap() -> None:
    app, client = make_app(moves="4453", heatmap=True, exact=True)
    try:
        app.step([])  # asks the solver first
        assert client.searches and "solve_ms" in client.searches[-1]
        app.step([])  # the solution arrives (and the analysis starts)
        assert app.turns.exact_cache.get("connect4", "4453") is not None
        assert app.turns.heat is None or app.turns.heat.iterations > 0
    finally:
        shutdown(app)


def test_a_proven_position_settles_its_last_open_column_by_elimination() -> None:
    from game.play.exact import by_elimination

    loss = Verdict("loss in 1", "exact", "loss", 1)
    open_col = Verdict("49%", "estimate")
    won = by_elimination({0: open_col, 1: loss, 2: loss}, "win")  # won, and every other column loses
    assert won[0] == Verdict("win", "exact", "win") and won[1] == loss
    assert by_elimination({0: open_col, 1: open_col, 2: loss}, "win")[0] == open_col  # two open: not settled
    drawn_known = Verdict("draw", "exact", "draw")
    assert by_elimination({0: open_col, 1: drawn_known}, "draw")[0] == open_col  # the draw is reached already
    lost = by_elimination({0: open_col, 1: Verdict("solving…", "pending"), 2: loss}, "loss")
    assert all(v.outcome == "loss" for v in lost.values())  # a lost position: every column loses
    assert by_elimination({0: open_col}, None) == {0: open_col}


def test_the_app_settles_the_only_saving_column_from_the_parents_proof() -> None:
    # 44352: Yellow must play 1; the solve of the parent 4435 proved 2 loses for Red (so 44352 is won for Yellow)
    app, client = make_app(moves="44352", exact=True)
    try:
        app.session.record_proof((3, 3, 2, 4, 1), 0, "loss")  # Red's 2 loses: Yellow (to move) wins
        app.turns.exact_cache.put("connect4", "44352", {c: (None if c == 0 else -18) for c in range(7)}, 1500)
        verdicts = app.engine.verdicts(app.caps)
        assert verdicts[0] == Verdict("win", "exact", "win") and verdicts[3].outcome == "loss"
    finally:
        shutdown(app)


def _solved(client: FakeEngineClient) -> list[str]:
    return [s["moves"] for s in client.searches if "solve_ms" in s]


def test_the_solver_looks_one_move_ahead_once_the_shown_position_is_done() -> None:
    """While the player thinks, the positions one move on (centre first) are solved, so that the verdicts
    are there the moment a column is played, with no new solve."""
    app, client = make_app(moves="4453", exact=True)
    try:
        run_for(app, 0.5)
        solved = _solved(client)
        assert solved[0] == "4453"
        first_analysis = next(i for i, s in enumerate(client.searches) if s.get("time_ms"))
        first_ahead = next(i for i, s in enumerate(client.searches) if s["moves"] != "4453")
        assert first_analysis < first_ahead  # the shown position's own analysis first
        assert solved[1:8] == ["44534", "44533", "44535", "44532", "44536", "44531", "44537"]
        assert [s["moves"] for s in client.searches].count("4453") == 2  # its analysis is not run again
        app.play_move(1)
        app.step([], now=app.now + 1 / 60)
        verdicts = app.engine.verdicts(app.caps)
        assert verdicts is not None and {v.kind for v in verdicts.values()} == {"exact"}  # at once
        run_for(app, 0.5)
        assert _solved(client).count("44532") == 1  # not solved again once shown
    finally:
        shutdown(app)


def test_a_move_ends_the_look_ahead_and_the_shown_position_comes_first() -> None:
    client = FakeEngineClient(polls_to_finish=1000)  # the analysis never ends by itself
    app, _ = make_app(moves="4453", client=client, exact=True)
    try:
        run_for(app, 0.3)
        assert _solved(client) == ["4453"]  # the analysis still runs: no look ahead yet
        client.polls_to_finish = 1
        run_for(app, 0.3)
        assert len(_solved(client)) == 12  # the shown position, 7 ahead, 4 back (see the next test)
        client.polls_to_finish = 1000
        app.play_move(1)  # "44532", solved ahead: its analysis comes next, then its own look ahead
        run_for(app, 0.3)
        assert client.searches[-1]["moves"] == "44532" and client.searches[-1].get("time_ms")
        assert app.turns.heat_for(app.session, True) is not None  # the heat shown is the shown position's
    finally:
        shutdown(app)


def test_no_look_ahead_while_the_bot_thinks_on_the_players_time() -> None:
    app, client = make_app(
        moves="4453", mode=Mode.VS_BOT, exact=True, bots=(BotSetting("human"), BotSetting("perfect")), ponder="on"
    )
    try:
        run_for(app, 0.5)
        assert _solved(client) == ["4453"] and client.ponders
    finally:
        shutdown(app)


def test_a_new_game_analyses_its_first_position_again() -> Any:
    """What was searched belongs to the old game: the same opening position is analysed afresh (its eval)."""
    app, client = make_app(exact=True)
    try:
        run_for(app, 0.5)

        def analyses() -> int:
            return sum(1 for s in client.searches if s["moves"] == "" and s.get("time_ms"))

        before = analyses()
        assert before == 1
        app.new_game()
        run_for(app, 0.5)
        assert analyses() == before + 1
    finally:
        shutdown(app)


def test_turning_exact_off_ends_a_running_look_ahead() -> None:
    client = FakeEngineClient(unanswered=("4",))  # the first look ahead runs on
    app, _ = make_app(client=client, exact=True, eval_bar=True)
    try:
        run_for(app, 0.5)
        assert app.turns.driver.search is not None and app.turns.driver.search.moves == "4"
        app.step([key(pygame.K_x, "x")])  # the eval bar's analysis is still the shown position's need
        app.step([], now=app.now + 1 / 60)
        assert app.turns.driver.search is None or app.turns.driver.search.moves == ""
    finally:
        shutdown(app)


def test_the_graph_gets_points_for_the_earlier_positions_of_a_restored_game() -> None:
    """A restored or loaded game has no eval points before the shown position: once the shown position is done,
    the solver looks back at them, nearest first, and their scores become proven points."""
    app, client = make_app(moves="4453", eval_bar=True)  # exact verdicts off: the eval graph alone asks
    try:
        assert [app.session.eval_at(ply) for ply in range(4)] == [None] * 4
        run_for(app, 0.5)
        assert _solved(client) == ["445", "44", "4", ""]
        assert all(point is not None and point.exact for point in (app.session.eval_at(p) for p in range(4)))
        app.settings.eval_bar = False
        app.session.load(app.session.spec, (3, 3, 4, 2))  # another game, no eval bar: no look back
        run_for(app, 0.5)
        assert _solved(client) == ["445", "44", "4", ""]
    finally:
        shutdown(app)
