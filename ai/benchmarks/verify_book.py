"""Prove every opening-book entry again with the solver and print the time each took.

    python -m ai.benchmarks.verify_book [--max-seconds S] [--tt-bits B]

For each entry: the weak result (win / draw / loss) of the position and the result after the book
move must agree with the book. Entries that do not finish within ``--max-seconds`` are reported
as unverified (exit status 1), a wrong entry as WRONG (exit status 1).
"""

from __future__ import annotations

import argparse
import sys
import time

from ai.opening_book import BookEntry, entries
from ai.solver import Solver
from game import get_game
from game.connect4 import Connect4Position

NAMES = {1: "win", 0: "draw", -1: "loss"}


def weak_result(solver: Solver, position: Connect4Position, time_ms: float | None) -> int | None:
    """+1 / 0 / -1 for the side to move, None if the time ran out."""
    if position.outcome.is_over:
        return -1 if position.outcome.winner is not None else 0
    found = solver.bounds(position, -1, 1, time_ms=time_ms)
    if found is None:
        return None
    lo, hi = found
    return 1 if lo >= 1 else -1 if hi <= -1 else 0


def check_entry(solver: Solver, moves: str, entry: BookEntry, time_ms: float | None) -> bool | None:
    """True if the entry is proved right, False if wrong, None if the time ran out."""
    position = get_game("connect4").parse_position(moves)
    result = weak_result(solver, position, time_ms)
    if result is None:
        return None
    if result != entry.result:
        return False
    after = weak_result(solver, position.play(entry.move), time_ms)
    return None if after is None else after == -entry.result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="re-prove the opening book with the solver")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="give up on an entry after this long")
    parser.add_argument("--tt-bits", type=int, default=24)
    args = parser.parse_args(argv)
    solver = Solver(tt_bits=args.tt_bits)
    book = entries()
    bad = 0
    for moves, entry in sorted(book.items(), key=lambda kv: (-len(kv[0]), kv[0])):  # deep first: warms the table
        started = time.perf_counter()
        verdict = check_entry(solver, moves, entry, args.max_seconds * 1000)
        label = {True: "ok", False: "WRONG", None: "unverified (time limit)"}[verdict]
        bad += verdict is not True
        print(f"{moves or '(start)':>8}: {NAMES[entry.result]}, play {entry.move + 1}: {label} "
              f"({time.perf_counter() - started:.1f} s)", flush=True)
    print(f"{len(book) - bad}/{len(book)} entries proved")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
