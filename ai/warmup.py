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

import numpy as np

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
    """The compile steps of one game, cheapest first. Each kernel function is compiled on its own
    (with the argument types the search loop uses, so the loop reuses it), which makes the progress
    of a first launch move in several real steps rather than one long one."""
    from ai.mcts import Searcher, supports
    from ai.mcts.games import adapter_for
    from ai.mcts.kernels import KERNELS

    steps: list[PrepareStep] = []
    adapter = adapter_for(spec) if supports(spec) else None
    if adapter is not None:
        gen_children, play, playout = KERNELS[adapter.kind]
        params = adapter.make_params(spec)
        start = adapter.encode(spec.start())

        def moves() -> None:
            buf = np.zeros(adapter.max_moves, dtype=np.int64)
            gen_children(params, start.copy(), buf, np.zeros(adapter.max_moves, dtype=np.int64))
            play(params, start.copy(), np.int16(buf[0]))

        def playouts() -> None:
            playout(params, start.copy(), np.array([1], dtype=np.int64))

        steps += [PrepareStep(f"{spec.name} moves", moves), PrepareStep(f"{spec.name} playouts", playouts),
                  PrepareStep(f"{spec.name} search", lambda: Searcher(spec, seed=1).warm_up())]
    if spec.name.startswith("connect4"):
        steps.append(PrepareStep("connect4 solver", _warm_solver))
    return steps


def _warm_solver() -> None:
    from ai import solver_kernel
    from ai.exact_root import RootSolver
    from ai.solver import Solver
    from game.connect4 import Connect4Spec

    small = Solver(tt_bits=solver_kernel.MIN_TT_BITS)
    RootSolver(small, Connect4Spec(4, 4).parse_position("1234"), deadline=None).start().join()


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
