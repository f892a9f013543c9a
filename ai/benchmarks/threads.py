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
import time

from ai.benchmarks.games import bot
from ai.mcts.search import Searcher
from game import get_game

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
        print(f"speed, {label}: 1 thread {max(one) / 1e6:.2f}M/s, {threads} threads {max(many) / 1e6:.2f}M/s "
              f"(x{max(many) / max(one):.2f}; best of {rounds}, alternating)", flush=True)


def strength(game: str, threads: int, games: int, time_ms: float, seed: int) -> float:
    spec = get_game(game)
    rnd = random.Random(seed)
    wins = draws = losses = 0
    stats_many: dict[str, float] = {}
    stats_one: dict[str, float] = {}
    started = time.perf_counter()
    opening = spec.start()
    for g in range(games):
        if g % 2 == 0:  # a new opening for each pair of games (one with each colour)
            opening = spec.start()
            for _ in range(2):
                opening = opening.play(rnd.choice(opening.legal_moves()))
        many = bot(spec, time_ms, seed * 1000 + g, threads, stats_many)
        one = bot(spec, time_ms, seed * 1000 + 500 + g, 1, stats_one)
        many_side = (opening.ply + g) % 2  # the side to move after the opening alternates between the bots
        players = (many, one) if many_side == 0 else (one, many)
        pos = opening
        while not pos.outcome.is_over:
            pos = pos.play(players[pos.to_move](pos))
        winner = pos.outcome.winner
        if winner is None:
            draws += 1
        elif winner == many_side:
            wins += 1
        else:
            losses += 1
        score = (wins + 0.5 * draws) / (g + 1)
        verdict = "drew" if winner is None else ("won" if winner == many_side else "lost")
        print(f"  game {g + 1}/{games} from {opening.to_text()}: {threads} threads {verdict} in {pos.ply} plies; "
              f"tally +{wins} ={draws} -{losses} ({100 * score:.1f}%), {time.perf_counter() - started:.0f} s",
              flush=True)
    per_move = {label: s.get("iterations", 0) / max(1, s.get("moves", 0))
                for label, s in (("many", stats_many), ("one", stats_one))}
    score = (wins + 0.5 * draws) / max(1, games)
    print(f"strength: {threads} threads vs 1 thread at {time_ms:g} ms per move: {100 * score:.1f}% "
          f"(+{wins} ={draws} -{losses}); iterations per move {per_move['many']:.0f} vs {per_move['one']:.0f}")
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
