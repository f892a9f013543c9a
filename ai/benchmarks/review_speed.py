"""How long an exact review of a whole Connect 4 game takes, and how soon its first marks come.

    python -m ai.benchmarks.review_speed [--games ai/benchmarks/data/review_games.jsonl] [--threads N]
                                         [--limit K] [--shown last|none]

For each recorded game (``python -m ai.benchmarks.review_games`` made them: games between the levels and
42-ply draws of best play) a review as the app runs it (``ai.search.review.iter_exact``: the book's positions, then
the shown position, then the rest from the end backwards) with a fresh solver (an empty table: no game helps
the next). Prints per game: plies, positions the solver scored, the time to the first result (first mark),
to the shown position's result and to the last one, and the slowest position. First the cold first mark (the
book read from disk, nothing loaded), then the one-off loads of the solver (its compiled code, the book's arrays
for its search), done before the games' clocks start: a process pays them once, the app before a game ends.
Figures depend on the machine's load: run it idle for the performance target (<= 3 s a game, first marks
<= 0.5 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from ai.search.review import iter_exact
from game.rules import get_game

DEFAULT_GAMES = Path(__file__).parent / "data" / "review_games.jsonl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--threads", type=int, default=None, help="solver threads (default: every core, at most 7)")
    parser.add_argument("--limit", type=int, default=None, help="review only the first K games")
    parser.add_argument("--shown", choices=("last", "none"), default="last", help="the shown position (app: last)")
    args = parser.parse_args(argv)
    try:
        games = [json.loads(line) for line in args.games.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.games}: {exc}", file=sys.stderr)
        return 2
    games = games[: args.limit] if args.limit else games
    spec = get_game("connect4")
    start = time.perf_counter()
    cold = next(iter_exact(spec, spec.parse_moves(games[0]["moves"])))  # loads the book: nothing loaded yet
    print(f"cold first mark (book load included, ply {cold.ply}): {(time.perf_counter() - start) * 1000:.0f} ms")
    from ai.solver.core import Solver, default_threads, warm_up
    from ai.vocab.opening_book import load

    start = time.perf_counter()
    warm_up()
    print(f"load of the solver's compiled code: {(time.perf_counter() - start) * 1000:.0f} ms")
    start = time.perf_counter()
    load().kernel_arrays  # noqa: B018 - the book's sorted arrays for the solver, made once per process
    print(f"the book's arrays for the solver: {(time.perf_counter() - start) * 1000:.0f} ms")
    threads = default_threads() if args.threads is None else args.threads
    totals, firsts = [], []
    print(f"{'game':<18} {'plies':>5} {'solved':>6} {'first ms':>8} {'shown ms':>8} {'total ms':>8} {'max pos':>7}")
    for game in games:
        moves = spec.parse_moves(game["moves"])
        shown = len(moves) - 1 if args.shown == "last" else None
        solver = Solver(threads=threads)
        start = time.perf_counter()
        first = shown_at = None
        solved, slowest = 0, 0.0
        for result in iter_exact(spec, moves, shown=shown, solver=solver):
            now = (time.perf_counter() - start) * 1000.0
            first = now if first is None else first
            if result.ply == shown:
                shown_at = now
            if result.source != "book":
                solved += 1
                slowest = max(slowest, result.elapsed_ms)
        total = (time.perf_counter() - start) * 1000.0
        totals.append(total)
        firsts.append(first or 0.0)
        name = f"{game.get('first', '?')}-{game.get('second', '?')}"[:18]
        shown_text = "-" if shown_at is None else f"{shown_at:.0f}"
        print(
            f"{name:<18} {len(moves):>5} {solved:>6} {first or 0:>8.0f} {shown_text:>8} {total:>8.0f} {slowest:>7.0f}"
        )
    if totals:
        print(
            f"{len(totals)} games: total per game median {statistics.median(totals):.0f} ms, max {max(totals):.0f} ms;"
            f" first mark median {statistics.median(firsts):.1f} ms, max {max(firsts):.1f} ms; threads {threads}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
