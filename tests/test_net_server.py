"""The game server over real loopback sockets: seed clients, extensions, limits, restarts."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.net_helpers import ROOT, LineSocket, play_seed_client, start_server


def _play_pair(port: int, game: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = [{}, {}]
    threads = [threading.Thread(target=play_seed_client, args=(port, game, i, results[i])) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    return results


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game", ["connect4", "uttt"])
def test_two_seed_clients_play_a_whole_game(tmp_path: Path, game: str) -> None:
    proc, port = start_server(tmp_path / "g.db", "--game", game)
    try:
        for _ in range(2):  # the next two get a new game
            first, second = _play_pair(port, game)
            assert {first["seat"], second["seat"]} == {1, 2}
            assert first["winners"] == second["winners"] and first["points"] == second["points"]
            winners = first["winners"]
            assert sorted(winners.values()) in ([0, 1], [0.5, 0.5])
            final = first["last"]
            assert len(final["state"]["pieces"]) == first["sent"] + second["sent"] == final["last_action"]["sequence"]
            assert first["illegal"] == second["illegal"] == 0
            for result in (first, second):
                assert set(result["types"]) == {"player", "update"}
                assert all(raw.endswith(b"\r\n") for raw in result["raw"])
                assert set(result["last"]) == {"type", "board", "state", "last_action", "winners", "points"}
            if game == "uttt":
                assert sorted(final["points"].values()) in ([-1, 1], [0, 0])
    finally:
        proc.kill()
        proc.wait(5)


Pair = tuple[LineSocket, LineSocket, dict[int, LineSocket]]


def _seat_pair(port: int, room: str | None = None, **hello: Any) -> Pair:
    """Two clients in one game: plain seed clients (room None) or extended ones in ``room``."""
    a, b = LineSocket(port), LineSocket(port)
    if room is not None:
        for client in (a, b):
            client.hello(room=room, **hello)
    seats: dict[int, LineSocket] = {}
    for client in (a, b):
        while True:
            message = client.receive()
            assert message is not None
            if message["type"] == "welcome":
                client.token = message["token"]  # type: ignore[attr-defined]
            if message["type"] == "player" and (room is None or "extensions" not in message):
                seats[message["message"]] = client  # (an extended client's seat is the one after its welcome)
                break
    for client in (a, b):
        assert client.receive()["type"] == "update"  # type: ignore[index]
    return a, b, seats


@pytest.mark.timeout(30)
def test_bad_line_keeps_the_connection_and_out_of_turn_is_illegal(server: int) -> None:
    _, _, seats = _seat_pair(server)
    first, second = seats[1], seats[2]
    first.send("this is not json")
    assert first.receive() == {"type": "error", "message": "this is not json"}
    first.send("x" * 10_000)  # over the line limit
    assert first.receive()["type"] == "error"  # type: ignore[index]
    second.send({"type": "action", "message": {"column": 3}})  # not its turn
    assert second.receive() == {"type": "illegal", "message": {"column": 3}}
    first.send({"type": "action", "message": {"column": 9}})  # off the board
    assert first.receive() == {"type": "illegal", "message": {"column": 9}}
    first.send({"type": "action", "message": {"column": 3}})
    for client in (first, second):
        update = client.receive()
        assert update["last_action"] == {"player": 1, "action": {"column": 3}, "sequence": 1}  # type: ignore[index]
        assert update["state"]["pieces"] == [{"type": "disc", "player": 1, "row": 0, "column": 3}]  # type: ignore[index]


@pytest.mark.timeout(30)
def test_extended_client_cannot_act_for_the_other_seat(server: int) -> None:
    _, _, seats = _seat_pair(server, room="r1")
    seats[1].send({"type": "action", "seat": 2, "message": {"column": 0}})
    assert seats[1].receive() == {"type": "illegal", "message": {"column": 0}}
    watcher = LineSocket(server)
    watcher.hello(room="r1", spectate=True)
    assert watcher.receive()["message"] == "spectator"  # type: ignore[index]
    assert watcher.receive()["type"] == "update"  # type: ignore[index]
    watcher.send({"type": "action", "message": {"column": 0}})
    assert watcher.receive()["type"] == "illegal"  # type: ignore[index]


def _play(seats: dict[int, LineSocket], columns: str, watchers: tuple[LineSocket, ...] = ()) -> dict[str, Any]:
    update: dict[str, Any] = {}
    for i, ch in enumerate(columns):
        seats[1 + i % 2].send({"type": "action", "message": {"column": int(ch) - 1}})
        for client in (*seats.values(), *watchers):
            update = client.receive()  # type: ignore[assignment]
            assert update["type"] == "update", update
    return update


@pytest.mark.timeout(30)
@pytest.mark.parametrize("server", [("--grace-s", "30")], indirect=True)
def test_reconnect_with_token_keeps_every_move(server: int) -> None:
    _, _, seats = _seat_pair(server, room="r2")
    _play(seats, "4453")
    token = seats[1].token  # type: ignore[attr-defined]
    seats[1].close()
    notice = seats[2].receive()
    assert notice["type"] == "opponent" and notice["message"] == "disconnected"  # type: ignore[index]
    back = LineSocket(server)
    back.hello(token=token)
    assert back.receive()["seat"] == 1  # type: ignore[index]
    assert back.receive() == {"type": "player", "message": 1}
    update = back.receive()
    assert update["moves"] == "4453" and len(update["state"]["pieces"]) == 4  # type: ignore[index]
    assert seats[2].receive()["message"] == "back"  # type: ignore[index]
    seats[1] = back
    final = _play(seats, "4444")
    assert final["moves"] == "44534444"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("server", [("--grace-s", "0.5")], indirect=True)
def test_after_the_grace_the_dropped_player_loses(server: int) -> None:
    _, _, seats = _seat_pair(server, room="r3")
    _play(seats, "12")
    seats[2].close()
    assert seats[1].receive()["message"] == "disconnected"  # type: ignore[index]
    final = seats[1].receive()
    assert final["reason"] == "abandoned" and final["winners"] == {"2": 0, "1": 1}  # type: ignore[index]


@pytest.mark.timeout(30)
def test_clock_runs_out(server: int) -> None:
    _, _, seats = _seat_pair(server, room="r4", clock_ms=300)
    final = seats[2].receive()
    assert final["reason"] == "time" and final["winners"] == {"1": 0, "2": 1}  # type: ignore[index]


@pytest.mark.timeout(30)
def test_resign_and_draw_offer(server: int) -> None:
    _, _, seats = _seat_pair(server, room="r5")
    seats[1].send({"type": "draw"})
    assert seats[2].receive() == {"type": "draw_offer", "message": 1}
    seats[2].send({"type": "draw"})
    for client in seats.values():
        final = client.receive()
        assert final["reason"] == "agreed" and final["points"] == {"1": 0.5, "2": 0.5}  # type: ignore[index]
    _, _, seats = _seat_pair(server, room="r6")
    seats[2].send({"type": "resign"})
    assert seats[1].receive()["winners"] == {"2": 0, "1": 1}  # type: ignore[index]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("server", [("--max-games", "1", "--max-per-address", "3")], indirect=True)
def test_full_server_declines(server: int) -> None:
    pair = _seat_pair(server)  # (kept: its sockets stay open)
    third = LineSocket(server)
    assert third.receive()["type"] == "player"  # type: ignore[index]  # provisional: a hello could take it elsewhere
    fourth = LineSocket(server)  # over the connections per address
    assert fourth.receive()["type"] == "decline"  # type: ignore[index]
    assert third.receive()["type"] == "decline"  # type: ignore[index]  # no seed game: no room for one
    assert pair[0].sock.fileno() >= 0


@pytest.mark.timeout(40)
def test_sigkill_and_restart_resume_every_game(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    proc, port = start_server(db)
    pairs = []
    for n in range(3):
        _, _, seats = _seat_pair(port, room=f"k{n}")
        _play(seats, "4453"[: n + 2])
        pairs.append({seat: client.token for seat, client in seats.items()})  # type: ignore[attr-defined]
    proc.send_signal(signal.SIGKILL)
    proc.wait(5)
    proc, port = start_server(db, port=port)
    try:
        for n, tokens in enumerate(pairs):
            back = LineSocket(port)
            back.hello(token=tokens[1])
            assert back.receive()["type"] == "welcome"  # type: ignore[index]
            assert back.receive()["type"] == "player"  # type: ignore[index]
            assert back.receive()["moves"] == "4453"[: n + 2]  # type: ignore[index]
    finally:
        proc.kill()
        proc.wait(5)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("server", [("--idle-s", "0.5")], indirect=True)
def test_a_silent_player_on_move_loses_at_the_move_limit(server: int) -> None:
    _, _, seats = _seat_pair(server, room="idle")
    for client in seats.values():
        final = client.receive()
        assert final is not None and final["winners"] == {"1": 0, "2": 1} and final["reason"] == "time", final


@pytest.mark.timeout(60)
def test_garbage_lines_never_cost_the_connection(server: int) -> None:
    rng = random.Random(19)
    _, _, seats = _seat_pair(server)
    first = seats[1]
    samples = [
        b'{"type": "action", "message": {"column": 1.0}}',
        b'{"type": "action", "message": {"column": true}}',
        b'{"type": "action", "message": "x"}',
        b"\xff\xfe\x00",
        b'{"type": "hello"}',
        b'{"type": "resign"}',
        b'{"a": ' * 3000,
        b"1e99999",
        b'"' + b"9" * 4000 + b'"',
    ]
    samples += [
        bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 300))).replace(b"\n", b" ") for _ in range(60)
    ]
    for raw in samples:
        first.sock.sendall(raw + b"\r\n")
        reply = first.receive()
        assert reply is not None and reply["type"] in ("error", "illegal"), (raw[:40], reply)
    first.send({"type": "action", "message": {"column": 3}})
    assert first.receive()["last_action"]["action"] == {"column": 3}  # type: ignore[index]


@pytest.mark.timeout(40)
def test_damaged_database_rows_and_files(tmp_path: Path) -> None:
    db = tmp_path / "damaged.db"
    proc, port = start_server(db)
    tokens = []
    for room in ("good", "bad"):
        _, _, seats = _seat_pair(port, room=room)
        _play(seats, "44")
        tokens.append(seats[1].token)  # type: ignore[attr-defined]
    proc.send_signal(signal.SIGKILL)
    proc.wait(5)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET moves = 'not json' WHERE room = 'bad'")
    proc, port = start_server(db, port=port)
    try:
        back = LineSocket(port)
        back.hello(token=tokens[0])
        assert back.receive()["room"] == "good"  # type: ignore[index]
        lost = LineSocket(port)
        lost.hello(token=tokens[1])
        assert lost.receive()["type"] == "decline"  # type: ignore[index]
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=5)
    assert "1 damaged game(s)" in err
    (tmp_path / "junk.db").write_text("not a database")
    command = [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--db", str(tmp_path / "junk.db")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=20)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "cannot use the games database" in run.stderr


@pytest.mark.timeout(30)
def test_a_hello_after_the_announcing_player_line_gets_the_room(server: int) -> None:
    late = LineSocket(server)
    late.hello(room="late")  # seated provisionally in the public game, announced; then asks for a room
    welcome = late.receive()
    assert welcome["type"] == "welcome" and welcome["room"] == "late"  # type: ignore[index]
    other = LineSocket(server)
    other.hello(room="late")
    assert other.receive()["room"] == "late"  # type: ignore[index]
    plain = LineSocket(server)  # the public game it left is free again
    assert plain.receive()["type"] == "player"  # type: ignore[index]
