"""Drive a ``pbrain-`` executable as a Gomocup manager does (a smoke test of the bundle's Gomoku engine).

    .venv/bin/python tools/pbrain_smoke.py dist/connect4/pbrain-mcts [--turn-ms 500]

Starts it without arguments in a fresh HOME (the first start of a user's copy), sends ``START 15``,
``INFO timeout_turn``, ``BEGIN``, ``TURN x,y`` until the game ends or 20 moves, then ``END``, each
answer awaited with a manager's timeout. Prints the seconds to ``OK`` (a long one means the bundle
compiled its search code instead of using the code it ships) and the slowest move against
``timeout_turn``; exits 1 if an answer is missing, late, malformed or illegal, or END does not end it.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai.benchmarks.piskvork_manager import Brain, five_in_a_row, parse_xy  # noqa: E402

START_TIMEOUT_S = 60.0  # Gomocup gives a brain's first start a few seconds; this only catches a hang
MOVES = 20


def drive(brain: Brain, turn_ms: int) -> str:
    """The whole exchange; raises AssertionError / queue.Empty on a wrong or missing answer."""
    reply, start_s = brain.ask("START 15", timeout=START_TIMEOUT_S)
    assert reply == "OK", f"START 15 answered {reply!r}"
    print(f"pbrain: START 15 -> OK in {start_s:.2f} s")
    brain.send(f"INFO timeout_turn {turn_ms}", "INFO timeout_match 180000", "INFO time_left 180000", "INFO rule 0")
    ours: set[tuple[int, int]] = set()
    theirs: set[tuple[int, int]] = set()
    slowest = 0.0
    reply, seconds = brain.ask("BEGIN", timeout=turn_ms / 1000 * 3 + 5)
    for ply in range(MOVES):
        move = parse_xy(reply)
        assert move not in ours | theirs and all(0 <= v < 15 for v in move), f"illegal move {reply!r}"
        slowest = max(slowest, seconds)
        ours.add(move)
        if five_in_a_row(ours, move):
            break
        # the manager's side: the first free cell of a scattered walk (deterministic, no five in 20 moves)
        cell = next(c for c in ((x, (x * 7 + ply) % 15) for x in range(15)) if c not in ours | theirs)
        theirs.add(cell)
        reply, seconds = brain.ask(f"TURN {cell[0]},{cell[1]}", timeout=turn_ms / 1000 * 3 + 5)
    assert brain.proc.stdin is not None
    brain.send("END")
    code = brain.proc.wait(timeout=10)
    assert code == 0, f"END: exit status {code}"
    return (
        f"pbrain: {len(ours)} moves, slowest {slowest * 1000:.0f} ms of timeout_turn {turn_ms} ms "
        f"({slowest * 1000 / turn_ms:.0%}); END -> exit 0"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbrain_smoke", description=__doc__.splitlines()[0])
    parser.add_argument("exe", type=Path, help="the pbrain- executable")
    parser.add_argument("--turn-ms", type=int, default=500, help="INFO timeout_turn (default 500)")
    args = parser.parse_args(argv)
    if not args.exe.name.lower().startswith("pbrain-"):
        print(f"pbrain_smoke: {args.exe.name} is not named pbrain-*: managers would not run it", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="pbrain-home-") as home:
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))
        env.pop("NUMBA_CACHE_DIR", None)
        brain = Brain([str(args.exe.resolve())], env=env)
        try:
            print(drive(brain, args.turn_ms))
            return 0
        except (AssertionError, ValueError, queue.Empty, OSError) as exc:
            print(f"pbrain_smoke: {type(exc).__name__}: {exc or 'no answer in time'}", file=sys.stderr)
            return 1
        finally:
            if brain.proc.poll() is None:
                brain.proc.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
