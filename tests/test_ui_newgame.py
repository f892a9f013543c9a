"""The new-game dialog (first launch and N), the threads setting, and saved games with their evaluations."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from test_ui_fakes import FakeEngineClient, make_test_app

from game.play.actions import ChangeChoice, Command, DialogField
from game.play.engine_driver import EngineDriver
from game.play.game_files import game_json_with_evals, read_game
from game.play.new_game import auto_threads, choice_rows
from game.play.players import Mode
from game.play.session import EvalPoint, Session
from game.play.settings import Settings
from game.ui.app_run import create_app, shutdown
from game.ui.cli import first_launch
from game.ui.frame import NewGameCard

pytestmark = pytest.mark.timeout(60)


def test_first_launch_greets_with_the_dialog_and_nothing_moves_until_start() -> None:
    client = FakeEngineClient()
    settings = Settings(mode=Mode.BOT_VS_BOT, window=(1000, 700), sound=False)
    app = create_app(
        settings, Session.from_text("connect4"), persist=False, driver=EngineDriver(lambda: client), first_launch=True
    )
    try:
        assert isinstance(app.overlay, NewGameCard) and app.overlay.first_launch
        now = app.now
        for _ in range(60):
            now += 1 / 60
            app.step([], now=now)
        assert client.searches == [] and app.session.line == []  # no bot starts behind the welcome card
        app.apply(Command.START)
        for _ in range(10):
            now += 1 / 60
            app.step([], now=now)
        assert app.overlay is None and client.searches
    finally:
        shutdown(app)


def test_dialog_uses_plain_names_and_keeps_its_rows_in_place() -> None:
    app, _ = make_test_app("mnk:6x6:4")
    try:
        app.apply(Command.NEW_GAME)
        app.step([])
        assert isinstance(app.overlay, NewGameCard)
        assert app.overlay.rows[0].value == "Four in a row 6x6"
        rects = [b.rect for b in app.layout.buttons]
        for _ in range(3):  # every mode: the same rows in the same places (unused ones greyed out)
            app.apply(ChangeChoice(DialogField.MODE, 1))
            app.step([])
            assert [b.rect for b in app.layout.buttons] == rects
    finally:
        shutdown(app)


def test_threads_setting_defaults_to_all_cores_but_one_and_is_kept() -> None:
    assert auto_threads(8) == 7 and auto_threads(1) == 1
    app, _ = make_test_app()
    try:
        app.apply(Command.NEW_GAME)
        app.apply(ChangeChoice(DialogField.THREADS, 1))
        assert app.dialog.choice is not None and app.dialog.choice.threads == 1
        rows = choice_rows(app.dialog.choice, ("Red", "Yellow"), cores=4)
        assert rows[-1].value == "1"
        app.apply(Command.START)
        assert app.settings.search_threads == 1
        again = Settings.from_dict(json.loads(app.settings.to_json()))
        assert again.search_threads == 1
    finally:
        shutdown(app)


def test_save_says_where_and_a_loaded_game_keeps_its_evaluations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, _ = make_test_app("connect4", "4453")
    try:
        app.session.record_eval(2, 0.6)
        app.session.record_proof([3, 3, 4, 2], 0, "win")
        monkeypatch.setattr("game.ui.app_files.games_dir", lambda: tmp_path)
        app.apply(Command.SAVE)
        assert app.notice is not None and not app.notice.notice.error
        saved = next(tmp_path.glob("*.json"))
        assert str(saved) in app.notice.notice.text  # the whole path, not just a name
        app.new_game()
        app.load(path=saved)
        assert app.session.moves_text == "4453"
        assert app.session.eval_at(2) == EvalPoint(0.6, False)
        assert app.session.eval_at(4) == EvalPoint(1.0, True)
    finally:
        shutdown(app)


def test_bad_evaluations_in_a_file_are_skipped_and_the_moves_load() -> None:
    s = Session.from_text("connect4", "44")
    s.record_eval(1, 0.25)
    data = json.loads(game_json_with_evals(s))
    data["evals"].update({"9": [0.5, False], "x": [1, True], "0": ["high", False], "2": [2.0, True]})
    game = read_game("connect4", text=json.dumps(data))
    assert game.moves == (3, 3) and game.evals == {1: (0.75, False)}


def test_start_screen_on_first_launch_and_with_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONNECT4_CONFIG_DIR", str(tmp_path))
    plain = argparse.Namespace(game=None, position=None, load=None, mode=None, new=False)
    assert first_launch(plain, headless=False)  # no settings file yet
    assert not first_launch(plain, headless=True)  # a screenshot of a position is not greeted
    assert first_launch(argparse.Namespace(game="uttt", position=None, load=None, mode=None, new=True), True)
    (tmp_path / "settings.json").write_text(Settings().to_json())
    assert not first_launch(plain, headless=False)  # the second launch goes straight to the game
