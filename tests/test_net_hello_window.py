"""The hello window is the client's: a hello that reached a busy server in time (its event loop
blocked, e.g. restoring games) still makes it an extended client, and while many connections arrive
at once (everyone reconnecting after a restart) a slower hello does too; otherwise the client would
be taken for a seed client and paired with a stranger."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from game.net.server import BURST_CONNECTIONS, HELLO_WINDOW_S, GameServer, Limits
from game.net.store import GameStore
from tests.waiting import wait_until


@contextmanager
def server_thread(tmp_path: Path, limits: Limits | None = None) -> Iterator[dict[str, Any]]:
    """A GameServer in its own thread's event loop: {"server", "port", "loop"}."""
    running: dict[str, Any] = {}
    ready = threading.Event()

    async def serve() -> None:
        game_server = GameServer("connect4", GameStore(tmp_path / "games.db"), limits)
        running.update(
            server=game_server,
            port=(await game_server.start("127.0.0.1", 0))[1],
            loop=asyncio.get_running_loop(),
            stop=asyncio.Event(),
        )
        ready.set()
        await running["stop"].wait()
        game_server.store.close()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield running
    finally:
        running["loop"].call_soon_threadsafe(running["stop"].set)
        thread.join(10)
        gc.collect()


def _first_message(sock: socket.socket) -> dict[str, Any]:
    """The first message after the provisional ``player`` line that announces the extensions (if any)."""
    lines = sock.makefile("rb")
    message: dict[str, Any] = json.loads(lines.readline())
    if message["type"] == "player" and "extensions" in message:
        message = json.loads(lines.readline())
    return message


@pytest.mark.timeout(30)
def test_a_hello_sent_in_time_to_a_busy_server_still_counts(tmp_path: Path) -> None:
    with server_thread(tmp_path) as running, socket.create_connection(("127.0.0.1", running["port"]), 10) as client:
        wait_until(lambda: running["server"].connections > 0, 5, "the connection")  # its window is running
        busy = threading.Event()

        def hold_the_loop() -> None:
            busy.set()
            time.sleep(HELLO_WINDOW_S + 0.3)  # sleep-ok: the server's loop is busy (the behaviour under test)

        running["loop"].call_soon_threadsafe(hold_the_loop)  # the server's loop is busy...
        assert busy.wait(5)
        client.sendall(b'{"type": "hello", "room": "busy"}\r\n')  # ...when the hello arrives, in time
        first = _first_message(client)
    assert first["type"] == "welcome" and first["room"] == "busy", first  # a seed client would get an update


@pytest.mark.timeout(30)
def test_while_many_connect_at_once_a_slower_hello_still_counts(tmp_path: Path) -> None:
    crowd: list[socket.socket] = []
    with server_thread(tmp_path, Limits(max_per_address=500, max_games_per_address=500)) as running:
        try:
            for _ in range(BURST_CONNECTIONS + 5):  # everyone reconnecting after a restart
                crowd.append(socket.create_connection(("127.0.0.1", running["port"]), 10))
            with socket.create_connection(("127.0.0.1", running["port"]), 10) as client:
                time.sleep(HELLO_WINDOW_S + 0.35)  # sleep-ok: a client as slow as everything else in the burst
                client.sendall(b'{"type": "hello", "room": "burst"}\r\n')
                first = _first_message(client)
        finally:
            for sock in crowd:
                sock.close()
    assert first["type"] == "welcome" and first["room"] == "burst", first
