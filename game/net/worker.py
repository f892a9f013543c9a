"""A daemon thread that reports typed events through a queue: the caller polls them and never waits."""

from __future__ import annotations

import queue
import threading
from typing import Generic, TypeVar

E = TypeVar("E")


class Worker(Generic[E]):
    def __init__(self, name: str) -> None:
        self._events: queue.SimpleQueue[E] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._thread.start()

    def events(self) -> list[E]:
        """Every event reported since the last call, oldest first, without waiting."""
        out: list[E] = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)
