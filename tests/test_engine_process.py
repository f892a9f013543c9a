"""The protocol spoken to a real engine subprocess."""

from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
import threading
import time
import weakref

import pytest
from engine_helpers import ROOT, EngineProcess

from ai.engine import protocol
from ai.engine.process import Engine, default_threads
from ai.vocab import limits
from game.rules import get_game
from tests.positions import OFF_BOOK_SEARCH
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    proc = EngineProcess("--seed", "1", "--threads", "1")
    ready = proc.read()
    assert ready["type"] == "ready" and "connect4" in ready["games"]
    proc.send({"cmd": "go", "iterations": 100, "id": "warm-up"})  # waits for the compiled code, builds the searcher
    proc.read_until("bestmove")
    yield proc
    assert proc.close() == 0


def test_go_with_info_lines_and_bestmove(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "game": "connect4", "moves": OFF_BOOK_SEARCH})  # a real search
    engine.send({"cmd": "go", "time_ms": 400, "info_ms": 50, "id": 11})
    best, seen = engine.read_until("bestmove")
    assert best["id"] == 11 and best["move"] in list("1234567")
    infos = [m for m in seen if m["type"] == "info"]
    assert infos, "no info lines arrived"
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
    engine.send({"cmd": "go", "time_ms": 60000, "info_ms": 100, "id": "long", "exact": False})  # not a book answer
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
    reply, _ = engine.read_until("error")
    assert reply["message"]
    engine.send({"cmd": "isready"})
    engine.read_until("readyok")


def test_search_on_finished_game_is_an_error(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": "1212121"})
    engine.send({"cmd": "go", "iterations": 100})
    engine.read_until("error")


def test_quit_exits_zero() -> None:
    proc = EngineProcess()
    assert proc.read()["type"] == "ready"
    assert proc.close() == 0


def test_isready_is_answered_at_once_during_a_search(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": ""})
    engine.send({"cmd": "go", "time_ms": 60000, "info_ms": 100, "id": "busy", "exact": False})  # not the book
    engine.read_until("info")
    engine.send({"cmd": "isready"})
    _, seen = engine.read_until("readyok")
    assert "bestmove" not in [m["type"] for m in seen]  # the search still runs: the doc says so
    engine.send({"cmd": "stop"})
    assert engine.read_until("bestmove")[0]["id"] == "busy"


def test_an_endless_line_gets_one_error_and_the_engine_carries_on(engine: EngineProcess) -> None:
    engine.send("x" * (8 * limits.MAX_LINE))
    engine.send({"cmd": "isready"})
    error, _ = engine.read_until("error")
    assert "too long" in error["message"] and len(error["message"]) < 300
    _, seen = engine.read_until("readyok")
    assert "error" not in [m["type"] for m in seen]


def test_threads_option_and_default(engine: EngineProcess) -> None:
    engine.send({"cmd": "setoption", "name": "threads", "value": 2})
    assert engine.read_until("option")[0] == {"type": "option", "name": "threads", "value": 2}
    engine.send({"cmd": "setoption", "name": "threads", "value": 65})
    assert "threads" in engine.read_until("error")[0]["message"]
    engine.send({"cmd": "position", "moves": "44"})
    engine.send({"cmd": "go", "iterations": 2000, "id": "two"})
    assert engine.read_until("bestmove")[0]["id"] == "two"
    engine.send({"cmd": "setoption", "name": "threads", "value": 1})
    engine.read_until("option")


def test_default_threads_are_all_cores_but_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    import ai.engine.process as engine_process

    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(engine_process, "_protocol_stdout", io.StringIO)
    monkeypatch.setattr(engine_process, "_yield_to_the_window", lambda: None)
    out = io.StringIO()
    monkeypatch.setattr(engine_process.Engine, "serve", lambda self, stdin: out.write(str(self._threads)) and 0)
    parser = argparse.ArgumentParser()
    engine_process.add_arguments(parser)
    assert engine_process.run(parser.parse_args([])) == 0
    assert out.getvalue() == "7" and default_threads() == 7


def test_a_search_of_a_game_not_yet_prepared_waits_for_it_and_says_so(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "game": "mnk:5x5:4", "moves": ""})  # not in the background list
    engine.send({"cmd": "go", "iterations": 500, "id": "mnk"})
    best, seen = engine.read_until("bestmove")
    assert best["id"] == "mnk"
    steps = [m for m in seen if m["type"] == "preparing" and m["game"] == "mnk:5x5:4"]
    assert steps and steps[-1]["done"] == steps[-1]["total"]


def test_switching_games_releases_the_previous_searcher() -> None:
    engine = Engine(io.StringIO(), threads=1, max_nodes=4096)
    first = engine._searcher(get_game("connect4"))
    gone = weakref.ref(first)
    del first
    engine._searcher(get_game("tictactoe"))
    gc.collect()
    assert gone() is None, "one node budget per process: the old game's trees must go"


@pytest.mark.timeout(60)
def test_engine_reading_dev_zero_stays_small() -> None:
    with open(os.devnull if not os.path.exists("/dev/zero") else "/dev/zero", "rb") as zero:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "engine"],
            stdin=zero,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # ready
        wait_until(lambda: _bytes_read(proc.pid) > 2 * 1024**3, 50, "the engine to read 2 GB of /dev/zero")
        rss_kb = _rss_kb(proc.pid)
        assert proc.poll() is None
        print(f"RSS after 2 GB of /dev/zero: {rss_kb / 1024:.0f} MB")
        assert rss_kb < 600 * 1024  # before: grew without limit (MemoryError at 2.27 GB)
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()  # type: ignore[union-attr]


def _bytes_read(pid: int) -> int:
    with open(f"/proc/{pid}/io") as io_counts:
        for line in io_counts:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar")


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.timeout(60)
def test_a_game_that_cannot_be_prepared_is_one_error_line_and_the_engine_carries_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ai.engine import warmup

    def full_disk(game, on_progress=None):  # type: ignore[no-untyped-def]
        if str(game) == "tictactoe":
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(warmup, "prepare", full_disk)
    out = io.StringIO()
    engine = Engine(out, threads=1)
    engine.preparer.prefer(get_game("tictactoe"))
    engine.preparer.start()
    engine.handle('{"cmd": "position", "game": "tictactoe", "moves": ""}')
    engine.handle('{"cmd": "go", "iterations": 10, "id": 5}')
    assert engine._worker is not None
    engine._worker.join(timeout=30)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    errors = [m for m in lines if m["type"] == "error"]
    assert errors and all("\n" not in m["message"] and "Errno 28" in m["message"] for m in errors)
    assert any(m.get("id") == 5 for m in errors)
    engine.handle('{"cmd": "isready"}')
    assert json.loads(out.getvalue().splitlines()[-1]) == {"type": "readyok"}


class _SlowToStop(Engine):
    """A dispatcher busy over one command (as a search slow to stop would) until the test releases it."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.busy = threading.Event()
        self.release = threading.Event()

    def _dispatch(self, command):  # type: ignore[no-untyped-def]
        if isinstance(command, protocol.SetPosition):
            self.busy.set()
            self.release.wait(20)
        return super()._dispatch(command)


class _Lines(io.StringIO):
    """A thread-safe text sink whose lines can be awaited (it keeps lines, not the StringIO buffer)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.extend(line for line in text.splitlines() if line)
        return len(text)


@pytest.mark.timeout(30)
def test_isready_is_answered_while_the_dispatcher_is_busy() -> None:
    read_fd, write_fd = os.pipe()
    out = _Lines()
    engine = _SlowToStop(out, threads=1)
    engine.preparer.start = lambda: None  # type: ignore[method-assign]  # no compiling in this test
    with os.fdopen(read_fd, "rb") as stdin, os.fdopen(write_fd, "wb", buffering=0) as feed:
        server = threading.Thread(target=engine.serve, args=(stdin,), daemon=True)
        server.start()
        feed.write(b'{"cmd": "position", "moves": "44"}\n')
        assert engine.busy.wait(20), "the dispatcher never took the position"
        feed.write(b'{"cmd": "isready"}\n')
        answered = wait_until(lambda: any('"readyok"' in line for line in out.lines), 20, "readyok")
        assert answered and not engine.release.is_set()  # answered while the dispatcher was still busy
        engine.release.set()
        feed.write(b'{"cmd": "quit"}\n')
        server.join(timeout=10)
    assert not server.is_alive()


def test_a_go_with_a_level_answers_its_rules_move(engine: EngineProcess) -> None:
    engine.send({"cmd": "position", "moves": ""})
    engine.send({"cmd": "go", "time_ms": 20000, "level": "hard", "id": "hard"})
    best, _ = engine.read_until("bestmove")
    assert (best["id"], best["move"], best["level"], best["choice"]) == ("hard", "4", "hard", "book")
    engine.send({"cmd": "position", "moves": "4453"})
    for _ in range(2):  # a capped level starts from a fresh tree each time: its cap is its strength
        engine.send({"cmd": "go", "time_ms": 20000, "level": "beginner", "id": "b"})
        best, _ = engine.read_until("bestmove")
        assert best["level"] == "beginner" and best["choice"] in ("best", "sampled")
        assert best["iterations"] == 40 and sum(c["visits"] for c in best["children"]) <= 40


@pytest.mark.timeout(30)
def test_a_book_position_is_solved_at_once_even_before_the_compiled_code_is_ready() -> None:
    out = _Lines()
    engine = Engine(out, threads=1)  # its preparer never started: the compiled solver is not ready
    for moves, solve_id in (("", 1), ("43", 2)):
        engine.handle(json.dumps({"cmd": "position", "moves": moves}))
        engine.handle(json.dumps({"cmd": "solve", "time_ms": 500, "id": solve_id}))
        assert engine._worker is not None
        engine._worker.join(timeout=5)
        assert not engine._worker.is_alive(), "the solve waited for the compiled code"
    solutions = [json.loads(line) for line in out.lines if '"solution"' in line]
    assert [s["id"] for s in solutions] == [1, 2] and all(s["complete"] for s in solutions)
    assert [c["score"] for c in solutions[0]["children"]] == [-2, -1, 0, 1, 0, -1, -2]
    engine.handle('{"cmd": "stop"}')


@pytest.mark.timeout(60)
@pytest.mark.parametrize("level,moves", [("medium", "4"), ("hard", "4453"), ("perfect", "44")])
def test_a_levels_book_move_is_answered_before_the_search_is_compiled(level: str, moves: str) -> None:
    """Issue 37 #10: on a first launch the bot's book replies need no compiled code: no wait for numba."""
    from ai.engine.prepare import Preparer

    out = io.StringIO()
    engine = Engine(out, threads=1, preparer=Preparer(lambda reply: None, games=()))  # never prepares
    engine.handle(json.dumps({"cmd": "position", "game": "connect4", "moves": moves}))
    engine.handle(json.dumps({"cmd": "go", "time_ms": 2000, "level": level, "id": 5}))
    assert engine._worker is not None
    engine._worker.join(30)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    best = next(m for m in lines if m["type"] == "bestmove")
    assert best["id"] == 5 and best["level"] == level and best["choice"] in ("book", "best")
    assert all(c["score"] is not None for c in best["children"])  # the book's verdicts come with it


@pytest.mark.timeout(60)
def test_a_level_off_its_book_plies_still_waits_for_the_search() -> None:
    from ai.engine.prepare import Preparer

    out = io.StringIO()
    engine = Engine(out, threads=1, preparer=Preparer(lambda reply: None, games=()))
    engine.handle(json.dumps({"cmd": "position", "game": "connect4", "moves": "4453"}))  # ply 4 > medium's 2
    engine.handle(json.dumps({"cmd": "go", "time_ms": 2000, "level": "medium", "id": 6}))
    worker = engine._worker
    assert worker is not None
    worker.join(0.5)  # bounded: it must still be waiting for the compiled search
    assert worker.is_alive() and '"bestmove"' not in out.getvalue()
    engine.handle(json.dumps({"cmd": "stop"}))
    worker.join(30)
    assert not worker.is_alive()
