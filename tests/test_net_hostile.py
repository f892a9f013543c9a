"""Hostile clients against ``main.py serve`` on loopback (issue 36, section 2): each test reproduces one
attack and checks the server's answer to it (docs/reliability.md lists them with figures)."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from game.net.server import RATE_BURST, RATE_LINES_PER_S
from tests.net_helpers import LineSocket, play_seed_client, start_server


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    args = getattr(request, "param", ())
    proc, port = start_server(tmp_path / "games.db", *args)
    yield port
    proc.kill()
    proc.wait(5)


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
