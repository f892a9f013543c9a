"""What a network game is set up with, without pygame or sockets: the time controls a host may choose,
the room a hosted game is played in, the ``HOST:PORT/ROOM`` address a player types to join or watch,
and how a clock reads.

A hosted game is always in a named room, so that it can be watched and rematched (spectators and
rematches need a room: docs/network-protocol.md). The room's name says the clock: ``game`` (no clock)
or ``5min``. A joiner reads the clock from the name and asks the server for that same clock, so the
host's and the joiner's ``hello`` agree (a server may give a clock only to a room whose players all
asked for it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.net.wire import Address, parse_address

CLOCK_CHOICES = (0, 1, 3, 5, 10, 15, 30, 60)  # minutes per player; 0: no clock
UNTIMED_ROOM = "game"
_TIMED_ROOM = re.compile(r"(\d{1,4})min")
_ROOM = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def clock_label(minutes: int) -> str:
    return "No clock" if minutes == 0 else f"{minutes} min per player"


def room_for(clock_min: int) -> str:
    """The room a host creates for a game with ``clock_min`` minutes per player (0: no clock)."""
    return f"{clock_min}min" if clock_min > 0 else UNTIMED_ROOM


def clock_ms_of_room(room: str | None) -> int | None:
    """The clock a room's name says (``5min``: 300000 ms), None for any other name."""
    match = _TIMED_ROOM.fullmatch(room or "")
    if match is None or int(match[1]) == 0:
        return None
    return int(match[1]) * 60_000


@dataclass(frozen=True)
class Where:
    """A server and, optionally, a room on it."""

    address: Address
    room: str | None

    def __str__(self) -> str:
        host = f"[{self.address.host}]" if ":" in self.address.host else self.address.host
        return f"{host}:{self.address.port}" + (f"/{self.room}" if self.room else "")


def parse_where(text: str) -> Where:
    """``HOST:PORT`` or ``HOST:PORT/ROOM``; ValueError with a one-line message."""
    text = text.strip()
    server, _, room = text.partition("/")
    if room and not _ROOM.fullmatch(room):
        raise ValueError(f"the room must be 1-40 letters, digits, '-', '_' or '.', not {room!r}")
    try:
        address = parse_address(server)
    except ValueError:
        raise ValueError(
            f"The address must be HOST:PORT or HOST:PORT/ROOM (e.g. 127.0.0.1:4242/game), not {text!r}"
        ) from None
    return Where(address, room or None)


def where_to_watch(text: str) -> Where:
    """The room a spectator watches, ``HOST:PORT/ROOM``; ValueError (one line) without a room."""
    where = parse_where(text)
    if where.room is None:
        raise ValueError(f"To watch, give the room too: HOST:PORT/ROOM (e.g. {where}/game)")
    return where


def clock_text(ms: float) -> str:
    """``4:05``; under 20 s with tenths (``0:09.4``), never below ``0:00``."""
    ms = max(0.0, ms)
    if ms < 20_000:
        return f"0:{ms / 1000:04.1f}"
    seconds = int(ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def offered_address(last: str, clipboard: str | None) -> str:
    """What the join field offers: the ``HOST:PORT/ROOM`` on the clipboard (a host copies what it shares), else the
    last address typed without its room (a room is one hosted game's: the next game is shared anew)."""
    if clipboard is not None and len(clipboard) <= 200:
        try:
            where = parse_where(clipboard)
        except ValueError:
            where = None
        if where is not None and where.room is not None:
            return str(where)
    return last.strip().partition("/")[0]
