"""The one set of limits shared by every way into the engine: the CLI tools, the engine protocol
and the app. A value outside them is refused with a one-line error (exit status 2 on the command
line), never clamped silently; echoes of bad input are cut to ``ECHO_CHARS``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

MAX_LINE = 1 << 16  # characters in one protocol line or one ``analyze -`` input line
MAX_MOVES_TEXT = 4096  # characters of a position string (Gomoku 15x15 needs at most 675)
MAX_TIME_MS = 3_600_000  # one hour: the longest search, solve or benchmark step
MAX_ITERATIONS = 1_000_000_000  # about 8 minutes at 2M iterations/s
MAX_THREADS = 64
MAX_NODES_RANGE = (1024, 1_000_000_000)
MAX_BENCH_SECONDS = MAX_TIME_MS / 1000
ECHO_CHARS = 60  # how much of a bad argument or line an error message quotes


def default_threads() -> int:
    """The engine's default search threads: all cores but one (at least one, at most ``MAX_THREADS``)."""
    return max(1, min(MAX_THREADS, (os.cpu_count() or 2) - 1))


def excerpt(text: object, limit: int = ECHO_CHARS) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters, saying how long it was."""
    shown = repr(text) if not isinstance(text, str) else repr(text[: limit + 1])
    if isinstance(text, str) and len(text) > limit:
        return f"{repr(text[:limit])[:-1]}…' ({len(text)} characters)"
    return shown[: limit + 20]


def check_range(name: str, value: float, low: float, high: float) -> str | None:
    """A one-line complaint when ``value`` is not a finite number in [low, high], else None."""
    if value != value or value in (float("inf"), float("-inf")):
        return f"{name} must be a finite number"
    if not low <= value <= high:
        shown = f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else "a huge number"
        return f"{name} must be between {low:g} and {high:g}, not {shown}"
    return None


def bounded_lines(stream: IO[bytes], limit: int = MAX_LINE) -> Iterator[tuple[str, bool]]:
    """Stripped lines of ``stream`` decoded as UTF-8. A line longer than ``limit`` gives
    ``(its first characters, True)`` as soon as it is seen to be too long, and the rest of it is
    read in pieces and thrown away, so no line (not even ``/dev/zero``) can fill memory."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            yield raw[:100].decode("utf-8", errors="replace"), True
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(limit + 1)
            continue
        yield raw.decode("utf-8", errors="replace").strip(), False


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
