"""Time to know every column's exact score, per ply, on positions sampled at each ply.

    python -m ai.benchmarks.exact_per_ply [--plies 0-12] [--per-ply 10] [--seed 1] [--cap-ms 10000]
                                          [--lines random|perfect] [--threads N] [--no-book]

Positions: ``--per-ply`` games per ply from the empty board (``random``: uniformly random moves that do not
end the game; ``perfect``: one side, alternating per sample, plays the book's best move where the book
knows it, the other side random -- the lines Perfect and an analysing player meet). Each position is
analysed from a cleared table by the solver (book on unless ``--no-book``), as the ``solve`` command
does, with ``--cap-ms`` as its limit, its columns split over ``--threads`` threads (default: every core, as
``solve``). Prints per ply: median, mean and max milliseconds, how many finished within 1 s, and how many
were answered from the book alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from ai.solver.core import Solver, default_threads, warm_up
from ai.vocab.opening_book import load
from game.rules import get_game
from game.rules.connect4 import Connect4Position, as_connect4_spec


def sample(ply: int, rnd: random.Random, perfect_side: int | None) -> Connect4Position | None:
    """A position after ``ply`` moves that is not over (None if the game ended first)."""
    book = load()
    spec = as_connect4_spec(get_game("connect4"))
    assert spec is not None
    position = spec.start()
    while position.ply < ply:
        moves = [c for c in position.legal_moves() if not position.play(c).outcome.is_over]
        if not moves:
            return None
        entry = book.entry(position) if perfect_side == position.ply % 2 else None
        position = position.play(entry.move if entry is not None and entry.move in moves else rnd.choice(moves))
    return position


def parse_plies(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(p) for p in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.exact_per_ply", description=__doc__.split("\n")[0])
    parser.add_argument("--plies", default="0-12", help="a range (0-12) or a list (4,8,12)")
    parser.add_argument("--per-ply", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap-ms", type=float, default=10_000.0, help="give up on a position after this long")
    parser.add_argument("--lines", choices=("random", "perfect"), default="random")
    parser.add_argument("--threads", type=int, default=default_threads(), help="column threads (default: every core)")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--no-book", action="store_true", help="the solver alone")
    args = parser.parse_args(argv)
    warm_up()
    solver = Solver(tt_bits=args.tt_bits, use_book=not args.no_book, threads=args.threads)
    book = load()
    print(
        f"book: {len(book)} exact entries to ply {book.max_ply}{' (not used)' if args.no_book else ''}; "
        f"lines: {args.lines}; cap {args.cap_ms:.0f} ms; {args.threads} thread(s)"
    )
    print(
        f"{'ply':>3} {'n':>3} {'median ms':>10} {'mean ms':>10} {'max ms':>10} {'<=1 s':>6} {'book':>5} {'unsolved':>8}"
    )
    rnd = random.Random(args.seed)
    all_within = 0
    total = 0
    slow: list[str] = []  # the positions over 1 s, with their time
    for ply in parse_plies(args.plies):
        times: list[float] = []
        from_book = unsolved = 0
        for i in range(args.per_ply):
            position = None
            while position is None:
                position = sample(ply, rnd, i % 2 if args.lines == "perfect" else None)
            solver.clear()
            result = solver.analyze_columns(position, time_ms=args.cap_ms)
            times.append(result.elapsed_ms if result.complete else float("inf"))
            if times[-1] > 1000.0:
                slow.append(
                    f"{position.to_text()} ({times[-1] / 1000:.2f} s)"
                    if result.complete
                    else f"{position.to_text()} (over the cap)"
                )
            unsolved += not result.complete
            from_book += result.complete and result.nodes == 0
        done = [t for t in times if t != float("inf")]
        within = sum(t <= 1000.0 for t in times)
        all_within += within
        total += len(times)
        mean = f"{statistics.fmean(done):10.1f}" if done else f"{'-':>10}"
        worst = "  > cap" if unsolved else f"{max(done):10.1f}"
        print(
            f"{ply:>3} {len(times):>3} {statistics.median(times):10.1f} {mean} {worst:>10} {within:>6} "
            f"{from_book:>5} {unsolved:>8}",
            flush=True,
        )
    print(f"all columns within 1 s: {all_within}/{total}")
    if slow:
        print(f"over 1 s: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
