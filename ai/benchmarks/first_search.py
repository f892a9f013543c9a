"""The first search of a new game after a fast end-game, for every game: does it keep to ``time_ms``?

    python -m ai.benchmarks.first_search [--time-ms 100 200] [--rounds 5]

For each game one ``Searcher`` plays a whole game against itself at ``--endgame-ms`` per move
(the end-game searches are fast: proven roots, short playouts), then searches the start position
of a new game with ``time_ms``. Prints, per game and budget, the worst overrun of those first
searches over ``time_ms`` (wall clock around ``search()``) and of the games' own searches over
``--endgame-ms``; the promise is at most 50 ms. Exit status 1 if one is over it.
"""

from __future__ import annotations

import argparse
import time

from ai.mcts.search import Searcher
from game.rules.registry import get_game

GAMES = ("connect4", "tictactoe", "mnk:5x5:4", "gomoku", "uttt")
PROMISE_MS = 50.0


def first_overruns(
    game: str, time_ms: float, rounds: int, endgame_ms: float, seed: int, in_game: list[float]
) -> list[float]:
    """The overruns of the first searches (ms over ``time_ms``); ``in_game`` gets those of the game's searches."""
    spec = get_game(game)
    searcher = Searcher(spec, seed=seed, threads=1)
    searcher.warm_up()
    overruns = []
    try:
        for _ in range(rounds):
            position = spec.start()
            while not position.outcome.is_over:
                searcher.set_position(position)
                start = time.perf_counter()
                position = position.play(searcher.search(time_ms=endgame_ms).best_move)
                in_game.append((time.perf_counter() - start) * 1000.0 - endgame_ms)
            searcher.set_position(spec.start())
            start = time.perf_counter()
            searcher.search(time_ms=time_ms)
            overruns.append((time.perf_counter() - start) * 1000.0 - time_ms)
    finally:
        searcher.close()
    return overruns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.first_search", description=__doc__.splitlines()[0])
    parser.add_argument("--time-ms", type=float, nargs="+", default=[100.0, 200.0])
    parser.add_argument("--rounds", type=int, default=3, help="games per game and budget (default 3)")
    parser.add_argument("--endgame-ms", type=float, default=20.0, help="time per move of the games played first")
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    worst = float("-inf")
    for game in args.games:
        for time_ms in args.time_ms:
            in_game: list[float] = []
            over = first_overruns(game, time_ms, args.rounds, args.endgame_ms, args.seed, in_game)
            worst = max(worst, max(over), max(in_game))
            print(
                f"{game:10s} time_ms {time_ms:5.0f}: first-search overrun worst {max(over):6.1f} ms, "
                f"mean {sum(over) / len(over):6.1f} ms ({len(over)} searches); the games' searches at "
                f"{args.endgame_ms:.0f} ms: worst {max(in_game):6.1f} ms ({len(in_game)} searches)",
                flush=True,
            )
    verdict = "within" if worst <= PROMISE_MS else "OVER"
    print(f"worst overrun {worst:.1f} ms: {verdict} the {PROMISE_MS:.0f} ms promise")
    return 0 if worst <= PROMISE_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
