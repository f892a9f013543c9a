"""Pondering bot against the same bot without pondering (a benchmark command, not a test).

``python -m ai.benchmarks.ponder_match --game uttt --games 40 --own-ms 1000 --pace-ms 2000 5000``:
both bots are the same searcher (``HybridSearcher``, one thread, tree kept between moves) and search
``--own-ms`` per move (MCTS only: exact play off). The bot that does not ponder is the slow opponent:
each of its moves takes a ``--pace-ms`` time drawn per move. It searches its ``--own-ms`` first, alone
on the CPU, then waits out the rest of its pace while the pondering bot thinks on the position in a
background thread (``ai.search.ponder``): the two searches never compete for a core, and the pondering bot
gets the opponent's time minus the opponent's own search (a conservative share). Colours alternate.
Prints the pondering bot's score and its ponder hit rate (the opponent played the reply it
expected). Scale both times down together for a quick run (e.g. ``--own-ms 50 --pace-ms 100 250``).
``--engine``: each bot is an engine process (``main.py engine --threads 1``) driven through the client,
pondering with the protocol's ``ponder`` command, as the app, the terminal client and the network bot do.
"""

from __future__ import annotations

import argparse
import random
import time

from ai.client.session import EngineSession
from ai.search.hybrid import HybridSearcher
from ai.search.ponder import Ponderer
from game.rules import GameSpec, get_game


def play(
    spec: GameSpec,
    ponder_first: bool,
    own_ms: float,
    pace_ms: tuple[float, float],
    rng: random.Random,
    searchers: tuple[HybridSearcher, HybridSearcher],
) -> tuple[float, Ponderer, int]:
    """One game; the pondering bot's score (1, 0.5, 0), its Ponderer (hits, ponders), iterations pondered."""
    pondering, plain = searchers
    for s in searchers:
        s.clear()
    ponderer = Ponderer(pondering)
    position = spec.start()
    ponder_side = 0 if ponder_first else 1
    pondered = 0
    while not position.outcome.is_over:
        if position.to_move == ponder_side:
            pondering.set_position(position)  # re-roots the tree the ponder grew (kept on a hit)
            move = pondering.search(time_ms=own_ms, exact=False).best_move
        else:
            start = time.perf_counter()
            plain.set_position(position)
            move = plain.search(time_ms=own_ms, exact=False).best_move
            ponderer.start(position)  # the opponent "thinks" for the rest of its pace
            rest = rng.uniform(*pace_ms) / 1000 - (time.perf_counter() - start)
            if rest > 0:
                time.sleep(rest)  # sleep-ok: the opponent's thinking time, the thing pondered on
            outcome = ponderer.stop(move)
            pondered += 0 if outcome is None else outcome.iterations
        position = position.play(move)
    score = 0.5 if position.outcome.winner is None else float(position.outcome.winner == ponder_side)
    return score, ponderer, pondered


def play_engines(
    spec: GameSpec,
    ponder_first: bool,
    own_ms: float,
    pace_ms: tuple[float, float],
    rng: random.Random,
    engines: tuple[EngineSession, EngineSession],
) -> float:
    """``play`` with engine processes: the pondering one thinks with ``ponder`` between its moves."""
    pondering, plain = engines
    position = spec.start()
    ponder_side = 0 if ponder_first else 1
    while not position.outcome.is_over:
        moves = position.to_text()
        if position.to_move == ponder_side:
            move = pondering.search(spec, moves, time_ms=own_ms).best_move
        else:
            start = time.perf_counter()
            move = plain.search(spec, moves, time_ms=own_ms).best_move
            pondering.ponder(spec, moves)
            rest = rng.uniform(*pace_ms) / 1000 - (time.perf_counter() - start)
            if rest > 0:
                time.sleep(rest)  # sleep-ok: the opponent's thinking time, the thing pondered on
            pondering.end_ponder(spec, position.play(move).to_text())
        position = position.play(move)
    return 0.5 if position.outcome.winner is None else float(position.outcome.winner == ponder_side)


def engine_match(spec: GameSpec, args: argparse.Namespace, rng: random.Random) -> int:
    engines = (EngineSession(threads=1, seed=args.seed), EngineSession(threads=1, seed=args.seed + 1))
    try:
        for e in engines:
            e.start()
        scores: list[float] = []
        start = time.perf_counter()
        for game in range(args.games):
            scores.append(play_engines(spec, game % 2 == 0, args.own_ms, tuple(args.pace_ms), rng, engines))
            print(
                f"game {game + 1}: pondering engine {'first' if game % 2 == 0 else 'second'}, scores "
                f"{scores[-1]}; hits so far {engines[0].hits}/{engines[0].ponders}; running "
                f"{100 * sum(scores) / len(scores):.1f}%, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
        wins, draws = scores.count(1.0), scores.count(0.5)
        print(
            f"{spec.name} (engine processes): pondering engine {wins} wins, {draws} draws, "
            f"{len(scores) - wins - draws} losses in {len(scores)} games = {100 * sum(scores) / len(scores):.1f}%; "
            f"ponder hit rate {engines[0].hits}/{engines[0].ponders} = "
            f"{100 * engines[0].hits / max(1, engines[0].ponders):.0f}% (own {args.own_ms:g} ms, opponent "
            f"{args.pace_ms[0]:g}-{args.pace_ms[1]:g} ms per move; {time.perf_counter() - start:.0f} s)"
        )
    finally:
        for e in engines:
            e.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.ponder_match", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="uttt", help="uttt (default) or connect4 (exact play off)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--own-ms", type=float, default=1000.0, help="each bot's search time per move")
    parser.add_argument(
        "--pace-ms",
        type=float,
        nargs=2,
        default=(2000.0, 5000.0),
        metavar=("MIN", "MAX"),
        help="the slow opponent's time per move (default 2000 5000)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", action="store_true", help="bots as engine processes (the ponder command)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.own_ms <= 0 or not 0 <= args.pace_ms[0] <= args.pace_ms[1]:
        parser.error("need --games >= 1, --own-ms > 0 and 0 <= MIN <= MAX for --pace-ms")
    spec = get_game(args.game)
    if args.engine:
        return engine_match(spec, args, random.Random(args.seed))
    searchers = (HybridSearcher(spec, threads=1, seed=args.seed), HybridSearcher(spec, threads=1, seed=args.seed + 1))
    for s in searchers:
        s.warm_up()
    rng = random.Random(args.seed)
    scores: list[float] = []
    hits = ponders = pondered = 0
    start = time.perf_counter()
    for game in range(args.games):
        score, ponderer, iterations = play(spec, game % 2 == 0, args.own_ms, tuple(args.pace_ms), rng, searchers)
        scores.append(score)
        hits += ponderer.hits
        ponders += ponderer.ponders
        pondered += iterations
        print(
            f"game {game + 1}: pondering bot {'first' if game % 2 == 0 else 'second'}, scores {score}; "
            f"hits {ponderer.hits}/{ponderer.ponders}; running {100 * sum(scores) / len(scores):.1f}%, "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )
    wins, draws = scores.count(1.0), scores.count(0.5)
    print(
        f"{spec.name}: pondering bot {wins} wins, {draws} draws, {len(scores) - wins - draws} losses in "
        f"{len(scores)} games = {100 * sum(scores) / len(scores):.1f}%; ponder hit rate {hits}/{ponders} = "
        f"{100 * hits / max(1, ponders):.0f}%, {pondered / max(1, ponders):.0f} iterations per ponder "
        f"(own {args.own_ms:g} ms, opponent {args.pace_ms[0]:g}-{args.pace_ms[1]:g} ms per move; "
        f"{time.perf_counter() - start:.0f} s)"
    )
    for s in searchers:
        s.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
