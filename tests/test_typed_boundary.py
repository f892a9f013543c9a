"""Issue 35: one vocabulary for modes (old spellings still read), typed search limits and a value that
carries its point of view."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ai.client.api import Limit
from ai.vocab.results import PovValue
from game.play import controller
from game.play.players import MODE_SPELLINGS, Mode, is_bot
from game.play.session import Session
from game.play.settings import Settings, load_settings, save_settings
from game.text import play as text_play

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(
    "spelling,mode",
    [
        ("hotseat", Mode.HOTSEAT),
        ("vs-bot", Mode.VS_BOT),
        ("bot-vs-bot", Mode.BOT_VS_BOT),
        ("bot", Mode.VS_BOT),  # the terminal client's old spellings
        ("botbot", Mode.BOT_VS_BOT),
        (" Vs-Bot ", Mode.VS_BOT),
    ],
)
def test_every_spelling_of_a_mode_reads_as_one_mode(spelling: str, mode: Mode) -> None:
    assert Mode.parse(spelling) is mode
    assert Settings(mode=Mode.parse(spelling)).mode is mode


@pytest.mark.parametrize("bad", ["", "human", "vsbot", 3, None])
def test_an_unknown_mode_is_a_one_line_error_naming_the_choices(bad: object) -> None:
    with pytest.raises(ValueError, match="expected one of hotseat, vs-bot, bot-vs-bot, bot, botbot") as err:
        Mode.parse(bad)
    assert "\n" not in str(err.value)


def test_a_settings_file_with_an_old_spelling_is_read_and_stored_with_the_value(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"mode": "botbot"}))
    settings, notice = load_settings(tmp_path)
    assert notice is None and settings.mode is Mode.BOT_VS_BOT
    assert save_settings(settings, tmp_path) is None
    assert json.loads((tmp_path / "settings.json").read_text())["mode"] == "bot-vs-bot"
    with pytest.raises(ValueError, match="setting 'mode' has a bad value 'chess'"):
        Settings.from_dict({"mode": "chess"})


def test_the_terminal_client_takes_both_vocabularies() -> None:
    parser = argparse.ArgumentParser()
    text_play.add_arguments(parser)
    for spelling in MODE_SPELLINGS:
        assert Mode.parse(parser.parse_args(["--mode", spelling]).mode) in Mode
    assert Mode.parse(parser.parse_args([]).mode) is Mode.VS_BOT
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["--mode", "human"])
    assert exit_.value.code == 2


def test_who_is_a_bot_in_each_mode() -> None:
    assert [is_bot(Mode.VS_BOT, 1, p) for p in (0, 1)] == [True, False]
    assert [is_bot(Mode.BOT_VS_BOT, 0, p) for p in (0, 1)] == [True, True]
    assert [is_bot(Mode.HOTSEAT, 0, p) for p in (0, 1)] == [False, False]
    settings = Settings(mode=Mode.VS_BOT, human_player=1, eval_bar=False)
    assert controller.wanted_search(settings, Session.from_text("connect4"), False, False) == (
        "bot",
        2000,
    )  # the bot (medium) moves first


def test_a_value_carries_its_point_of_view() -> None:
    second = PovValue(0.75, 1)  # the second player's chance
    assert second.for_player(1) == 0.75 and second.for_player(0) == 0.25
    assert second.pov(0) == PovValue(0.25, 0)
    session = Session.from_text("connect4", "4")  # the second player to move
    session.record_estimate(1, PovValue(0.75, 1))
    point = session.eval_at(1)
    assert point is not None and point.value == 0.25  # kept as the first player's chance


def test_search_limits_are_keyword_only_and_checked() -> None:
    assert Limit(time_ms=500) == Limit(time_ms=500, iterations=None)
    with pytest.raises(TypeError):
        Limit(500)  # type: ignore[call-arg]  # keyword-only, as python-chess's Limit
    for bad in ({"time_ms": 0}, {"iterations": 0}, {"iterations": True}):
        with pytest.raises(ValueError):
            Limit(**bad)
