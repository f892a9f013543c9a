"""Compile (or load from numba's cache) what one game's search needs, one step at a time.

The engine runs :func:`prepare` for the game being played first, then for the others, and reports
each step as a :class:`PrepareProgress`, so a first launch can show a real fraction while it
compiles. A step that loads from the cache takes a few milliseconds; ``compiling`` tells them apart.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from game import get_game
from game.base import GameSpec

# A step that takes longer than this was compiled, not loaded from the cache.
COMPILED_AFTER_S = 0.5


@dataclass(frozen=True)
class PrepareStep:
    label: str
    run: Callable[[], None]


@dataclass(frozen=True)
class PrepareProgress:
    """``done`` of ``total`` steps are finished for ``game``; ``label`` names the step just finished
    (or the next one when ``done`` is 0); ``compiling`` is True once any step had to compile."""

    game: str
    done: int
    total: int
    label: str
    compiling: bool

    @property
    def fraction(self) -> float:
        return 1.0 if self.total == 0 else self.done / self.total


_lock = threading.Lock()
_prepared: set[str] = set()


def _steps(spec: GameSpec) -> list[PrepareStep]:
    from ai.mcts import Searcher, supports

    steps: list[PrepareStep] = []
    if supports(spec):
        steps.append(PrepareStep(f"{spec.name} search", lambda: Searcher(spec, seed=1).warm_up()))
    if spec.name.startswith("connect4"):
        from ai import solver

        steps.append(PrepareStep("connect4 solver", solver.warm_up))
    return steps


def unit_of(spec: GameSpec) -> str:
    """The compile unit a game belongs to (games of one kernel share their compiled code)."""
    return spec.name


def prepared(game: str | GameSpec) -> bool:
    spec = get_game(game) if isinstance(game, str) else game
    return unit_of(spec) in _prepared


def prepare(game: str | GameSpec, on_progress: Callable[[PrepareProgress], None] | None = None) -> None:
    """Compile or load everything a search of ``game`` needs; call ``on_progress`` before the first
    step and after each one. Safe to call from several threads (one prepares, the others wait)."""
    spec = get_game(game) if isinstance(game, str) else game
    with _lock:
        steps = [] if unit_of(spec) in _prepared else _steps(spec)
        compiling = False
        if on_progress is not None:
            label = steps[0].label if steps else "ready"
            on_progress(PrepareProgress(spec.name, 0, len(steps), label, False))
        for index, step in enumerate(steps, start=1):
            started = time.perf_counter()
            step.run()
            compiling = compiling or time.perf_counter() - started > COMPILED_AFTER_S
            if on_progress is not None:
                on_progress(PrepareProgress(spec.name, index, len(steps), step.label, compiling))
        _prepared.add(unit_of(spec))
