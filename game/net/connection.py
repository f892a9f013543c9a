"""One client socket of the game server: a bounded, paced line reader and a writer that never blocks.

Every message goes out through the store's ``after_write`` when it tells of moves (a move is on disk
before anyone hears of it); the messages of one connection keep their order. Lines are taken at a
rate per connection, one per loop turn, so a flooder slows only itself.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import socket
import time
from functools import partial

from game.net.messages import Sent, Update
from game.net.room import Room
from game.net.store import GameStore
from game.net.wire import LineBuffer, LineTooLong, encode

MAX_BUFFERED_BYTES = 1 << 20  # a client that reads nothing for this long is dropped
# A spectator with this much unsent is behind: it gets no update until it has read them (then the
# current position: an update carries the whole board); one that stays behind SPECTATOR_BEHIND_S is dropped.
SPECTATOR_BEHIND_BYTES = 1 << 15
SPECTATOR_BEHIND_S = 30.0
SPECTATOR_KERNEL_BYTES = 1 << 15  # a spectator's socket send buffer (the kernel would grow it to MBs)
# Every connection's unsent bytes together: past this, a connection that is behind is dropped.
TOTAL_QUEUED_BYTES = 64 << 20
RECOUNT_EVERY_S = 0.1  # the exact total (a walk over every connection) at most this often
# Per connection: lines taken at most RATE_LINES_PER_S on average, in bursts of RATE_BURST (a line
# costs one, plus one per 4 KiB). A flooder is not read faster than that: its lines wait in its own
# socket, and the kernel makes it wait. A player sends a few lines a minute; a seed UCT line at
# Ultimate TTT (6.8 KB) costs 2.
MAX_WAITING = 64  # messages of one connection waiting for a commit (a move is told once it is stored)

RATE_LINES_PER_S = 20.0
RATE_BURST = 40.0


class SendQueues:
    """The unsent bytes of every connection together, bounded by ``cap``.

    Counted cheaply: each write adds its length to an estimate (bytes the kernel took at once are
    counted too); when the estimate passes the cap the exact total is taken, walking every
    connection's transport (at most every ``RECOUNT_EVERY_S``)."""

    def __init__(self, cap: int = TOTAL_QUEUED_BYTES) -> None:
        self.cap = cap
        self.connections: set[Connection] = set()
        self.estimate = 0
        self._counted_at = -RECOUNT_EVERY_S

    def total(self) -> int:
        """The exact unsent bytes of every connection now."""
        return sum(conn.writer.transport.get_write_buffer_size() for conn in self.connections)

    def room_for(self, size: int) -> bool:
        """Whether ``size`` more unsent bytes stay under the cap."""
        self.estimate += size
        if self.estimate <= self.cap:
            return True
        now = time.monotonic()
        if now - self._counted_at >= RECOUNT_EVERY_S:
            self._counted_at = now
            self.estimate = self.total() + size
        return self.estimate <= self.cap


UNBOUNDED = SendQueues(1 << 62)  # a connection of no server (tests)


class Connection:
    """One client socket: a line reader and a writer that never blocks the loop."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, max_line_bytes: int, store: GameStore
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.store = store
        self.extended = False
        self.waiting = 0  # messages waiting for a commit
        self.address = "?"
        self.room: Room | None = None
        self._lines: collections.deque[str | LineTooLong] = collections.deque()
        self._buffer = LineBuffer(max_line_bytes)
        self.closing = False
        self.read_at = 0.0  # time.monotonic() of the last read
        self._allowance = RATE_BURST
        self._allowance_at = time.monotonic()
        self.queues = UNBOUNDED  # the server's SendQueues (it adds every connection)
        self.behind_since: float | None = None  # a spectator that has not read its updates yet

    def send(self, message: Sent) -> None:
        """Write ``message`` once the writes queued before it are committed (at once if none is).

        Only an update with moves needs its commit: anything else (pong, illegal, error, notices, a
        game's first update) goes out at once
        when nothing of this connection waits for a commit (its order is kept), so while commits fail
        every player still gets its answers. A connection with ``MAX_WAITING`` messages waiting is
        dropped: what a flooder asks for while commits fail cannot pile up."""
        if self.waiting == 0 and (not self.store.pending or not _tells_moves(message)):
            self._write(message)
            return
        if self.waiting >= MAX_WAITING:
            self.writer.transport.abort()
            return
        self.waiting += 1
        self.store.after_write(partial(self._write_waited, message))

    def _write_waited(self, message: Sent) -> None:
        self.waiting -= 1
        self._write(message)

    def _write(self, message: Sent) -> None:
        transport = self.writer.transport
        if transport.is_closing():
            return
        unsent = transport.get_write_buffer_size()
        if unsent > MAX_BUFFERED_BYTES:
            transport.abort()
            return
        if isinstance(message, Update) and self._spectator_skips(unsent):
            return
        line = _encoded(message, self.extended)
        if unsent and not self.queues.room_for(len(line)):  # behind while the server's queues are full
            transport.abort()
            return
        self.writer.write(line)

    def _spectator_skips(self, unsent: int) -> bool:
        """A spectator that is behind skips this update (its next one shows the board as it is then);
        one behind for ``SPECTATOR_BEHIND_S`` is dropped."""
        if unsent <= SPECTATOR_BEHIND_BYTES or self.room is None or self not in self.room.spectators:
            self.behind_since = None
            return False
        now = time.monotonic()
        if self.behind_since is None:
            self.behind_since = now
        elif now - self.behind_since > SPECTATOR_BEHIND_S:
            self.writer.transport.abort()
        return True

    def spectating(self) -> None:
        """This connection only watches: the kernel keeps little unsent for it, so a spectator that does
        not read is soon behind (and skips updates) instead of holding megabytes in the kernel."""
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SPECTATOR_KERNEL_BYTES)

    def close_soon(self) -> None:
        """Close after what was written is sent (the game ended or the seat was taken over)."""
        self.closing = True
        self.store.after_write(self.writer.close)  # the transport sends what is buffered, then closes

    async def next_line(self, timeout: float | None) -> str | LineTooLong | None:
        """The next line, None at end of input; TimeoutError after ``timeout`` s of silence."""
        while not self._lines:
            async with asyncio.timeout(timeout):  # no task per read (asyncio.wait_for makes one)
                data = await self.reader.read(4096)
            self.read_at = time.monotonic()
            if not data:
                return None
            self._lines.extend(self._buffer.feed(data))
        return self._lines.popleft()

    async def pace(self, line: str | LineTooLong) -> None:
        """Take ``line`` from the connection's allowance, waiting when it is spent; and let every other
        connection have its turn before the next line of this one (one line per loop turn)."""
        now = time.monotonic()
        self._allowance = min(RATE_BURST, self._allowance + (now - self._allowance_at) * RATE_LINES_PER_S)
        self._allowance_at = now
        self._allowance -= 1 + (len(line) >> 12 if isinstance(line, str) else 16)
        if self._allowance < 0:
            await asyncio.sleep(-self._allowance / RATE_LINES_PER_S)
        elif self._lines:
            await asyncio.sleep(0)

    @property
    def eof(self) -> bool:
        return self.reader.at_eof()


def _tells_moves(message: Sent) -> bool:
    return isinstance(message, Update) and message.tells_moves


_last_encoded: tuple[object, bool, bytes] | None = None


def _encoded(message: Sent, extended: bool) -> bytes:
    """The line of ``message``; a broadcast sends one message object to every player and spectator,
    so the last one is encoded once per client kind."""
    global _last_encoded
    if _last_encoded is not None and _last_encoded[0] is message and _last_encoded[1] == extended:
        return _last_encoded[2]
    data = message.to_json(extended) if isinstance(message, Update) else message.to_json()
    line = encode(data)
    _last_encoded = (message, extended, line)
    return line
