"""The asyncio game server: many games in one process (docs/network-protocol.md).

A connection that sends no ``hello`` within ``HELLO_WINDOW_S`` (``BURST_HELLO_WINDOW_S`` while many
connections arrive at once) is a seed-protocol client: it is
seated in the next public game of the server's game, and hears only the five seed message types.
A ``hello`` line makes it an extended client (game, room, token, spectators, clocks, resign, draw).
This module reads and answers the lines of each connection; which game a connection plays in (the
games, rooms, seat tokens and the seating rules) is ``game.net.lobby``.

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
from dataclasses import replace
from functools import partial

from game.net.connection import Connection, SendQueues
from game.net.descriptors import (
    ACCEPTS_PER_WAKE,
    LISTEN_BACKLOG,
    connection_cap,
    deepen_listen_queue,
    quiet_accept_errors,
)
from game.net.lobby import Limits, Lobby, address_key
from game.net.messages import Decline, Error, Illegal, Pong
from game.net.room import Room
from game.net.store import GameStore
from game.net.wire import (
    Action,
    BadLine,
    Command,
    Hello,
    LineTooLong,
    parse_client_line,
)

__all__ = ["GameServer", "Limits", "fd_capped", "timing_summary", "tune_collector"]

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


class GameServer:
    def __init__(self, game: str, store: GameStore, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.lobby = Lobby(game, store, self.limits)  # the games, and who sits where
        self.per_address: collections.Counter[str] = collections.Counter()
        self.connections = 0
        self.queues = SendQueues()  # every connection's unsent bytes, bounded together
        self._accepted: collections.deque[float] = collections.deque()  # when the last connections came
        self.relayed = 0
        self.move_times: list[float] = []  # seconds from reading a move to its updates written (and stored)
        self.trace: list[tuple[str, int, float, float]] | None = None
        trace_path = os.environ.get(TRACE_VARIABLE)
        if trace_path:
            self.trace = []
            atexit.register(self._write_trace, trace_path)
        self._server: asyncio.AbstractServer | None = None

    @property
    def games(self) -> dict[str, Room]:
        return self.lobby.games

    @property
    def default_game(self) -> str:
        return self.lobby.default_game

    def restore(self) -> int:
        """Bring back every unfinished game from the store; returns how many."""
        return self.lobby.restore()

    async def start(self, host: str, port: int) -> tuple[str, int]:
        asyncio.get_running_loop().set_exception_handler(quiet_accept_errors)
        # asyncio accepts at most ``backlog`` connections per wake-up and listens with the same number:
        # the accepts per wake-up stay few, then the kernel's queue is made deep again, so a burst
        # (everyone reconnecting after a restart) waits in it instead of being dropped.
        self._server = await asyncio.start_server(
            self._handle, host, port, limit=self.limits.max_line_bytes * 2, backlog=ACCEPTS_PER_WAKE
        )
        for listening in self._server.sockets:
            deepen_listen_queue(listening.fileno(), LISTEN_BACKLOG)
        sock = self._server.sockets[0].getsockname()
        return sock[0], sock[1]

    async def serve_forever(self) -> None:
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    # -- one connection -------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = address_key(str((writer.get_extra_info("peername") or ("?",))[0]))
        conn = Connection(reader, writer, self.limits.max_line_bytes, self.store)
        conn.address = address
        if self.per_address[address] >= self.limits.max_per_address or self.connections >= self.limits.max_connections:
            conn.send(Decline("the server is full: too many connections, try again later"))
            writer.transport.abort()  # its file descriptor is free at once (the line is in the kernel)
            return
        self.per_address[address] += 1
        self.connections += 1
        conn.queues = self.queues
        self.queues.connections.add(conn)
        shutting_down = False
        try:
            await self._serve(conn)
        except (TimeoutError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:  # the server stops: the games stay in the store, clients come back
            shutting_down = True
        finally:
            self.queues.connections.discard(conn)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            self.connections -= 1
            if conn.room is not None:
                self.lobby.rematches.left(conn)
                conn.room.leave(conn)
                self.lobby.drop_if_unused(conn.room)
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
            if not self.lobby.enter(conn, hello):
                return
        else:
            # Seated at once in the public game, provisionally: the ``player`` line announces the
            # extensions; a hello within the window takes the client where it asks, else it is a seed client.
            pending = first
            self.lobby.seat_public(conn, self.default_game, provisional=True)
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
                if not self.lobby.upgrade(conn, hello):
                    return
            elif not self.lobby.settle_seed(conn):
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
                    conn.send(Error(f"idle for {self.limits.idle_s:g} s: closing"))
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
            conn.send(Error(str(line)))
            return
        if not line.strip():
            return
        message = parse_client_line(line)
        room = conn.room
        if isinstance(message, Hello) and not conn.extended and room is not None and not room.started:
            if not self.lobby.upgrade(conn, message):  # its hello came after the window (a busy client machine)
                conn.close_soon()
            return
        if isinstance(message, BadLine) or (isinstance(message, Command | Hello) and not conn.extended):
            conn.send(
                Error(line[:200])
                if not conn.extended
                else Error(line[:200], getattr(message, "reason", "not allowed now"))
            )
        elif isinstance(message, Hello):
            conn.send(Error(line[:200], "hello only as the first line"))
        elif room is None:
            conn.send(Illegal(getattr(message, "action", None)))
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
            self.lobby.rematches.ask(conn)
        else:
            conn.send(Pong())

    def _trace_move(self, room: str, ply: int, read_at: float) -> None:
        assert self.trace is not None
        self.trace.append((room, ply, read_at, time.monotonic()))

    def _write_trace(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(f"{room}\t{ply}\t{read:.6f}\t{done:.6f}\n" for room, ply, read, done in self.trace or ())

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
