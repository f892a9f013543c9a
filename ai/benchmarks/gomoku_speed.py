"""Speed of the Gomoku search: nodes (alpha-beta) or iterations (MCTS) per second and depth, on the
positions of a self-play game from each of the first openings of a ``piskvork_match`` book (``--book``).
The nominal depth is the number of depths the iterative deepening completed (its ``on_info`` reports);
``--depths`` prints, for each position, every completed depth's time, nodes and score (1,600 to the logit).

    python -m ai.benchmarks.gomoku_speed --time-ms 200 --openings 2 --plies 12 [--depths]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

from ai.benchmarks.piskvork_match import BOOKS, SIZE
from ai.mcts import Searcher
from ai.mcts.gomoku_search import SCALE
from ai.vocab.results import SearchResult
from game.rules.registry import get_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.gomoku_speed", description=__doc__)
    parser.add_argument("--time-ms", type=float, default=200.0)
    parser.add_argument("--openings", type=int, default=2, help="openings played (one game each)")
    parser.add_argument("--plies", type=int, default=12, help="searched positions per game")
    parser.add_argument("--book", choices=sorted(BOOKS), default="balanced", help="piskvork_match's opening set")
    parser.add_argument("--depths", action="store_true", help="print each completed depth of each search")
    args = parser.parse_args(argv)
    openings = BOOKS[args.book]
    if args.time_ms <= 0 or not 1 <= args.openings <= len(openings) or args.plies < 1:
        print("error: --time-ms > 0, --openings 1..12 and --plies >= 1", file=sys.stderr)
        return 2
    spec = get_game("gomoku")
    searcher = Searcher(spec, seed=1, threads=1)
    searcher.warm_up()
    rates: list[float] = []
    depths: list[int] = []
    nominal: list[int] = []
    for opening in openings[: args.openings]:
        pos = spec.start()
        for x, y in opening:
            pos = pos.play(y * SIZE + x)
        for _ in range(args.plies):
            if pos.outcome.is_over:
                break
            searcher.set_position(pos)
            reports: list[SearchResult] = []
            result = searcher.search(time_ms=args.time_ms, on_info=reports.append)
            if result.elapsed_ms >= args.time_ms * 0.5:  # forced moves and proofs end early: not a rate
                rates.append(result.iterations / result.elapsed_ms * 1000)
                depths.append(result.max_depth)
                nominal.append(len(reports))
                if args.depths:
                    steps = ", ".join(f"{r.elapsed_ms:.0f} ms {r.iterations:,} {_score(r.value)}" for r in reports)
                    print(f"ply {len(pos.history)}: {steps}")
            pos = pos.play(result.best_move)
    searcher.close()
    if not rates:
        print("no search used half of its time")
        return 1
    print(
        f"{len(rates)} searches of {args.time_ms:.0f} ms: {statistics.mean(rates):,.0f} nodes/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}); deepest ply mean {statistics.mean(depths):.1f}, "
        f"nominal depth mean {statistics.mean(nominal):.1f} (min {min(nominal)}, max {max(nominal)})"
    )
    return 0


def _score(value: float) -> str:
    """The search score behind a win chance (``gomoku_search.SCALE`` to the logit), or the proof."""
    if not 0.0 < value < 1.0:
        return "won" if value >= 1.0 else "lost"
    return f"{SCALE * math.log(value / (1.0 - value)):+.0f}"


if __name__ == "__main__":
    raise SystemExit(main())
