"""The engine client's interface, typed in the style of python-chess's ``chess.engine``: the search
limits of a command (``Limit``), the errors a client raises (``CLIENT_ERRORS``) and the ``Protocol``
that the real client (``ai.client.EngineClient``) and the test fakes satisfy (mypy checks both). A search
command returns an ``EngineCommand`` (``ai.commands``): the replies of that request, never waited for.

One name for a time budget everywhere: ``time_ms``, whole milliseconds of wall time a search (or a
solver's look) may use, counted from its command (the wire protocol's field of the same name).
The play model's search records and the solver's looks (``game.play.exact.EXACT_TIME_MS``) use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ai.client_types import EngineStatus
from ai.commands import EngineCommand
from ai.results import Reply


@dataclass(frozen=True, kw_only=True)
class Limit:
    """How long a search may run: ``time_ms`` of wall time and/or ``iterations`` (the first reached ends
    it). A ``go`` needs at least one (else the engine refuses it); a ``solve`` uses ``time_ms`` only."""

    time_ms: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.time_ms is not None and (isinstance(self.time_ms, bool) or not self.time_ms > 0):
            raise ValueError(f"time_ms must be a positive number, not {self.time_ms!r}")
        its = self.iterations
        if its is not None and (isinstance(its, bool) or not isinstance(its, int) or its < 1):
            raise ValueError(f"iterations must be a whole number of at least 1, not {its!r}")


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
        """Everything that arrived since the last call, typed (``ai.results``); each reply that answers a command
        is also handed to that command."""
        ...
