"""How late does ``bestmove`` come? Many short searches through the real engine process.

    python -m ai.benchmarks.budget [--searches 200] [--time-ms 100] [--exact]

Plays a game in the engine (each search's move is played, a new game when it ends) and
measures, from writing the ``go`` line to reading its ``bestmove``, how far past the budget the
answer came: prints the 50th / 99th percentile and the worst case.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ai.benchmarks.engine_pipe import EnginePipe
from ai.vocab.commands import Go, Position


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="bestmove lateness over many short searches")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--time-ms", type=float, default=100.0)
    parser.add_argument("--exact", action="store_true", help="with the solver (default: pure MCTS)")
    parser.add_argument("--game", default="connect4")
    args = parser.parse_args(argv)
    engine = EnginePipe()  # (it has said ready)
    late: list[float] = []
    moves: list[str] = []
    for i in range(args.searches):
        engine.send(Position(args.game, tuple(moves)))
        started = time.perf_counter()
        engine.send(Go(i, args.time_ms, info_ms=50, exact=args.exact))
        best = engine.until("bestmove", i, timeout=600)
        late.append((time.perf_counter() - started) * 1000 - args.time_ms)
        moves.append(best["move"])
        if best.get("proven") is not None or len(moves) >= 42:  # decided: start a new game
            moves = []
    engine.close()
    q = statistics.quantiles(late, n=100)
    print(
        f"{args.searches} searches of {args.time_ms:g} ms ({'exact' if args.exact else 'MCTS'}): "
        f"bestmove after the budget: p50 {q[49]:+.1f} ms, p99 {q[98]:+.1f} ms, worst {max(late):+.1f} ms "
        f"(negative = early stop)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
