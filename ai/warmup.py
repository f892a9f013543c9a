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
from game import get_game
from game.base import GameSpec

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
    from ai import solver_kernel
    from ai.exact_root import RootSolver
    from ai.solver import Solver
    from game.connect4 import Connect4Spec

    small = Solver(tt_bits=solver_kernel.MIN_TT_BITS)
    RootSolver(small, Connect4Spec(4, 4).parse_position("1234"), deadline=None).start().join()


def _units(spec: GameSpec, exact: bool) -> list[tuple[str, list[PrepareStep]]]:
    units = []
    search = _search_unit(spec)
    if search is not None:
        units.append(search)
    if exact and spec.name.startswith("connect4"):
        units.append((SOLVER_UNIT, [PrepareStep(SOLVER_UNIT, _warm_solver)]))
    return units


def _unit_lock(name: str) -> threading.Lock:
    with _units_lock:
        return _unit_locks.setdefault(name, threading.Lock())


def prepared(game: str | GameSpec, *, exact: bool = True) -> bool:
    """True when a search of ``game`` (exact or not) will not compile anything."""
    spec = get_game(game) if isinstance(game, str) else game
    return all(name in _prepared for name, _ in _units(spec, exact))


def pending(game: str | GameSpec, *, exact: bool = True) -> list[tuple[str, int]]:
    """The units a search of ``game`` still needs in this process, with their numbers of steps."""
    spec = get_game(game) if isinstance(game, str) else game
    return [(name, len(steps)) for name, steps in _units(spec, exact) if name not in _prepared]


def prepare_unit(game: str | GameSpec, unit: str, on_step: Callable[[str, bool], None] | None = None) -> None:
    """Compile or load one unit of ``game`` (``on_step(label, compiled)`` after each step); a unit
    being prepared by another thread is waited for, and never prepared twice."""
    spec = get_game(game) if isinstance(game, str) else game
    steps = dict(_units(spec, exact=True)).get(unit)
    if steps is None:
        raise ValueError(f"{spec.name} has no compile unit {unit!r}")
    with _unit_lock(unit):
        for step in steps:
            compiled = False
            if unit not in _prepared:
                before = compilations()
                step.run()
                compiled = compilations() > before
            if on_step is not None:
                on_step(step.label, compiled)
        _prepared.add(unit)


def prepare(game: str | GameSpec, on_progress: Callable[[PrepareProgress], None] | None = None, *,
            exact: bool = True) -> None:
    """Compile or load everything a search of ``game`` needs (the solver only if ``exact``) in this
    process; call ``on_progress`` before the first step and after each one."""
    spec = get_game(game) if isinstance(game, str) else game
    units = pending(spec, exact=exact)
    progress = _Tally(spec.name, sum(steps for _, steps in units), on_progress)
    progress.start(units[0][0] if units else "ready")
    for name, _ in units:
        prepare_unit(spec, name, progress.step)


class _Tally:
    """Counts finished steps across units and reports them as PrepareProgress."""

    def __init__(self, game: str, total: int, report: Callable[[PrepareProgress], None] | None) -> None:
        self.game, self.total, self.report = game, total, report
        self.done = 0
        self.compiling = False
        self._lock = threading.Lock()

    def start(self, label: str) -> None:
        if self.report is not None:
            self.report(PrepareProgress(self.game, 0, self.total, label, False))

    def step(self, label: str, compiled: bool) -> None:
        with self._lock:
            self.done = min(self.total, self.done + 1)
            self.compiling = self.compiling or compiled
            progress = PrepareProgress(self.game, self.done, self.total, label, self.compiling)
        if self.report is not None:
            self.report(progress)
