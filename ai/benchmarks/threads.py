"""Root parallelism: search speed and strength of an N-thread bot against the one-thread bot
at equal wall time per move (prints figures, asserts nothing).

    python -m ai.benchmarks.threads [--game connect4] [--threads N] [--games 20] [--time-ms 200]

Speed: iterations per second of one search on 1 and on N threads (default: all cores), from the
empty board and from a middle-game position, measured alternately in one run.
Strength: pure MCTS (the app's Easy to Hard levels; no solver), both bots with the same time per
move, keeping their trees, colours alternating, each pair of games from its own random two-ply
opening so the games differ. A running tally is printed after every game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any

from ai.benchmarks.games import bot, match
from ai.mcts.search import Searcher
from game.rules import get_game

MIDDLE_GAME = "274552224131661"


def iterations_per_s(spec_name: str, moves: str, threads: int, seconds: float) -> float:
    spec = get_game(spec_name)
    searcher = Searcher(spec, seed=7, threads=threads)
    searcher.warm_up()
    searcher.set_position(spec.parse_position(moves))
    result = searcher.search(time_ms=seconds * 1000, early_stop=False)
    searcher.close()
    return result.iterations / max(1e-9, result.elapsed_ms / 1000)


def speed(game: str, threads: int, seconds: float, rounds: int = 2) -> None:
    for label, moves in (("empty board", ""), ("middle game", MIDDLE_GAME if game == "connect4" else "")):
        one = [iterations_per_s(game, moves, 1, seconds) for _ in range(rounds)]
        many = [iterations_per_s(game, moves, threads, seconds) for _ in range(rounds)]
        print(
            f"speed, {label}: 1 thread {max(one) / 1e6:.2f}M/s, {threads} threads {max(many) / 1e6:.2f}M/s "
            f"(x{max(many) / max(one):.2f}; best of {rounds}, alternating)",
            flush=True,
        )


def strength(game: str, threads: int, games: int, time_ms: float, seed: int) -> float:
    spec = get_game(game)
    rnd = random.Random(seed)
    openings: list[Any] = []
    for _ in range((games + 1) // 2):  # one random two-ply opening per pair of games (one with each colour)
        pos = spec.start()
        for _ in range(2):
            pos = pos.play(rnd.choice(pos.legal_moves()))
        openings.append(pos)
    stats_many: dict[str, float] = {}
    stats_one: dict[str, float] = {}
    score, wins, draws, losses = match(
        spec,
        games,
        lambda g: bot(spec, time_ms, seed * 1000 + g, threads, stats_many),
        lambda g: bot(spec, time_ms, seed * 1000 + 500 + g, 1, stats_one),
        f"{threads} threads",
        opening=lambda g: openings[g // 2],
    )
    per_move = {
        label: s.get("iterations", 0) / max(1, s.get("moves", 0))
        for label, s in (("many", stats_many), ("one", stats_one))
    }
    print(
        f"strength: {threads} threads vs 1 thread at {time_ms:g} ms per move: {100 * score:.1f}% "
        f"(+{wins} ={draws} -{losses}); iterations per move {per_move['many']:.0f} vs {per_move['one']:.0f}"
    )
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.threads", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2, help="threads of the parallel bot")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time-ms", type=float, default=200.0, help="time per move of both bots")
    parser.add_argument("--speed-seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 2 <= args.threads <= 64 or args.games < 1 or args.time_ms <= 0:
        parser.error("--threads must be 2-64, --games at least 1, --time-ms positive")
    print(f"{args.game}: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    speed(args.game, args.threads, args.speed_seconds)
    strength(args.game, args.threads, args.games, args.time_ms, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
