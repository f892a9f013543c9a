"""Compile (or load from numba's cache) what one game's search needs, one step at a time.

Compiled code comes in units: the MCTS kernel of each kind of game (Connect 4 of any size; every
m,n,k board from tic-tac-toe to Gomoku; Ultimate TTT) and the Connect 4 solver. :func:`prepare`
readies the units of one game (the solver only when the search is to be exact), reporting each step
as a :class:`PrepareProgress`, so a first launch can show a real fraction while it compiles. Each
unit has its own lock: a search that does not need the solver never waits for it to compile.
``compiling`` says whether numba had to compile (a miss of its cache) rather than load.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.jit import compilations
from game.rules import get_game
from game.rules.base import GameSpec
from game.rules.capabilities import capabilities

SOLVER_UNIT = "connect4 solver"


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


_units_lock = threading.Lock()
_unit_locks: dict[str, threading.Lock] = {}
_prepared: set[str] = set()


def _search_unit(spec: GameSpec) -> tuple[str, list[PrepareStep]] | None:
    """The MCTS unit of ``spec`` and its steps. Each kernel function is compiled on its own (with the
    argument types the search loop uses, so the loop reuses it), which makes the progress of a first
    launch move in several real steps rather than one long one."""
    from ai.mcts import Searcher, supports
    from ai.mcts.games import adapter_for
    from ai.mcts.kernels import KERNELS

    adapter = adapter_for(spec) if supports(spec) else None
    if adapter is None:
        return None
    gen_children, play, playout = KERNELS[adapter.kind]
    params = adapter.make_params(spec)
    start = adapter.encode(spec.start())

    def moves() -> None:
        buf = np.zeros(adapter.max_moves, dtype=np.int64)
        gen_children(params, start.copy(), buf, np.zeros(adapter.max_moves, dtype=np.int64))
        play(params, start.copy(), np.int16(buf[0]))

    def playouts() -> None:
        playout(params, start.copy(), np.array([1], dtype=np.int64))

    return f"search kernel {adapter.kind}", [
        PrepareStep(f"{spec.name} moves", moves),
        PrepareStep(f"{spec.name} playouts", playouts),
        PrepareStep(f"{spec.name} search", lambda: Searcher(spec, seed=1).warm_up()),
    ]


def _warm_solver() -> None:
    from ai.search.exact_root import RootSolver
    from ai.solver import kernel as solver_kernel
    from ai.solver.core import Solver
    from game.rules.connect4 import Connect4Spec

    small = Solver(tt_bits=solver_kernel.MIN_TT_BITS)
    RootSolver(small, Connect4Spec(4, 4).parse_position("1234"), deadline=None).start().join()


def _units(spec: GameSpec, exact: bool) -> list[tuple[str, list[PrepareStep]]]:
    units = []
    search = _search_unit(spec)
    if search is not None:
        units.append(search)
    if exact and capabilities(spec).exact_solver:
        units.append((SOLVER_UNIT, [PrepareStep(SOLVER_UNIT, _warm_solver)]))
    return units


def _unit_lock(name: str) -> threading.Lock:
    with _units_lock:
        return _unit_locks.setdefault(name, threading.Lock())


def prepared(game: str | GameSpec, *, exact: bool = True) -> bool:
    """True when a search of ``game`` (exact or not) will not compile anything."""
    spec = get_game(game) if isinstance(game, str) else game
    return all(name in _prepared for name, _ in _units(spec, exact))


def prepare(
    game: str | GameSpec, on_progress: Callable[[PrepareProgress], None] | None = None, *, exact: bool = True
) -> None:
    """Compile or load everything a search of ``game`` needs (the solver only if ``exact``); call
    ``on_progress`` before the first step and after each one. Safe from several threads: a unit
    being prepared by another thread is waited for, and never prepared twice."""
    spec = get_game(game) if isinstance(game, str) else game
    units = [(name, steps) for name, steps in _units(spec, exact) if name not in _prepared]
    total = sum(len(steps) for _, steps in units)
    done = 0
    compiling = False
    if on_progress is not None:
        on_progress(PrepareProgress(spec.name, 0, total, units[0][1][0].label if units else "ready", False))
    for name, steps in units:
        with _unit_lock(name):
            for step in steps:
                if name not in _prepared:
                    before = compilations()
                    step.run()
                    compiling = compiling or compilations() > before
                done += 1
                if on_progress is not None:
                    on_progress(PrepareProgress(spec.name, done, total, step.label, compiling))
            _prepared.add(name)
