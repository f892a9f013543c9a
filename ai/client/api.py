"""The engine client's interface, typed in the style of python-chess's ``chess.engine``: the search
limits of a command (``Limit``), the errors a client raises (``CLIENT_ERRORS``) and the ``Protocol``
that the real client (``ai.client.engine_client.EngineClient``) and the test fakes satisfy (mypy checks both). A search
command returns an ``EngineCommand`` (``ai.client.commands``): the replies of that request, never waited for.

One name for a time budget everywhere: ``time_ms``, whole milliseconds of wall time a search (or a
solver's look) may use, counted from its command (the wire protocol's field of the same name).
The play model's search records and the solver's looks (``game.play.exact.EXACT_TIME_MS``) use it.
"""

from __future__ import annotations

from typing import Protocol

from ai.client.commands import EngineCommand
from ai.client.status import EngineStatus
from ai.vocab.limits import Limit as Limit  # re-exported: the client's callers name it here
from ai.vocab.results import Reply


class EngineClientError(Exception):
    """A client cannot do what was asked (its message is one line)."""


# What a client may raise from any call: a process that cannot be started or written to (OSError,
# BrokenPipeError is one), a refused argument (ValueError, e.g. a thread count) or its own error.
# The play model catches these and nothing wider: a dead engine never crashes the app.
CLIENT_ERRORS: tuple[type[Exception], ...] = (EngineClientError, OSError, ValueError)


class EngineClientProtocol(Protocol):
    """What the play model needs of an engine client; called from one thread, never blocks."""

    def start(self) -> None: ...

    def close(self) -> None: ...

    @property
    def is_ready(self) -> bool: ...

    @property
    def failed(self) -> bool:
        """True while the engine is not available (retried in the background)."""
        ...

    @property
    def status(self) -> EngineStatus: ...

    @property
    def pondering(self) -> bool: ...

    def set_position(self, game: str, moves: str) -> None: ...

    def set_threads(self, threads: int) -> None: ...

    def go(self, limit: Limit, *, info_ms: int = 100, exact: bool = True, level: str | None = None) -> EngineCommand:
        """Start a search; the command collects its ``Info`` lines and ends with its ``BestMove``."""
        ...

    def solve(self, limit: Limit) -> EngineCommand:
        """Start the exact solver's look at the position (``limit.time_ms``); ends with its ``Solution``."""
        ...

    def ponder(self, *, exact: bool = True) -> EngineCommand:
        """Think on the opponent's time until the next command (no limit: the next command ends it); ends with
        its ``PonderEnd``."""
        ...

    def stop(self) -> None: ...

    def poll_replies(self) -> list[Reply]:
        """Everything that arrived since the last call, typed (``ai.vocab.results``); each reply that answers a command
        is also handed to that command."""
        ...

    def wait_for_reply(self, timeout: float) -> list[Reply]:
        """``poll_replies()`` after blocking until something arrives (``timeout`` seconds at most; a client may
        return sooner, e.g. to keep its heartbeat): for programs without a frame loop."""
        ...
