"""One object per engine command, so a caller gets the replies of ITS request without matching ids.

In the style of python-chess's engine commands (``engine.analysis(...)`` returns an object that collects that
analysis's lines): ``EngineClient.go`` / ``solve`` / ``ponder`` return an ``EngineCommand``; the client's
``poll_replies()`` (called once per frame by the app) routes each reply that carries the command's id into it.
``command.replies()`` hands over its new lines, ``command.result()`` the reply that ended it (``BestMove``,
``Solution``, ``PonderEnd`` or ``ErrorReply``) or None while it runs. A program without a frame loop waits
instead, like on a future: ``command.wait(timeout)`` / ``command.result(timeout)`` block until the final line
(the client reads the engine's lines meanwhile: ``EngineClient.wait_for_reply``), never longer than ``timeout``.
``poll_replies()`` still returns every reply as well (the client's own news: restarts, failures; pondering
reports), so a caller may use either.

``CommandRouter`` is the client's side: the live commands by id; the real client and the test fakes share it.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from typing import Literal

from ai.vocab.results import BestMove, ErrorReply, Info, PonderEnd, Reply, SearchId, Solution

CommandKind = Literal["go", "solve", "ponder"]
CommandReply = Info | BestMove | Solution | ErrorReply | PonderEnd  # the lines a command receives
FinalReply = BestMove | Solution | ErrorReply | PonderEnd  # the line that ends a command
MAX_LIVE = 16  # commands kept waiting for their final line (older ones are given up: their engine never answers)
Pump = Callable[[float], object]  # reads the engine's lines for at most this many seconds (the client's wait)


class EngineCommand:
    """One ``go``, ``solve`` or ``ponder``: its id and what the engine answered to it."""

    def __init__(self, command_id: int, kind: CommandKind, pump: Pump | None = None) -> None:
        self.id = command_id
        self.kind: CommandKind = kind
        self._new: list[CommandReply] = []
        self._latest: Info | Solution | None = None
        self._final: FinalReply | None = None
        self._finished = threading.Event()
        self._pump = pump  # None: another thread delivers the lines (the wait only blocks on the final one)

    def __repr__(self) -> str:
        state = "running" if self._final is None else type(self._final).__name__
        return f"EngineCommand({self.id}, {self.kind!r}, {state})"

    @property
    def done(self) -> bool:
        """The command's last line arrived (it will say nothing more)."""
        return self._final is not None

    def wait(self, timeout: float) -> bool:
        """Block until the command's final line arrived (True) or ``timeout`` seconds passed (False). With the
        client's pump it reads the engine's lines itself: call it from the thread that owns the client (the one
        that would call ``poll_replies``); without one it only waits for another thread's delivery."""
        end = time.monotonic() + timeout
        while self._final is None:
            left = end - time.monotonic()
            if left <= 0:
                return False
            if self._pump is None:
                self._finished.wait(left)
            else:
                self._pump(left)
        return True

    def result(self, timeout: float = 0.0) -> FinalReply | None:
        """The line that ended the command (an ``ErrorReply`` when it failed or was given up), None while it
        runs. ``timeout`` > 0: wait for it that long at most first (``wait``); 0 never waits."""
        if timeout > 0:
            self.wait(timeout)
        return self._final

    @property
    def latest(self) -> Info | Solution | None:
        """The newest search line (an ``Info``, the ``BestMove`` or the ``Solution``), None before the first."""
        return self._latest

    def replies(self) -> list[CommandReply]:
        """The command's lines since the last call, oldest first (the final one included)."""
        new, self._new = self._new, []
        return new

    def deliver(self, reply: CommandReply) -> None:
        """(The client's side.) Take one of this command's lines; nothing after the final line."""
        if self._final is not None:
            return
        self._new.append(reply)
        if isinstance(reply, Info | Solution):
            self._latest = reply
        self._final = _final(self.kind, reply)
        if self._final is not None:
            self._finished.set()


def _final(kind: CommandKind, reply: CommandReply) -> FinalReply | None:
    """``reply`` if it is the last line of a ``kind`` command (its answer, or an error), else None."""
    if isinstance(reply, ErrorReply):
        return reply
    if kind == "go" and isinstance(reply, BestMove):
        return reply
    if kind == "solve" and isinstance(reply, Solution):
        return reply
    if kind == "ponder" and isinstance(reply, PonderEnd):
        return reply
    return None


class CommandRouter:
    """A client's live commands by id: ``route`` hands each reply with an id to its command."""

    def __init__(self, max_live: int = MAX_LIVE, pump: Pump | None = None) -> None:
        self._live: collections.OrderedDict[SearchId, EngineCommand] = collections.OrderedDict()
        self._max_live = max_live
        self._pump = pump  # how the commands it opens wait: the client reading the engine's lines

    def open(self, command_id: int, kind: CommandKind) -> EngineCommand:
        command = EngineCommand(command_id, kind, self._pump)
        self._live[command_id] = command
        while len(self._live) > self._max_live:
            _, oldest = self._live.popitem(last=False)
            oldest.deliver(ErrorReply("given up: the engine never answered it", oldest.id))
        return command

    def route(self, reply: Reply) -> None:
        """Hand ``reply`` to the command whose id it carries (others are not a command's lines)."""
        if not isinstance(reply, Info | Solution | ErrorReply | PonderEnd) or reply.id is None:
            return
        command = self._live.get(reply.id)
        if command is None:
            return
        command.deliver(reply)
        if command.done:
            del self._live[reply.id]

    def end_all(self, message: str) -> None:
        """Every live command ends with an ``ErrorReply`` saying ``message`` (the engine will not answer them)."""
        live, self._live = list(self._live.values()), collections.OrderedDict()
        for command in live:
            command.deliver(ErrorReply(message, command.id))

    @property
    def live(self) -> int:
        return len(self._live)
