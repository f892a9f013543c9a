"""The numbers behind a game review: every position of a game scored, one result at a time.

Connect 4 (any board the solver fits): each position's column scores are exact (Pons' convention, for the
player who plays the column, see ``ai/solver/core.py``): on 7x6 the opening book answers the first plies at once,
the solver the rest. The order is the one a player wants to see: the book's positions, then the shown position,
then the others from the end of the game backwards (the end is cheap, and the solver's table keeps what it
learned there for the harder positions nearer the start).

Other games: one MCTS search per position at a fixed iteration count with a seed derived from the review's
seed and the ply, on one thread, so the values are the same on any machine (estimates, never proofs).

No classification here: ``game.play.review_model`` turns these numbers into marks (this floor must not import
the play model). ``ReviewJob`` runs a review in a thread and hands its results over as they come.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ai.vocab.review_scores import PositionScores
from game.rules import GameSpec, Position
from game.rules.capabilities import capabilities

DEFAULT_ITERATIONS = 4000  # estimate reviews: MCTS iterations per position
DEFAULT_SEED = 39


def is_exact_game(spec: GameSpec) -> bool:
    """Whether the solver can score this game's positions exactly (Connect 4: every board the rules allow fits
    the solver's 64-bit words). Imports nothing compiled: a model of a review may ask it without numba."""
    return capabilities(spec).exact_solver


def positions_of(spec: GameSpec, moves: Sequence[int]) -> list[Position]:
    """The position before each move and after the last one (raises the rules' errors on an illegal move)."""
    position = spec.start()
    out = [position]
    for move in moves:
        position = position.play(move)
        out.append(position)
    return out


def review_order(count: int, ready: Sequence[int], shown: int | None) -> list[int]:
    """The plies still to score after ``ready``: the shown one first, then from the last backwards."""
    done = set(ready)
    first = [shown] if shown is not None and 0 <= shown < count and shown not in done else []
    rest = [p for p in range(count - 1, -1, -1) if p not in done and p not in first]
    return first + rest


def iter_exact(
    spec: GameSpec,
    moves: Sequence[int],
    *,
    shown: int | None = None,
    time_ms: float | None = None,
    threads: int | None = None,
    solver: Any = None,
    stop: threading.Event | None = None,
) -> Iterator[PositionScores]:
    """Exact scores of the position before each move of ``moves`` (Connect 4), book first, as they come.
    ``time_ms``: a limit per position (None: exact, however long); ``solver``: an ``ai.solver.core.Solver``
    (default: a new one with ``threads`` threads, all cores by default)."""
    from ai.vocab.opening_book import load  # numpy only: the book's marks come before the solver's compiled code loads

    positions = positions_of(spec, moves)[: len(moves)]
    book = load()
    ready: list[int] = []
    for ply, position in enumerate(positions):
        start = time.perf_counter()
        booked = book.column_scores(position)  # type: ignore[arg-type]
        if booked is not None:
            ready.append(ply)
            elapsed = (time.perf_counter() - start) * 1000.0
            yield PositionScores(ply, _known(booked), True, True, "book", elapsed)
    if len(ready) == len(positions):
        return
    from ai.solver.core import Solver, default_threads

    if solver is None:
        solver = Solver(threads=default_threads() if threads is None else threads)
    for ply in review_order(len(positions), ready, shown):
        if stop is not None and stop.is_set():
            return
        result = solver.analyze_columns(positions[ply], time_ms=time_ms, threads=threads)
        source = "solver" if result.complete else "partial"
        yield PositionScores(ply, _known(result.scores), True, result.complete, source, result.elapsed_ms)


def _known(scores: Sequence[int | None]) -> tuple[tuple[int, float], ...]:
    return tuple((col, score) for col, score in enumerate(scores) if score is not None)


def iter_estimates(
    spec: GameSpec,
    moves: Sequence[int],
    *,
    shown: int | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = DEFAULT_SEED,
    stop: threading.Event | None = None,
) -> Iterator[PositionScores]:
    """MCTS values of every position of the game (including the last one, which the last move's drop needs),
    ``iterations`` per position, one thread, seed ``seed + ply``: the same numbers on any machine."""
    from ai.mcts.rules_search import searcher_for

    positions = positions_of(spec, moves)
    searchers: dict[int, Any] = {}
    try:
        for ply in review_order(len(positions), [], shown):
            if stop is not None and stop.is_set():
                return
            position = positions[ply]
            start = time.perf_counter()
            if position.outcome.is_over:
                winner = position.outcome.winner
                value = 0.5 if winner is None else (1.0 if winner == position.to_move else 0.0)
                yield PositionScores(ply, (), False, True, "mcts", 0.0, value)
                continue
            searcher = searcher_for(spec, seed=seed + ply, threads=1)  # (the rules' MCTS without a kernel)
            searchers[ply] = searcher
            searcher.set_position(position)
            result = searcher.search(iterations=iterations, early_stop=False, stop_event=stop)
            searcher.close()
            del searchers[ply]
            scores = tuple((int(c.move), float(c.value)) for c in result.children)
            visits = tuple((int(c.move), int(c.visits)) for c in result.children)
            elapsed = (time.perf_counter() - start) * 1000.0
            yield PositionScores(ply, scores, False, True, "mcts", elapsed, float(result.value), visits)
    finally:
        for searcher in searchers.values():
            searcher.close()


def score_position(
    spec: GameSpec,
    moves: Sequence[int],
    *,
    time_ms: float | None = 3000.0,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = DEFAULT_SEED,
    solver: Any = None,
) -> PositionScores | None:
    """Every move's score at the position after ``moves`` (a hint): exact (book, else the solver within
    ``time_ms``: some columns may stay unknown) where the solver can, else one MCTS search; None when the game
    is over."""
    position = positions_of(spec, moves)[-1]
    if position.outcome.is_over:
        return None
    if is_exact_game(spec):
        from ai.vocab.opening_book import load

        start = time.perf_counter()
        booked = load().column_scores(position)  # type: ignore[arg-type]
        if booked is not None:
            return PositionScores(len(moves), _known(booked), True, True, "book", (time.perf_counter() - start) * 1e3)
        from ai.solver.core import Solver, default_threads

        result = (solver or Solver(threads=default_threads())).analyze_columns(position, time_ms=time_ms)  # type: ignore[arg-type]
        source = "solver" if result.complete else "partial"
        return PositionScores(len(moves), _known(result.scores), True, result.complete, source, result.elapsed_ms)
    return next(r for r in iter_estimates(spec, moves, shown=len(moves), iterations=iterations, seed=seed))


def iter_review(
    spec: GameSpec,
    moves: Sequence[int],
    *,
    shown: int | None = None,
    time_ms: float | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = DEFAULT_SEED,
    stop: threading.Event | None = None,
    solver: Any = None,
) -> Iterator[PositionScores]:
    """Exact scores where the solver can give them, else estimates."""
    if is_exact_game(spec):
        return iter_exact(spec, moves, shown=shown, time_ms=time_ms, stop=stop, solver=solver)
    return iter_estimates(spec, moves, shown=shown, iterations=iterations, seed=seed, stop=stop)


def prepare(spec: GameSpec) -> threading.Thread | None:
    """Load what an exact review of ``spec`` needs (the book, its arrays for the solver, the compiled solver) in a
    daemon thread, e.g. while a game is played, so a review's first marks do not wait for them (about 0.5 s,
    1.4 s and 0.5 s measured under load); None for a game reviewed by estimates."""
    if not is_exact_game(spec):
        return None

    def load_all() -> None:
        from ai.solver.core import warm_up
        from ai.vocab.opening_book import load

        load().kernel_arrays  # noqa: B018 - a cached property: made once per process
        warm_up()

    thread = threading.Thread(target=load_all, name="review-prepare", daemon=True)
    thread.start()
    return thread


class ReviewJob:
    """A review running in a daemon thread: ``poll()`` returns the results found since the last call (never
    blocks), ``done`` tells when it ended, ``stop()`` ends it early, ``error`` is what broke it (if anything).
    ``on_result`` (optional) is called in the review's thread for each result, e.g. to wake a UI loop.
    ``threads``: the solver's threads (default: every core; one leaves a core to a UI drawing frames)."""

    def __init__(
        self,
        spec: GameSpec,
        moves: Sequence[int],
        *,
        shown: int | None = None,
        time_ms: float | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        seed: int = DEFAULT_SEED,
        on_result: Callable[[PositionScores], None] | None = None,
        threads: int | None = None,
        nice: int = 0,
    ) -> None:
        self._results: queue.Queue[PositionScores] = queue.Queue()
        self._nice = nice  # > 0: the review's thread yields the CPU to others (a UI drawing frames), Linux
        self._stop = threading.Event()
        self._finished = threading.Event()
        self._on_result = on_result
        self.error: BaseException | None = None
        self._solver: Any = None
        self._args = (spec, tuple(moves), shown, time_ms, iterations, seed)
        self._threads = threads
        self._thread = threading.Thread(target=self._run, name="review", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        spec, moves, shown, time_ms, iterations, seed = self._args
        if self._nice > 0 and hasattr(os, "setpriority"):
            try:  # (a thread is a task of its own on Linux: only this one is made nicer)
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self._nice)
            except OSError:
                pass
        try:
            if is_exact_game(spec):
                from ai.solver.core import Solver, default_threads

                self._solver = Solver(threads=default_threads() if self._threads is None else self._threads)
                if self._stop.is_set():
                    return
            found = iter_review(
                spec,
                moves,
                shown=shown,
                time_ms=time_ms,
                iterations=iterations,
                seed=seed,
                stop=self._stop,
                solver=self._solver,
            )
            for result in found:
                self._results.put(result)
                if self._on_result is not None:
                    self._on_result(result)
        except BaseException as exc:  # handed to the owner, who shows it
            self.error = exc
        finally:
            self._finished.set()

    def poll(self) -> list[PositionScores]:
        out: list[PositionScores] = []
        while True:
            try:
                out.append(self._results.get_nowait())
            except queue.Empty:
                return out

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the review ends; False on timeout."""
        return self._finished.wait(timeout)

    def stop(self) -> None:
        """End the review soon (a running solver search gives up at its next poll); never waits."""
        self._stop.set()
        solver = self._solver
        if solver is not None:
            solver.stop()
