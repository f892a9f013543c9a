"""Build the ladder's position set: positions from games between the playing levels, every column solved.

    python -m ai.benchmarks.ladder_positions [--seed 2026] [--games 12] [--target 320]
                                             [--max-nodes 10000000] [--out ai/benchmarks/data/ladder_positions.jsonl]

``--games`` games per pair of levels (beginner-easy, easy-medium, medium-hard, hard-easy; colours
alternate; the levels as defined in ``SET_LEVELS``), each from the empty board. Every position of
those games from ply 4 on (the side to move has a choice, the game not over) is a candidate; the
candidates, deduplicated, are shuffled with the seed and solved in that order with the exact solver
alone (every column's score, ``--max-nodes`` per position, single-threaded: the same file on any
machine) until ``--target`` positions **where the choice matters** (some column drops the game value,
win/draw/loss) are found. Positions the solver does not finish within the node limit are left out
(counted in the summary).

Each line: ``moves``, ``scores`` (per column, the mover's Pons score, null for a full column),
``value_preserving_cols`` and ``optimal_cols`` (1-based), ``value_choice_matters``, ``ply``, ``game``
(which levels played it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from ai.benchmarks.level_games import LevelPlayer, play_game
from ai.search.levels import Level
from ai.solver.core import Solver
from game.rules import get_game

PAIRS = (("beginner", "easy"), ("easy", "medium"), ("medium", "hard"), ("hard", "easy"))
# The levels as they were when the shipped set was built (the engine's levels were tuned on it afterwards):
# frozen here so the same command still writes the same file.
SET_LEVELS = {
    lv.name: lv
    for lv in (
        Level("beginner", 40, 1.0, noise=0.12),
        Level("easy", 300, 1.0, book_plies=1),
        Level("medium", 3000, 0.4, book_plies=2),
        Level("hard", 400_000, 0.0, book_plies=6),
    )
}
DEFAULT_OUT = Path(__file__).parent / "data" / "ladder_positions.jsonl"
MIN_PLY = 4
GAME_TIME_MS = 60_000.0  # the levels' caps end their searches; this bound only guards a stuck search


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def judged(moves: str, scores: tuple[int | None, ...], game: str) -> dict[str, Any]:
    """One line of the set: a solved position with what each column does to the game value."""
    known = {c: s for c, s in enumerate(scores) if s is not None}
    best = max(known.values())
    preserving = [c + 1 for c, s in known.items() if sign(s) == sign(best)]
    return {
        "moves": moves,
        "scores": list(scores),
        "ply": len(moves),
        "game": game,
        "value_preserving_cols": preserving,
        "optimal_cols": [c + 1 for c, s in known.items() if s == best],
        "value_choice_matters": len(preserving) < len(known),
    }


def candidates(seed: int, games: int) -> list[tuple[str, str]]:
    """(moves, game label) of every position of the games from ply ``MIN_PLY`` on, first seen first."""
    seen: dict[str, str] = {}
    for p, (a, b) in enumerate(PAIRS):
        for g in range(games):
            first, second = (a, b) if g % 2 == 0 else (b, a)
            players = [
                LevelPlayer(first, seed * 1000 + p * 100 + 2 * g, GAME_TIME_MS, SET_LEVELS),
                LevelPlayer(second, seed * 1000 + p * 100 + 2 * g + 1, GAME_TIME_MS, SET_LEVELS),
            ]
            try:
                game = play_game(players[0], players[1])
            finally:
                for player in players:
                    player.close()
            label = f"{first}-{second}"
            print(f"  {label:<16} {game.moves}", flush=True)
            for ply in range(MIN_PLY, len(game.moves)):  # the last position is the finished game
                seen.setdefault(game.moves[:ply], label)
    return list(seen.items())


def build(seed: int, games: int, target: int, max_nodes: int) -> tuple[list[dict[str, Any]], dict[str, int]]:
    spec = get_game("connect4")
    pool = candidates(seed, games)
    random.Random(seed).shuffle(pool)
    solver = Solver(use_book=True)
    chosen: list[dict[str, Any]] = []
    counts = {"candidates": len(pool), "solved": 0, "unsolved": 0, "no_choice": 0}
    for moves, label in pool:
        if len(chosen) >= target:
            break
        position = spec.parse_position(moves)
        if len(position.legal_moves()) < 2:
            counts["no_choice"] += 1
            continue
        columns = solver.analyze_columns(position, max_nodes=max_nodes)  # type: ignore[arg-type]
        if not columns.complete:
            counts["unsolved"] += 1
            continue
        counts["solved"] += 1
        item = judged(moves, columns.scores, label)
        if item["value_choice_matters"]:
            chosen.append(item)
            if len(chosen) % 25 == 0:
                print(f"  {len(chosen)}/{target} positions ({counts})", flush=True)
    return chosen, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ai.benchmarks.ladder_positions", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=12, help="games per pair of levels")
    parser.add_argument("--target", type=int, default=320, help="positions where the choice matters")
    parser.add_argument("--max-nodes", type=int, default=10_000_000, help="solver nodes per position")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.games < 1 or args.target < 1 or args.max_nodes < 1:
        print("error: --games, --target and --max-nodes must be at least 1", file=sys.stderr)
        return 2
    started = time.perf_counter()
    chosen, counts = build(args.seed, args.games, args.target, args.max_nodes)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for item in chosen:
            fh.write(json.dumps(item, separators=(",", ":")) + "\n")
    plies = sorted(item["ply"] for item in chosen)
    print(
        f"{len(chosen)} positions where the choice matters -> {args.out} "
        f"(plies {plies[0] if plies else '-'}..{plies[-1] if plies else '-'}, median "
        f"{plies[len(plies) // 2] if plies else '-'}); {counts}; {time.perf_counter() - started:.0f} s"
    )
    return 0 if len(chosen) >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
