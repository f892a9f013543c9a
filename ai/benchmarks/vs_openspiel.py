"""Perfect (exact play: book, then solver and search) against OpenSpiel's C++ MCTS bot at Connect 4.

    python -m ai.benchmarks.vs_openspiel [--games 10] [--time-ms 1000] [--their-ms 1000] [--second] [--seed 1]

The opponent is ``pyspiel.MCTSBot`` with random rollouts, its solver on, ``--their-ms`` of wall-clock
time per move and a new seed each game. Ours is the engine's exact search (``HybridSearcher`` with
``exact=True``) at ``--time-ms`` per move. ``--second``: ours moves second. Prints every game (moves in
the one notation, 1-based columns) and a running tally. Needs ``pip install open_spiel`` (a benchmark
dependency only).
"""

from __future__ import annotations

import argparse
import sys
import time

from ai.search.hybrid import HybridSearcher
from game.rules import get_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.vs_openspiel", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time-ms", type=float, default=1000.0, help="our budget per move")
    parser.add_argument("--their-ms", type=float, default=1000.0, help="the MCTS bot's wall-clock time per move")
    parser.add_argument("--second", action="store_true", help="ours moves second")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed (+1 per game)")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("error: open_spiel is not installed (pip install open_spiel)", file=sys.stderr)
        return 2
    spec = get_game("connect4")
    game = pyspiel.load_game("connect_four")
    tally = {"win": 0, "draw": 0, "loss": 0}
    ours_first = not args.second
    for g in range(args.games):
        seed = args.seed + g
        theirs = pyspiel.MCTSBot(
            game,
            pyspiel.RandomRolloutEvaluator(1, seed),
            2.0,
            10_000_000,
            1000,
            True,
            seed,
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            args.their_ms / 1000.0,
        )
        ours = HybridSearcher(spec, seed=seed)
        ours.warm_up()
        state = game.new_initial_state()
        position = spec.start()
        slowest = 0.0
        while not position.outcome.is_over:
            our_turn = (position.ply % 2 == 0) == ours_first
            if our_turn:
                started = time.perf_counter()
                ours.set_position(position)
                move = ours.search(time_ms=args.time_ms, exact=True).best_move
                slowest = max(slowest, time.perf_counter() - started)
            else:
                move = int(theirs.step(state))
            state.apply_action(move)
            position = position.play(move)
        winner = position.outcome.winner
        ours_side = 0 if ours_first else 1
        verdict = "draw" if winner is None else "win" if winner == ours_side else "loss"
        tally[verdict] += 1
        print(
            f"game {g + 1} (seed {seed}): {verdict:<4} in {position.ply} plies  {position.to_text()}  "
            f"(our slowest move {slowest:.2f} s)  tally {tally['win']}W {tally['draw']}D {tally['loss']}L",
            flush=True,
        )
        ours.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
