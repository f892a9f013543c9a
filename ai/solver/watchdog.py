"""The solver's deadline: one daemon thread that raises the stop flags of a search when its time is up."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ai.solver import kernel


class Watchdog:
    """One daemon thread per solver that raises the stop flags (every thread's) when a search's deadline passes."""

    def __init__(self, ctls: list[np.ndarray]) -> None:
        self._ctls = ctls  # the solver's flag arrays (the list may grow)
        self._cond = threading.Condition()
        self._deadline: float | None = None
        self._thread: threading.Thread | None = None

    @contextmanager
    def armed(self, time_ms: float | None) -> Iterator[None]:
        if time_ms is None:
            yield
            return
        with self._cond:
            self._deadline = time.monotonic() + max(0.0, time_ms) / 1000.0
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="solver-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()
        try:
            yield
        finally:
            with self._cond:  # once disarmed, no late stop can hit the next search
                self._deadline = None
                self._cond.notify()

    def _run(self) -> None:
        with self._cond:
            while True:
                if self._deadline is None:
                    self._cond.wait()
                    continue
                remaining = self._deadline - time.monotonic()
                if remaining <= 0:
                    for ctl in list(self._ctls):
                        ctl[kernel.STOP] = 1
                    self._deadline = None
                else:
                    self._cond.wait(remaining)
