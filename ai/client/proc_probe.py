"""How a child process is doing, from the operating system (Linux ``/proc``): the CPU time it has used and
whether it is stopped (SIGSTOP), so that the engine client can tell a hang from a busy or starved engine.

A stopped process uses no CPU and is in state ``T``; an engine compiling with numba (which holds the GIL, so
its input thread answers late) or one starved of CPU on a loaded machine keeps using CPU time, or waits
runnable (state ``R``). Elsewhere than Linux nothing is known (``None``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


@dataclass(frozen=True)
class ProcessSample:
    cpu_s: float  # user + system CPU time of all its threads
    stopped: bool  # stopped by a signal (or traced)
    runnable: bool  # running or waiting for a CPU


def sample(pid: int) -> ProcessSample | None:
    """The process's CPU time and state, or None when it cannot be read (gone, or no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            raw = f.read()
    except OSError:
        return None
    fields = raw[raw.rfind(")") + 2 :].split()  # after "pid (name) ": state is the first field
    try:
        state = fields[0]
        utime, stime = int(fields[11]), int(fields[12])
    except (IndexError, ValueError):
        return None
    return ProcessSample((utime + stime) / _TICKS, state in ("T", "t"), state == "R")


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux ``/proc``; empty when unknown)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return []
