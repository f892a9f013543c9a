"""The wire format of the game server (docs/network-protocol.md): UTF-8 JSON objects, one per line.

Pure code (no sockets): a bounded line splitter, the client's messages as frozen dataclasses
(``Hello``, ``Action``, ``Command``) and the server's parser of client lines. The server's messages
are typed in ``game.net.messages`` (built by the server, decoded by every client). Lines end in
``\\r\\n`` when written; a bare ``\\n`` is accepted when read.

The seed protocol has five server message types (``player``, ``update``, ``illegal``, ``error``,
``decline``) and one client type (``action``). Everything else is an extension a client gets only
after it sent a ``hello`` line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# A seed UCT client sends its search statistics beside every action: one entry per legal move, about
# 6.8 KB at Ultimate TTT (81 moves). The limit leaves room for far bigger boards; floods are cut by rate.
MAX_LINE_BYTES = 1 << 16
EOL = b"\r\n"
BASE_TYPES = frozenset({"player", "update", "illegal", "error", "decline"})
# Our server's first ``player`` line carries these in an ``extensions`` field (a seed client ignores
# unknown fields): a client says ``hello`` only after it saw "hello" there, so a seed-only server never
# receives a line it cannot parse.
EXTENSIONS = ("hello", "room", "token", "spectate", "clock", "resign", "draw", "ping")


class LineTooLong(ValueError):
    """A line longer than the limit (it was dropped up to its end)."""


class LineBuffer:
    """Splits received bytes into lines of at most ``limit`` bytes.

    ``feed`` returns the complete lines, each a ``str`` or a ``LineTooLong`` marker for a line that
    exceeded the limit (its bytes are discarded up to the next newline, so the connection can go on).
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[str | LineTooLong]:
        out: list[str | LineTooLong] = []
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.limit:
                    if not self._skipping:
                        out.append(LineTooLong(f"line longer than {self.limit} bytes"))
                    self._skipping = True
                    self._buffer.clear()
                return out
            raw = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._skipping:  # the tail of a line already reported
                self._skipping = False
                continue
            if len(raw) > self.limit:
                out.append(LineTooLong(f"line longer than {self.limit} bytes"))
                continue
            out.append(raw.decode("utf-8", errors="replace").rstrip("\r"))


@dataclass(frozen=True)
class Address:
    host: str
    port: int


def parse_address(text: str) -> Address:
    """``HOST:PORT`` (IPv6 in brackets); ValueError with a one-line message."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect must be HOST:PORT (e.g. 127.0.0.1:4242), not {text!r}")
    return Address(host.strip("[]"), int(port))


def encode(obj: dict[str, Any]) -> bytes:
    """One protocol line: strict JSON (ValueError for NaN or an infinity; ``strict_json`` keeps them out)."""
    return json.dumps(obj, separators=(", ", ": "), allow_nan=False).encode("utf-8") + EOL


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def strict_json(text: str) -> Any:
    """``json.loads`` without NaN, Infinity or numbers too large for a float (1e999): ValueError."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


# -- client -> server -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    """The opening line of an extended client."""

    game: str | None = None
    room: str | None = None
    token: str | None = None
    spectate: bool = False
    clock_ms: int | None = None
    name: str = ""


@dataclass(frozen=True)
class Action:
    action: Any
    seat: int | None = None  # an extended client may name its seat; another seat's is illegal


@dataclass(frozen=True)
class Command:
    """An extension command without a payload: ``resign``, ``draw`` (offer or accept), ``ping``,
    ``rematch`` (offer or accept, after a game in a room: game.net.rematch)."""

    name: str


@dataclass(frozen=True)
class BadLine:
    reason: str


ClientMessage = Hello | Action | Command | BadLine
COMMANDS = frozenset({"resign", "draw", "ping", "rematch"})
MAX_NAME = 40
MAX_CLOCK_MS = 24 * 3600 * 1000


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not (0 < len(value) <= MAX_NAME):
        raise ValueError(f"{key} must be a string of 1-{MAX_NAME} characters")
    return value


def _hello(data: dict[str, Any]) -> Hello:
    clock = data.get("clock_ms")
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int) or not 0 < clock <= MAX_CLOCK_MS):
        raise ValueError(f"clock_ms must be an integer 1-{MAX_CLOCK_MS}")
    spectate = data.get("spectate", False)
    if not isinstance(spectate, bool):
        raise ValueError("spectate must be true or false")
    return Hello(
        _optional_text(data, "game"),
        _optional_text(data, "room"),
        _optional_text(data, "token"),
        spectate,
        clock,
        _optional_text(data, "name") or "",
    )


def parse_client_line(line: str) -> ClientMessage:
    """Read one client line; never raises (a line it cannot read is a ``BadLine``)."""
    try:
        data = strict_json(line)
    except (ValueError, RecursionError):
        return BadLine("not a JSON object")
    if not isinstance(data, dict):
        return BadLine("not a JSON object")
    kind = data.get("type")
    if kind == "action":
        if "message" not in data:
            return BadLine("an action needs a message")
        seat = data.get("seat")
        if seat is not None and (type(seat) is not int or seat not in (1, 2)):
            return BadLine("seat must be 1 or 2")
        return Action(data["message"], seat)
    if kind == "hello":
        try:
            return _hello(data)
        except ValueError as exc:
            return BadLine(f"bad hello: {exc}")
    if kind in COMMANDS:
        return Command(kind)
    return BadLine(f"unknown message type {str(kind)[:20]!r}")
