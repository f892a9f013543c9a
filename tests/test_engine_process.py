"""The protocol spoken to a real engine subprocess."""

from __future__ import annotations

import time

import pytest
from engine_helpers import EngineProcess


@pytest.fixture(scope="module")
def engine():
    proc = EngineProcess("--seed", "1")
    ready = proc.read()
    assert ready["type"] == "ready" and "connect4" in ready["games"]
    yield proc
    assert proc.close() == 0


def test_go_with_info_lines_and_bestmove(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "game": "connect4", "moves": "4453"})
    engine.send({"cmd": "go", "time_ms": 400, "info_ms": 50, "id": 11})
    best, infos = engine.read_until("bestmove")
    assert best["id"] == 11 and best["move"] in list("1234567")
    assert [m for m in infos if m["type"] == "info"], "no info lines arrived"
    assert all(m["id"] == 11 for m in infos)
    children = best["children"]
    assert {c["move"] for c in children} == set("1234567")
    assert sum(c["visits"] for c in children) > 0
    assert 0.0 <= best["value"] <= 1.0
    assert best["iterations"] > 0


def test_takes_immediate_win(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": ["1", "2", "1", "2", "1", "2"]})
    engine.send({"cmd": "go", "iterations": 2000})
    best, _ = engine.read_until("bestmove")
    assert best["move"] == "1"


def test_stop_ends_search_at_once(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": ""})
    engine.send({"cmd": "go", "time_ms": 60000, "info_ms": 100, "id": "long"})
    engine.read_until("info")
    started = time.monotonic()
    engine.send({"cmd": "stop"})
    best, _ = engine.read_until("bestmove")
    assert best["id"] == "long"
    assert time.monotonic() - started < 5.0


@pytest.mark.parametrize(
    "line",
    [
        "garbage",
        '{"cmd": "go"}',
        '{"cmd": "position", "moves": "9"}',
        '{"cmd": "jump"}',
        "[]",
        '{"cmd": "position", "game": "tetris"}',
    ],
)
def test_bad_lines_get_errors_and_engine_stays_alive(engine: EngineProcess, line: str) -> None:
    engine.send(line)
    reply = engine.read()
    assert reply["type"] == "error" and reply["message"]
    engine.send({"cmd": "isready"})
    assert engine.read()["type"] == "readyok"


def test_search_on_finished_game_is_an_error(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": "1212121"})
    engine.send({"cmd": "go", "iterations": 100})
    assert engine.read()["type"] == "error"


def test_quit_exits_zero() -> None:
    proc = EngineProcess()
    assert proc.read()["type"] == "ready"
    assert proc.close() == 0
