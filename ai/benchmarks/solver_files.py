"""Solve Pascal Pons' benchmark files and print correctness and speed per file.

    python -m ai.benchmarks.solver_files [FILES...] [--limit N] [--tt-bits B] [--fresh]

FILES default to Test_L3_R1, Test_L2_R1, Test_L2_R2 and Test_L1_R1 from the shared reference
directory (``CONNECT4_POSITIONS_DIR`` or ``../shared/connect4-positions`` next to the checkout).
A name without a directory is looked up there. A ``.jsonl`` file such as
``move_quality_public.jsonl`` is run in column mode: every column of each position is solved
(``analyze_columns``) and compared with its ``scores``; its ``solve_ms`` (Pons' solver, all
columns) is printed as the reference mean. The solver is compiled (and warmed up) before
timing; its transposition table is kept across the positions of a file (as the engine does)
unless ``--fresh`` clears it before every position. ``--threads N``: N search threads per
solve over the shared table (CPU time then counts every thread). Wall-clock times suffer when the machine
is busy; the CPU-time mean (process time of the solving) is steadier.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from ai.solver.core import DEFAULT_TT_BITS, ColumnScores, Solver, warm_up
from game.rules import Connect4Position
from game.rules.connect4 import Connect4Spec

DEFAULT_FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")


def positions_dir() -> Path:
    env = os.environ.get("CONNECT4_POSITIONS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "connect4-positions"


def _resolve(name: str) -> Path:
    path = Path(name)
    if path.exists():
        return path
    return positions_dir() / name


def _load(path: Path, limit: int | None) -> list[tuple[Connect4Position, object, float | None]]:
    """(position, expected, reference ms): a score per line, or a ``scores`` list per JSON line."""
    spec = Connect4Spec()
    rows: list[tuple[Connect4Position, object, float | None]] = []
    for line in path.read_text().splitlines()[:limit]:
        if not line.strip():
            continue
        if line.lstrip().startswith("{"):
            record = json.loads(line)
            rows.append((spec.parse_position(record["moves"]), tuple(record["scores"]), record.get("solve_ms")))
        else:
            moves, score = line.split()
            rows.append((spec.parse_position(moves), int(score), None))
    return rows


def run_file(path: Path, solver: Solver, limit: int | None, fresh: bool) -> str:
    positions = _load(path, limit)
    columns = bool(positions) and isinstance(positions[0][1], tuple)
    wrong = 0
    times: list[float] = []
    nodes = 0
    cpu_start = time.process_time()
    cpu_clearing = 0.0
    for position, expected, _ in positions:
        if fresh:
            clear_start = time.process_time()
            solver.clear()
            cpu_clearing += time.process_time() - clear_start
        start = time.perf_counter()
        result = solver.analyze_columns(position) if columns else solver.solve(position)
        times.append((time.perf_counter() - start) * 1000.0)
        nodes += result.nodes
        wrong += (result.scores if isinstance(result, ColumnScores) else result.score) != expected
    n = max(len(positions), 1)
    cpu = (time.process_time() - cpu_start - cpu_clearing) * 1000.0 / n
    reference = [ms for _, _, ms in positions if ms is not None]
    ref_text = f"  (reference solver mean {sum(reference) / len(reference):.3f} ms)" if reference else ""
    verdict = "yes" if wrong == 0 else f"NO ({wrong} wrong)"
    return (
        f"{path.name:<12} positions {len(positions):5d}  all correct: {verdict}  "
        f"mean {sum(times) / n:9.3f} ms  max {max(times, default=0.0):9.1f} ms  "
        f"(cpu mean {cpu:8.3f} ms)  mean nodes {nodes / n:11.0f}{ref_text}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.solver_files", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", default=list(DEFAULT_FILES), help="benchmark files (moves score)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N lines of each file")
    parser.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS, help="log2 of the table entries")
    parser.add_argument("--fresh", action="store_true", help="clear the table before every position")
    parser.add_argument("--threads", type=int, default=1, help="search threads per solve (lazy SMP helpers)")
    args = parser.parse_args(argv)
    paths = [_resolve(f) for f in args.files]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: no such benchmark file: {', '.join(missing)}", file=sys.stderr)
        return 2
    warm_up()
    solver = Solver(tt_bits=args.tt_bits, threads=args.threads)
    for path in paths:
        print(run_file(path, solver, args.limit, args.fresh), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
