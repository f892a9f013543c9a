"""The server's rematch (game.net.rematch) over real loopback sockets: colours swapped, same room and
clock, spectators carried over; a player who leaves declines it; seed games still close at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.net_helpers import LineSocket, start_server

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    proc, port = start_server(tmp_path / "games.db")
    yield port
    proc.kill()
    proc.wait(5)


def _until(client: LineSocket, kind: str) -> dict[str, Any]:
    while True:
        message = client.receive()
        assert message is not None, f"closed while waiting for {kind}"
        if message["type"] == kind:
            return message


def _room_game(port: int, room: str, clock_ms: int | None = None) -> tuple[dict[int, LineSocket], LineSocket]:
    """Two players seated in ``room`` (seat -> socket) and a spectator, the first update read by all."""
    hello: dict[str, Any] = {"room": room}
    if clock_ms is not None:
        hello["clock_ms"] = clock_ms
    seats: dict[int, LineSocket] = {}
    for _ in range(2):
        client = LineSocket(port)
        client.hello(**hello)  # after the server's first line (its extensions), as our clients do
        seats[_until(client, "player")["message"]] = client
    watcher = LineSocket(port)
    watcher.hello(room=room, spectate=True)
    for client in (*seats.values(), watcher):
        _until(client, "update")
    return seats, watcher


def test_a_rematch_swaps_the_colours_and_keeps_room_clock_and_spectators(server: int) -> None:
    seats, watcher = _room_game(server, "friday", clock_ms=120_000)
    seats[1].send({"type": "action", "message": {"column": 3}})
    for client in (*seats.values(), watcher):
        _until(client, "update")
    seats[2].send({"type": "resign"})
    for client in (*seats.values(), watcher):
        final = _until(client, "update")
        assert final["reason"] == "resign" and final["winners"] == {"2": 0, "1": 1}
    seats[2].send({"type": "rematch"})
    offer = _until(seats[1], "rematch")
    assert offer == {"type": "rematch", "message": "offer", "seat": 2}
    seats[1].send({"type": "rematch"})
    for old_seat, client in seats.items():
        welcome = _until(client, "welcome")
        assert welcome["message"] == "player" and welcome["room"] == "friday"
        assert welcome["seat"] == 3 - old_seat  # colours swapped
        assert _until(client, "player")["message"] == 3 - old_seat
        first = _until(client, "update")
        assert first["moves"] == "" and first["clocks_ms"] == {"1": 120_000, "2": 120_000}
    assert _until(watcher, "welcome")["message"] == "spectator"
    assert _until(watcher, "update")["moves"] == ""
    seats[2].send({"type": "action", "message": {"column": 0}})  # the old seat 2 now moves first
    for client in (*seats.values(), watcher):
        assert _until(client, "update")["moves"] == "1"


def test_a_player_who_leaves_declines_the_rematch(server: int) -> None:
    seats, watcher = _room_game(server, "saturday")
    seats[1].send({"type": "rematch"})  # not before the game ends
    assert seats[1].receive() == {"type": "illegal", "message": "rematch"}
    seats[1].send({"type": "resign"})
    for client in seats.values():
        _until(client, "update")
    seats[1].send({"type": "rematch"})
    assert _until(seats[2], "rematch")["message"] == "offer"
    seats[2].close()
    assert _until(seats[1], "rematch") == {"type": "rematch", "message": "declined"}
    watcher.close()


def test_a_seed_game_still_closes_at_its_end(server: int) -> None:
    players = [LineSocket(server), LineSocket(server)]
    seats = {_until(p, "player")["message"]: p for p in players}
    for p in players:
        _until(p, "update")
    for i, column in enumerate((0, 1, 0, 1, 0, 1, 0)):
        seats[1 + i % 2].send({"type": "action", "message": {"column": column}})
        for p in players:
            _until(p, "update")
    for p in players:
        assert p.receive() is None  # closed after the last update
