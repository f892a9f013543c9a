"""Ship compiled search code in a built bundle, so its first start on a user's machine compiles nothing.

    .venv/bin/python tools/prime_bundle_cache.py [EXE]      (default dist/connect4/connect4)

Runs the bundle's engine once with its numba cache inside the bundle (``<bundle>/numba_cache``):
one short search of every game and one Connect 4 solve. The frozen app compiles for a portable CPU
(``NUMBA_CPU_NAME=generic``, set by its runtime hook), so the cached code is accepted on any machine
of the same architecture; at its first start the app copies it into the user's cache
(tools/pyinstaller/frozen_numba_cache.py). Prints what it compiled and how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_CACHE = "numba_cache"  # frozen_numba_cache.SHIPPED_CACHE
# one game of each search kernel (m,n,k boards of every size share one compiled kernel)
GAMES = ("connect4", "tictactoe", "gomoku", "uttt")
TIMEOUT_S = 600


def bundle_data_dir(exe: Path) -> Path:
    """Where PyInstaller's onedir build keeps its data (``sys._MEIPASS``)."""
    internal = exe.parent / "_internal"
    return internal if internal.is_dir() else exe.parent


def _read_until(proc: subprocess.Popen[str], kinds: set[str], deadline: float) -> dict[str, object]:
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine exited (code {proc.poll()})")
        message = json.loads(line)
        if message.get("type") in kinds:
            result: dict[str, object] = message
            return result
        if message.get("type") == "error":
            raise RuntimeError(f"engine error: {message.get('message')}")
    raise RuntimeError(f"no {sorted(kinds)} within {TIMEOUT_S} s")


def prime(exe: Path) -> int:
    cache = bundle_data_dir(exe) / SHIPPED_CACHE
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_CPU_NAME", None)  # the bundle's runtime hook chooses the portable target
    started = time.monotonic()
    deadline = started + TIMEOUT_S
    proc = subprocess.Popen(
        [str(exe), "engine", "--threads", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdin is not None
    try:
        _read_until(proc, {"ready"}, deadline)
        for search_id, game in enumerate(GAMES, start=1):
            proc.stdin.write(json.dumps({"cmd": "position", "game": game, "moves": ""}) + "\n")
            proc.stdin.write(json.dumps({"cmd": "go", "iterations": 2000, "id": search_id}) + "\n")
            proc.stdin.flush()
            _read_until(proc, {"bestmove"}, deadline)
            print(f"prime: {game} searched ({time.monotonic() - started:.1f} s)")
        # a position outside the opening book, so the solver searches (and compiles) rather than looks it up
        proc.stdin.write(json.dumps({"cmd": "position", "game": "connect4", "moves": "4453"}) + "\n")
        proc.stdin.write(json.dumps({"cmd": "solve", "time_ms": 200, "id": 0}) + "\n")
        proc.stdin.flush()
        _read_until(proc, {"solution"}, deadline)
        proc.stdin.write('{"cmd": "quit"}\n')
        proc.stdin.flush()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    files = sum(1 for _ in cache.rglob("*.nbc"))
    size = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) / 1e6
    print(f"prime: {files} compiled objects, {size:.1f} MB in {cache} ({time.monotonic() - started:.1f} s)")
    return 0 if files else 1


def main(argv: list[str]) -> int:
    exe = (Path(argv[0]) if argv else ROOT / "dist" / "connect4" / "connect4").resolve()
    if not exe.exists():
        print(f"prime_bundle_cache: {exe} does not exist; build it first (see README)", file=sys.stderr)
        return 2
    try:
        return prime(exe)
    except (RuntimeError, ValueError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"prime_bundle_cache: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
