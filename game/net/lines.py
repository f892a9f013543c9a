"""Reading a game server's lines in a blocking client (the bot, the terminal client), safely.

A server may be hostile or broken: a line that never ends, deeply nested JSON, a seat that does not
exist. ``ServerLines`` reads at most ``limit`` bytes per line (the rest of a longer line is never
kept), and turns every line into a JSON object or a ``ServerLineError`` whose message is one line.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

from game.net.wire import LineBuffer, LineTooLong

SERVER_LINE_LIMIT = 1 << 20  # a Gomoku update is a few KB; no server line of ours comes near this


class ServerLineError(Exception):
    """The server sent something a client cannot follow; the message is one line."""


def parse_server_line(raw: str) -> dict[str, Any]:
    """One server line as a JSON object; ServerLineError otherwise (never a traceback)."""
    try:
        message = json.loads(raw)
    except RecursionError:
        raise ServerLineError("the server sent a line nested too deeply") from None
    except ValueError:
        raise ServerLineError(f"the server sent a line that is not JSON: {raw[:80]!r}") from None
    if not isinstance(message, dict):
        raise ServerLineError("the server sent a line that is not a JSON object")
    return message


def seat_of(message: dict[str, Any]) -> int:
    """The seat a ``player`` line gives: 1 or 2, else ServerLineError."""
    seat = message.get("message")
    if isinstance(seat, bool) or seat not in (1, 2):
        raise ServerLineError(f"the server gave a seat that does not exist: {json.dumps(seat)[:40]}")
    return int(seat)


class ServerLines:
    """The JSON objects a server sends on ``sock`` (blocking), one per line, bounded in size."""

    def __init__(self, sock: socket.socket, limit: int = SERVER_LINE_LIMIT) -> None:
        self.sock = sock
        self._buffer = LineBuffer(limit)
        self._lines: list[str | LineTooLong] = []

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while True:
            while not self._lines:
                data = self.sock.recv(65536)
                if not data:
                    return
                self._lines.extend(self._buffer.feed(data))
            line = self._lines.pop(0)
            if isinstance(line, LineTooLong):
                raise ServerLineError(f"the server sent a {line}")
            if line.strip():
                yield parse_server_line(line)
