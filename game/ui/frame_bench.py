"""Frame times while the engine thinks: the window must keep drawing at 60 fps.

Runs the real app (headless unless ``--window``) in bot-vs-bot mode with a budget of ``seconds``
per move, heatmap and eval bar on, for ``seconds`` of wall time; every frame's work
(events + update + draw + flip) is timed.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import pygame

from game.ui import game_app
from game.ui.players import BotSetting
from game.ui.session import Session
from game.ui.settings import Settings


def measure(seconds: float = 5.0, window: bool = False, size: tuple[int, int] = (1280, 800)) -> dict[str, float]:
    if not window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    budget_ms = int(seconds * 1000)
    settings = Settings(mode="bot-vs-bot", heatmap=True, eval_bar=True, sound=False, window=size,
                        bots=[BotSetting("custom", budget_ms), BotSetting("custom", budget_ms)])
    app = game_app.create_app(settings, Session.from_text("connect4", ""), persist=False)
    clock = pygame.time.Clock()
    times: list[float] = []
    cpu: list[float] = []  # CPU time of the UI thread per frame (excludes time the OS gave to others)
    iterations = 0
    try:
        deadline = time.monotonic() + 120  # the engine's start-up is not part of the budget
        while app.running and not app.engine_ready() and time.monotonic() < deadline:
            app.step([])
            clock.tick(60)
        if app.running and not app.engine_ready():
            raise RuntimeError(app.engine_problem() or "the engine did not start")
        app.new_game()
        start = time.monotonic()
        thinking = 0
        while app.running and time.monotonic() - start < seconds:  # SIGTERM / a closed window end it
            t0, c0 = time.perf_counter(), time.thread_time()
            app.step()
            pygame.display.flip()
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            its = app.bot_iterations()
            if its is not None:
                thinking += 1
                iterations = max(iterations, its)
            clock.tick(60)
        elapsed = time.monotonic() - start
        moves = app.moves_played()
    finally:
        game_app.shutdown(app)
    times.sort()
    cpu.sort()
    return {
        "frames": len(times), "seconds": elapsed, "fps": len(times) / elapsed if elapsed else 0.0,
        "p50_ms": statistics.median(times), "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": times[-1], "cpu_p50_ms": statistics.median(cpu),
        "cpu_p99_ms": cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))],
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
        "iterations": iterations, "thinking_share": thinking / max(1, len(times)), "moves": moves,
    }


def run_bench(seconds: float, window: bool, size_text: str) -> int:
    try:
        w, h = (int(v) for v in size_text.lower().split("x"))
        r = measure(seconds, window, (w, h))
    except Exception as exc:
        print(f"frame_time: error: {str(exc).splitlines()[0] if str(exc) else exc!r}", file=sys.stderr)
        return 1
    print(f"frame time while the engine thinks {seconds:g} s ({w}x{h}, "
          f"{'window' if window else 'headless'}): {r['frames']} frames in {r['seconds']:.1f} s "
          f"({r['fps']:.1f} fps), wall p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, max {r['max_ms']:.2f} ms; "
          f"UI-thread CPU p50 {r['cpu_p50_ms']:.2f} ms, p99 {r['cpu_p99_ms']:.2f} ms; load average {r['load']:.1f}; "
          f"engine searching in {r['thinking_share'] * 100:.0f}% of frames, {r['moves']} moves, "
          f"up to {r['iterations']:,} iterations per search")
    return 0
