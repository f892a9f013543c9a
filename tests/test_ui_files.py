"""Settings, autosave, saved games and the clipboard text: corrupt input never crashes the app."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pygame
import pytest
from test_ui_fakes import make_test_app

from game.play.actions import Command
from game.play.players import BotSetting, Mode
from game.play.savefile import SaveFileError, game_to_json, parse_game_text
from game.play.session import EvalPoint, Session
from game.play.settings import (
    AUTOSAVE_FILE,
    SETTINGS_FILE,
    Settings,
    config_dir,
    load_autosave,
    load_settings,
    save_settings,
)
from game.ui.app_run import shutdown
from game.ui.cli import prepare
from game.ui.frame import LoadCard

pytestmark = pytest.mark.timeout(120)


def test_settings_round_trip_in_the_overridden_config_dir() -> None:
    assert str(config_dir()) == os.environ["CONNECT4_CONFIG_DIR"]
    s = Settings(
        mode=Mode.BOT_VS_BOT,
        theme="colorblind",
        sound=False,
        window=(900, 650),
        bots=[BotSetting("hard"), BotSetting("custom", 300)],
    )
    assert save_settings(s) is None
    loaded, notice = load_settings()
    assert notice is None
    assert loaded == s


def test_corrupt_settings_file_is_reported_and_replaced_by_defaults() -> None:
    path = config_dir() / SETTINGS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    for garbage in (
        "{not json",
        "[1, 2]",
        json.dumps({"mode": "chess"}),
        json.dumps({"bots": [{"level": "x"}]}),
        "\x00\xff",
    ):
        path.write_text(garbage, encoding="latin-1")
        settings, notice = load_settings()
        assert settings == Settings()
        assert notice is not None and "\n" not in notice and "defaults" in notice
        assert json.loads(path.read_text())["mode"] == Settings().mode  # replaced by defaults


def test_corrupt_settings_do_not_stop_the_app_from_starting(capsys: pytest.CaptureFixture[str]) -> None:
    (config_dir() / SETTINGS_FILE).parent.mkdir(parents=True, exist_ok=True)
    (config_dir() / SETTINGS_FILE).write_text("{{{{")
    (config_dir() / AUTOSAVE_FILE).write_text('{"game": "connect4", "moves": "44444444"}')  # column overflows

    class Args:
        game = position = load = None
        new = False

    settings, session, notices = prepare(Args(), headless=False)  # type: ignore[arg-type]  # the options it reads
    assert session.line == [3] * 6  # the legal prefix of the damaged autosave
    assert len(notices) == 2 and all("\n" not in n for n in notices)
    kept = list(config_dir().glob(AUTOSAVE_FILE + ".bad-*"))
    assert len(kept) == 1 and kept[0].read_text() == '{"game": "connect4", "moves": "44444444"}'
    assert kept[0].name in notices[1] and "first 6 moves" in notices[1]


def _relaunched_session() -> Session:
    """The game a plain launch of the app (no arguments) opens."""
    _, session, _ = prepare(argparse.Namespace(game=None, position=None, load=None, new=False), headless=False)
    return session


def test_autosave_is_written_after_every_move_and_restored(tmp_path: Path) -> None:
    app, _ = make_test_app(persist=True)
    try:
        for col in (3, 3, 2):
            app.play_move(col)
            app.step([])
            saved, notice = load_autosave()
            assert notice is None and saved is not None
            assert list(saved[1]) == app.session.line
        assert not list(config_dir().glob("*.tmp"))  # temp files were renamed into place
    finally:
        shutdown(app)

    session = _relaunched_session()
    assert session.line == [3, 3, 2]


def test_the_eval_graph_of_a_restored_game_comes_back_with_it() -> None:
    """The autosave keeps the graph's points (estimates and proofs) and the shown move: a relaunch shows the
    same game, not an empty graph before the shown move (the engine only evaluates what it is shown)."""
    app, _ = make_test_app("tictactoe", persist=True)
    try:
        for move in (4, 0, 8):
            app.play_move(move)
            app.step([])
        app.go_to(2)
        app.step([])
        app.session.record_eval(1, 0.25)  # the side to move after one move is the second player
        app.session.record_eval(2, 0.625)
        app.session.record_proof([4], 1, "draw")
    finally:
        shutdown(app)  # the evaluations that came after the last move's autosave are kept on closing
    session = _relaunched_session()
    assert (session.spec.name, session.line, session.cursor) == ("tictactoe", [4, 0, 8], 2)
    assert session.eval_at(1) == EvalPoint(0.5, exact=True)  # the proof outranks the estimate, as before
    assert session.eval_at(2) == EvalPoint(0.625)
    assert session.eval_at(0) is None


def test_game_file_formats_and_errors() -> None:
    spec, moves, cursor = parse_game_text(game_to_json(Session.from_text("connect4", "4453").spec, [3, 3, 4, 2], 2))
    assert (spec.name, moves, cursor) == ("connect4", (3, 3, 4, 2), 2)
    assert parse_game_text("  4453\n")[1] == (3, 3, 4, 2)
    assert parse_game_text("connect4:8x7: 818")[0].name == "connect4:8x7"
    for bad in ('{"moves": 12}', "{oops", "4448x", "1111111", '{"game": "chess", "moves": ""}'):
        try:
            parse_game_text(bad)
        except SaveFileError as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_loading_a_corrupt_file_keeps_the_game(tmp_path: Path) -> None:
    app, _ = make_test_app("connect4", "4453", size=(900, 640), eval_bar=True)
    try:
        bad = tmp_path / "bad.c4game.json"
        bad.write_text('{"game": "connect4", "moves": "4444444"}')
        app.load(path=bad)
        assert app.session.moves_text == "4453"
        assert app.notice is not None and "bad.c4game.json" in app.notice.notice.text
        good = tmp_path / "good.c4game.json"
        good.write_text(game_to_json(app.session.spec, [0, 1, 2]))
        app.step([pygame.event.Event(pygame.DROPFILE, file=str(good))])  # drag and drop
        assert app.session.moves_text == "123"
        app.apply(Command.SAVE)
        assert app.notice is not None and app.notice.notice.text.startswith("Saved to ")
        app.apply(Command.LOAD)
        assert isinstance(app.overlay, LoadCard) and app.overlay.files
        app.step([])
        row = app.layout.buttons[0]
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=row.rect.center)])
        assert app.overlay is None and app.session.moves_text == "123"
    finally:
        shutdown(app)
