"""The app driven headless through its real frame function with synthetic events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from test_ui_fakes import FakeEngineClient

from game.play.actions import Command
from game.play.engine_driver import EngineDriver
from game.play.players import BotSetting, Mode
from game.play.session import Session
from game.play.settings import Settings
from game.ui.app_run import create_app, shutdown
from game.ui.eval_graph import x_of
from game.ui.frame import HelpCard
from game.ui.move_list import move_cells

pytestmark = pytest.mark.timeout(120)


def make_app(mode: str = Mode.HOTSEAT, client: FakeEngineClient | None = None, **settings_kw: Any) -> Any:
    settings = Settings(mode=Mode.parse(mode), window=(1000, 700), sound=False, eval_bar=False, **settings_kw)
    client = client or FakeEngineClient()
    app = create_app(settings, Session.from_text("connect4"), persist=False, driver=EngineDriver(lambda: client))
    app.turns.min_bot_delay = 0.0
    return app, client


@pytest.fixture
def hotseat() -> Iterator[Any]:
    app, client = make_app(Mode.HOTSEAT)
    yield app
    shutdown(app)


def click_column(app: Any, col: int) -> None:
    x, _ = app.layout.board.center(col, 0)
    y = app.layout.board.rect.top + app.layout.board.cell // 2
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(int(x), int(y))))


def run_for(app: Any, seconds: float, fps: int = 60, start: float | None = None) -> float:
    """Step the app with simulated time; returns the final time."""
    now = app.now if start is None else start
    for _ in range(int(seconds * fps)):
        now += 1 / fps
        app.step([], now=now)
    return now


def test_clicks_drop_discs_in_the_clicked_columns(hotseat: Any) -> None:
    app = hotseat
    app.step()
    click_column(app, 2)
    app.step()  # reads the posted event from pygame's queue
    assert app.session.line == [2]
    assert app.animation is not None and app.animation.col == 2
    run_for(app, 1.5)
    assert app.animation is None
    click_column(app, 6)
    app.step()
    click_column(app, 6)
    app.step()
    assert app.session.line == [2, 6, 6]
    assert app.session.position.cell(6) == 1  # the bottom disc of column 7 is the second player's
    assert app.session.position.cell(1 * 7 + 6) == 0  # the one above it is the first player's


def test_drop_falls_then_settles_with_time_not_frames(hotseat: Any) -> None:
    app = hotseat
    app.play_move(3)
    anim = app.animation
    start = anim.started
    rows = [anim.row_at(start + t / 100) for t in range(0, 200)]
    assert rows[0] > rows[10] > anim.row  # falling
    assert min(rows) >= anim.row - 1e-9  # never below its cell
    assert any(r > anim.row + 1e-3 for r in rows[int(anim.fall_time * 100) + 2 :])  # bounces back up
    assert rows[-1] == anim.row


def test_keys_play_undo_redo_and_toggle(hotseat: Any) -> None:
    app = hotseat
    key = lambda k, u="": pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=u)  # noqa: E731
    app.step([key(pygame.K_4, "4"), key(pygame.K_5, "5")])
    assert app.session.line == [3, 4]
    app.step([key(pygame.K_u, "u")])
    assert app.session.cursor == 1 and app.session.line == [3, 4]
    app.step([key(pygame.K_r, "r")])
    assert app.session.cursor == 2
    app.step([key(pygame.K_RIGHT), key(pygame.K_RETURN)])  # the drop cursor, then drop
    assert len(app.session.line) == 3
    heat_before = app.settings.heatmap
    app.step([key(pygame.K_h, "h")])
    assert app.settings.heatmap is not heat_before
    app.step([key(pygame.K_SLASH, "?")])
    assert isinstance(app.overlay, HelpCard)
    app.step([key(pygame.K_ESCAPE)])
    assert app.overlay is None


def test_history_navigation_and_continue_from_here(hotseat: Any) -> None:
    app = hotseat
    for col in (3, 3, 4, 2):
        app.play_move(col)
    ctrl_left = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=pygame.KMOD_CTRL, unicode="")
    app.step([ctrl_left, ctrl_left])
    assert app.session.cursor == 2 and not app.session.at_end
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode="")])
    assert app.session.cursor == 0
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="")])
    assert app.session.cursor == 4
    app.go_to(2)
    app.apply(Command.CONTINUE)  # it asks first: the later moves would be lost (issue 37, polish)
    assert app.session.line == [3, 3, 4, 2] and app.notice is not None and "again" in app.notice.notice.text
    app.apply(Command.CONTINUE)
    assert app.session.line == [3, 3]


def test_every_panel_button_can_be_clicked_without_error(hotseat: Any) -> None:
    app = hotseat
    app.play_move(3)
    app.step([])
    commands = {b.action for b in app.layout.buttons if isinstance(b.action, Command)}
    assert {
        Command.UNDO,
        Command.HEATMAP,
        Command.EVAL,
        Command.SOUND,
        Command.SAVE,
        Command.COPY,
        Command.NEW_GAME,
        Command.HELP,
    } <= commands
    for index in range(len(app.layout.buttons)):
        app.overlay = app.dialog.choice = None
        app.step([])
        if index >= len(app.layout.buttons):
            break
        button = app.layout.buttons[index]
        if button.action in (Command.LOAD, Command.PASTE) or not button.hit(button.rect.center):
            continue
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center)])
    assert app.window.running


def test_bot_game_finishes_with_an_injected_client() -> None:
    app, client = make_app(Mode.BOT_VS_BOT, FakeEngineClient(polls_to_finish=2))
    try:
        now = app.now
        for _ in range(3000):
            now += 1 / 60
            app.step([], now=now)
            if app.session.final_position.outcome.is_over and app.animation is None:
                break
        outcome = app.session.final_position.outcome
        assert outcome.is_over
        assert len(client.searches) >= len(app.session.line)  # every move came from a search
        # the fake always plays the first legal column: the first player wins in column 1
        assert app.session.line[:7] == [0, 0, 0, 0, 0, 0, 1]
    finally:
        shutdown(app)


def test_undo_while_the_bot_thinks_cancels_the_search() -> None:
    app, client = make_app(Mode.VS_BOT, FakeEngineClient(polls_to_finish=50))
    try:
        app.play_move(3)
        now = run_for(app, 0.1)
        search = app.turns.driver.search
        assert search is not None and search.kind == "bot" and not search.finished
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0, unicode="u")], now=now + 0.01)
        assert client.stops == 1
        assert app.session.cursor == 0
        run_for(app, 1.0)  # the stopped search's late bestmove arrives and must be ignored
        assert app.session.cursor == 0 and app.session.line == [3]
        assert app.turns.driver.search is None or app.turns.driver.search.kind == "analysis"
    finally:
        shutdown(app)


def test_heatmap_updates_arrive_during_analysis_on_the_humans_turn() -> None:
    app, client = make_app(Mode.VS_BOT, FakeEngineClient(polls_to_finish=10_000), heatmap=True)
    try:
        seen = []
        now = app.now
        for _ in range(6):
            now += 1 / 60
            app.step([], now=now)
            if app.turns.heat is not None:
                seen.append(app.turns.heat.iterations)
        assert app.turns.driver.search is not None and app.turns.driver.search.kind == "analysis"
        assert len(seen) >= 4 and seen == sorted(seen) and seen[-1] > seen[0]
        assert app.turns.heat.best == 0  # the fake prefers the first column
        assert abs(sum(e.share for e in app.turns.heat.entries.values()) - 1) < 1e-9
        app.play_move(3)  # a move cancels the analysis of the old position
        assert client.stops == 1
    finally:
        shutdown(app)


def test_random_level_moves_without_the_engine() -> None:
    settings_bots = [BotSetting("random"), BotSetting("random")]
    app, client = make_app(Mode.VS_BOT, bots=settings_bots)
    try:
        app.play_move(3)
        run_for(app, 3.0)
        assert len(app.session.line) == 2
        assert client.searches == []
    finally:
        shutdown(app)


def test_resizing_keeps_the_board_inside_the_window(hotseat: Any) -> None:
    app = hotseat
    for size in ((720, 520), (1600, 1000), (900, 560)):
        app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        app.step([])
        assert app.screen.get_rect().contains(app.layout.board.rect)
        assert app.layout.board.cell >= 30


def test_narrow_window_folds_the_panel_into_a_menu(hotseat: Any) -> None:
    app = hotseat
    app.screen = pygame.display.set_mode((760, 560), pygame.RESIZABLE)
    app.step([])
    assert app.layout.panel is None and app.layout.buttons == app.layout.top_buttons
    menu = next(b for b in app.layout.top_buttons if b.action is Command.PANEL)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=menu.rect.center)])
    app.step([])
    assert app.layout.panel is not None
    undo = next(b for b in app.layout.buttons if b.action is Command.UNDO)
    assert app.screen.get_rect().contains(undo.rect)
    assert app.layout.panel.moves_rect is not None and app.layout.panel.graph_rect is not None
    before = app.session.line[:]
    board_click = (app.layout.panel.rect.left + 5, app.layout.board.rect.centery)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=board_click)])
    assert app.session.line == before  # a click on the open drawer does not drop a disc


def test_a_solver_level_is_one_line_in_the_difficulty_list(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.play import players

    solver = players.Difficulty("solver", "Solver", "solve", 300)
    monkeypatch.setattr(players, "DIFFICULTIES", (*players.DIFFICULTIES, solver))
    monkeypatch.setattr(players, "DIFFICULTY_KEYS", (*players.DIFFICULTY_KEYS, "solver"))
    app, client = make_app(Mode.VS_BOT, FakeEngineClient(prefer=[5]), bots=[BotSetting("solver"), BotSetting("solver")])
    try:
        app.play_move(3)
        run_for(app, 2.0)
        assert app.session.line == [3, 5]  # the column the solver scored best
        assert any("solve_ms" in s for s in client.searches)
    finally:
        shutdown(app)


def test_move_list_and_eval_graph_clicks_jump_to_moves(hotseat: Any) -> None:
    app = hotseat
    for col in (3, 3, 4, 4, 2):
        app.play_move(col)
    for ply in range(6):
        app.session.record_eval(ply, 0.5)
    app.step([])
    panel = app.layout.panel
    rect, ply = next((r, p) for r, p in move_cells(panel.moves_rect, 5, app.move_scroll) if p == 2)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center)])
    assert app.session.cursor == 2
    x = round(x_of(panel.graph_rect, 4, 10))
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, panel.graph_rect.centery))])
    assert app.session.cursor == 4


def test_paste_a_position_and_reject_garbage(hotseat: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.ui import files

    app = hotseat
    monkeypatch.setattr(files, "paste_text", lambda: "4453")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_CTRL, unicode="")])
    assert app.session.moves_text == "4453"
    monkeypatch.setattr(files, "paste_text", lambda: "hello world")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_CTRL, unicode="")])
    assert app.session.moves_text == "4453"  # the game is kept
    assert app.notice is not None and "clipboard" in app.notice.notice.text
    copied = []

    def copy_text(text: str) -> bool:
        copied.append(text)
        return True

    monkeypatch.setattr(files, "copy_text", copy_text)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=pygame.KMOD_CTRL, unicode="")])
    assert copied == ["4453"]


def test_quitting_while_the_bot_thinks_stops_and_closes_the_engine() -> None:
    app, client = make_app(Mode.VS_BOT, FakeEngineClient(polls_to_finish=1000))
    app.play_move(3)
    run_for(app, 0.2)
    assert app.turns.driver.search is not None and not app.turns.driver.search.finished
    running = app.step([pygame.event.Event(pygame.QUIT)])
    assert running is False
    shutdown(app)
    assert client.stops >= 1 and client.closed


def test_the_window_redraws_less_often_while_nothing_moves(hotseat: Any) -> None:
    """60 redraws a second of an idle window took half a core the solver could use: the rate drops to
    IDLE_FPS a while after the last event, and comes back with the next one and while a disc drops."""
    from game.ui import window

    app = hotseat
    start = app.now
    app.step([], now=start + window.SMOOTH_SECONDS / 2)
    assert app.frame_rate() == window.FPS  # just after the last event (here: the app's start)
    app.step([], now=start + window.SMOOTH_SECONDS + 0.1)
    assert app.frame_rate() == window.IDLE_FPS
    click_column(app, 3)
    app.step()  # reads the click from pygame's queue
    assert app.session.line == [3] and app.frame_rate() == window.FPS
    now = run_for(app, window.SMOOTH_SECONDS + 0.1)
    assert app.animation is None and app.frame_rate() == window.IDLE_FPS
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0))], now=now + 5)
    assert app.frame_rate() == window.FPS
    app.step([], now=now + 10)
    assert app.frame_rate() == window.IDLE_FPS
    app.human_move(2)  # a disc drops with no event (as a bot's or a network move does)
    app.step([], now=now + 10.02)
    assert app.animation is not None and app.frame_rate() == window.FPS
