"""How late ``bestmove`` comes after ``time_ms`` (the protocol promises at most 50 ms), by thread count.

    python -m ai.benchmarks.deadline [--threads 1 2 64] [--time-ms 500] [--runs 8]

Talks to a real engine subprocess; the lateness is measured from the moment the ``go`` line is
written to the moment its ``bestmove`` line is read, minus ``time_ms``. Prints one row per thread
count (median and worst) and how many runs were over 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ai.benchmarks.engine_pipe import EnginePipe
from ai.vocab.commands import Go, Position

POSITIONS = ("", "4453", "274552224131661", "44444", "1234567")


def measure(threads: int, time_ms: float, runs: int, exact: bool = True) -> list[float]:
    engine = EnginePipe("--threads", str(threads))  # (it has said ready)
    late: list[float] = []
    try:
        engine.send(Position(moves="4"))
        engine.send(Go(0, iterations=100))  # waits for the compiled code
        engine.until("bestmove", 0, timeout=600)
        for i in range(runs):
            engine.send(Position(moves=POSITIONS[i % len(POSITIONS)]))
            started = time.perf_counter()
            engine.send(Go(i + 1, time_ms, info_ms=100, early_stop=False, exact=exact))
            engine.until("bestmove", i + 1, timeout=600)
            late.append((time.perf_counter() - started) * 1000 - time_ms)
    finally:
        engine.close()
    return late


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 64])
    parser.add_argument("--time-ms", type=float, default=500.0)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument(
        "--exact",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Connect 4's exact solver beside the search (the app's default: on)",
    )
    args = parser.parse_args(argv)
    for threads in args.threads:
        late = measure(threads, args.time_ms, args.runs, args.exact)
        over = sum(x > 50 for x in late)
        print(
            f"threads {threads:>2}: bestmove after time_ms + median {statistics.median(late):.1f} ms, "
            f"worst {max(late):.1f} ms; {over}/{len(late)} over +50 ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
