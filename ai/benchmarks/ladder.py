"""The difficulty ladder: each level's error rate against the solver and its score against its neighbours.

    python -m ai.benchmarks.ladder FILE [--positions 60] [--games 4] [--levels random,easy,medium,hard,perfect]
                                        [--pairs random-easy,easy-medium] [--seed 1]

FILE is ``move_quality_public.jsonl`` (positions from real games with every column's exact score). A
level's **error rate** is the share of its moves, on the first ``--positions`` positions where the choice
matters, that drop the game value (a column outside ``value_preserving_cols``); Random's is its expected
rate. **Neighbour scores**: ``--games`` games per pair (colours alternate, each game from a seeded random
2-ply opening), points for the stronger level (win 1, draw 1/2). Levels mirror the app's (game/ui/players.py):
budget per move and whether the engine's exact solver and book may choose the move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from typing import Any

from ai.benchmarks.move_quality import evaluate
from ai.hybrid import HybridSearcher
from ai.mcts.search import DEFAULT_C
from game import get_game


@dataclass(frozen=True)
class Level:
    name: str
    time_ms: float | None  # None: uniformly random moves
    exact: bool = False


LEVELS = {level.name: level for level in (
    Level("random", None), Level("easy", 100), Level("medium", 1000), Level("hard", 5000),
    Level("perfect", 5000, exact=True),
)}


def error_rate(level: Level, lines: list[dict[str, Any]], seed: int) -> float:
    matters = [item for item in lines if item["value_choice_matters"]]
    if level.time_ms is None:
        rates = [1 - len(item["value_preserving_cols"]) / sum(s is not None for s in item["scores"])
                 for item in matters]
        return 100.0 * sum(rates) / len(rates)
    score = evaluate(matters, time_ms=level.time_ms, iterations=None, seed=seed, threads=1, exploration=DEFAULT_C,
                     playout=None, verbose=False, exact=level.exact)
    return 100.0 - score.preserve_pct


def play(strong: Level, weak: Level, strong_first: bool, seed: int) -> tuple[float, str]:
    """One game from a random 2-ply opening: the stronger level's points and the moves."""
    spec = get_game("connect4")
    rnd = random.Random(seed)
    position = spec.start()
    for _ in range(2):
        position = position.play(rnd.choice(position.legal_moves()))
    searchers = {lv.name: HybridSearcher(spec, seed=seed) for lv in (strong, weak) if lv.time_ms is not None}
    sides = (strong, weak) if strong_first else (weak, strong)
    while not position.outcome.is_over:
        level = sides[position.ply % 2]
        if level.time_ms is None:
            move = rnd.choice(position.legal_moves())
        else:
            searcher = searchers[level.name]
            searcher.set_position(position)
            move = searcher.search(time_ms=level.time_ms, exact=level.exact).best_move
        position = position.play(move)
    for searcher in searchers.values():
        searcher.close()
    winner = position.outcome.winner
    points = 0.5 if winner is None else 1.0 if (winner == 0) == strong_first else 0.0
    return points, position.to_text()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--pairs", default="random-easy,easy-medium,medium-hard,hard-perfect")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as fh:
            lines = [json.loads(line) for line in fh if line.strip()]
        levels = [LEVELS[name] for name in args.levels.split(",") if name]
        pairs = [tuple(LEVELS[n] for n in pair.split("-")) for pair in args.pairs.split(",") if pair]
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sample = [item for item in lines if item["value_choice_matters"]][: args.positions]
    print(f"error rate on {len(sample)} positions where the choice matters (moves that drop the game value):")
    for level in levels:
        budget = "random" if level.time_ms is None else f"{level.time_ms:g} ms{' + exact' if level.exact else ''}"
        print(f"  {level.name:<8} {budget:<18} {error_rate(level, sample, args.seed):5.1f}%", flush=True)
    print(f"neighbouring levels, {args.games} games each (points of the stronger, colours alternate):")
    for weak, strong in pairs:
        points = 0.0
        for g in range(args.games):
            got, moves = play(strong, weak, g % 2 == 0, args.seed + g)
            points += got
            print(f"    {strong.name} {'first' if g % 2 == 0 else 'second'}: {got:g}  {moves}", flush=True)
        print(f"  {strong.name} vs {weak.name}: {points:g}/{args.games}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
