"""The game server's games and who sits where: the games in progress, the public games waiting for
players, the named rooms, the seat tokens, and seating a client as its ``hello`` asks (or in the next
public game). ``game.net.server`` reads the lines; this decides where a connection plays.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
from dataclasses import dataclass

from game.net.connection import Connection
from game.net.messages import Decline, Error
from game.net.rematch import RematchDesk
from game.net.room import DEFAULT_GRACE_S, Room
from game.net.store import GameStore
from game.net.wire import MAX_LINE_BYTES, Hello
from game.rules.errors import GameError
from game.rules.registry import get_game


@dataclass(frozen=True)
class Limits:
    max_line_bytes: int = MAX_LINE_BYTES
    max_per_address: int = 32
    max_connections: int = 4000
    max_games: int = 1000
    max_games_per_address: int = 16  # games in progress or named rooms waiting, with a player from one address
    idle_s: float = 600.0  # also the longest a named room waits for its second player
    grace_s: float = DEFAULT_GRACE_S


IPV6_HOUSEHOLD_PREFIX = 64  # an IPv6 client is counted by its /64 (one household), not by each address


def address_key(host: str) -> str:
    """What the per-address limits count: an IPv4 address, or an IPv6 address's /64 prefix."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_HOUSEHOLD_PREFIX}", strict=False))
    return str(ip)


class Lobby:
    """The server's games, by id, by room name and by seat token, and the seating rules."""

    def __init__(self, game: str, store: GameStore, limits: Limits) -> None:
        self.default_game = get_game(game).name
        self.store = store
        self.limits = limits
        self.games: dict[str, Room] = {}
        self.public: dict[str, list[Room]] = {}  # game name -> its public games not started yet
        self.rooms: dict[str, Room] = {}  # room name -> its game
        self.by_token: dict[str, Room] = {}  # seat token -> its game
        self.games_per_address: collections.Counter[str] = collections.Counter()
        self.rematches = RematchDesk(
            self.register, lambda name: name in self.rooms, self.limits.grace_s, self.limits.idle_s, self.release
        )

    def restore(self) -> int:
        """Bring back every unfinished game from the store; returns how many."""
        for stored in self.store.unfinished():
            try:
                room = Room.restore(stored, self.store, self.limits.grace_s, self.limits.idle_s)
            except Exception as exc:  # noqa: BLE001 - a game that cannot come back costs only itself
                self.store.set_aside(stored.game_id, str(exc) or type(exc).__name__)
                continue
            self.register(room)
        return len(self.games)

    def register(self, room: Room) -> None:
        self.games[room.game_id] = room
        for token in room.tokens:
            self.by_token[token] = room
        if room.room:
            self.rooms[room.room] = room
            room.keep_after_end = True  # its players may ask for a rematch
        room.on_finish = self.forget
        room.on_start = self.started

    def forget(self, room: Room) -> None:
        if self.games.pop(room.game_id, None) is not None and not (room.keep_after_end and room.over):
            self._count(room, set())  # a finished room counts until its rematch window ends (release)
        for token in room.tokens:
            self.by_token.pop(token, None)
        if room.room and self.rooms.get(room.room) is room:
            del self.rooms[room.room]
        self.unlist(room)
        self.rematches.finished(room)

    def release(self, room: Room) -> None:
        """A finished room's rematch window ended (or its rematch started): it no longer counts."""
        self._count(room, set())

    def started(self, room: Room) -> None:
        self._count(room, {getattr(who, "address", "?") for who in room.seats.values() if who is not None})
        self.unlist(room)

    def _count(self, room: Room, addresses: set[str]) -> None:
        """``room`` counts toward the games of ``addresses`` (instead of those it counted for before)."""
        self.games_per_address.subtract(room.addresses)
        for address in room.addresses:
            if self.games_per_address[address] <= 0:
                del self.games_per_address[address]
        room.addresses = addresses
        self.games_per_address.update(addresses)

    def _close_unjoined(self, room: Room) -> None:
        """A named room that waited ``idle_s`` for its second player closes, whatever its player sends."""
        if room.started or self.games.get(room.game_id) is not room:
            return
        for who in room.seats.values():
            if who is not None:
                who.send(Error(f"nobody joined room {room.room!r} within {self.limits.idle_s:g} s: closing"))
                who.close_soon()
        self.forget(room)

    def unlist(self, room: Room) -> None:
        """A public game started or ended: no longer one to seat newcomers in."""
        waiting = self.public.get(room.spec.name)
        if waiting and room in waiting:
            waiting.remove(room)

    def upgrade(self, conn: Connection, hello: Hello) -> bool:
        """A hello from a client seated in a public game that has not started (provisionally, or as a
        seed client whose hello came late): it keeps its seat when it asks for nothing else, else it
        leaves the public game and is seated as it asks."""
        room = conn.room
        conn.extended = True
        plain = hello.token is None and hello.room is None and not hello.spectate and hello.clock_ms is None
        if room is not None and plain and hello.game in (None, room.spec.name) and not room.started:
            if room.unsettled and not self.has_room_for_a_game(conn, joining=room):
                return False
            room.settle(conn, welcome=True)
            return True
        if room is not None:
            room.leave(conn)
            self.drop_if_unused(room)
            conn.room = None
        return self.enter(conn, hello)

    def settle_seed(self, conn: Connection) -> bool:
        """The hello window passed without a hello: a seed client in its public game."""
        room = conn.room
        if room is None:
            return False
        if room.unsettled and not room.started:
            if not self.has_room_for_a_game(conn, joining=room):
                return False
            room.settle(conn)
        return True

    def enter(self, conn: Connection, hello: Hello) -> bool:
        if hello.token:
            game_room = self.by_token.get(hello.token)
            seat = None if game_room is None else game_room.seat_of_token(hello.token)
            if game_room is not None and seat is not None:
                # A game restored after a restart counts for nobody until its players come back, and a
                # player may come back from another address: either way the game becomes one more of
                # this address's games, so the address must have room for it (as when it opens a game).
                if conn.address not in game_room.addresses:
                    if not self.address_may_play(conn):
                        return False
                    self._count(game_room, game_room.addresses | {conn.address})
                conn.room = game_room
                game_room.rejoin(conn, seat)
                return True
            conn.send(Decline("unknown or expired seat token"))
            return False
        try:
            game = get_game(hello.game).name if hello.game else self.default_game
        except GameError as exc:
            conn.send(Decline(str(exc)))
            return False
        if hello.room is None:
            if hello.spectate:
                conn.send(Decline("name the room to watch"))
                return False
            if hello.clock_ms is not None:  # a public game may seat a seed client, which hears of no clock
                conn.send(Decline("a clock needs a room: both players name the room and the same clock_ms"))
                return False
            if not self.has_room_for_a_game(conn, joining=self._public_target(game)):
                return False
            self.seat_public(conn, game)
            return True
        room = self.rooms.get(hello.room)
        if hello.spectate:
            if room is None:
                conn.send(Decline(f"no game in room {hello.room!r}"))
                return False
            conn.room = room
            conn.spectating()
            room.watch(conn)
            return True
        if room is None:
            if not self.has_room_for_a_game(conn):
                return False
            room = Room(
                get_game(game),
                self.store,
                room=hello.room,
                clock_ms=hello.clock_ms,
                grace_s=self.limits.grace_s,
                move_limit_s=self.limits.idle_s,
            )
            self.register(room)
            self._count(room, {conn.address})  # a waiting room is one of its address's games
            asyncio.get_running_loop().call_later(self.limits.idle_s, self._close_unjoined, room)
        elif room.spec.name != game and hello.game:
            conn.send(Decline(f"room {hello.room!r} plays {room.spec.name}, not {game}"))
            return False
        elif hello.clock_ms is not None and room.clock_ms != hello.clock_ms:
            have = "no clock" if room.clock_ms is None else f"clock_ms {room.clock_ms}"
            conn.send(Decline(f"room {hello.room!r} plays with {have}: ask for the same clock"))
            return False
        if not room.free_seats():
            conn.send(Decline(f"no seat free in room {hello.room!r}: join as a spectator"))
            return False
        if conn.address not in room.addresses and not self.address_may_play(conn):  # a room counts once
            return False
        conn.room = room
        room.take_seat(conn)
        return True

    def _public_target(self, game: str) -> Room | None:
        """The public game of ``game`` a newcomer would be seated in (None: a new one)."""
        return next((r for r in self.public.get(game, ()) if r.free_seats()), None)

    def seat_public(self, conn: Connection, game: str, *, provisional: bool = False) -> None:
        """Seat ``conn`` in a public game of ``game`` (never with a clock) that waits for players."""
        waiting = self.public.setdefault(game, [])
        room = self._public_target(game)
        if room is None:
            room = Room(get_game(game), self.store, grace_s=self.limits.grace_s, move_limit_s=self.limits.idle_s)
            self.register(room)
            waiting.append(room)
        conn.room = room
        room.take_seat(conn, provisional=provisional)

    def has_room_for_a_game(self, conn: Connection, joining: Room | None = None) -> bool:
        """Games that started or wait in a named room count toward the server's games; a public game
        waiting for players does not. One address holds at most ``max_games_per_address`` games in
        progress, rooms waiting and public games waiting (``joining``: the public game it would sit in)."""
        if sum(1 for room in self.games.values() if room.started or room.room) >= self.limits.max_games:
            conn.send(Decline(f"the server is full ({self.limits.max_games} games): try again later"))
            return False
        return self.address_may_play(conn, joining)

    def _held(self, address: str, besides: Room | None) -> int:
        """The games of ``address``: started or named (counted), and the public games it waits in
        (counted here: once started they count, and the address may not then be over its limit)."""
        waiting = sum(
            1
            for rooms in self.public.values()
            for room in rooms
            if room is not besides and not room.started and address in _seat_addresses(room)
        )
        return self.games_per_address[address] + waiting

    def address_may_play(self, conn: Connection, joining: Room | None = None) -> bool:
        if self._held(conn.address, joining) >= self.limits.max_games_per_address:
            limit = self.limits.max_games_per_address
            conn.send(Decline(f"too many games from your address ({limit}): finish one first"))
            return False
        return True

    def drop_if_unused(self, room: Room) -> None:
        if not room.started and room.is_empty:
            self.forget(room)


def _seat_addresses(room: Room) -> set[str]:
    return {str(getattr(who, "address", "?")) for who in room.seats.values() if who is not None}
