"""Prove a random sample of opening-book entries again with the solver alone and print the agreement.

    python -m ai.benchmarks.verify_book [--sample 100] [--seed 1] [--max-seconds 120] [--tt-bits 24] [--ply N]

Each sampled entry's position is solved by a solver that does not read the book (exact score, Pons'
convention) and compared with the book's score. Entries not proved within ``--max-seconds`` are
counted as unverified. Exit status 1 if an entry is wrong or unverified.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ai.solver.core import Solver
from ai.vocab.opening_book import book_lines, load
from game.rules.connect4 import Connect4Spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.verify_book", description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=100, help="entries to prove (all if larger than the book)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=120.0, help="give up on an entry after this long")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--ply", type=int, default=None, help="sample only the entries of this ply")
    args = parser.parse_args(argv)
    book = load()
    lines = book_lines(book)
    print(f"book: {len(book)} entries to ply {book.max_ply}, {len(lines)} found by walking from the start")
    keys = sorted(lines)
    pool = [k for k in keys if args.ply is None or len(lines[k]) == args.ply]
    sample = sorted(
        random.Random(args.seed).sample(pool, min(args.sample, len(pool))), key=lambda k: (-len(lines[k]), lines[k])
    )  # deep first: warms the table
    solver = Solver(tt_bits=args.tt_bits, use_book=False)
    agree = wrong = unknown = 0
    started_all = time.perf_counter()
    spec = Connect4Spec()
    for key in sample:
        position = spec.parse_position(lines[key])
        started = time.perf_counter()
        result = solver.solve(position, time_ms=args.max_seconds * 1000)
        expected = book.score(position)
        verdict = "unverified" if result.score is None else "ok" if result.score == expected else "WRONG"
        agree += verdict == "ok"
        wrong += verdict == "WRONG"
        unknown += verdict == "unverified"
        print(
            f"{position.to_text():>12}: book {expected:+d}, solver {result.score}: {verdict} "
            f"({time.perf_counter() - started:.2f} s)",
            flush=True,
        )
    print(
        f"agreement: {agree}/{len(sample)} proved equal, {wrong} wrong, {unknown} unverified "
        f"({time.perf_counter() - started_all:.0f} s)"
    )
    return 1 if wrong or unknown or len(keys) != len(book) else 0


if __name__ == "__main__":
    sys.exit(main())
