"""What the app does with the engine's own state: the bot waits (never a silent random move) while the
engine is not available and resumes when it is back; a first launch shows the real fraction of the
compile work; the search-threads setting reaches the engine."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_fakes import FakeEngineClient

from ai.client.engine_client import EngineStatus
from ai.vocab.results import Preparing
from game.play.engine_driver import EngineDriver
from game.play.players import Mode
from game.play.session import Session
from game.play.settings import Settings
from game.ui.app_run import create_app, shutdown

pytestmark = pytest.mark.timeout(120)


class StatefulClient(FakeEngineClient):  # type: ignore[misc]  # the fake is imported untyped (top-level name)
    """The fake engine with the real client's ``status``, ``set_threads`` and failure lines."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.state = EngineStatus("ready", "ready")
        self.pending: list[dict[str, Any]] = []
        self.threads_set: list[int] = []

    @property
    def status(self) -> EngineStatus:
        return self.state

    def set_threads(self, threads: int) -> None:
        self.threads_set.append(threads)

    def poll(self) -> list[dict[str, Any]]:
        out, self.pending = self.pending, []
        replies: list[dict[str, Any]] = out + super().poll()
        return replies


def make(mode: str, client: StatefulClient, **kw: Any):  # type: ignore[no-untyped-def]
    settings = Settings(mode=Mode.parse(mode), window=(1000, 700), sound=False, eval_bar=False, **kw)
    app = create_app(settings, Session.from_text("connect4"), persist=False, driver=EngineDriver(lambda: client))
    app.turns.min_bot_delay = 0.0
    return app


def run(app: Any, frames: int) -> None:
    now = app.now
    for _ in range(frames):
        now += 1 / 60
        app.step([], now=now)


def test_the_bot_waits_while_the_engine_is_not_available_and_resumes_when_it_is_back() -> None:
    client = StatefulClient(polls_to_finish=2)
    app = make(Mode.BOT_VS_BOT, client)
    try:
        client.pending.append({"type": "engine_failed", "message": "it keeps stopping", "retry_in_s": 4.0})
        client.state = EngineStatus("unavailable", "the bot is not available: it keeps stopping", retry_in_s=4.0)
        run(app, 5)
        played = len(app.session.line)
        searches = len(client.searches)
        run(app, 240)
        assert len(app.session.line) == played, "the bots moved while the engine was not available"
        assert len(client.searches) == searches
        status = app.snapshot().status
        assert status.progress is not None and "not available" in status.progress.label[0]

        client.pending.append({"type": "engine_available", "message": "back"})
        client.state = EngineStatus("ready", "ready")
        run(app, 240)
        assert len(app.session.line) > played, "the bots did not resume once the engine was back"
    finally:
        shutdown(app)


def test_a_first_launch_shows_the_real_fraction_of_the_compile_work_on_a_hot_seat_board() -> None:
    client = StatefulClient()
    app = make(Mode.HOTSEAT, client)
    try:
        client.state = EngineStatus(
            "preparing", "preparing the engine, first launch only", Preparing("connect4", 1, 4, "connect4 moves", True)
        )
        run(app, 2)
        progress = app.snapshot().status.progress
        assert progress is not None and progress.fraction == pytest.approx(0.25)
        assert "first launch only" in progress.label[0] and "25%" in progress.label[0]
        client.state = EngineStatus("preparing", "preparing the engine", Preparing("connect4", 3, 4, "x", False))
        run(app, 2)
        assert app.snapshot().status.progress is None, "loading a warm cache is no first launch"
    finally:
        shutdown(app)


def test_the_threads_setting_reaches_the_engine() -> None:
    made: list[int | None] = []
    client = StatefulClient()

    def factory(threads: int | None = None) -> StatefulClient:
        made.append(threads)
        return client

    settings = Settings(mode=Mode.HOTSEAT, window=(1000, 700), sound=False, search_threads=3)
    app = create_app(
        settings,
        Session.from_text("connect4"),
        persist=False,
        driver=EngineDriver(factory, threads=settings.search_threads or None),
    )
    try:
        assert made == [3]
        app.turns.driver.set_threads(5)
        assert client.threads_set == [5]
    finally:
        shutdown(app)
