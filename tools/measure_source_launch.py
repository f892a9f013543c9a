"""A source checkout's first launches: the JIT first, the kernels built in the background, then compiled.

    .venv/bin/python tools/measure_source_launch.py [--timeout 900]

Clones this checkout's HEAD into a temporary folder (nothing built there yet) and, with a fresh HOME,
starts its engine as the app does and waits until it reports the compiled kernels built (it prepares
every game under numba's JIT first, then builds them at the lowest priority). Then, with another fresh
HOME, times each game's first bot move (launch to ``bestmove`` of a 200 ms search) and prints how the
kernels ran. Figures only; exits 1 if the build is not reported or the second start does not run compiled.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from measure_bundle import GAMES, first_move_s  # noqa: E402
from measure_cold_start import fresh_env  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="measure_source_launch", description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the build")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="connect4-source-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True, timeout=120)
        launcher = Path(tmp) / "connect4"
        launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{clone / "main.py"}" "$@"\n', encoding="utf-8")
        launcher.chmod(0o755)
        err_path = Path(tmp) / "engine.err"
        start = time.monotonic()
        with open(err_path, "w", encoding="utf-8") as err:
            env = fresh_env(Path(tmp) / "home-first")
            proc = subprocess.Popen(
                [str(launcher), "engine"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env=env,
                cwd=tmp,
            )
            while time.monotonic() - start < args.timeout and "compiled kernels " not in err_path.read_text():
                time.sleep(1)
            assert proc.stdin is not None
            proc.stdin.write(b'{"cmd": "quit"}\n')
            proc.stdin.close()
            proc.wait(timeout=60)
        notes = [line for line in err_path.read_text().splitlines() if line.startswith("note:")]
        print(f"first launch (fresh clone, fresh HOME): kernels reported after {time.monotonic() - start:.0f} s")
        print("\n".join(notes))
        if not any(line.startswith("note: compiled kernels built") for line in notes):
            return 1
        env = fresh_env(Path(tmp) / "home-second")
        version = subprocess.run([str(launcher), "--version"], capture_output=True, text=True, env=env, cwd=tmp)
        print(version.stdout.strip())
        if "compiled ahead of time" not in version.stdout:
            return 1
        moves = ", ".join(f"{game} {first_move_s(launcher, env, tmp, game):.2f} s" for game in GAMES)
        print(f"next start from source, fresh HOME, first bot move (launch to bestmove, 200 ms search): {moves}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
