"""Fuzz the save-file loader, the settings loader and the autosave loader with hostile files.

A saved game that cannot be read is a ``SaveFileError`` (one line); a broken settings or autosave
file never stops the app: the loader returns defaults (or no game) and a one-line notice.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.play.players import DIFFICULTY_KEYS, MODES
from game.play.savefile import SaveFileError, game_to_json, load_game, parse_game_text
from game.play.settings import (
    AUTOSAVE_FILE,
    SETTINGS_FILE,
    THEME_KEYS,
    Settings,
    load_autosave,
    load_settings,
)
from game.rules import get_game

pytestmark = pytest.mark.timeout(300)

FUZZ = settings(
    max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False),
    st.text(max_size=16),
    st.sampled_from(["connect4", "uttt", "gomoku", "4453", "a1 b2", "vs-bot", "dark", "medium"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

GAME_KEYS = ["format", "version", "game", "moves", "cursor"]
SETTING_KEYS = [
    "mode",
    "human_player",
    "swap_colours",
    "bots",
    "theme",
    "sound",
    "heatmap",
    "eval_bar",
    "window",
    "game",
    "version",
    "level",
    "custom_ms",
]

# Hand-written hostile documents (each was a crash candidate).
HOSTILE = [
    "",
    " ",
    "\x00",
    "{",
    "}",
    "{}",
    "[]",
    "null",
    "4453\n",
    "connect4: 4453",
    "uttt: ",
    "gomoku:",
    "chess: e4",
    ": :",
    "connect4:8x7: 1234",
    '{"moves": 44}',
    '{"game": 7, "moves": "44"}',
    '{"moves": "44", "cursor": -1}',
    '{"moves": "44", "cursor": true}',
    '{"moves": "44", "cursor": 1e400}',
    '{"moves": "1111111"}',
    '{"game": "uttt", "moves": "e5 e5"}',
    "\ufeff4453",
    "4453" * 30,
    '{"moves": "' + "12" * 40 + '"}',
    "{" + '"a":' + "[" * 100_000 + "]" * 100_000 + "}",  # deeper than the JSON decoder's recursion limit
    '{"moves": "44", "cursor": ' + "9" * 5000 + "}",  # an integer beyond Python's int-parsing limit
    '{"window": ' + "[" * 50_000 + "]" * 50_000 + "}",
    '{"mode": "hotseat", "human_player": ' + "1" * 5000 + "}",
]


def _one_line(message: str) -> None:
    assert message.strip() and "\n" not in message and "\r" not in message, repr(message)


# -- saved games ------------------------------------------------------------------------------
def _check_parse(text: str) -> None:
    try:
        spec, moves, cursor = parse_game_text(text)
    except SaveFileError as exc:
        _one_line(str(exc))
        return
    position = spec.start()
    for move in moves:
        position = position.play(move)
    assert cursor is None or 0 <= cursor <= len(moves)


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_saved_game_texts(text: str) -> None:
    _check_parse(text)


@FUZZ
@given(
    st.one_of(
        st.text(max_size=80),
        st.dictionaries(st.sampled_from(GAME_KEYS), json_values, max_size=5).map(json.dumps),
        json_values.map(json.dumps),
    )
)
def test_fuzz_saved_game_text(text: str) -> None:
    _check_parse(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["connect4", "connect4:9x6", "tictactoe", "mnk:6x6:4", "uttt"]), st.data())
def test_fuzz_saved_game_round_trip(game: str, data: st.DataObject) -> None:
    spec = get_game(game)
    position = spec.start()
    for _ in range(data.draw(st.integers(0, 30))):
        if position.outcome.is_over:
            break
        position = position.play(data.draw(st.sampled_from(position.legal_moves())))
    cursor = data.draw(st.none() | st.integers(0, position.ply))
    spec2, moves, cursor2 = parse_game_text(game_to_json(spec, position.history, cursor))
    assert (spec2, moves) == (spec, position.history)
    assert cursor2 == (None if cursor == position.ply else cursor)


def test_unreadable_saved_game_files(tmp_path: Path) -> None:
    cases = {
        "missing": tmp_path / "nope.json",
        "directory": tmp_path,
        "binary": tmp_path / "binary.json",
        "huge": tmp_path / "huge.json",
        "latin1": tmp_path / "latin1.json",
    }
    cases["binary"].write_bytes(bytes(range(256)) * 10)
    cases["huge"].write_text("4" * 2_000_000)
    cases["latin1"].write_bytes('{"game": "connect4", "moves": "44\xe9"}'.encode("latin-1"))
    for name, path in cases.items():
        with pytest.raises(SaveFileError) as info:
            load_game(path)
        _one_line(str(info.value))
        assert name and str(info.value)


# -- settings and autosave ---------------------------------------------------------------------
def _check_settings(directory: Path, content: bytes) -> None:
    (directory / SETTINGS_FILE).write_bytes(content)
    loaded, notice = load_settings(directory)
    assert isinstance(loaded, Settings)
    assert loaded.mode in MODES and loaded.theme in THEME_KEYS and loaded.human_player in (0, 1)
    assert all(b.level in DIFFICULTY_KEYS for b in loaded.bots) and len(loaded.bots) == 2
    assert len(loaded.window) == 2 and all(isinstance(v, int) for v in loaded.window)
    if notice is not None:
        _one_line(notice)
        again, second_notice = load_settings(directory)  # the broken file was replaced by defaults
        assert second_notice is None and again == Settings()


def _check_autosave(directory: Path, content: bytes) -> None:
    (directory / AUTOSAVE_FILE).write_bytes(content)
    saved, notice = load_autosave(directory)
    kept = list(directory.glob(AUTOSAVE_FILE + ".bad-*"))
    if notice is not None:  # unreadable: never deleted, kept aside byte for byte, and the notice says where
        _one_line(notice)
        assert len(kept) == 1 and kept[0].read_bytes() == content and kept[0].name in notice
        kept[0].unlink()
    else:
        assert not kept
    if saved is None:
        assert notice is not None
    else:
        spec, moves, cursor = saved
        assert cursor is None or 0 <= cursor <= len(moves)
        spec.parse_position(spec.moves_to_text(moves))


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_settings_and_autosave_files(tmp_path: Path, text: str) -> None:
    _check_settings(tmp_path, text.encode("utf-8", errors="surrogatepass"))
    _check_autosave(tmp_path, text.encode("utf-8", errors="surrogatepass"))


@FUZZ
@given(
    st.one_of(
        st.dictionaries(st.sampled_from(SETTING_KEYS), json_values, max_size=6).map(json.dumps),
        st.fixed_dictionaries(
            {
                "bots": st.lists(
                    st.dictionaries(st.sampled_from(["level", "custom_ms"]), json_values, max_size=2), max_size=3
                )
            }
        ).map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=60),
    ).map(lambda t: t.encode("utf-8", errors="surrogatepass"))
    | st.binary(max_size=60)
)
def test_fuzz_settings_and_autosave_files(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    directory = tmp_path_factory.mktemp("fuzz", numbered=True)
    _check_settings(directory, content)
    _check_autosave(directory, content)


def test_missing_files_mean_defaults_without_notice(tmp_path: Path) -> None:
    assert load_settings(tmp_path) == (Settings(), None)
    assert load_autosave(tmp_path) == (None, None)


ENDLESS_FILE = r"""
import resource, sys
sys.path.insert(0, sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a bug shows as MemoryError, not a dead machine
from game.play.savefile import SaveFileError, load_game
try:
    load_game("/dev/zero")
except SaveFileError as exc:
    print("rejected:", exc)
"""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_file_is_rejected_without_reading_it_all() -> None:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", ENDLESS_FILE, str(root)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("rejected:"), done.stderr[-500:]
    _one_line(done.stdout.strip())


def test_settings_and_autosave_paths_that_are_directories(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).mkdir()
    (tmp_path / AUTOSAVE_FILE).mkdir()
    loaded, notice = load_settings(tmp_path)
    assert loaded == Settings() and notice is not None
    _one_line(notice)
    saved, notice = load_autosave(tmp_path)
    assert saved is None and notice is not None
    _one_line(notice)
