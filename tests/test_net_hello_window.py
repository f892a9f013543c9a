"""The 0.25 s hello window is the client's: a hello that reached a busy server in time (its event
loop blocked, e.g. restoring games or taking a burst of reconnections) still makes it an extended
client, instead of a seed client that would be paired with a stranger."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from game.net.server import HELLO_WINDOW_S, GameServer
from game.net.store import GameStore


@pytest.mark.timeout(30)
def test_a_hello_sent_in_time_to_a_busy_server_still_counts(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    game_server = GameServer("connect4", GameStore(tmp_path / "games.db"))
    port = loop.run_until_complete(game_server.start("127.0.0.1", 0))[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            deadline = time.monotonic() + 5
            while game_server.connections == 0 and time.monotonic() < deadline:  # its window is running
                time.sleep(0.005)
            loop.call_soon_threadsafe(time.sleep, HELLO_WINDOW_S + 0.3)  # the server's loop is busy...
            time.sleep(0.05)
            client.sendall(b'{"type": "hello", "room": "busy"}\r\n')  # ...when the hello arrives, in time
            first = json.loads(client.makefile("rb").readline())
        assert first["type"] == "welcome", first  # a seed client would get "player" first
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        game_server.store.close()
