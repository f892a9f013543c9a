"""Rematches: after a game in a named room ends, its two players may play again with colours swapped.

The server keeps the extended players and spectators of a finished room connected for
``REMATCH_WINDOW_S`` (docs/network-protocol.md, "Rematch"). A player sends ``{"type": "rematch"}``;
the other player hears ``{"type": "rematch", "message": "offer", "seat": N}`` and accepts by sending
``rematch`` too. Then a new game starts in the same room (its name, game and clock), the player who
had seat 1 now has seat 2 and the other way round, with new seat tokens: each player gets
``welcome`` + ``player`` + ``update`` on the same connection, and the spectators a spectator's
``welcome`` + ``update``. A player who leaves instead is reported to the other as
``{"type": "rematch", "message": "declined"}``; when the window ends, everyone still there is closed.

A ``Room`` knows nothing of this: the server calls ``finished`` when it forgets a room (its game ended),
``ask`` for a ``rematch`` line and ``left`` when a connection closes; ``register`` is the server's
bookkeeping of a new game, ``taken`` says whether a room name is in use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, cast

from game.net.messages import Illegal, RematchNews
from game.net.room import Room, Seated

REMATCH_WINDOW_S = 60.0


class Player(Seated, Protocol):
    room: Room | None


@dataclass
class _Finished:
    asked: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None


class RematchDesk:
    def __init__(
        self,
        register: Callable[[Room], None],
        taken: Callable[[str], bool],
        grace_s: float,
        move_limit_s: float,
        window_s: float = REMATCH_WINDOW_S,
    ) -> None:
        self.register = register
        self.taken = taken
        self.grace_s = grace_s
        self.move_limit_s = move_limit_s  # the server's --idle-s, as in a first game
        self.window_s = window_s
        self._finished: dict[Room, _Finished] = {}

    def finished(self, room: Room) -> None:
        """``room``'s game ended: its players may ask for a rematch during the window."""
        if not (room.keep_after_end and room.over):  # an unstarted room dropped, or a public game
            return
        entry = _Finished()
        entry.timer = asyncio.get_running_loop().call_later(self.window_s, self._expire, room)
        self._finished[room] = entry

    def ask(self, who: Player) -> None:
        """``who`` offers a rematch, or accepts the other player's offer."""
        room = who.room
        entry = self._finished.get(room) if room is not None else None
        seat = room.seat_of(who) if room is not None else None
        if room is None or entry is None or seat is None:
            who.send(Illegal("rematch"))
            return
        other = room.seats[3 - seat]
        if other is None:
            who.send(RematchNews("declined"))
            return
        if seat in entry.asked:  # asked already: the other player heard it once
            return
        entry.asked.add(seat)
        if entry.asked == {1, 2}:
            self._start(room)
        else:
            other.send(RematchNews("offer", seat))

    def left(self, who: Player) -> None:
        """``who``'s connection closed: if it was a player of a finished room, the other hears the rematch is off."""
        room = who.room
        if room is None or room not in self._finished:
            return
        seat = room.seat_of(who)
        other = room.seats[3 - seat] if seat is not None else None
        if other is not None:
            other.send(RematchNews("declined"))

    def _start(self, room: Room) -> None:
        entry = self._finished.pop(room)
        if entry.timer is not None:
            entry.timer.cancel()
        new = self._next_room(room)
        players = [(seat, room.seats[seat]) for seat in (1, 2)]
        watchers = list(room.spectators)
        room.seats = {1: None, 2: None}
        room.spectators.clear()
        for seat, who in players:
            if who is not None:
                _move(who, new)
                new.take_seat(who, 3 - seat)  # colours swapped
        for who in watchers:
            _move(who, new)
            new.watch(who)

    def _next_room(self, old: Room) -> Room:
        """The next game of a finished room: same game, clock and name (if nobody took it meanwhile)."""
        name = old.room if old.room is not None and not self.taken(old.room) else None
        room = Room(
            old.spec, old.store, room=name, clock_ms=old.clock_ms, grace_s=self.grace_s, move_limit_s=self.move_limit_s
        )
        self.register(room)
        return room

    def _expire(self, room: Room) -> None:
        self._finished.pop(room, None)
        for who in [*room.seats.values(), *room.spectators]:
            if who is not None:
                who.close_soon()


def _move(who: Seated, room: Room) -> None:
    cast(Player, who).room = room  # the server's seated objects are its connections
