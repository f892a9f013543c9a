"""Runs without a player: the screenshot and the smoke test. They drive anything that offers the few
methods of ``Run`` (the app does), never the app object's insides."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Protocol

import pygame

from game.play.exact import EXACT_TIME_MS

STARTUP_WAIT_S = 240.0  # a first launch prepares (compiles) the engine: minutes on a busy machine
SMOKE_TIMEOUT_S = 120.0


class Run(Protocol):
    def step(self, events: list[pygame.event.Event] | None = None, now: float | None = None) -> bool: ...
    def missing_analysis(self) -> list[str]: ...
    def engine_problem(self) -> str | None: ...
    def engine_ready(self) -> bool: ...
    def hold_bots(self) -> None: ...
    def hurry(self) -> None: ...
    def clear_notice(self) -> None: ...
    def game_finished(self) -> bool: ...
    def moves_played(self) -> int: ...
    def result_line(self) -> str: ...
    def save_png(self, path: Path) -> None: ...


def screenshot(run: Run, path: Path, wait_s: float, exact: bool) -> int:
    """Save the frame once the engine's analysis (heatmap, eval, exact verdicts) has arrived.

    Waits up to ``STARTUP_WAIT_S`` for the engine to start (a cold start compiles the search core),
    then up to ``wait_s`` for the analysis (plus the solver's budgets with exact verdicts on); without
    an engine it captures anyway and says why on stderr.
    """
    run.hold_bots()
    exact_s = sum(EXACT_TIME_MS) / 1000 if exact else 0
    start = time.monotonic()
    ready_at: float | None = None
    problem = None
    try:
        while True:
            run.step([])
            now = time.monotonic()
            missing = run.missing_analysis()
            if not missing or wait_s <= 0:
                break
            problem = run.engine_problem()
            if problem is not None and ("exact verdicts" not in missing or "cannot search" not in problem):
                break
            problem = None
            if ready_at is None and run.engine_ready():
                ready_at = now
            if ready_at is None and now - start > STARTUP_WAIT_S:
                problem = f"the engine did not start within {STARTUP_WAIT_S:.0f} s"
                break
            if ready_at is not None and now - ready_at > wait_s + exact_s:
                problem = f"no {' / '.join(missing)} from the engine within {wait_s:g} s"
                break
            time.sleep(1 / 60)
        run.clear_notice()
        run.step([])
        run.save_png(path)
    except Exception as exc:
        print(f"connect4: error: screenshot failed: {exc}", file=sys.stderr)
        return 1
    if problem:
        print(f"connect4: warning: screenshot taken without the engine's analysis: {problem}", file=sys.stderr)
    print(f"screenshot saved to {path}")
    return 0


def smoke(run: Run) -> int:
    """Play a fast bot-vs-bot game through the real engine, save a screenshot."""
    run.hurry()
    start = time.monotonic()
    moves_by_engine = 0
    try:
        if not run.engine_ready() and run.engine_problem():
            raise RuntimeError(run.engine_problem() or "engine did not start")
        last = run.moves_played()
        while not run.game_finished():
            if not run.step():
                raise RuntimeError("the window was closed")
            problem = run.engine_problem()
            if problem:
                raise RuntimeError(problem)
            if run.moves_played() != last:
                last = run.moves_played()
                moves_by_engine += 1
            if time.monotonic() - start > SMOKE_TIMEOUT_S:
                raise RuntimeError(f"the game did not finish within {SMOKE_TIMEOUT_S:.0f} s")
            time.sleep(1 / 120)
        run.step([])
        shot = Path(tempfile.mkdtemp(prefix="connect4-smoke-")) / "smoke.png"
        run.save_png(shot)
    except Exception as exc:
        print(f"smoke: FAILED: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", file=sys.stderr)
        return 1
    print(
        f"smoke: ok: {moves_by_engine} bot moves in {time.monotonic() - start:.1f} s, {run.result_line()}; "
        f"screenshot {shot}"
    )
    return 0
