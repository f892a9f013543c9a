"""The difficulty ladder: each level's error rate against the exact solver and its score against its neighbours.

    python -m ai.benchmarks.ladder [FILE] [--positions N] [--games 20] [--perfect-ms 1000]
                                   [--levels random,beginner,easy,medium,hard,perfect]
                                   [--pairs random-beginner,beginner-easy,...] [--seed 1]

FILE (default ``ai/benchmarks/data/ladder_positions.jsonl``, built by ``python -m
ai.benchmarks.ladder_positions``) holds positions from games between the levels where the choice
matters, every column solved exactly. A level plays each position as the engine does for a ``go`` with
that level (``ai.benchmarks.level_games``: its capped search, then ``ai.search.levels.choose``). Its **error
rate** is the share of moves that drop the game value (win/draw/loss): ``expected`` from the
probability the level's rule gives each column (what it does on average), ``drawn`` from the moves it
actually picked, with a 95% Wilson interval. **Neighbour scores**: ``--games`` games per pair from the
empty board (colours alternate, a new seed per game; win 1, draw 1/2) for the stronger level, each game
listed. Perfect searches with the solver at ``--perfect-ms`` per move; the capped levels end on their
iteration caps (the same strength on any machine).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from ai.benchmarks.ladder_positions import DEFAULT_OUT
from ai.benchmarks.level_games import RANDOM, LevelPlayer, play_game
from ai.search.levels import LEVELS, Level
from game.rules import get_game

DEFAULT_LEVELS = (RANDOM, *LEVELS)
CAPPED_TIME_MS = 60_000.0  # a capped level's time bound: its cap ends the search first


def wilson(errors: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share (in percent)."""
    if n == 0:
        return 0.0, 100.0
    p = errors / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


def player(name: str, seed: int, perfect_ms: float) -> LevelPlayer:
    lv = LEVELS.get(name)
    return LevelPlayer(name, seed, perfect_ms if lv is not None and lv.iterations is None else CAPPED_TIME_MS)


def error_rates(name: str, items: list[dict[str, Any]], seed: int, perfect_ms: float) -> tuple[float, int, float]:
    """(expected error %, moves drawn that dropped the value, mean ms per move) of a level on ``items``."""
    spec = get_game("connect4")
    bot = player(name, seed, perfect_ms)
    expected = 0.0
    drawn = 0
    started = time.perf_counter()
    try:
        for item in items:
            position = spec.parse_position(item["moves"])
            keep = {c - 1 for c in item["value_preserving_cols"]}
            move, weights = bot.decide(position)
            expected += sum(p for m, p in weights.items() if m not in keep)
            drawn += move not in keep
    finally:
        bot.close()
    return 100.0 * expected / len(items), drawn, (time.perf_counter() - started) * 1000.0 / len(items)


def rule_text(name: str, perfect_ms: float) -> str:
    lv: Level | None = LEVELS.get(name)
    if lv is None:
        return "uniformly random moves"
    if lv.exact:
        return f"exact solver + book, {perfect_ms:g} ms"
    parts = [f"{lv.iterations:,} it", f"T {lv.temperature:g}"]
    if lv.noise:
        parts.append(f"noise {lv.noise:g}")
    if lv.book_plies:
        parts.append(f"book {lv.book_plies} pl")
    return ", ".join(parts)


def match(weak: str, strong: str, games: int, seed: int, perfect_ms: float) -> tuple[float, list[str]]:
    points = 0.0
    lines = []
    wins = draws = losses = 0
    for g in range(games):
        strong_first = g % 2 == 0
        a, b = player(strong, seed + 2 * g, perfect_ms), player(weak, seed + 2 * g + 1, perfect_ms)
        try:
            game = play_game(a, b) if strong_first else play_game(b, a)
        finally:
            a.close()
            b.close()
        if game.winner is None:
            draws += 1
            got = 0.5
        else:
            got = 1.0 if (game.winner == 0) == strong_first else 0.0
            wins += got == 1.0
            losses += got == 0.0
        points += got
        lines.append(f"    {strong} {'first ' if strong_first else 'second'} {got:g}  {game.moves}")
    return points, [*lines, f"  {strong} vs {weak}: {points:g}/{games} (W {wins} D {draws} L {losses})"]


def _plan(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, ...]]]:
    """The positions where the choice matters, the levels and the pairs to play (ValueError when they are wrong)."""
    with open(args.file, encoding="utf-8") as fh:
        items = [json.loads(line) for line in fh if line.strip()]
    items = [item for item in items if item["value_choice_matters"]][: args.positions]
    names = [n for n in args.levels.split(",") if n]
    pair_text = args.pairs or ",".join(f"{a}-{b}" for a, b in zip(names, names[1:], strict=False))
    pairs = [tuple(p.split("-")) for p in pair_text.split(",") if p]
    for name in [*names, *(n for p in pairs for n in p)]:
        if name != RANDOM and name not in LEVELS:
            raise ValueError(f"unknown level {name!r}")
    if not items or any(len(p) != 2 for p in pairs):
        raise ValueError("no positions where the choice matters" if not items else "pairs look like easy-medium")
    return items, names, pairs


def _print_error_rates(items: list[dict[str, Any]], names: list[str], args: argparse.Namespace) -> None:
    print(
        f"error rate on {len(items)} positions where the choice matters ({args.file.name}): "
        "share of moves that drop the game value"
    )
    print(f"  {'level':<9} {'rule':<36} {'expected':>8} {'drawn':>7}  {'95% interval':<14} {'ms/move':>8}")
    for name in names:
        expected, drawn, ms = error_rates(name, items, args.seed, args.perfect_ms)
        low, high = wilson(drawn, len(items))
        print(
            f"  {name:<9} {rule_text(name, args.perfect_ms):<36} {expected:7.1f}% {100 * drawn / len(items):6.1f}%"
            f"  {low:4.1f}-{high:4.1f}%    {ms:8.1f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--positions", type=int, default=None, help="the first N positions (default: all)")
    parser.add_argument("--games", type=int, default=20, help="games per pair of neighbouring levels")
    parser.add_argument("--perfect-ms", type=float, default=1000.0, help="Perfect's time per move")
    parser.add_argument("--levels", default=",".join(DEFAULT_LEVELS))
    parser.add_argument("--pairs", default=None, help="weak-strong pairs (default: neighbouring levels)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        items, names, pairs = _plan(args)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _print_error_rates(items, names, args)
    if args.games > 0:
        print(f"neighbouring levels, {args.games} games each from the empty board (points of the stronger):")
    for weak, strong in pairs if args.games > 0 else []:
        _, lines = match(weak, strong, args.games, args.seed * 7919, args.perfect_ms)
        print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
