"""One client's session with a game server (asyncio): the only code of a client that touches a socket.

``ClientSession`` connects, reads the server's first line and says ``hello`` only when that line
announces the extensions (a seed-only server never gets a line it cannot parse), then yields every
server line as a typed message (``game.net.messages``) and sends the caller's typed messages (queued
with ``send`` from any thread, written before the next read). When a connection ends and the caller
says the game can be resumed (``resumable``), it connects again with backoff, says ``hello`` again
(with the seat token the caller now gives) and goes on, for ``Patience.gone_after_s`` at most.

Besides the server's messages it yields what happened to the connection: ``Opened`` (greeted: whether
we said hello, and whether this is a reconnection), ``Dropped`` (we try again), ``Ended`` (we do not),
``Unreachable`` (the first connection failed, or the server stayed away too long). The app's client
(``game.net.client``), the terminal (``game.text.net_play``) and the bot (``ai.cli.net_bot``) all use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import os
import queue
import threading
import time
from collections.abc import AsyncGenerator, Callable, Coroutine
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar

from game.net.messages import (
    SERVER_LINE_LIMIT,
    ClientLine,
    Player,
    ServerLineError,
    ServerMessage,
    Welcome,
    decode_server_line,
    encode_client,
)
from game.net.wire import Address, Command, Hello, LineBuffer, LineTooLong

BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
GONE_AFTER_S = 90.0  # longer than the server's default grace (game.net.room.DEFAULT_GRACE_S): then the game is decided
GRACE_MARGIN_S = 30.0  # a server with a longer grace (serve --grace-s) is waited for that long plus this


@dataclass(frozen=True)
class Opened:
    """Connected and greeted: ``extended`` when we said hello (else the server speaks only the seed
    protocol, or the caller gave no hello); ``resuming`` on a reconnection."""

    extended: bool
    resuming: bool


@dataclass(frozen=True)
class Dropped:
    """The connection ended; the session tries again in ``retry_in_s`` (its ``attempt``-th wait)."""

    reason: str
    retry_in_s: float
    attempt: int


class EndCause(enum.Enum):
    """Why a connection ended, for decisions (the reason's text is for people)."""

    CLOSED = "closed"  # the server closed it
    SILENT = "silent"  # the server stopped answering
    LOST = "lost"  # the network failed (an OS error)


@dataclass(frozen=True)
class Ended:
    """The connection ended and the game cannot be resumed (the caller said so): the session stops."""

    reason: str
    cause: EndCause = EndCause.CLOSED


@dataclass(frozen=True)
class Unreachable:
    """The server could not be reached (at once, or again for too long): the session stops."""

    reason: str


SessionEvent = ServerMessage | Opened | Dropped | Ended | Unreachable
T = TypeVar("T")


def run_blocking(main: Coroutine[Any, Any, T]) -> T:
    """Run a client whose handlers block (a terminal reading the player's move, the bot's search) on a
    fresh event loop. No asyncio signal handler: Ctrl-C raises KeyboardInterrupt where the client waits."""
    loop = asyncio.new_event_loop()
    task = loop.create_task(main)
    try:
        return loop.run_until_complete(task)
    except BaseException:  # Ctrl-C while the loop waited on the network: unwind the client (its connection closes)
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                loop.run_until_complete(task)
        raise
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


class Patience:
    """How long a client keeps trying to come back: as the caller gives it, else the server's announced
    grace plus a margin (never less than ``GONE_AFTER_S``), with backoff between tries."""

    def __init__(self, gone_after_s: float | None = None, backoff: tuple[float, ...] = BACKOFF_S) -> None:
        self.gone_after_s = GONE_AFTER_S if gone_after_s is None else gone_after_s
        self.given = gone_after_s is not None
        self.backoff = backoff

    def learn(self, welcome: Welcome) -> None:
        """A server that keeps our seat longer is waited for longer (a caller's patience is kept)."""
        grace = welcome.grace_s
        if not self.given and grace == grace and 0 < grace < float("inf"):
            self.gone_after_s = max(self.gone_after_s, grace + GRACE_MARGIN_S)

    def delay(self, attempt: int) -> float:
        return self.backoff[min(attempt, len(self.backoff) - 1)]


class ServerStream:
    """One TCP connection to a game server: typed messages in, typed messages out, lines bounded."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: int) -> None:
        self.reader, self.writer = reader, writer
        self._buffer = LineBuffer(limit)
        self._lines: list[str | LineTooLong] = []

    @classmethod
    async def open(cls, address: Address, timeout_s: float, limit: int = SERVER_LINE_LIMIT) -> ServerStream:
        """Raises OSError (with a timeout: TimeoutError) when the server cannot be reached."""
        async with asyncio.timeout(timeout_s):
            reader, writer = await asyncio.open_connection(address.host, address.port)
        return cls(reader, writer, limit)

    async def receive(self, timeout_s: float | None = None) -> ServerMessage | None:
        """The next message (None: the server closed); TimeoutError after ``timeout_s`` of silence,
        ServerLineError for a line a client cannot follow."""
        while True:
            while not self._lines:
                async with asyncio.timeout(timeout_s):
                    data = await self.reader.read(65536)
                if not data:
                    return None
                self._lines.extend(self._buffer.feed(data))
            line = self._lines.pop(0)
            if isinstance(line, LineTooLong):
                raise ServerLineError(f"the server sent a {line}")
            if line.strip():
                return decode_server_line(line)

    def write(self, message: ClientLine) -> None:
        self.writer.write(encode_client(message))

    async def drain(self) -> None:
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()


class ClientSession:
    """A client's session with the server at ``address`` (see the module's docstring).

    ``hello``: the hello to say on each connection (asked again each time: a seat token learnt meanwhile
    goes in it); None, or a function returning None, never says hello. ``resumable``: asked when a
    connection ends: True to connect again. ``ping_every_s``: an extended session pings that often
    and takes ``silent_limit_s`` without a line for a dead connection. ``poll_s``: how often the
    session looks at its outbox and ``stop`` while no line comes (None: only when a line comes).
    ``returning``: the first connection already comes back to a game (a seat token): if it fails, the
    session tries again as after a drop (else it says ``Unreachable`` at once: a wrong address).
    """

    def __init__(
        self,
        address: Address,
        hello: Callable[[], Hello | None],
        *,
        resumable: Callable[[], bool] = lambda: False,
        patience: Patience | None = None,
        connect_timeout_s: float = 10.0,
        ping_every_s: float | None = None,
        silent_limit_s: float | None = None,
        poll_s: float | None = None,
        returning: bool = False,
        line_limit: int = SERVER_LINE_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.hello = hello
        self.resumable = resumable
        self.patience = patience or Patience()
        self.connect_timeout_s = connect_timeout_s
        self.ping_every_s = ping_every_s
        self.silent_limit_s = silent_limit_s
        self.poll_s = poll_s
        self.returning = returning  # the first connection comes back to a game: a failure is retried too
        self.line_limit = line_limit
        self.clock = clock
        self.extended = False
        self._outbox: queue.SimpleQueue[ClientLine] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self._events: AsyncGenerator[SessionEvent, None] | None = None

    # -- the caller's side (any thread, never waits) -------------------------------------------------------
    def send(self, message: ClientLine) -> None:
        """Queue ``message``: written before the session reads its next line (on a connection that greeted)."""
        self._outbox.put(message)

    def stop(self) -> None:
        """End the session: what was queued still goes out, then the connection closes."""
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    async def __aenter__(self) -> ClientSession:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._events is not None:
            await self._events.aclose()

    def __aiter__(self) -> AsyncGenerator[SessionEvent, None]:
        if self._events is None:
            self._events = self._run()
        return self._events

    # -- the session ------------------------------------------------------------------------------------
    async def _run(self) -> AsyncGenerator[SessionEvent, None]:
        attempt, first_failure, resuming, ever = 0, 0.0, False, False
        while not self.stopped:
            try:
                stream = await ServerStream.open(self.address, self.connect_timeout_s, self.line_limit)
            except OSError as exc:
                why = os.strerror(exc.errno) if exc.errno else str(exc) or "timed out"
                reason = f"cannot reach {self.address.host}:{self.address.port}: {why}"
                first_failure = first_failure or self.clock()
                if not ever and not self.returning:
                    yield Unreachable(reason)  # a wrong address: said at once
                    return
                if self.clock() - first_failure > self.patience.gone_after_s:
                    yield Unreachable(f"the server is gone ({reason}, for {self.patience.gone_after_s:.0f} s)")
                    return
                attempt += 1
                yield Dropped(reason, self.patience.delay(attempt - 1), attempt)
                await self._pause(self.patience.delay(attempt - 1))
                continue
            ever = True
            try:
                async with contextlib.aclosing(self._talk(stream, resuming)) as talk:
                    async for event in talk:
                        yield event
            finally:
                stream.close()
            ended = self._ended
            if ended is None or self.stopped:
                return
            if not self.resumable():
                yield Ended(ended, self._cause)
                return
            first_failure, resuming, attempt = self.clock(), True, 1
            yield Dropped(ended, self.patience.delay(0), 1)
            await self._pause(self.patience.delay(0))

    async def _pause(self, seconds: float) -> None:
        end = self.clock() + seconds
        while not self.stopped and self.clock() < end:
            await asyncio.sleep(min(0.05, max(0.0, end - self.clock())))

    _ended: str | None = None
    _cause: EndCause = EndCause.CLOSED

    async def _flush(self, stream: ServerStream) -> None:
        wrote = False
        while True:
            try:
                message = self._outbox.get_nowait()
            except queue.Empty:
                break
            stream.write(message)
            wrote = True
        if wrote:
            await stream.drain()

    async def _talk(self, stream: ServerStream, resuming: bool) -> AsyncGenerator[SessionEvent, None]:
        """One connection's messages; sets ``_ended`` to why it ended (None: the session is over)."""
        self._ended = None
        try:
            first = await stream.receive(self.silent_limit_s)
            if first is None:
                self._ended, self._cause = "the server closed the connection", EndCause.CLOSED
                return
            hello = self.hello()
            self.extended = isinstance(first, Player) and first.offers_hello and hello is not None
            if self.extended and hello is not None:
                stream.write(hello)
                await stream.drain()
            yield Opened(self.extended, resuming)
            if not self.extended:
                yield first
            heard = last_ping = self.clock()
            while True:
                await self._flush(stream)  # what the caller queued (never an extension to a seed-only server)
                if self.stopped:
                    return
                try:
                    message = await stream.receive(self.poll_s)
                except TimeoutError:
                    now = self.clock()
                    if self.silent_limit_s is not None and now - heard > self.silent_limit_s:
                        self._ended, self._cause = "the server stopped answering", EndCause.SILENT
                        return
                    if self.ping_every_s is not None and self.extended and now - last_ping > self.ping_every_s:
                        stream.write(Command("ping"))
                        last_ping = now
                    continue
                if message is None:
                    self._ended, self._cause = "the server closed the connection", EndCause.CLOSED
                    return
                heard = self.clock()
                yield message
        except TimeoutError:
            self._ended, self._cause = "the server stopped answering", EndCause.SILENT
        except OSError as exc:
            self._ended, self._cause = f"connection lost: {exc.strerror or exc}", EndCause.LOST
