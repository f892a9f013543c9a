"""Measure a built executable: engine ready with a cold and a warm numba cache, and time to the first frame.

    .venv/bin/python tools/measure_bundle.py [EXE]      (default dist/connect4/connect4)

Prints figures (no thresholds); exits 1 only if the engine does not start or runs without numba.
The cold run uses a fresh temporary NUMBA_CACHE_DIR and HOME (the bundle then copies the compiled
code it ships, see tools/prime_bundle_cache.py), the warm runs the same directories again; all
launches run from a neutral working directory.
Launch to first frame: ``EXE --screenshot PNG --screenshot-wait 0`` under the dummy SDL drivers; the
clock stops when the PNG appears, which the app writes right after rendering its first frame.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_RUNS = 3


def engine_ready_s(exe: Path, env: dict[str, str], cwd: str) -> tuple[float, dict[str, object], str]:
    """Seconds from launch to the engine's ready line, the line, and the engine's stderr."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    _, err = proc.communicate(b'{"cmd": "quit"}\n', timeout=60)
    try:
        message = json.loads(line)
    except ValueError:
        message = {"type": "none", "raw": line[:200].decode(errors="replace")}
    return elapsed, message, err.decode(errors="replace")


def first_frame_s(exe: Path, env: dict[str, str], cwd: str, run: int) -> tuple[float, int]:
    shot = Path(cwd) / f"first-frame-{run}.png"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "--screenshot", str(shot), "--screenshot-wait", "0", "--new"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    while not shot.exists() and proc.poll() is None and time.perf_counter() - start < 60:
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    code = proc.wait(timeout=60)
    return elapsed, code


def main(argv: list[str]) -> int:
    exe = (Path(argv[0]) if argv else ROOT / "dist" / "connect4" / "connect4").resolve()
    if not exe.exists():
        print(f"measure_bundle: {exe} does not exist; build it first (see README)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="connect4-measure-") as tmp:
        env = dict(
            os.environ,
            NUMBA_CACHE_DIR=str(Path(tmp) / "numba-cache"),
            HOME=str(Path(tmp) / "home"),
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
        )
        env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
        cold, message, err = engine_ready_s(exe, env, tmp)
        if message.get("type") != "ready":
            print(f"engine did not get ready: {message}\n{err[-2000:]}", file=sys.stderr)
            return 1
        if "numba is not available" in err:
            print(f"the engine runs without numba (plain Python); its stderr:\n{err[-2000:]}", file=sys.stderr)
            return 1
        warm = [engine_ready_s(exe, env, tmp)[0] for _ in range(WARM_RUNS)]
        files = sum(1 for _ in (Path(tmp) / "numba-cache").rglob("*.nbc"))
        startup = message.get("startup_ms")
        print(f"engine ready, cold cache: {cold:.2f} s (startup_ms {startup}), {files} cached objects")
        print(f"engine ready, warm cache: median {statistics.median(warm):.2f} s of {[round(w, 2) for w in warm]}")
        frames = [first_frame_s(exe, env, tmp, run) for run in range(WARM_RUNS)]
        codes = {code for _, code in frames}
        print(
            f"launch to first frame: median {statistics.median(t for t, _ in frames):.2f} s of "
            f"{[round(t, 2) for t, _ in frames]} (exit codes {sorted(codes)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
