"""Open files of the game server: raise the soft limit, cap connections below it, and report errors
accepting connections (out of file descriptors, memory) once per interval, without a traceback."""

from __future__ import annotations

import asyncio
import collections
import os
import socket
import sys
import time

# asyncio accepts up to ``backlog`` connections per wake-up (and listens with that number); out of file
# descriptors it reports every failed accept (with a traceback). Its backlog is kept small, so the work
# of one wake-up is bounded, and the listen queue is then deepened (``deepen_listen_queue``: a burst of
# connections waits in the kernel instead of being dropped); the connections are capped below the
# open-file limit (``fd_capped``), and such reports are written once per interval.
ACCEPTS_PER_WAKE = 64
LISTEN_BACKLOG = 4096  # the kernel caps it (Linux: net.core.somaxconn)
RESERVED_FDS = 32 + ACCEPTS_PER_WAKE  # the database, its checkpointer, stdio, the listener, accepts in flight
REPORT_EVERY_S = 10.0
_reported: dict[str, float] = {}
_unreported: collections.Counter[str] = collections.Counter()


def raise_open_file_limit() -> int:
    """Raise the soft limit of open files to the hard limit (a process may); returns the soft limit now."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft if soft != resource.RLIM_INFINITY else 1 << 20
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def deepen_listen_queue(fileno: int, backlog: int) -> None:
    """Listen again on a listening socket with a deeper queue (through a duplicate of its descriptor:
    the socket is the same, asyncio keeps its own object)."""
    with socket.socket(fileno=os.dup(fileno)) as duplicate:
        duplicate.listen(backlog)


def connection_cap(open_files: int) -> int:
    """The most connections a server may hold with ``open_files`` descriptors."""
    return max(1, open_files - RESERVED_FDS)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
    """The loop's error reports: those about accepting (out of file descriptors, memory) once per
    ``REPORT_EVERY_S`` with how many there were, without a traceback; the others as asyncio says them."""
    message = str(context.get("message", ""))
    if "accept" not in message:
        loop.default_exception_handler(context)
        return
    now = time.monotonic()
    _unreported[message] += 1
    if now - _reported.get(message, -REPORT_EVERY_S) < REPORT_EVERY_S:
        return
    _reported[message] = now
    count, _unreported[message] = _unreported[message], 0
    error = context.get("exception")
    print(
        f"server: {message} ({error}); {count} time(s) since the last report; new connections wait",
        file=sys.stderr,
        flush=True,
    )
