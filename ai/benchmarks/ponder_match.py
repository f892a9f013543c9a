"""Pondering bot against the same bot without pondering (a benchmark command, not a test).

``python -m ai.benchmarks.ponder_match --game uttt --games 40 --own-ms 1000 --pace-ms 2000 5000``:
both bots search ``--own-ms`` per move (MCTS only: exact play off); the bot that does not ponder
then takes the rest of a ``--pace-ms`` move time (drawn per move), as a slow opponent would, while
the pondering bot thinks on that time in a background thread (``ai.ponder``). Colours alternate.
Prints the pondering bot's score and its ponder hit rate (the opponent played the reply it
expected). Scale both times down together for a quick run (e.g. ``--own-ms 50 --pace-ms 100 250``).
"""

from __future__ import annotations

import argparse
import random
import time

from ai.hybrid import HybridSearcher
from ai.ponder import Ponderer
from game import get_game


def play(spec: object, ponder_first: bool, own_ms: float, pace_ms: tuple[float, float], rng: random.Random,
         searchers: tuple[HybridSearcher, HybridSearcher]) -> tuple[float, Ponderer]:
    """One game; the pondering bot's score (1, 0.5, 0) and its Ponderer (hits, ponders)."""
    pondering, plain = searchers
    for s in searchers:
        s.clear()
    ponderer = Ponderer(pondering)
    position = spec.start()  # type: ignore[attr-defined]
    ponder_side = 0 if ponder_first else 1
    while not position.outcome.is_over:
        if position.to_move == ponder_side:
            pondering.set_position(position)
            move = pondering.search(time_ms=own_ms, exact=False).best_move
            position = position.play(move)
            ponderer.start(position)
        else:
            start = time.perf_counter()
            plain.set_position(position)
            move = plain.search(time_ms=own_ms, exact=False).best_move
            rest = rng.uniform(*pace_ms) / 1000 - (time.perf_counter() - start)
            if rest > 0:
                time.sleep(rest)  # the slow opponent: the pondering bot thinks meanwhile
            ponderer.stop(move)
            position = position.play(move)
    ponderer.stop()
    outcome = position.outcome
    score = 0.5 if outcome.winner is None else float(outcome.winner == ponder_side)
    return score, ponderer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.ponder_match", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="uttt", help="uttt (default) or connect4 (exact play off)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--own-ms", type=float, default=1000.0, help="each bot's search time per move")
    parser.add_argument("--pace-ms", type=float, nargs=2, default=(2000.0, 5000.0), metavar=("MIN", "MAX"),
                        help="the slow opponent's time per move (default 2000 5000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    searchers = (HybridSearcher(spec, threads=1, seed=args.seed), HybridSearcher(spec, threads=1, seed=args.seed + 1))
    for s in searchers:
        s.warm_up()
    rng = random.Random(args.seed)
    scores: list[float] = []
    hits = ponders = 0
    start = time.perf_counter()
    for game in range(args.games):
        score, ponderer = play(spec, game % 2 == 0, args.own_ms, tuple(args.pace_ms), rng, searchers)
        scores.append(score)
        hits += ponderer.hits
        ponders += ponderer.ponders
        print(f"game {game + 1}: pondering bot {'first' if game % 2 == 0 else 'second'}, scores {score}; "
              f"hits {ponderer.hits}/{ponderer.ponders}", flush=True)
    wins, draws = scores.count(1.0), scores.count(0.5)
    print(f"{spec.name}: pondering bot {wins} wins, {draws} draws, {len(scores) - wins - draws} losses in "
          f"{len(scores)} games = {100 * sum(scores) / len(scores):.1f}%; ponder hit rate {hits}/{ponders} = "
          f"{100 * hits / max(1, ponders):.0f}% (own {args.own_ms:g} ms, opponent {args.pace_ms[0]:g}-"
          f"{args.pace_ms[1]:g} ms per move; {time.perf_counter() - start:.0f} s)")
    for s in searchers:
        s.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
