"""Issue 17, item 4: a FIFO (or a device) where a file is expected never hangs the app.

Each loader runs in a daemon thread; if it has not returned within a few seconds, the FIFO's write
end is opened to release it and the test fails (so a regression fails instead of hanging the suite).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from game.play.safe_read import NotRegularFileError, read_regular_text
from game.play.savefile import SaveFileError, load_game
from game.play.settings import AUTOSAVE_FILE, SETTINGS_FILE, Settings, load_autosave, load_settings

T = TypeVar("T")

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo"), pytest.mark.timeout(60)]


def _returns_quickly(fifo: Path, call: Callable[[], T], seconds: float = 5.0) -> T:
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(call())
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # release the blocked reader, then fail
        os.close(fd)
        worker.join(5)
        raise AssertionError(f"reading the FIFO {fifo.name} blocked for {seconds} s")
    if errors:
        raise errors[0]
    return results[0]  # the worker ended without an error, so it returned


def test_read_regular_text_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFileError, match="FIFO"):
        _returns_quickly(fifo, lambda: read_regular_text(fifo))


def test_load_flag_with_a_fifo_is_a_one_line_error(tmp_path: Path) -> None:
    fifo = tmp_path / "game.c4game.json"
    os.mkfifo(fifo)
    with pytest.raises(SaveFileError) as info:
        _returns_quickly(fifo, lambda: load_game(fifo))
    assert "FIFO" in str(info.value) and "\n" not in str(info.value)


def test_settings_fifo_means_defaults_and_a_notice(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / SETTINGS_FILE)
    settings, notice = _returns_quickly(tmp_path / SETTINGS_FILE, lambda: load_settings(tmp_path))
    assert settings == Settings() and notice is not None and "FIFO" in notice


def test_autosave_fifo_means_no_game_and_a_notice(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / AUTOSAVE_FILE)
    saved, notice = _returns_quickly(tmp_path / AUTOSAVE_FILE, lambda: load_autosave(tmp_path))
    assert saved is None and notice is not None and "FIFO" in notice


def test_devices_are_refused_without_reading(tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("needs /dev/zero")
    with pytest.raises(NotRegularFileError, match="device"):
        read_regular_text("/dev/zero")


def test_the_load_dialog_lists_regular_files_only(tmp_path: Path) -> None:
    from game.ui.files import saved_games

    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "game.json").write_text("4453")
    os.symlink(tmp_path / "gone.json", tmp_path / "dangling.json")
    listed = _returns_quickly(tmp_path / "pipe.json", lambda: saved_games(tmp_path))
    assert listed == [tmp_path / "game.json"]
