"""Hostile clients against ``main.py serve`` on loopback (issue 36, section 2): each test reproduces one
attack and checks the server's answer to it (docs/reliability.md lists them with figures)."""

from __future__ import annotations

import asyncio
import collections
import json
import re
import resource
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from game.net.connection import MAX_WAITING, RATE_BURST, RATE_LINES_PER_S
from game.net.store import GameStore
from tests.net_helpers import ROOT, LineSocket, play_seed_client, start_server
from tests.test_net_hello_window import server_thread


def _room_pair(port: int, room: str, source: str = "127.0.0.1", **hello: Any) -> dict[int, LineSocket]:
    """Two extended clients seated in ``room``, the game started: {seat: client}."""
    seats: dict[int, LineSocket] = {}
    for _ in range(2):
        client = LineSocket(port, source=source)
        client.hello(room=room, **hello)
        while (message := client.receive()) is not None:
            if message["type"] == "decline":
                raise AssertionError(message)
            if message["type"] == "player":
                seats[message["message"]] = client
                break
    for client in seats.values():
        while (message := client.receive()) is not None and message["type"] != "update":
            pass
    return seats


# -- 1. flooders ------------------------------------------------------------------------------------
@pytest.mark.timeout(60)
def test_a_ping_flooder_is_answered_at_its_rate_only(server: int) -> None:
    seats = _room_pair(server, "flood")
    flooder = seats[2]
    batch = b'{"type": "ping"}\r\n' * 20_000
    threading.Thread(target=lambda: _ignore_errors(flooder.sock.sendall, batch), daemon=True).start()
    assert flooder.receive() == {"type": "pong", "message": None}
    start, pongs = time.monotonic(), 1
    while time.monotonic() - start < 1.0:
        message = flooder.receive()
        assert message is not None and message["type"] == "pong"
        pongs += 1
    allowed = 40 + 20 * (time.monotonic() - start) + 5  # the documented burst and rate
    assert (RATE_BURST, RATE_LINES_PER_S) == (40, 20) and pongs <= allowed, f"{pongs} pongs in one second"


def _ignore_errors(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except OSError:
        pass


# -- 2. games opened and dropped; games per address ------------------------------------------------
@pytest.mark.timeout(90)
@pytest.mark.parametrize("server", [("--max-games", "10")], indirect=True)
def test_games_opened_and_dropped_hold_no_seat_and_leave_no_row(server: int, tmp_path: Path) -> None:
    for n in range(30):  # three times the server's games, each dropped before its first move
        for client in _room_pair(server, f"drop{n}").values():
            client.close()
    results: list[dict[str, Any]] = [{}, {}]
    players = [threading.Thread(target=play_seed_client, args=(server, "connect4", n, results[n])) for n in (0, 1)]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join(60)
    assert all("winners" in result for result in results), results  # not declined: "the server is full"
    with sqlite3.connect(tmp_path / "games.db") as db:
        rows = db.execute("SELECT COUNT(*), SUM(moves = '[]') FROM games").fetchone()
    assert rows[0] == 1 and not rows[1]  # only the game that was played; no row without a move


@pytest.mark.timeout(60)
@pytest.mark.parametrize("server", [("--max-games-per-address", "2")], indirect=True)
def test_one_address_holds_a_bounded_number_of_games(server: int) -> None:
    held = [_room_pair(server, f"held{n}", source="127.0.0.2") for n in range(2)]
    third = LineSocket(server, source="127.0.0.2")
    third.hello(room="held2")
    declined = third.receive()
    assert declined is not None and declined["type"] == "decline" and "your address" in declined["message"]
    other = _room_pair(server, "elsewhere", source="127.0.0.3")  # another address still plays
    assert set(other) == {1, 2} and all(len(pair) == 2 for pair in held)


# -- 3. the player to move keeps its connection alive but never moves ------------------------------
@pytest.mark.timeout(60)
@pytest.mark.parametrize("server", [("--idle-s", "1.5")], indirect=True)
@pytest.mark.parametrize("keepalive", ["ping", "trickle"])
def test_keeping_the_connection_alive_does_not_stop_the_move_limit(server: int, keepalive: str) -> None:
    seats = _room_pair(server, f"hold-{keepalive}")
    stop = threading.Event()

    def hold() -> None:  # a ping every 0.2 s, or one byte of a line that never ends
        while not stop.wait(0.2):
            _ignore_errors(seats[1].sock.sendall, b'{"type": "ping"}\r\n' if keepalive == "ping" else b" ")

    threading.Thread(target=hold, daemon=True).start()
    started = time.monotonic()
    try:
        while (message := seats[2].receive()) is not None and "winners" not in message:
            pass
    finally:
        stop.set()
    assert message is not None and message["winners"] == {"1": 0, "2": 1} and message["reason"] == "time"
    assert time.monotonic() - started < 5


# -- 4. clocks only where every player asked for the same clock ------------------------------------
@pytest.mark.timeout(60)
def test_a_clock_is_never_set_on_a_public_game_and_a_room_clock_must_match(server: int) -> None:
    seed = LineSocket(server)  # a seed client waiting in the public game
    assert seed.receive()["type"] == "player"  # type: ignore[index]
    asker = LineSocket(server)
    asker.hello(clock_ms=300)
    declined = asker.receive()
    assert declined is not None and declined["type"] == "decline" and "room" in declined["message"]
    host = LineSocket(server)
    host.hello(room="clocked", clock_ms=60_000)
    assert host.receive()["clock_ms"] == 60_000  # type: ignore[index]  # its welcome
    other = LineSocket(server)
    other.hello(room="clocked", clock_ms=1_000)
    declined = other.receive()
    assert declined is not None and declined["type"] == "decline" and "clock" in declined["message"]
    joiner = LineSocket(server)
    joiner.hello(room="clocked")  # no clock asked: takes the room's, which its welcome shows
    welcome = joiner.receive()
    assert welcome is not None and welcome["type"] == "welcome" and welcome["clock_ms"] == 60_000


# -- 5. commits failing: a flooder cannot pile up messages, every player still gets its answers --------
class _FailingDb:
    """The store's SQLite connection, made to fail every commit while ``failing`` is set (a locked file)."""

    def __init__(self, db: sqlite3.Connection, failing: threading.Event) -> None:
        self.db, self.failing = db, failing

    def execute(self, sql: str, *params: Any) -> Any:
        if sql == "BEGIN IMMEDIATE" and self.failing.is_set():
            raise sqlite3.OperationalError("database is locked")
        return self.db.execute(sql, *params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def _in_loop(running: dict[str, Any], call: Any) -> Any:
    async def run() -> Any:
        return call()

    return asyncio.run_coroutine_threadsafe(run(), running["loop"]).result(5)


@pytest.mark.timeout(60)
def test_while_commits_fail_answers_go_out_and_a_flooder_is_dropped(tmp_path: Path) -> None:
    failing = threading.Event()
    with server_thread(tmp_path) as running:
        store = running["server"].store
        _in_loop(running, lambda: setattr(store, "_db", _FailingDb(store._db, failing)))
        quiet, busy = _room_pair(running["port"], "quiet"), _room_pair(running["port"], "busy")
        failing.set()
        busy[1].send({"type": "action", "message": {"column": 3}})  # its update waits for the commit
        _in_loop(running, lambda: None)  # (the move was read)
        flood = b'{"type": "ping"}\r\n' * 3000
        threading.Thread(target=_ignore_errors, args=(quiet[2].sock.sendall, flood), daemon=True).start()
        threading.Thread(target=_ignore_errors, args=(busy[2].sock.sendall, flood), daemon=True).start()
        quiet[1].send({"type": "ping"})
        assert quiet[1].receive() == {"type": "pong", "message": None}  # nothing of its own waits: answered
        assert set(_room_pair(running["port"], "new")) == {1, 2}  # a new game starts (it tells of no move)
        assert quiet[2].receive() == {"type": "pong", "message": None}  # the flooder too, at its rate
        try:
            while busy[2].receive() is not None:  # its pongs would wait behind the update: dropped
                pass
        except OSError:
            pass
        waiting = _in_loop(running, lambda: len(store._waiting))
        assert waiting <= 2 * MAX_WAITING, waiting
        failing.clear()  # the database is back: the move is stored, then told
        update = busy[1].receive()
        assert update is not None and update["type"] == "update" and update["moves"] == "4"


# -- 6. more connections than open files ------------------------------------------------------------
def _serve_with_open_files(tmp_path: Path, soft: int, hard: int) -> tuple[subprocess.Popen[str], int]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    command = [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--db", str(tmp_path / "fd.db")]
    proc = subprocess.Popen(
        [*command, "--max-per-address", "1000", "--max-games-per-address", "1000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    assert proc.stdout is not None
    match = re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline())
    assert match, proc.stderr.read() if proc.stderr else ""
    return proc, int(match[1])


@pytest.mark.timeout(90)
def test_more_connections_than_open_files_are_declined_quietly_and_play_goes_on(tmp_path: Path) -> None:
    proc, port = _serve_with_open_files(tmp_path, 256, 256)
    crowd: list[socket.socket] = []
    try:
        for _ in range(300):  # more than the server may open
            crowd.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        firsts = [json.loads(sock.makefile("rb").readline())["type"] for sock in crowd]  # nobody left unanswered
        assert set(firsts) == {"player", "decline"}, collections.Counter(firsts)
        for sock in crowd:
            sock.close()
        results: list[dict[str, Any]] = [{}, {}]
        players = [threading.Thread(target=play_seed_client, args=(port, "connect4", n, results[n])) for n in (0, 1)]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join(60)
        assert all("winners" in result for result in results), results
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=10)
    assert len(err) < 2000 and "Traceback" not in err, err[:2000]


@pytest.mark.timeout(30)
def test_the_open_file_limit_is_raised_to_the_hard_limit(tmp_path: Path) -> None:
    proc, _ = _serve_with_open_files(tmp_path, 256, 2048)
    try:
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
    finally:
        proc.kill()
        proc.wait(10)
    assert re.search(r"Max open files\s+2048\s+2048", limits), limits


# -- 7. damaged rows in the games file --------------------------------------------------------------
DAMAGED = {  # id -> (column, value) written over a good row
    "huge-float": ("moves", "[1e400]"),
    "not-json": ("moves", "not json"),
    "off-board": ("moves", "[99]"),
    "bool-move": ("moves", "[true]"),
    "nested": ("moves", "[" * 5000 + "]" * 5000),
    "no-such-game": ("game", "chess"),
    "one-token": ("tokens", '["a"]'),
    "bad-clock": ("clocks", '[1, "x"]'),
}


@pytest.mark.timeout(60)
def test_every_damaged_row_is_counted_named_and_kept_aside(tmp_path: Path) -> None:
    db = tmp_path / "damaged.db"
    GameStore(db).close()  # the schema
    with sqlite3.connect(db) as connection:
        good = ("good", "connect4", None, "[3, 3]", '["t1", "t2"]', None)
        for game_id in ["good", *DAMAGED]:
            connection.execute(
                "INSERT INTO games (id, game, room, moves, tokens, clocks) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, *good[1:]),
            )
        for game_id, (column, value) in DAMAGED.items():
            connection.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    proc, port = start_server(db)
    try:
        back = LineSocket(port)
        back.hello(token="t1")
        assert back.receive()["type"] == "welcome"  # type: ignore[index]  # the good game came back
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=10)
    assert f"{len(DAMAGED)} damaged game(s)" in err and err.count("\n") == 1, err
    assert all(game_id in err for game_id in DAMAGED)
    with sqlite3.connect(db) as connection:
        rows = dict(connection.execute("SELECT id, over FROM games").fetchall())
    assert rows == {"good": 0, **{game_id: -1 for game_id in DAMAGED}}  # kept (aside), none deleted


# -- 8. a hostile server against our clients ----------------------------------------------------------
HOSTILE = {
    "endless line": b"x" * (3 << 20),  # 3 MiB and no end of line
    "deep nesting": b"[" * 100_000 + b"]" * 100_000 + b"\r\n",
    "seat 3": b'{"type": "player", "message": 3}\r\n',
    "seat true": b'{"type": "player", "message": true}\r\n',
}


def _hostile_server(payload: bytes) -> int:
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        listener.close()
        with conn:
            _ignore_errors(conn.sendall, payload)
            conn.settimeout(30)
            while True:
                try:
                    if not conn.recv(65536):
                        return
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    return int(listener.getsockname()[1])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("client", ["bot", "text"])
@pytest.mark.parametrize("attack", list(HOSTILE))
def test_our_clients_stop_with_one_line_against_a_hostile_server(client: str, attack: str) -> None:
    port = _hostile_server(HOSTILE[attack])
    command = [sys.executable, str(ROOT / "main.py")]
    if client == "bot":
        command += ["bot", "--connect", f"127.0.0.1:{port}", "--time-ms", "10"]
    else:
        command += ["play", "--text", "--connect", f"127.0.0.1:{port}"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=90, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, (run.stdout[-500:], run.stderr[-2000:])
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr[-2000:]
    assert run.stderr.startswith("error: the server") and len(run.stderr) < 300, run.stderr


# -- 9. command lines, a boolean seat, huge typed lines, pruning ---------------------------------------
@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "arguments",
    [
        ["serve", "--grace-s", "nan"],
        ["serve", "--grace-s", "inf"],
        ["serve", "--idle-s", "nan"],
        ["serve", "--idle-s", "inf"],
        ["serve", "--idle-s", "1e300"],
        ["serve", "--max-games", "-3"],
        ["serve", "--prune-days", "nan"],
        ["bot", "--connect", "127.0.0.1:9", "--time-ms", "1e300"],
        ["bot", "--connect", "127.0.0.1:9", "--time-ms", "nan"],
        ["play", "--text", "--connect", "127.0.0.1:9", "--clock-min", "1e300"],
        ["play", "--text", "--connect", "127.0.0.1:9", "--clock-min", "nan"],
    ],
)
def test_absurd_values_are_refused_at_the_command_line(arguments: list[str], tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "main.py"), *arguments]
    if arguments[0] == "serve":
        command += ["--port", "0", "--db", str(tmp_path / "never.db")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("error:"), run.stderr
    assert not (tmp_path / "never.db").exists()


def test_a_boolean_seat_is_not_seat_one() -> None:
    from game.net.wire import BadLine, parse_client_line

    assert isinstance(parse_client_line('{"type": "action", "seat": true, "message": {"column": 3}}'), BadLine)


@pytest.mark.timeout(120)
def test_the_terminal_client_does_not_echo_a_huge_typed_line() -> None:
    from tests.seed_standins import SeedServer, seed_client

    server = SeedServer("connect4")
    threading.Thread(target=seed_client, args=(server.port, "connect4", 5, {}), daemon=True).start()
    typed = "4" * 100_000 + "\nquit\n"
    try:
        run = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "play", "--text", "--connect", f"127.0.0.1:{server.port}"],
            input=typed,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        server.close()
    assert run.returncode == 0, run.stderr
    assert "ignored" in run.stdout and len(run.stdout) < 20_000, len(run.stdout)


def test_finished_games_are_pruned_after_the_days_asked_others_kept(tmp_path: Path) -> None:
    from game.net.store import StoredGame

    store = GameStore(tmp_path / "prune.db")
    for game_id in ("old", "recent", "playing"):
        store.create(StoredGame(game_id, "connect4", None, (3,), ("a", "b"), None, False))
    store.finish("old", {"winners": {"1": 1, "2": 0}})
    store.finish("recent", {"winners": {"1": 1, "2": 0}})
    store.flush()
    store._db.execute("UPDATE games SET finished_at = finished_at - 40 * 86400 WHERE id = 'old'")
    assert store.prune(30) == 1
    assert {row[0] for row in store._db.execute("SELECT id FROM games")} == {"recent", "playing"}
    store.close()
