"""The asyncio game server: many games in one process (docs/network-protocol.md).

A connection that sends no ``hello`` within ``HELLO_WINDOW_S`` (``BURST_HELLO_WINDOW_S`` while many
connections arrive at once) is a seed-protocol client: it is
seated in the next public game of the server's game, and hears only the five seed message types.
A ``hello`` line makes it an extended client (game, room, token, spectators, clocks, resign, draw).

Every message goes out through the store's ``after_write``: nothing is sent before the writes
queued ahead of it are committed (a move is on disk before anyone hears of it), and the messages
of one connection keep their order. The writes of one loop iteration share one commit.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import gc
import os
import time
from dataclasses import dataclass, replace
from functools import partial

from game.net.connection import (
    Connection,
)
from game.net.descriptors import (
    ACCEPT_BACKLOG,
    connection_cap,
    quiet_accept_errors,
)
from game.net.rematch import RematchDesk
from game.net.room import DEFAULT_GRACE_S, Room
from game.net.store import GameStore
from game.net.wire import (
    MAX_LINE_BYTES,
    Action,
    BadLine,
    Command,
    Hello,
    LineTooLong,
    Notice,
    parse_client_line,
)
from game.rules.errors import GameError
from game.rules.registry import get_game

HELLO_WINDOW_S = 0.5
# While many connections arrive at once (everyone reconnecting after a restart), clients are slow to
# send their first line too: the window is longer then, so no extended client is taken for a seed one.
BURST_CONNECTIONS = 50  # accepted within the last second
BURST_HELLO_WINDOW_S = 2.0
CLOSE_WAIT_S = 5.0  # a closing connection waits this long for its last messages' commit
MAX_TIMINGS = 1_000_000
# Garbage collection: the objects alive once the server is up (modules, restored games) are frozen
# out of the collector, and the youngest generation is collected less often, so a full collection
# (which walks every connection's objects) is rare and short; measured in game/net/bench.py.
GC_THRESHOLDS = (5_000, 20, 50)
# For the load benchmark: a file to write, at exit, one line per move relayed: room (or game id), move
# number, when its line was read and when its updates were written (time.monotonic, system-wide).
TRACE_VARIABLE = "CONNECT4_SERVER_TRACE"


@dataclass(frozen=True)
class Limits:
    max_line_bytes: int = MAX_LINE_BYTES
    max_per_address: int = 32
    max_connections: int = 4000
    max_games: int = 1000
    max_games_per_address: int = 16  # games in progress with a player from one address
    idle_s: float = 600.0
    grace_s: float = DEFAULT_GRACE_S


class GameServer:
    def __init__(self, game: str, store: GameStore, limits: Limits | None = None) -> None:
        self.default_game = get_game(game).name
        self.store = store
        self.limits = limits or Limits()
        self.games: dict[str, Room] = {}
        self.public: dict[str, list[Room]] = {}  # game name -> its public games not started yet
        self.rooms: dict[str, Room] = {}  # room name -> its game
        self.by_token: dict[str, Room] = {}  # seat token -> its game
        self.per_address: collections.Counter[str] = collections.Counter()
        self.games_per_address: collections.Counter[str] = collections.Counter()
        self.connections = 0
        self._accepted: collections.deque[float] = collections.deque()  # when the last connections came
        self.relayed = 0
        self.move_times: list[float] = []  # seconds from reading a move to its updates written (and stored)
        self.trace: list[tuple[str, int, float, float]] | None = None
        trace_path = os.environ.get(TRACE_VARIABLE)
        if trace_path:
            self.trace = []
            atexit.register(self._write_trace, trace_path)
        self._server: asyncio.AbstractServer | None = None
        self.rematches = RematchDesk(self._register, lambda name: name in self.rooms, self.limits.grace_s)

    def restore(self) -> int:
        """Bring back every unfinished game from the store; returns how many."""
        for stored in self.store.unfinished():
            try:
                room = Room.restore(stored, self.store, self.limits.grace_s, self.limits.idle_s)
            except Exception as exc:  # noqa: BLE001 - a game that cannot come back costs only itself
                self.store.set_aside(stored.game_id, str(exc) or type(exc).__name__)
                continue
            self._register(room)
        return len(self.games)

    def _register(self, room: Room) -> None:
        self.games[room.game_id] = room
        for token in room.tokens:
            self.by_token[token] = room
        if room.room:
            self.rooms[room.room] = room
            room.keep_after_end = True  # its players may ask for a rematch
        room.on_finish = self._forget
        room.on_start = self._started

    def _forget(self, room: Room) -> None:
        if self.games.pop(room.game_id, None) is not None:
            self.games_per_address.subtract(room.addresses)
            for address in room.addresses:
                if self.games_per_address[address] <= 0:
                    del self.games_per_address[address]
        for token in room.tokens:
            self.by_token.pop(token, None)
        if room.room and self.rooms.get(room.room) is room:
            del self.rooms[room.room]
        self._unlist(room)
        self.rematches.finished(room)

    def _started(self, room: Room) -> None:
        room.addresses = {getattr(who, "address", "?") for who in room.seats.values() if who is not None}
        self.games_per_address.update(room.addresses)
        self._unlist(room)

    def _unlist(self, room: Room) -> None:
        """A public game started or ended: no longer one to seat newcomers in."""
        waiting = self.public.get(room.spec.name)
        if waiting and room in waiting:
            waiting.remove(room)

    async def start(self, host: str, port: int) -> tuple[str, int]:
        asyncio.get_running_loop().set_exception_handler(quiet_accept_errors)
        self._server = await asyncio.start_server(
            self._handle, host, port, limit=self.limits.max_line_bytes * 2, backlog=ACCEPT_BACKLOG
        )
        sock = self._server.sockets[0].getsockname()
        return sock[0], sock[1]

    async def serve_forever(self) -> None:
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    # -- one connection -------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = str((writer.get_extra_info("peername") or ("?",))[0])
        conn = Connection(reader, writer, self.limits.max_line_bytes, self.store)
        conn.address = address
        if self.per_address[address] >= self.limits.max_per_address or self.connections >= self.limits.max_connections:
            conn.send(Notice("decline", "the server is full: too many connections, try again later"))
            writer.transport.abort()  # its file descriptor is free at once (the line is in the kernel)
            return
        self.per_address[address] += 1
        self.connections += 1
        shutting_down = False
        try:
            await self._serve(conn)
        except (TimeoutError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:  # the server stops: the games stay in the store, clients come back
            shutting_down = True
        finally:
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            self.connections -= 1
            if conn.room is not None:
                self.rematches.left(conn)
                conn.room.leave(conn)
                self._drop_if_unused(conn.room)
            if not shutting_down:
                try:
                    await self._close(conn)
                except asyncio.CancelledError:
                    shutting_down = True
            if shutting_down:
                conn.writer.transport.abort()

    async def _serve(self, conn: Connection) -> None:
        first = await self._line_already_sent(conn)  # a client that opened with its hello at once
        if first is None and conn.eof:
            return
        hello = parse_client_line(first) if isinstance(first, str) else None
        pending: str | LineTooLong | None = None
        if isinstance(hello, Hello):
            conn.extended = True
            if not self._enter(conn, hello):
                return
        else:
            # Seated at once in the public game, provisionally: the ``player`` line announces the
            # extensions; a hello within the window takes the client where it asks, else it is a seed client.
            pending = first
            self._seat_public(conn, self.default_game, provisional=True)
            if pending is None:
                try:
                    pending = await conn.next_line(self._hello_window())
                except TimeoutError:
                    pending = await self._line_already_sent(conn)
                else:
                    if pending is None:
                        return
            hello = parse_client_line(pending) if isinstance(pending, str) else None
            if isinstance(hello, Hello):
                pending = None
                if not self._upgrade(conn, hello):
                    return
            elif not self._settle_seed(conn):
                return
        while not conn.closing:
            line: str | LineTooLong | None
            if pending is not None:
                line, pending = pending, None
            else:
                try:
                    line = await conn.next_line(self.limits.idle_s)
                except TimeoutError:
                    if self._may_idle(conn):
                        continue
                    conn.send(Notice("error", f"idle for {self.limits.idle_s:g} s: closing"))
                    return
                if line is None:
                    return
            await conn.pace(line)
            self._dispatch(conn, line)

    def _hello_window(self) -> float:
        now = time.monotonic()
        self._accepted.append(now)
        while self._accepted and self._accepted[0] < now - 1.0:
            self._accepted.popleft()
        return BURST_HELLO_WINDOW_S if len(self._accepted) > BURST_CONNECTIONS else HELLO_WINDOW_S

    @staticmethod
    async def _line_already_sent(conn: Connection) -> str | LineTooLong | None:
        """After the hello window: a line the client sent in time that a busy server has not read yet
        (it sits in the socket, or the read that got it was cut by the window) still counts. Two loop
        turns let the transport take in what the kernel holds; a line that is not there is silence."""
        for _ in range(2):
            await asyncio.sleep(0)
        try:
            return await conn.next_line(0)
        except TimeoutError:
            return None

    def _may_idle(self, conn: Connection) -> bool:
        """In a game under way a silent connection stays: the room's per-move limit (or clock) ends the
        game of a player who does not move, however it keeps its connection alive."""
        room = conn.room
        return room is not None and room.started and not room.over

    def _dispatch(self, conn: Connection, line: str | LineTooLong) -> None:
        if isinstance(line, LineTooLong):
            conn.send(Notice("error", str(line)))
            return
        if not line.strip():
            return
        message = parse_client_line(line)
        room = conn.room
        if isinstance(message, Hello) and not conn.extended and room is not None and not room.started:
            if not self._upgrade(conn, message):  # its hello came after the window (a busy client machine)
                conn.close_soon()
            return
        if isinstance(message, BadLine) or (isinstance(message, Command | Hello) and not conn.extended):
            conn.send(
                Notice("error", line[:200])
                if not conn.extended
                else Notice("error", line[:200], {"reason": getattr(message, "reason", "not allowed now")})
            )
        elif isinstance(message, Hello):
            conn.send(Notice("error", line[:200], {"reason": "hello only as the first line"}))
        elif room is None:
            conn.send(Notice("illegal", getattr(message, "action", None)))
        elif isinstance(message, Action):
            before, start = room.position.ply, time.perf_counter()
            room.act(conn, message.action, message.seat)
            if room.position.ply != before:
                self.relayed += 1
                if len(self.move_times) < MAX_TIMINGS:  # read -> committed -> updates written
                    self.store.after_write(lambda: self.move_times.append(time.perf_counter() - start))
                if self.trace is not None:
                    self.store.after_write(
                        partial(self._trace_move, room.room or room.game_id, room.position.ply, conn.read_at)
                    )
        elif message.name == "resign":
            room.resign(conn)
        elif message.name == "draw":
            room.offer_draw(conn)
        elif message.name == "rematch":
            self.rematches.ask(conn)
        else:
            conn.send(Notice("pong", None))

    def _trace_move(self, room: str, ply: int, read_at: float) -> None:
        assert self.trace is not None
        self.trace.append((room, ply, read_at, time.monotonic()))

    def _write_trace(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(f"{room}\t{ply}\t{read:.6f}\t{done:.6f}\n" for room, ply, read, done in self.trace or ())

    # -- seating --------------------------------------------------------------------------------------
    def _upgrade(self, conn: Connection, hello: Hello) -> bool:
        """A hello from a client seated in a public game that has not started (provisionally, or as a
        seed client whose hello came late): it keeps its seat when it asks for nothing else, else it
        leaves the public game and is seated as it asks."""
        room = conn.room
        conn.extended = True
        plain = hello.token is None and hello.room is None and not hello.spectate and hello.clock_ms is None
        if room is not None and plain and hello.game in (None, room.spec.name) and not room.started:
            if room.unsettled and not self._has_room_for_a_game(conn):
                return False
            room.settle(conn, welcome=True)
            return True
        if room is not None:
            room.leave(conn)
            self._drop_if_unused(room)
            conn.room = None
        return self._enter(conn, hello)

    def _settle_seed(self, conn: Connection) -> bool:
        """The hello window passed without a hello: a seed client in its public game."""
        room = conn.room
        if room is None:
            return False
        if room.unsettled and not room.started:
            if not self._has_room_for_a_game(conn):
                return False
            room.settle(conn)
        return True

    def _enter(self, conn: Connection, hello: Hello) -> bool:
        if hello.token:
            game_room = self.by_token.get(hello.token)
            seat = None if game_room is None else game_room.seat_of_token(hello.token)
            if game_room is not None and seat is not None:
                conn.room = game_room
                game_room.rejoin(conn, seat)
                return True
            conn.send(Notice("decline", "unknown or expired seat token"))
            return False
        try:
            game = get_game(hello.game).name if hello.game else self.default_game
        except GameError as exc:
            conn.send(Notice("decline", str(exc)))
            return False
        if hello.room is None:
            if hello.spectate:
                conn.send(Notice("decline", "name the room to watch"))
                return False
            if hello.clock_ms is not None:  # a public game may seat a seed client, which hears of no clock
                conn.send(Notice("decline", "a clock needs a room: both players name the room and the same clock_ms"))
                return False
            if not self._has_room_for_a_game(conn):
                return False
            self._seat_public(conn, game)
            return True
        room = self.rooms.get(hello.room)
        if hello.spectate:
            if room is None:
                conn.send(Notice("decline", f"no game in room {hello.room!r}"))
                return False
            conn.room = room
            room.watch(conn)
            return True
        if room is None:
            if not self._has_room_for_a_game(conn):
                return False
            room = Room(
                get_game(game),
                self.store,
                room=hello.room,
                clock_ms=hello.clock_ms,
                grace_s=self.limits.grace_s,
                move_limit_s=self.limits.idle_s,
            )
            self._register(room)
        elif room.spec.name != game and hello.game:
            conn.send(Notice("decline", f"room {hello.room!r} plays {room.spec.name}, not {game}"))
            return False
        elif hello.clock_ms is not None and room.clock_ms != hello.clock_ms:
            have = "no clock" if room.clock_ms is None else f"clock_ms {room.clock_ms}"
            conn.send(Notice("decline", f"room {hello.room!r} plays with {have}: ask for the same clock"))
            return False
        if not room.free_seats():
            conn.send(Notice("decline", f"no seat free in room {hello.room!r}: join as a spectator"))
            return False
        if not self._address_may_play(conn):
            return False
        conn.room = room
        room.take_seat(conn)
        return True

    def _seat_public(self, conn: Connection, game: str, *, provisional: bool = False) -> None:
        """Seat ``conn`` in a public game of ``game`` (never with a clock) that waits for players."""
        waiting = self.public.setdefault(game, [])
        room = next((r for r in waiting if r.free_seats()), None)
        if room is None:
            room = Room(get_game(game), self.store, grace_s=self.limits.grace_s, move_limit_s=self.limits.idle_s)
            self._register(room)
            waiting.append(room)
        conn.room = room
        room.take_seat(conn, provisional=provisional)

    def _has_room_for_a_game(self, conn: Connection) -> bool:
        """Games that started or wait in a named room count; a public game waiting for players does not.
        One address holds at most ``max_games_per_address`` games in progress."""
        if sum(1 for room in self.games.values() if room.started or room.room) >= self.limits.max_games:
            conn.send(Notice("decline", f"the server is full ({self.limits.max_games} games): try again later"))
            return False
        return self._address_may_play(conn)

    def _address_may_play(self, conn: Connection) -> bool:
        if self.games_per_address[conn.address] >= self.limits.max_games_per_address:
            limit = self.limits.max_games_per_address
            conn.send(Notice("decline", f"too many games from your address ({limit}): finish one first"))
            return False
        return True

    def _drop_if_unused(self, room: Room) -> None:
        if not room.started and room.is_empty:
            self._forget(room)

    async def _close(self, conn: Connection) -> None:
        conn.closing = True
        if self.store.pending:  # its last messages wait for a commit: let them out first
            written = asyncio.get_running_loop().create_future()
            self.store.after_write(partial(_set_done, written))
            with contextlib.suppress(TimeoutError):  # commits failing for long: do not hold the connection
                await asyncio.wait_for(asyncio.shield(written), CLOSE_WAIT_S)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.writer.drain(), 2.0)
        conn.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.writer.wait_closed(), 2.0)


def fd_capped(limits: Limits, open_files: int) -> Limits:
    """``limits`` with the connections capped below the open-file limit."""
    cap = connection_cap(open_files)
    return limits if limits.max_connections <= cap else replace(limits, max_connections=cap)


def tune_collector() -> None:
    """For a process that only serves (``main.py serve``), once the games are restored: what is alive
    now lives as long as the server, so the collector never walks it again; collections are rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def timing_summary(server: GameServer) -> str:
    """One line: moves relayed and the server's own time per move (p50 / p99 / max)."""
    times = sorted(server.move_times)
    if not times:
        return f"{server.relayed} moves relayed"

    def pick(share: float) -> float:
        return times[min(len(times) - 1, int(share * len(times)))] * 1000

    return (
        f"{server.relayed} moves relayed; time in the server per move (read -> committed -> written; "
        f"{server.store.commits} commits) "
        f"p50 {pick(0.5):.3f} ms, p99 {pick(0.99):.3f} ms, max {times[-1] * 1000:.3f} ms"
    )
