"""Frame times while the engine thinks: the window must keep drawing at 60 fps.

Runs the real app (headless unless ``--window``) in bot-vs-bot mode with a budget of ``seconds``
per move, heatmap and eval bar on, for ``seconds`` of wall time; every frame's work
(events + update + draw + flip) is timed.

``python -m game.ui.frame_bench --ponder SECONDS [--rounds N]``: the human's turn against the Hard bot
(heatmap and eval bar off, so the engine is idle unless it ponders), "Think on your time" off and on
alternately, ``SECONDS`` each, N rounds, in one run: the frame times side by side.

``python -m game.ui.frame_bench --review SECONDS``: frame times while the app reviews a 35-ply game
(Review pressed again each time a review ends), the board shown at 1280x800 with the eval bar on.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import pygame

from game.play.actions import Command
from game.play.players import BotSetting, Mode
from game.play.session import Session
from game.play.settings import Settings
from game.ui import app_run


def measure(seconds: float = 5.0, window: bool = False, size: tuple[int, int] = (1280, 800)) -> dict[str, float]:
    if not window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    budget_ms = int(seconds * 1000)
    settings = Settings(
        mode=Mode.BOT_VS_BOT,
        heatmap=True,
        eval_bar=True,
        sound=False,
        window=size,
        bots=[BotSetting("custom", budget_ms), BotSetting("custom", budget_ms)],
    )
    app = app_run.create_app(settings, Session.from_text("connect4", ""), persist=False)
    clock = pygame.time.Clock()
    times: list[float] = []
    cpu: list[float] = []  # CPU time of the UI thread per frame (excludes time the OS gave to others)
    iterations = 0
    try:
        deadline = time.monotonic() + 120  # the engine's start-up is not part of the budget
        while app.window.running and not app.engine.ready() and time.monotonic() < deadline:
            app.step([])
            clock.tick(60)
        if app.window.running and not app.engine.ready():
            raise RuntimeError(app.engine.problem() or "the engine did not start")
        app.new_game()
        start = time.monotonic()
        thinking = 0
        while app.window.running and time.monotonic() - start < seconds:  # SIGTERM / a closed window end it
            t0, c0 = time.perf_counter(), time.thread_time()
            app.step()
            pygame.display.flip()
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            its = app.turns.bot_iterations()
            if its is not None:
                thinking += 1
                iterations = max(iterations, its)
            clock.tick(60)
        elapsed = time.monotonic() - start
        moves = len(app.session.line)
    finally:
        app_run.shutdown(app)
    times.sort()
    cpu.sort()
    return {
        "frames": len(times),
        "seconds": elapsed,
        "fps": len(times) / elapsed if elapsed else 0.0,
        "p50_ms": statistics.median(times),
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": times[-1],
        "cpu_p50_ms": statistics.median(cpu),
        "cpu_p99_ms": cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))],
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
        "iterations": iterations,
        "thinking_share": thinking / max(1, len(times)),
        "moves": moves,
    }


def measure_human_turn(seconds: float, ponder: bool, size: tuple[int, int] = (1280, 800)) -> dict[str, float]:
    """Frame times on the human's turn against a timed (Custom 3 s) bot with pondering ``ponder`` (headless);
    a timed level, because the fixed-search levels (Beginner to Hard) never ponder."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    settings = Settings(
        mode=Mode.VS_BOT,
        human_player=0,
        heatmap=False,
        eval_bar=False,
        sound=False,
        window=size,
        bots=[BotSetting("custom", 3000), BotSetting("custom", 3000)],
        ponder="on" if ponder else "off",
    )
    app = app_run.create_app(settings, Session.from_text("connect4", "4453"), persist=False)
    clock = pygame.time.Clock()
    times: list[float] = []
    pondering = 0
    try:
        deadline = time.monotonic() + 120
        while app.window.running and not app.engine.ready() and time.monotonic() < deadline:
            app.step([])
            clock.tick(60)
        if not app.engine.ready():
            raise RuntimeError(app.engine.problem() or "the engine did not start")
        start = time.monotonic()
        while app.window.running and time.monotonic() - start < seconds:
            t0 = time.perf_counter()
            app.step()
            pygame.display.flip()
            times.append((time.perf_counter() - t0) * 1000)
            pondering += app.turns.driver.pondering
            if times[-1] > 250:
                print(f"  slow frame {len(times)}: {times[-1]:.0f} ms", file=sys.stderr)
            clock.tick(60)
        elapsed = time.monotonic() - start
        restarts = len(getattr(app.turns.driver.client, "restart_log", ()))
    finally:
        app_run.shutdown(app)
    times.sort()
    return {
        "restarts": restarts,
        "frames": len(times),
        "fps": len(times) / elapsed if elapsed else 0.0,
        "p50_ms": statistics.median(times),
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": times[-1],
        "pondering_share": pondering / max(1, len(times)),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
    }


REVIEW_GAME = "43477344533557455275712431676112636"  # medium vs easy, 35 plies (ai/benchmarks/data)


def measure_review(seconds: float, size: tuple[int, int] = (1280, 800)) -> dict[str, float]:
    """Frame times while reviews run back to back (headless, hot-seat: no bot searches)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    settings = Settings(mode=Mode.HOTSEAT, heatmap=False, eval_bar=True, sound=False, window=size)
    app = app_run.create_app(settings, Session.from_text("connect4", REVIEW_GAME), persist=False)
    clock = pygame.time.Clock()
    times: list[float] = []
    reviews, reviewing = 0, 0
    try:
        app.review.reviewing.start(app.session.spec, ())  # (loads the solver once, as prepare_review does in the app)
        app.review.reviewing.wait(120)
        start = time.monotonic()
        while app.window.running and time.monotonic() - start < seconds:
            if not app.review.reviewing.running:
                app.apply(Command.REVIEW)
                reviews += 1
            t0 = time.perf_counter()
            app.step()
            pygame.display.flip()
            times.append((time.perf_counter() - t0) * 1000)
            reviewing += app.review.reviewing.running
            clock.tick(60)
        elapsed = time.monotonic() - start
    finally:
        app.review.reviewing.stop()
        app_run.shutdown(app)
    times.sort()
    return {
        "frames": len(times),
        "fps": len(times) / elapsed if elapsed else 0.0,
        "p50_ms": statistics.median(times),
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": times[-1],
        "reviews": reviews,
        "reviewing_share": reviewing / max(1, len(times)),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
    }


def compare_ponder(seconds: float, rounds: int) -> int:
    """Pondering off and on alternately (``rounds`` each) in one run; prints both."""
    for r in range(rounds):
        for ponder in (False, True):
            m = measure_human_turn(seconds, ponder)
            print(
                f"round {r + 1}, think on your time {'on ' if ponder else 'off'}: {m['frames']} frames "
                f"({m['fps']:.1f} fps), p50 {m['p50_ms']:.2f} ms, p99 {m['p99_ms']:.2f} ms, max {m['max_ms']:.2f} ms;"
                f" engine pondering in {100 * m['pondering_share']:.0f}% of frames; engine restarts {m['restarts']};"
                f" load {m['load']:.1f}",
                flush=True,
            )
    return 0


def run_bench(seconds: float, window: bool, size_text: str) -> int:
    try:
        w, h = (int(v) for v in size_text.lower().split("x"))
        r = measure(seconds, window, (w, h))
    except Exception as exc:
        print(f"frame_time: error: {str(exc).splitlines()[0] if str(exc) else exc!r}", file=sys.stderr)
        return 1
    print(
        f"frame time while the engine thinks {seconds:g} s ({w}x{h}, "
        f"{'window' if window else 'headless'}): {r['frames']} frames in {r['seconds']:.1f} s "
        f"({r['fps']:.1f} fps), wall p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, max {r['max_ms']:.2f} ms; "
        f"UI-thread CPU p50 {r['cpu_p50_ms']:.2f} ms, p99 {r['cpu_p99_ms']:.2f} ms; load average {r['load']:.1f}; "
        f"engine searching in {r['thinking_share'] * 100:.0f}% of frames, {r['moves']} moves, "
        f"up to {r['iterations']:,} iterations per search"
    )
    return 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m game.ui.frame_bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ponder", type=float, metavar="SECONDS", help="seconds per measurement, pondering off then on"
    )
    parser.add_argument("--review", type=float, metavar="SECONDS", help="frame times while reviews run")
    parser.add_argument("--rounds", type=int, default=2)
    cli = parser.parse_args()
    if cli.review is not None:
        if not 0 < cli.review <= 600:
            parser.error("--review must be in (0, 600] seconds")
        m = measure_review(cli.review)
        print(
            f"frame time while reviewing {cli.review:g} s: {m['frames']} frames ({m['fps']:.1f} fps), "
            f"p50 {m['p50_ms']:.2f} ms, p99 {m['p99_ms']:.2f} ms, max {m['max_ms']:.2f} ms; {m['reviews']} reviews, "
            f"a review running in {100 * m['reviewing_share']:.0f}% of frames; load {m['load']:.1f}"
        )
        raise SystemExit(0)
    if cli.ponder is None:
        parser.error("give --ponder SECONDS or --review SECONDS")
    if not 0 < cli.ponder <= 600 or not 1 <= cli.rounds <= 20:
        parser.error("--ponder must be in (0, 600] seconds and --rounds in 1..20")
    raise SystemExit(compare_ponder(cli.ponder, cli.rounds))
