"""Thinking on the opponent's time for a search in the caller's own process: the pondering benchmark
(``ai.benchmarks.ponder_match``). The app, the terminal client and the network bot ponder through the
engine process instead (its ``ponder`` command, ``ai.engine.ponder``), with the same searcher calls:
``search(time_ms=MAX_PONDER_MS, early_stop=False)`` on the opponent's position, then ``set_position``
with the opponent's move, which keeps the subtree.

After our move, ``start(position)`` searches the position the opponent must answer in a background
thread (numba releases the GIL, so it runs beside the caller). When the opponent's move is known,
``stop(move)`` ends it; the caller then searches the new position with the same searcher, whose
tree is re-rooted at that move (``set_position`` keeps the subtree), so a predicted reply starts the
next search ahead. Any other change of position simply calls ``stop()`` first.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

MAX_PONDER_MS = 30 * 60 * 1000  # a search stopped from outside long before this


@dataclass(frozen=True)
class PonderOutcome:
    """One ponder: the reply it expected, whether the opponent played it, its iterations."""

    predicted: int | None
    hit: bool
    iterations: int


class Ponderer:
    """Not thread-safe itself: call ``start`` / ``stop`` from one thread (the client's)."""

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._result: Any = None
        self._error: BaseException | None = None
        self.hits = 0
        self.ponders = 0

    @property
    def active(self) -> bool:
        return self._thread is not None

    def start(self, position: Any) -> None:
        """Search ``position`` (the opponent to move) until ``stop``."""
        self.stop()
        if position.outcome.is_over:
            return
        self.searcher.set_position(position)
        self._stop = threading.Event()
        self._result = None
        self._error = None
        self._thread = threading.Thread(target=self._run, name="ponder", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = self.searcher.search(
                time_ms=MAX_PONDER_MS, early_stop=False, stop_event=self._stop, exact=False
            )
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by stop()
            self._error = exc

    def stop(self, played: int | None = None) -> PonderOutcome | None:
        """End the ponder (if any); with ``played`` (the opponent's move) count a hit or a miss."""
        thread = self._thread
        if thread is None:
            return None
        self._stop.set()
        self.searcher.stop()
        thread.join()
        self._thread = None
        if self._error is not None:
            raise RuntimeError(f"pondering failed: {self._error}") from self._error
        result = self._result
        predicted = None if result is None else result.best_move
        if played is None:
            return PonderOutcome(predicted, False, 0 if result is None else result.iterations)
        hit = predicted == played
        self.ponders += 1
        self.hits += hit
        return PonderOutcome(predicted, hit, 0 if result is None else result.iterations)
