"""``python main.py bench``: iterations per second of the compiled search, peak memory, JIT load time."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

POSITIONS = (
    ("empty 7x6 board", ""),
    ("4455443 (proven lost at once)", "4455443"),
    ("middle game 274552224131661", "274552224131661"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per measurement (default 2)")
    parser.add_argument(
        "--threads", type=int, default=0, help="threads of the parallel measurement (0 = every core; 1 = skip it)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _measure(spec: Any, moves: str, seconds: float, threads: int) -> dict[str, Any]:
    from ai.mcts import Searcher

    searcher = Searcher(spec, seed=1, threads=threads)
    searcher.warm_up()
    searcher.set_position(spec.parse_position(moves))
    cpu0 = time.process_time()
    result = searcher.search(time_ms=seconds * 1000.0, early_stop=False)
    cpu_s = time.process_time() - cpu0
    searcher.close()
    rate = result.iterations / (result.elapsed_ms / 1000.0) if result.elapsed_ms > 0 else 0.0
    return {
        "position": moves,
        "threads": threads,
        "iterations": result.iterations,
        "elapsed_ms": round(result.elapsed_ms, 1),
        "iterations_per_s": round(rate),
        "cpu_s": round(cpu_s, 3),  # process CPU time: iterations / cpu_s is the rate per busy core
        "iterations_per_cpu_s": round(result.iterations / cpu_s) if cpu_s > 0 else None,
        "best_move": spec.move_to_text(result.best_move),
        "proven": result.proven,
        "max_depth": result.max_depth,
    }


def run(args: argparse.Namespace) -> int:
    from ai.vocab import limits

    if not (args.seconds > 0 and math.isfinite(args.seconds)) or args.seconds > limits.MAX_BENCH_SECONDS:
        print(f"error: --seconds must be a positive number of at most {limits.MAX_BENCH_SECONDS:g}", file=sys.stderr)
        return 2
    if not 0 <= args.threads <= limits.MAX_THREADS:
        print(
            f"error: --threads must be between 0 (every core) and {limits.MAX_THREADS}, not {args.threads}",
            file=sys.stderr,
        )
        return 2
    t0 = time.perf_counter()
    from ai.jit import MODE, NUMBA_AVAILABLE, describe
    from ai.mcts import Searcher
    from game.rules import get_game

    spec = get_game("connect4")
    Searcher(spec, seed=1).warm_up()
    jit_load_s = time.perf_counter() - t0
    threads = args.threads if args.threads > 0 else (os.cpu_count() or 1)
    runs = []
    for label, moves in POSITIONS:
        for n in sorted({1, threads}):
            row = _measure(spec, moves, args.seconds, n)
            row["label"] = label
            runs.append(row)
            if not args.json:
                print(
                    f"{label:<32} threads {n}: {row['iterations_per_s']:>10,} iterations/s "
                    f"({row['iterations']:,} in {row['elapsed_ms']:.0f} ms, {row['iterations_per_cpu_s'] or 0:,} per "
                    f"CPU second, depth {row['max_depth']})",
                    flush=True,
                )
    report = {
        "kernels": MODE,
        "numba": NUMBA_AVAILABLE,
        "jit_load_s": round(jit_load_s, 3),
        "peak_rss_mb": _peak_rss_mb(),
        "runs": runs,
    }
    if args.json:
        print(json.dumps(report))
    else:
        peak = report["peak_rss_mb"]
        print(f"kernels: {describe()}")
        print(f"JIT load (import + compile or cache load): {jit_load_s:.2f} s; numba: {NUMBA_AVAILABLE}")
        print(f"peak memory: {peak:.0f} MB" if peak is not None else "peak memory: unknown on this platform")
    return 0
