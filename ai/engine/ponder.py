"""The engine process's pondering (thinking on the opponent's time): the state of one ponder and
its closing report. The engine runs the ponder as a search of the current position (the opponent
to move) without a deadline; the command that ends it (docs/engine-protocol.md) stops it, and a
``position`` that adds one move re-roots the searcher's tree at that move, so a predicted reply
makes the next ``go`` start with the visits the ponder gave it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ai.vocab.results import PonderEnd, SearchResult
from game.rules.base import GameSpec, Position

MAX_PONDER_MS = 30 * 60 * 1000.0  # a ponder is ended from outside long before this
PONDER_NICENESS = 19  # the lowest priority of the normal class (not SCHED_IDLE: see yield_to_the_rest)


def yield_to_the_rest() -> None:
    """Give the calling thread (a fresh one per ponder) the lowest normal priority (Linux, this thread
    alone): the app's frames and the searches that follow (other threads) keep theirs. Not SCHED_IDLE:
    a thread starved while it holds the GIL between two compiled chunks delayed the engine's ``isready``
    answers (the heartbeat) by up to 0.4 s at load 9. Elsewhere nothing happens."""
    if not (hasattr(os, "setpriority") and hasattr(threading, "get_native_id") and sys.platform == "linux"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PONDER_NICENESS)
    except OSError:
        pass


@dataclass
class PonderRun:
    """One ponder: the position it thinks about and, once its search returned, the result."""

    search_id: Any
    spec: GameSpec
    position: Position
    started: float = field(default_factory=time.perf_counter)
    result: SearchResult | None = None


def played_move(run: PonderRun, new_position: Position | None) -> int | None:
    """The opponent's move when ``new_position`` is the pondered position plus exactly one move."""
    if new_position is None or new_position.spec != run.spec or new_position.ply != run.position.ply + 1:
        return None
    if new_position.history[: run.position.ply] != run.position.history:
        return None
    return new_position.history[-1]


def predicted_move(result: SearchResult | None) -> int | None:
    """The reply the ponder expected: its choice, once it is proven or any root move has a visit."""
    if result is None or not (result.exact or any(child.visits for child in result.children)):
        return None
    return result.best_move


def end_report(run: PonderRun, new_position: Position | None, searcher: Any) -> PonderEnd:
    """The ``ponderend`` reply; re-roots ``searcher`` (the one that pondered, or None when it is gone)
    at ``new_position`` when that is a position of the same game, to count the visits kept."""
    played = played_move(run, new_position)
    predicted = predicted_move(run.result)
    kept = 0
    if searcher is not None and new_position is not None and new_position.spec == run.spec:
        searcher.set_position(new_position)
        kept = int(searcher.root_visits)
    text = run.spec.move_to_text
    return PonderEnd(
        id=run.search_id,
        predicted=None if predicted is None else text(predicted),
        played=None if played is None else text(played),
        hit=played is not None and played == predicted,
        iterations=0 if run.result is None else int(run.result.iterations),
        elapsed_ms=round((time.perf_counter() - run.started) * 1000.0, 1),
        kept_visits=kept,
    )
