"""First bot move of every game family on a fresh HOME, for any ``connect4`` command (figures, no thresholds).

    .venv/bin/python tools/measure_first_moves.py /tmp/v/bin/connect4 [--time-ms 200] [--games connect4,gomoku]

What ``tools/measure_cold_start.py`` measures for a source checkout and the bundle, for an installed
command (``pip install`` of the wheel, with or without its compiled kernels) and for each game: the clock
starts when ``COMMAND engine`` is launched with a fresh HOME (an empty user cache) and the position and a
timed search are sent at once; it stops at the ``bestmove`` line. A second run on the same HOME is the
warm figure. The command's ``--version`` line says how its kernels run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = ("connect4", "gomoku", "uttt", "tictactoe")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure_cold_start import first_move_s, fresh_env  # noqa: E402


def kernels_line(command: list[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="connect4-first-move-") as tmp:
        done = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, env=fresh_env(Path(tmp)), timeout=120
        )
    lines = [line for line in done.stdout.splitlines() if line.startswith("search kernels:")]
    return lines[0] if lines else f"(no kernels line; exit code {done.returncode})"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="measure_first_moves", description=__doc__.splitlines()[0])
    parser.add_argument("command", help="the connect4 command to measure (an installed one, a bundle)")
    parser.add_argument("--time-ms", type=int, default=200, help="the search's think time (default 200)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated (default {','.join(GAMES)})")
    args = parser.parse_args(argv)
    given = Path(args.command)
    command = [str(given.resolve()) if given.exists() else args.command]  # (the runs start in their HOME)
    print(f"{args.command}: {kernels_line(command)}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; search {args.time_ms} ms")
    for game in args.games.split(","):
        with tempfile.TemporaryDirectory(prefix="connect4-first-move-") as tmp:
            cold = first_move_s(command, Path(tmp), args.time_ms, exact=False, game=game)[1]
            warm = first_move_s(command, Path(tmp), args.time_ms, exact=False, game=game)[1]
        print(f"{game}: first bot move {cold:.2f} s on a fresh HOME, {warm:.2f} s on the same HOME again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
