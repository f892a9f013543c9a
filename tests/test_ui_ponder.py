"""The app thinks on the player's time (issue 19, section 3), headless on the fake engine: the
"Think on your time" setting (persisted, on by default at Perfect and Custom, a panel toggle; it does not
apply to the levels defined by a fixed search, Beginner to Hard), a ponder started on the human's turn
against the bot and ended by every change of position or setting."""

from __future__ import annotations

import json

import pygame
import pytest
from test_ui_fakes import FakeEngineClient, make_test_app

from game.play.actions import Command, GoTo
from game.play.players import BotSetting, Mode
from game.play.pondering import ponder_on
from game.play.settings import Settings
from game.ui.app_probe import AppProbe
from game.ui.app_run import shutdown
from game.ui.game_app import App
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(60)


def vs_bot(
    level: str = "custom", moves: str = "", ponder: str = "auto", human: int = 0, **kw: object
) -> tuple[App, FakeEngineClient]:
    app, fake = make_test_app(
        moves=moves,
        mode=Mode.VS_BOT,
        human_player=human,
        ponder=ponder,
        bots=[BotSetting(level), BotSetting(level)],
        **kw,
    )
    AppProbe(app).hurry()
    return app, fake


def steps(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.step([])


def current(fake: FakeEngineClient) -> dict[str, object] | None:
    return fake.ponders[-1] if fake.pondering else None


def click(app: App, command: Command) -> None:
    button = next(b for b in app.layout.buttons if b.action is command)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center)])


def test_a_timed_bot_thinks_on_the_humans_time_and_says_so() -> None:
    app, fake = vs_bot("custom")
    try:
        steps(app)
        ponder = current(fake)
        assert ponder is not None and (ponder["game"], ponder["moves"], ponder["exact"]) == ("connect4", "", False)
        assert app.snapshot().status.texts[0].endswith("the bot thinks on your time")
        think = next(b for b in app.layout.buttons if b.action is Command.PONDER)
        assert think.active and think.label == "Think"
    finally:
        shutdown(app)


@pytest.mark.parametrize(
    ("level", "setting", "expected"),
    [
        ("easy", "auto", False),
        ("medium", "auto", False),
        ("hard", "auto", False),
        ("perfect", "auto", True),
        ("custom", "auto", True),
        ("custom", "off", False),
        ("perfect", "off", False),
        ("random", "on", False),
        ("medium", "on", False),
        ("hard", "on", False),
    ],
)  # a fixed-search level stays as calibrated
def test_the_default_follows_the_level_and_the_players_choice_wins(level: str, setting: str, expected: bool) -> None:
    app, fake = vs_bot(level, ponder=setting)
    try:
        steps(app)
        assert fake.pondering == expected
        if expected:
            assert current(fake)["exact"] == (level == "perfect")  # type: ignore[index]
    finally:
        shutdown(app)


@pytest.mark.parametrize("mode", [Mode.HOTSEAT, Mode.BOT_VS_BOT])
def test_no_ponder_without_a_human_against_the_bot(mode: str) -> None:
    app, fake = make_test_app(mode=mode, ponder="on", bots=[BotSetting("custom"), BotSetting("custom")])
    try:
        steps(app, 6)
        assert not fake.ponders
    finally:
        shutdown(app)


def test_the_humans_move_ends_the_ponder_and_the_bot_searches_the_tree_it_grew() -> None:
    app, fake = vs_bot("custom")
    try:
        steps(app)
        first = current(fake)
        assert first is not None
        app.play_move(0)  # the fake predicts the first legal column: a hit
        app.step([])
        assert first["ended_by"] == "position" and fake.searches[-1]["moves"] == "1"
        app.step([])  # the engine's ponderend arrives
        ends = app.turns.driver.ponder_ends
        assert ends and ends[-1].hit is True and ends[-1].played == "1"

        def pondering() -> bool:  # the bot answers (its disc falls), then the human's turn: a new ponder
            app.step([])
            return bool(fake.pondering)

        wait_until(pondering, 10, "a new ponder on the human's turn")
        assert app.session.moves_text.startswith("1") and len(app.session.line) == 2
        assert current(fake)["moves"] == app.session.moves_text  # type: ignore[index]
    finally:
        shutdown(app)


def ended_by(app: App, fake: FakeEngineClient, change: object) -> object:
    """Apply ``change`` (a callable) with a ponder running; what ended that ponder, one frame later."""
    before = current(fake)
    assert before is not None
    change()  # type: ignore[operator]
    steps(app, 1)
    return before["ended_by"]


def test_every_change_of_position_or_setting_ends_the_ponder() -> None:
    app, fake = vs_bot("custom", moves="4455")
    try:
        steps(app)
        assert ended_by(app, fake, lambda: click(app, Command.UNDO)) is not None
        assert not fake.pondering  # viewing an earlier move: no ponder
        app.apply(Command.LAST)
        steps(app, 1)
        assert current(fake)["moves"] == "4455"  # type: ignore[index]
        assert ended_by(app, fake, lambda: app.apply(GoTo(2))) is not None and not fake.pondering
        app.apply(Command.LAST)
        steps(app, 1)
        assert ended_by(app, fake, lambda: click(app, Command.HEATMAP)) == "position"  # the analysis comes first
        assert not fake.pondering
        steps(app, 8)  # the fake finishes the analysis; then the ponder again
        assert fake.pondering and fake.searches[-1]["moves"] == "4455"
        assert ended_by(app, fake, lambda: click(app, Command.PONDER)) == "stop"  # the toggle: off, kept
        assert not fake.pondering and app.settings.ponder == "off"
        click(app, Command.PONDER)
        steps(app, 1)
        assert fake.pondering and app.settings.ponder == "on"
        assert ended_by(app, fake, app.new_game) is not None
        steps(app, 8)  # the heatmap's analysis of the new game's first position, then the ponder
        assert current(fake)["moves"] == ""  # type: ignore[index]
    finally:
        shutdown(app)


def test_the_think_toggle_is_off_and_disabled_where_the_setting_does_not_apply() -> None:
    for level, applies in (("hard", False), ("beginner", False), ("perfect", True), ("custom", True)):
        app, fake = vs_bot(level)
        try:
            steps(app)
            think = next(b for b in app.layout.buttons if b.action is Command.PONDER)
            assert (think.enabled, think.active) == (applies, applies), level
            app.apply(Command.PONDER)  # as the key or a click would: refused with a reason where it does not apply
            steps(app, 1)
            assert (app.settings.ponder == "off") == applies and fake.pondering is False, level
            assert (app.notice is not None and "fixed search" in app.notice.notice.text) != applies, level
        finally:
            shutdown(app)


def test_a_bot_level_change_restarts_or_ends_the_ponder() -> None:
    app, fake = vs_bot("custom")
    try:
        steps(app)
        timed = current(fake)
        app.settings.bots[1] = BotSetting("perfect")  # as the panel's level selector does
        steps(app, 1)
        assert timed["ended_by"] is not None and current(fake)["exact"] is True  # type: ignore[index]
        app.settings.bots[1] = BotSetting("easy")
        steps(app, 1)
        assert not fake.pondering
    finally:
        shutdown(app)


def test_the_setting_is_persisted_and_a_bad_value_is_refused() -> None:
    s = Settings(ponder="off")
    assert Settings.from_dict(json.loads(s.to_json())).ponder == "off"
    assert Settings.from_dict({}).ponder == "auto"
    with pytest.raises(ValueError, match="ponder"):
        Settings.from_dict({"ponder": "sometimes"})
    assert ponder_on(Settings(mode=Mode.VS_BOT, human_player=1, bots=[BotSetting("perfect"), BotSetting("easy")]))
    assert not ponder_on(Settings(mode=Mode.VS_BOT, human_player=0, bots=[BotSetting("perfect"), BotSetting("easy")]))
    assert not ponder_on(
        Settings(mode=Mode.VS_BOT, human_player=1, ponder="on", bots=[BotSetting("hard"), BotSetting("easy")])
    )


def test_the_real_engine_ponders_for_the_app_and_a_predicted_move_is_a_hit() -> None:
    from ai.client.engine_client import EngineClient
    from game.play.engine_driver import EngineDriver, default_client_factory
    from game.play.session import Session
    from game.ui.app_run import create_app

    settings = Settings(
        mode=Mode.VS_BOT,
        human_player=1,
        window=(1000, 700),
        sound=False,
        eval_bar=False,
        ponder="on",
        bots=[BotSetting("custom", 300), BotSetting("custom", 300)],
    )
    # "12121": the human (second) must block column 1; the bot expects it
    app = create_app(
        settings,
        Session.from_text("connect4", "12121"),
        persist=False,
        driver=EngineDriver(default_client_factory, threads=1),
    )
    driver = app.turns.driver
    try:
        client = driver.client if driver.start() else None
        assert isinstance(client, EngineClient)  # the real client: its restart log and heartbeats are read below

        def ready_and_pondering() -> bool:  # the engine's start-up (and a first launch's compiling)
            app.step([])
            return driver.pondering and driver.view().state == "ready"

        wait_until(ready_and_pondering, 90, "the engine to ponder")
        restarts = len(client.restart_log)  # (a first launch's compiling may have cost some)
        beats = client.heartbeats_answered

        def heartbeats_answered() -> bool:  # it thinks a while; the heartbeat is answered meanwhile
            app.step([])
            return client.heartbeats_answered >= beats + 3

        wait_until(heartbeats_answered, 30, "three heartbeats answered while pondering")
        assert app.play_move(0)

        def ponder_ended() -> bool:
            app.step([])
            return bool(driver.ponder_ends)

        wait_until(ponder_ended, 20, "the ponder's end")
        end = driver.ponder_ends[-1]
        assert (end.predicted, end.played, end.hit) == ("1", "1", True)
        assert end.kept_visits > 0 and len(client.restart_log) == restarts  # the heartbeat held
    finally:
        shutdown(app)
