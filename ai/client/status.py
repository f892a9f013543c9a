"""What the engine client (``ai.client.engine_client``) reports and how it recovers: its restart policy,
the status the UI shows and the record of each recovery. Plain frozen dataclasses, no process in sight."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ai.vocab.results import KernelsBuild, Preparing

State = Literal["starting", "preparing", "ready", "restarting", "unavailable", "closed"]


@dataclass(frozen=True)
class RestartPolicy:
    ping_after_s: float = 0.15  # silence after which the client sends isready
    hang_after_s: float = 0.7  # an unanswered isready this old means a hang (so at most 0.85 s in all):
    # a first launch compiles with numba, which holds the GIL; its isready answers were seen up to 0.3-0.55 s
    # late on a loaded machine, and 0.6 s once restarted a compiling engine there
    busy_ready_s: float = 5.0  # ... unless the engine is busy (it used CPU time meanwhile, or waits for a CPU):
    # then a silence this long, once prepared (a loaded machine starves it; a real SIGSTOP is still a hang at once)
    busy_preparing_s: float = (
        60.0  # and this long while it compiles (numba holds the GIL for seconds on a first launch)
    )
    first_startup_s: float = 15.0  # start-up deadline before any start-up was measured
    min_startup_s: float = 3.0  # start-up deadline at least (a loaded machine starts Python slowly)
    startup_factor: float = 4.0  # ... and this times the slowest start-up measured
    quick_restarts: int = 3  # failures in a row before the engine counts as not available
    first_backoff_s: float = 0.25  # wait before the second restart in a row, doubling after
    max_backoff_s: float = 10.0
    stable_after_s: float = 10.0  # an engine up this long (or that answered a search) resets the count


@dataclass(frozen=True)
class EngineStatus:
    """What the UI shows about the engine. ``state``: "starting" (process launched, no answer yet),
    "preparing" (answering, but the current game's compiled code is not ready: see ``preparing``),
    "ready", "restarting" (waiting ``retry_in_s`` before the next start), "unavailable" (it keeps
    failing; retried in the background every ``retry_in_s``), "closed"."""

    state: State
    message: str
    preparing: Preparing | None = None
    threads: int | None = None
    retry_in_s: float | None = None
    kernels: KernelsBuild | None = None  # the background build of the compiled kernels (a checkout's first launch)


@dataclass(frozen=True)
class RestartRecord:
    """One recovery: ``problem`` noticed at ``noticed_at``; the new engine spawned at ``spawned_at``
    and said its first line at ``first_line_at`` (clock seconds; None until it did)."""

    problem: str
    noticed_at: float
    spawned_at: float | None = None
    first_line_at: float | None = None
