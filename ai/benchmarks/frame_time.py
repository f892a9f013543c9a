"""Frame-time benchmark of the desktop app while the engine thinks (prints p50/p99; target p99 < 20 ms).

``python -m ai.benchmarks.frame_time [--seconds 5] [--window] [--size 1280x800]``

It runs ``main.py --frame-bench`` in a subprocess: the measuring code lives in the app
(``game/ui/frame_bench.py``), so nothing under ``ai`` imports the UI or pygame.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2] / "main.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.frame_time", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="engine budget per move and measuring time")
    parser.add_argument("--window", action="store_true", help="a real window (needs a display) instead of headless")
    parser.add_argument("--size", default="1280x800", help="window size WxH")
    args = parser.parse_args(argv)
    command = [sys.executable, str(MAIN), "--frame-bench", str(args.seconds), "--size", args.size]
    if args.window:
        command.append("--bench-window")
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())
