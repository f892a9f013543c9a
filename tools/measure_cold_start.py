"""Cold-start benchmark: how long a new user waits for the bot's first move (figures, no thresholds).

    .venv/bin/python tools/measure_cold_start.py [--bundle EXE] [--time-ms 1000] [--warm-runs 2] [--exact]

Each "cold" run uses a fresh HOME (so a fresh user cache: numba compiles, or the bundle copies
the compiled code it ships); the "warm" runs reuse that HOME. The clock starts when the engine
process is launched and the position and search are sent at once, as the app does for a bot that
moves first; it stops at the ``bestmove`` line. Source runs use this checkout's ``main.py``; with
``--bundle`` the built executable is measured the same way, and also to its ``ready`` line.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def fresh_env(home: Path) -> dict[str, str]:
    """This environment as a new user would have it: ``home`` as HOME, no numba, XDG or CONNECT4_ settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_", "CONNECT4_"))}
    env.update(HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    home.mkdir(parents=True, exist_ok=True)
    return env


def first_move_s(
    command: list[str], home: Path, time_ms: int, exact: bool, game: str = "connect4"
) -> tuple[float, float, str]:
    """Seconds to the engine's first line and to the bestmove (-1: none came) of a search from ``game``'s start,
    and the move."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=fresh_env(home),
        cwd=home,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"cmd": "position", "game": game, "moves": ""}) + "\n")
    proc.stdin.write(json.dumps({"cmd": "go", "time_ms": time_ms, "id": 1, "exact": exact}) + "\n")
    proc.stdin.flush()
    first_line = move_s = -1.0
    move = "?"
    try:
        for line in proc.stdout:
            if first_line < 0:
                first_line = time.perf_counter() - started
            message = json.loads(line)
            if message.get("type") == "bestmove":
                move_s = time.perf_counter() - started
                move = str(message.get("move"))
                break
            if time.perf_counter() - started > 300:
                break
    finally:
        quit_engine(proc)
    return first_line, move_s, move


def quit_engine(proc: subprocess.Popen[Any]) -> None:
    """Ask the engine to quit and wait; kill it only if it does not. (A killed one-file build leaves the
    folder it unpacked itself into behind in the temp dir: its bootloader cleans up only on a normal exit.)"""
    try:
        if proc.stdin is not None and not proc.stdin.closed:
            line = '{"cmd": "quit"}\n'
            proc.stdin.write(line if isinstance(proc.stdin, io.TextIOBase) else line.encode())
            proc.stdin.close()
        proc.wait(timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait(timeout=30)


def measure(label: str, command: list[str], time_ms: int, warm_runs: int, exact: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="connect4-cold-") as tmp:
        home = Path(tmp)
        first, cold, move = first_move_s(command, home, time_ms, exact)
        print(f"{label}: cold (fresh HOME): first line {first:.2f} s, first bot move {cold:.2f} s (played {move})")
        warm = [first_move_s(command, home, time_ms, exact) for _ in range(warm_runs)]
        print(
            f"{label}: warm: first line median {statistics.median(w[0] for w in warm):.2f} s, first bot move "
            f"median {statistics.median(w[1] for w in warm):.2f} s of {[round(w[1], 2) for w in warm]}"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="measure_cold_start", description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=None, help="also measure this built executable")
    parser.add_argument("--time-ms", type=int, default=1000, help="the bot's think time (default: Medium, 1000)")
    parser.add_argument("--warm-runs", type=int, default=2)
    parser.add_argument(
        "--exact",
        action="store_true",
        help="search with the exact solver (the Perfect level); default: MCTS only (Easy to Hard)",
    )
    args = parser.parse_args(argv)
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; search {args.time_ms} ms, "
        f"{'exact (Perfect)' if args.exact else 'MCTS only (Easy to Hard)'}"
    )
    measure("source", [sys.executable, str(ROOT / "main.py")], args.time_ms, args.warm_runs, args.exact)
    if args.bundle is not None:
        if not args.bundle.exists():
            print(f"measure_cold_start: {args.bundle} does not exist; build it first", file=sys.stderr)
            return 2
        measure("bundle", [str(args.bundle.resolve())], args.time_ms, args.warm_runs, args.exact)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
