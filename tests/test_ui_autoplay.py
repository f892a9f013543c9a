"""Perfect autoplay for either side: hand a side to Perfect mid-game and take it back (the real buttons)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from test_ui_fakes import FakeEngineClient, make_test_app

from game.play import autoplay
from game.play.actions import ToggleAutoplay
from game.play.players import BotSetting, Mode
from game.play.settings import Settings
from game.ui import app_run, game_app

pytestmark = pytest.mark.timeout(60)


@contextlib.contextmanager
def fake_engine_app(**kw: Any) -> Iterator[tuple[game_app.App, FakeEngineClient]]:
    app, client = make_test_app(**kw)
    try:
        yield app, client
    finally:
        app_run.shutdown(app)


def run_frames(app: game_app.App, frames: int) -> None:
    now = app.now
    for _ in range(frames):
        now += 1 / 60
        app.step([], now=now)


def press(app: game_app.App, player: int) -> str:
    """Click the side's autoplay button (as a player would); returns the label it showed."""
    app.step([])
    button = next(b for b in app.layout.buttons if b.action == ToggleAutoplay(player))
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center)])
    return button.label


@pytest.mark.parametrize(
    ("mode", "human", "player", "after"),
    [
        (Mode.HOTSEAT, 0, 1, (Mode.VS_BOT, 0)),  # Yellow to Perfect: Red stays the human's
        (Mode.HOTSEAT, 0, 0, (Mode.VS_BOT, 1)),
        (Mode.VS_BOT, 0, 0, (Mode.BOT_VS_BOT, 0)),  # the human's own side too: both sides are bots
        (Mode.VS_BOT, 0, 1, (Mode.HOTSEAT, 0)),  # taking the bot's side: hot-seat
        (Mode.BOT_VS_BOT, 0, 1, (Mode.VS_BOT, 1)),  # taking one bot's side: you play it against the other
    ],
)
def test_toggle_moves_between_the_modes(mode: str, human: int, player: int, after: tuple[str, int]) -> None:
    settings = Settings(mode=Mode.parse(mode), human_player=human, bots=[BotSetting("easy"), BotSetting("medium")])
    handing = autoplay.hands_over(settings, player)
    autoplay.toggle(settings, player)
    assert (settings.mode, settings.human_player) == after
    if handing:
        assert settings.bots[player].level == "perfect"
    autoplay.toggle(settings, player)  # and back
    assert settings.mode == mode and (mode != Mode.VS_BOT or settings.human_player == human)


def test_hand_a_side_to_perfect_mid_game_and_take_it_back() -> None:
    with fake_engine_app(mode=Mode.HOTSEAT, moves="44") as (app, client):
        hand_over_and_take_back(app, client)


def hand_over_and_take_back(app: game_app.App, client: FakeEngineClient) -> None:
    assert press(app, 1) == "Hand to Perfect"
    app.play_move(2)  # Red (the human) plays; Yellow is now Perfect's
    run_frames(app, 120)
    assert len(app.session.line) == 4  # ... and it answered
    assert [(s["moves"], s["level"]) for s in client.searches if s.get("level")] == [("443", "perfect")]
    assert press(app, 1) == "Take over"
    app.play_move(0)
    searches = len(client.searches)
    run_frames(app, 120)
    assert len(app.session.line) == 5 and app.settings.mode == Mode.HOTSEAT  # Yellow is the human's again
    assert all(s.get("level") is None for s in client.searches[searches:])  # no bot search since


def test_handing_the_side_to_move_over_plays_at_once_even_in_a_paused_game() -> None:
    with fake_engine_app(mode=Mode.BOT_VS_BOT, moves="4", bots=[BotSetting("easy"), BotSetting("easy")]) as (
        app,
        client,
    ):
        resume_by_handing_over(app, client)


def resume_by_handing_over(app: game_app.App, client: FakeEngineClient) -> None:
    app.history.paused = True
    press(app, 1)  # take Yellow: you play it against Red's bot
    assert app.settings.mode == Mode.VS_BOT and app.human_can_play()
    assert press(app, 1) == "Hand to Perfect"  # and hand it to Perfect: both bots play on, unpaused
    run_frames(app, 120)
    assert not app.history.paused and len(app.session.line) >= 2
    assert any(s.get("level") == "perfect" for s in client.searches)
