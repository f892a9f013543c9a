"""Move-quality benchmark: a fresh search per reference position, scored against exact values.

    python -m ai.benchmarks.move_quality FILE --time-ms 1000 [--limit N] [--threads N] [--no-exact] [--compare]

FILE is ``move_quality_public.jsonl`` (see /work/shared/connect4-positions/README.md). The engine's
searcher (``ai.search.hybrid``: MCTS with the exact solver beside it) is measured; ``--no-exact`` measures
pure MCTS, ``--compare`` both in the same run. Prints the share of ``value_choice_matters``
positions where the chosen column keeps the game value (``value_preserving_cols``), the share of
all positions where it is optimal, the time per move (budget overshoot) and every miss.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from ai.mcts.search import DEFAULT_C
from ai.search.hybrid import HybridSearcher
from game.rules import get_game

LATE_MS = 50  # a move answered more than this after the budget is reported


@dataclass(frozen=True)
class Score:
    positions: int
    matters: int
    preserved: int
    optimal: int
    elapsed_ms: tuple[float, ...] = ()
    exact_count: int = 0

    @property
    def preserve_pct(self) -> float:
        return 100.0 * self.preserved / self.matters if self.matters else 0.0

    @property
    def optimal_pct(self) -> float:
        return 100.0 * self.optimal / self.positions if self.positions else 0.0


def evaluate(
    lines: list[dict[str, Any]],
    *,
    time_ms: float | None,
    iterations: int | None,
    seed: int,
    threads: int,
    exploration: float,
    playout: int | None,
    verbose: bool = True,
    early_stop: bool = True,
    exact: bool = True,
) -> Score:
    spec = get_game("connect4")
    searcher = HybridSearcher(spec, seed=seed, threads=threads, exploration=exploration, playout=playout)
    searcher.warm_up()
    matters = preserved = optimal = exact_count = 0
    elapsed: list[float] = []
    for i, item in enumerate(lines):
        searcher.set_position(spec.start())  # fresh tree: the start is never a prefix match
        searcher.set_position(spec.parse_position(item["moves"]))
        result = searcher.search(time_ms=time_ms, iterations=iterations, early_stop=early_stop, exact=exact)
        elapsed.append(result.elapsed_ms)
        if verbose and time_ms is not None and result.elapsed_ms > time_ms + LATE_MS:
            print(f"late {i + 1}: {item['moves']} answered after {result.elapsed_ms:.0f} ms")
        exact_count += result.exact
        col = result.best_move + 1
        is_optimal = col in item["optimal_cols"]
        optimal += is_optimal
        if item["value_choice_matters"]:
            matters += 1
            kept = col in item["value_preserving_cols"]
            preserved += kept
            if not kept and verbose:
                print(
                    f"miss {i + 1}: {item['moves']} played {col}, value-preserving {item['value_preserving_cols']}, "
                    f"scores {item['scores']}"
                )
        elif not is_optimal and verbose:
            print(f"suboptimal {i + 1}: {item['moves']} played {col}, optimal {item['optimal_cols']}")
    return Score(len(lines), matters, preserved, optimal, tuple(elapsed), exact_count)


def _report(name: str, score: Score, time_ms: float | None) -> None:
    print(
        f"[{name}] value preserved: {score.preserved}/{score.matters} = {score.preserve_pct:.1f}% "
        f"(positions where the choice matters)"
    )
    print(
        f"[{name}] optimal: {score.optimal}/{score.positions} = {score.optimal_pct:.1f}% (all positions); "
        f"exact (proven optimal) moves: {score.exact_count}"
    )
    if score.elapsed_ms:
        ms = sorted(score.elapsed_ms)
        line = (
            f"[{name}] time per move: mean {sum(ms) / len(ms):.0f} ms, median {ms[len(ms) // 2]:.0f} ms, "
            f"max {ms[-1]:.1f} ms"
        )
        if time_ms is not None:
            over = [m - time_ms for m in ms if m > time_ms]
            line += f"; over budget: {len(over)} (max +{max(over, default=0.0):.1f} ms)"
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.move_quality", description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--time-ms", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--exploration", type=float, default=DEFAULT_C)
    parser.add_argument("--playout", type=int, default=None, help="0 random, 1 random + wins/blocks")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--no-early-stop", action="store_true", help="always use the whole time budget")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--no-exact", action="store_true", help="pure MCTS (no solver)")
    mode.add_argument("--compare", action="store_true", help="both: the engine (with the solver) and pure MCTS")
    args = parser.parse_args(argv)
    if args.time_ms is None and args.iterations is None:
        args.time_ms = 1000.0
    try:
        with open(args.file, encoding="utf-8") as fh:
            lines = [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.limit is not None:
        lines = lines[: args.limit]
    modes = (
        [("engine", True), ("pure MCTS", False)]
        if args.compare
        else [("pure MCTS", False) if args.no_exact else ("engine", True)]
    )
    budget = f"{args.time_ms:g} ms" if args.time_ms is not None else f"{args.iterations} iterations"
    scores = []
    for name, exact in modes:
        t0 = time.perf_counter()
        score = evaluate(
            lines,
            time_ms=args.time_ms,
            iterations=args.iterations,
            seed=args.seed,
            threads=args.threads,
            exploration=args.exploration,
            playout=args.playout,
            verbose=not args.quiet,
            early_stop=not args.no_early_stop,
            exact=exact,
        )
        print(
            f"[{name}] budget {budget}{' (no early stop)' if args.no_early_stop else ''}, threads {args.threads}, "
            f"c={args.exploration:g}, positions {score.positions}, wall {time.perf_counter() - t0:.1f} s"
        )
        scores.append((name, score))
    for name, score in scores:
        _report(name, score, args.time_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
