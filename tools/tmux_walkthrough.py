"""Play ``main.py play --text`` in tmux as a person would: read the screen, type at the prompt.

``python tools/tmux_walkthrough.py --size 80x24 --moves 4,3,5 -- python main.py play --text --new``
types the moves in turn (``--moves hint`` types the cell the prompt suggests), keeps screens
(the first moves, every fifth, the bot's progress bar, the end) in ``--out`` and prints a summary.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import subprocess
import time

END_MARKS = ("wins after", "Draw after", "You win", "You lose", "Draw (")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--session", default="walkthrough")
    parser.add_argument("--size", default="80x24", help="terminal WIDTHxHEIGHT")
    parser.add_argument("--moves", default="hint", help="comma-separated moves typed in turn, or 'hint'")
    parser.add_argument("--out", default="walkthrough.txt", help="file for the kept screens")
    parser.add_argument("--timeout-s", type=float, default=240.0)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run (after --)")
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"]
    width, height = args.size.split("x")
    tmux("kill-session", "-t", args.session)
    # the tmux server keeps its own environment: pass the config dir explicitly (tests never touch the real one)
    env = [f"{k}={os.environ[k]}" for k in ("CONNECT4_CONFIG_DIR", "TERM") if k in os.environ]
    env_args = [a for pair in env for a in ("-e", pair)]
    tmux(
        "new-session",
        "-d",
        "-s",
        args.session,
        *env_args,
        "-x",
        width,
        "-y",
        height,
        shlex.join(command) + "; sleep 60",
    )
    moves = args.moves.split(",")
    cycle = itertools.cycle(moves)
    shots: list[tuple[str, str]] = []
    typed, progress_seen, start = 0, False, time.monotonic()
    while time.monotonic() - start < args.timeout_s:
        time.sleep(0.25)
        screen = tmux("capture-pane", "-p", "-t", args.session)
        if "thinking" in screen and not progress_seen:
            shots.append(("bot thinking", screen))
            progress_seen = True
        if any(mark in screen for mark in END_MARKS):
            shots.append(("end", screen))
            break
        lines = [line for line in screen.splitlines() if line.strip()]
        if lines and lines[-1].rstrip().endswith(":") and "to move" in lines[-1]:
            hint = re.search(r"a cell like (\w+)", lines[-1])
            move = hint[1] if hint and moves == ["hint"] else next(cycle)
            typed += 1
            if typed <= 2 or typed % 5 == 0:
                shots.append((f"before move {typed}", screen))
            tmux("send-keys", "-t", args.session, "-l", move)
            tmux("send-keys", "-t", args.session, "Enter")
            time.sleep(0.3)
    tmux("kill-session", "-t", args.session)
    with open(args.out, "w", encoding="utf-8") as fh:
        for name, screen in shots:
            fh.write(f"===== {name} =====\n{screen}\n")
    ended = shots[-1][0] == "end" if shots else False
    print(f"typed {typed} lines; bot progress seen: {progress_seen}; game ended: {ended}; screens in {args.out}")
    return 0 if ended else 1


if __name__ == "__main__":
    raise SystemExit(main())
