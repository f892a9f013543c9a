"""One client socket of the game server: a bounded, paced line reader and a writer that never blocks.

Every message goes out through the store's ``after_write`` when it tells of moves (a move is on disk
before anyone hears of it); the messages of one connection keep their order. Lines are taken at a
rate per connection, one per loop turn, so a flooder slows only itself.
"""

from __future__ import annotations

import asyncio
import collections
import time
from functools import partial

from game.net.messages import Sent, Update
from game.net.room import Room
from game.net.store import GameStore
from game.net.wire import LineBuffer, LineTooLong, encode

MAX_BUFFERED_BYTES = 1 << 20  # a client that reads nothing for this long is dropped
# Per connection: lines taken at most RATE_LINES_PER_S on average, in bursts of RATE_BURST (a line
# costs one, plus one per 4 KiB). A flooder is not read faster than that: its lines wait in its own
# socket, and the kernel makes it wait. A player sends a few lines a minute; a seed UCT line at
# Ultimate TTT (6.8 KB) costs 2.
MAX_WAITING = 64  # messages of one connection waiting for a commit (a move is told once it is stored)

RATE_LINES_PER_S = 20.0
RATE_BURST = 40.0


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
        if transport.get_write_buffer_size() > MAX_BUFFERED_BYTES:
            transport.abort()
            return
        self.writer.write(_encoded(message, self.extended))

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
