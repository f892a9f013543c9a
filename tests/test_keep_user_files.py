"""Issue 17, item 7: an unreadable autosave (or settings file) is never deleted; a BOM is accepted.

The damaged file is kept aside byte for byte as ``<name>.bad-<time>``, the notice names it, and the
legal prefix of the moves is restored when there is one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.play.players import Mode
from game.play.savefile import game_to_json, load_game
from game.play.session import Session
from game.play.settings import AUTOSAVE_FILE, SETTINGS_FILE, Settings, load_autosave, load_settings, save_settings

pytestmark = pytest.mark.timeout(60)
BOM = b"\xef\xbb\xbf"


def _kept(directory: Path, name: str) -> list[Path]:
    return sorted(directory.glob(name + ".bad-*"))


def test_autosave_with_a_bom_is_restored(tmp_path: Path) -> None:
    spec = Session.from_text("connect4").spec
    (tmp_path / AUTOSAVE_FILE).write_bytes(BOM + game_to_json(spec, [3, 3, 2, 4]).encode())
    saved, notice = load_autosave(tmp_path)
    assert notice is None and saved is not None and saved[1] == (3, 3, 2, 4)
    assert not _kept(tmp_path, AUTOSAVE_FILE)


def test_illegal_move_after_a_legal_prefix_restores_the_prefix_and_keeps_the_file(tmp_path: Path) -> None:
    content = json.dumps({"game": "connect4", "moves": "4453124444444"})  # move 11: column 4 is full
    (tmp_path / AUTOSAVE_FILE).write_text(content)
    saved, notice = load_autosave(tmp_path)
    assert saved is not None and saved[0].name == "connect4"
    assert saved[0].moves_to_text(saved[1]) == "4453124444"
    kept = _kept(tmp_path, AUTOSAVE_FILE)
    assert len(kept) == 1 and kept[0].read_text() == content
    assert notice is not None and kept[0].name in notice and "first 10 moves" in notice and "\n" not in notice


def test_grid_game_prefix(tmp_path: Path) -> None:
    (tmp_path / AUTOSAVE_FILE).write_text("tictactoe: a1 b2 a1 c3")  # a1 twice
    saved, notice = load_autosave(tmp_path)
    assert saved is not None and saved[0].moves_to_text(saved[1]) == "a1 b2" and notice is not None


@pytest.mark.parametrize("content", ['{"game": "chess", "moves": "e4"}', "\x00\x01garbage", '{"moves": 12}'])
def test_unreadable_autosave_is_kept_aside_not_deleted(tmp_path: Path, content: str) -> None:
    (tmp_path / AUTOSAVE_FILE).write_text(content)
    saved, notice = load_autosave(tmp_path)
    assert saved is None and notice is not None and "\n" not in notice
    kept = _kept(tmp_path, AUTOSAVE_FILE)
    assert len(kept) == 1 and kept[0].read_text() == content and kept[0].name in notice
    assert not (tmp_path / AUTOSAVE_FILE).exists()


def test_keeping_aside_twice_in_one_second_overwrites_nothing(tmp_path: Path) -> None:
    for n in range(3):
        (tmp_path / AUTOSAVE_FILE).write_text(f"broken {n}")
        load_autosave(tmp_path)
    assert sorted(p.read_text() for p in _kept(tmp_path, AUTOSAVE_FILE)) == ["broken 0", "broken 1", "broken 2"]


def test_settings_with_a_bom_are_read_and_broken_ones_kept(tmp_path: Path) -> None:
    wanted = Settings(mode=Mode.HOTSEAT, theme="dark")
    save_settings(wanted, tmp_path)
    path = tmp_path / SETTINGS_FILE
    path.write_bytes(BOM + path.read_bytes())
    assert load_settings(tmp_path) == (wanted, None)
    path.write_text("{broken")
    settings, notice = load_settings(tmp_path)
    assert settings == Settings() and notice is not None
    kept = _kept(tmp_path, SETTINGS_FILE)
    assert len(kept) == 1 and kept[0].read_text() == "{broken" and kept[0].name in notice


def test_loaded_file_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "g.c4game.json"
    path.write_bytes(BOM + b"4453")
    assert load_game(path)[1] == (3, 3, 4, 2)


def test_a_file_that_cannot_be_renamed_is_copied_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    def refuse(*_args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", refuse)
    monkeypatch.setattr(os, "rename", refuse)
    (tmp_path / AUTOSAVE_FILE).write_text("broken")
    saved, notice = load_autosave(tmp_path)
    kept = _kept(tmp_path, AUTOSAVE_FILE)
    assert saved is None and len(kept) == 1 and kept[0].read_text() == "broken" and kept[0].name in (notice or "")
