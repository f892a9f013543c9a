"""The one client session (``game.net.session``) on its own, against tiny servers in the test's event
loop: it says hello only when the server's first line announces it, sends what was queued after that,
comes back after a drop when the caller says the game can be resumed, gives up after its patience,
and stops with one line at a line it cannot follow."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import struct
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from game.net.messages import Player, ServerLineError, Update
from game.net.session import (
    ClientSession,
    Dropped,
    EndCause,
    Ended,
    Opened,
    Patience,
    SessionEvent,
    Unreachable,
)
from game.net.wire import EXTENSIONS, Action, Address, Hello
from tests.net_helpers import ROOT, start_server

pytestmark = pytest.mark.timeout(30)
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
STATE = {"pieces": [], "player": 1, "previous_player": 2}


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj).encode() + b"\r\n"


async def _serve(handler: Handler) -> tuple[asyncio.Server, Address]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, Address("127.0.0.1", server.sockets[0].getsockname()[1])


async def _events(session: ClientSession, until: Callable[[SessionEvent], bool]) -> list[SessionEvent]:
    seen: list[SessionEvent] = []
    async with session:
        async for event in session:
            seen.append(event)
            if until(event):
                break
    return seen


def test_a_seed_server_gets_no_hello_and_the_first_line_is_the_seat() -> None:
    received: list[bytes] = []

    async def seed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(_line({"type": "player", "message": 1}) + _line({"type": "update", "board": None, "state": STATE}))
        received.append(await reader.readline())  # the client's first line
        writer.close()

    async def main() -> list[SessionEvent]:
        server, address = await _serve(seed)
        session = ClientSession(address, lambda: Hello("connect4"))
        events = []
        async with session:
            async for event in session:
                events.append(event)
                if isinstance(event, Update):
                    session.send(Action({"column": 3}))
                if isinstance(event, Ended):
                    break
        server.close()
        return events

    events = asyncio.run(main())
    assert events[:3] == [Opened(False, False), Player(1), Update(STATE)]
    assert received == [b'{"type": "action", "message": {"column": 3}}\r\n']  # never a hello
    assert events[-1] == Ended("the server closed the connection")


def test_an_announcing_server_gets_the_hello_then_the_queued_lines_and_a_drop_is_resumed() -> None:
    lines: list[list[bytes]] = []

    async def ours(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(_line({"type": "player", "message": 2, "extensions": list(EXTENSIONS)}))
        got = [await reader.readline(), await reader.readline()]
        lines.append(got)
        writer.write(_line({"type": "player", "message": 1}))
        await writer.drain()
        writer.close()  # a drop: the session comes back

    async def main() -> list[SessionEvent]:
        server, address = await _serve(ours)
        tokens = iter(["first", "again"])
        session = ClientSession(
            address, lambda: Hello(token=next(tokens)), resumable=lambda: True, patience=Patience(5.0, (0.01,))
        )
        session.send(Action({"column": 0}))  # queued before the connection: it goes out after the hello
        events = await _events(session, lambda e: isinstance(e, Opened) and e.resuming)
        server.close()
        return events

    events = asyncio.run(main())
    assert events[0] == Opened(True, False) and events[1] == Player(1)
    assert isinstance(events[2], Dropped) and events[2].attempt == 1 and events[3] == Opened(True, True)
    assert lines[0] == [b'{"type": "hello", "token": "first"}\r\n', b'{"type": "action", "message": {"column": 0}}\r\n']


async def _hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.close()


def test_a_wrong_address_is_said_at_once_and_a_gone_server_after_the_patience() -> None:
    async def main() -> tuple[list[SessionEvent], list[SessionEvent]]:
        server, address = await _serve(_hang_up)
        server.close()
        await server.wait_closed()
        at_once = await _events(ClientSession(address, lambda: None), lambda e: False)
        patient = ClientSession(address, lambda: None, returning=True, patience=Patience(0.3, (0.05,)))
        return at_once, await _events(patient, lambda e: False)

    at_once, patient = asyncio.run(main())
    assert len(at_once) == 1 and isinstance(at_once[0], Unreachable) and "cannot reach" in at_once[0].reason
    assert all(isinstance(e, Dropped) for e in patient[:-1]) and len(patient) > 2
    assert isinstance(patient[-1], Unreachable) and "the server is gone" in patient[-1].reason


def test_a_line_longer_than_the_limit_stops_the_session_with_one_line() -> None:
    async def endless(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"x" * 5000)
        await writer.drain()
        await reader.read()

    async def main() -> None:
        server, address = await _serve(endless)
        try:
            await _events(ClientSession(address, lambda: None, line_limit=1000), lambda e: False)
        finally:
            server.close()

    with pytest.raises(ServerLineError, match="^the server sent a line longer than 1000 bytes$"):
        asyncio.run(main())


@pytest.mark.timeout(90)
def test_ctrl_c_while_waiting_on_the_network_leaves_cleanly(tmp_path: Path) -> None:
    """The terminal client waits for its opponent inside the session's event loop: Ctrl-C there closes
    the session (no asyncio noise on stderr) and prints how to come back."""
    server, port = start_server(tmp_path / "games.db")
    command = [sys.executable, str(ROOT / "main.py"), "play", "--text", "--connect", f"127.0.0.1:{port}"]
    client = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background child ignores it
    )
    try:
        assert client.stdout is not None
        seen = ""
        while "waiting for the game" not in seen:
            line = client.stdout.readline()
            assert line, seen
            seen += line
        client.send_signal(signal.SIGINT)
        out, err = client.communicate(timeout=30)
    finally:
        client.kill()
        server.kill()
        server.communicate(timeout=10)
    assert client.returncode == 0 and err == "", err
    assert "left the game; your seat is kept" in out


def test_how_a_connection_ended_is_a_typed_cause_beside_its_words() -> None:
    """A reset connection ends with ``EndCause.LOST``, a closed one with ``CLOSED``: the terminal client decides
    on the cause, never on the reason's words."""

    async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(_line({"type": "player", "message": 1}))
        await writer.drain()
        raw = writer.get_extra_info("socket")
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
        writer.close()

    async def main() -> list[SessionEvent]:
        server, address = await _serve(reset)
        events = await _events(ClientSession(address, lambda: Hello("connect4")), lambda e: isinstance(e, Ended))
        server.close()
        return events

    ended = asyncio.run(main())[-1]
    assert isinstance(ended, Ended) and ended.cause is EndCause.LOST, ended
    assert Ended("the server closed the connection").cause is EndCause.CLOSED
