"""Old against new solver, alternating position by position in one run (a busy machine slows both alike).

    python -m ai.benchmarks.solver_ab [FILES...] [--baseline REV] [--limit N] [--begin N] [--threads N]
                                      [--baseline-threads N]

The baseline is ``ai/solver/kernel.py`` and ``ai/solver/core.py`` as of git revision ``--baseline``
(default ``HEAD``), loaded as separate modules beside the working copy's. Each position is solved
by both, in alternating order (A B, B A, ...), each with its own table kept across a file (as the
engine does). ``--begin N`` adds N positions of plies 4-12 from random games (seeded), every column
analysed from a cleared table (as the ``solve`` command does). ``--threads`` applies to the new solver,
``--baseline-threads`` (default 1) to the old one: the way to measure threads against one thread is
``--baseline HEAD --threads 2`` on an unchanged tree (the files' single positions: helper threads on one
search; ``--begin``'s all-columns analyses: the columns split over the threads). Prints per file: CPU and
wall mean of each, their ratio (baseline / new) and nodes per position; any disagreement in a score is an
error.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from ai.benchmarks.solver_files import DEFAULT_FILES, _load, _resolve
from ai.solver import core as new_solver
from game.rules.connect4 import Connect4Position, Connect4Spec

ROOT = Path(__file__).resolve().parents[2]
SPLIT_PARTS = ("solver_table", "solver_board", "solver_results", "solver_columns")  # modules split off the two
ALL_FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


# Each part of the solver: its name as a baseline module, and its file in the floors layout (ai/solver/) and
# in the flat layout of older revisions (ai/solver_*.py).
PARTS = (
    ("solver_table", "ai/solver/table.py", "ai/solver_table.py"),
    ("solver_kernel", "ai/solver/kernel.py", "ai/solver_kernel.py"),
    ("solver_board", "ai/solver/board.py", "ai/solver_board.py"),
    ("solver_results", "ai/solver/results.py", "ai/solver_results.py"),
    ("solver_columns", "ai/solver/columns.py", "ai/solver_columns.py"),
    ("solver", "ai/solver/core.py", "ai/solver.py"),
)


FLAT_MODULES = {"opening_book": "vocab.opening_book", "solver_watchdog": "solver.watchdog", "results": "vocab.results"}


def _show(rev: str, path: str) -> str | None:
    shown = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
    return shown.stdout if shown.returncode == 0 else None


def _as_baseline(text: str) -> str:
    """A solver part's source importing the baseline's copies of its sibling parts (either layout)."""
    for old in ("from ai import solver_kernel as kernel", "from ai.solver import kernel"):
        text = text.replace(old, "import baseline_solver_kernel as kernel")
    for part in SPLIT_PARTS:
        text = text.replace(f"from ai.{part} import", f"from baseline_{part} import")
        text = text.replace(f"from ai.solver.{part.removeprefix('solver_')} import", f"from baseline_{part} import")
    text = text.replace("from ai.solver.core import", "from baseline_solver import")
    for flat, floors in FLAT_MODULES.items():  # an older revision's other imports, at today's places
        text = text.replace(f"from ai.{flat} import", f"from ai.{floors} import")
    return text


def load_baseline(rev: str, folder: Path) -> ModuleType:
    """``ai.solver.core`` as of ``rev``, importing its own copies of the kernel, its table and of the board (whose
    geometry words follow the kernel's constants: a board of one revision with the kernel of another can read
    wrong entries), and of the other parts split off the solver."""
    for name, floors_path, flat_path in PARTS:
        text = _show(rev, floors_path) or _show(rev, flat_path)
        if text is None:
            if name in ("solver_kernel", "solver"):
                raise SystemExit(f"solver_ab: revision {rev} has no {floors_path} nor {flat_path}")
            continue  # older revisions kept the table, the board, the results and the columns in those two
        (folder / f"baseline_{name}.py").write_text(_as_baseline(text))
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("baseline_solver", folder / "baseline_solver.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_solver"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def begin_positions(count: int, seed: int, plies: tuple[int, int] = (4, 12)) -> list[tuple[Connect4Position, object]]:
    """Positions of ``plies`` (a range) from uniformly random games that are not over."""
    rnd = random.Random(seed)
    spec = Connect4Spec()
    out: list[tuple[Connect4Position, object]] = []
    while len(out) < count:
        position = spec.start()
        ply = rnd.randint(*plies)
        while position.ply < ply:
            moves = [c for c in position.legal_moves() if not position.play(c).outcome.is_over]
            position = position.play(rnd.choice(moves))
        out.append((position, None))
    return out


def compare(
    label: str, rows: list[tuple[Connect4Position, object]], solvers: list[tuple[str, Any]], columns: bool
) -> str:
    cpu: dict[str, list[float]] = {name: [] for name, _ in solvers}
    wall: dict[str, list[float]] = {name: [] for name, _ in solvers}
    nodes = dict.fromkeys(cpu, 0)
    for i, (position, expected) in enumerate(rows):
        answers = set()
        for name, solver in solvers if i % 2 == 0 else solvers[::-1]:
            if columns:
                solver.clear()
            started, started_cpu = time.perf_counter(), time.process_time()
            result = solver.analyze_columns(position) if columns else solver.solve(position)
            cpu[name].append((time.process_time() - started_cpu) * 1000.0)
            wall[name].append((time.perf_counter() - started) * 1000.0)
            nodes[name] += result.nodes
            answers.add(result.scores if columns else result.score)
        if len(answers) != 1 or (expected is not None and expected not in answers):
            raise SystemExit(f"error: {position.to_text()}: answers {answers}, expected {expected}")
    n = max(len(rows), 1)
    (old, _), (new, _) = solvers
    parts = [f"{label:<12} positions {len(rows):4d}"]
    for name in (old, new):
        parts.append(
            f"{name} cpu {statistics.fmean(cpu[name]):9.3f} ms wall {statistics.fmean(wall[name]):9.3f} ms "
            f"nodes {nodes[name] / n:10.0f}"
        )
    parts.append(
        f"ratio cpu {statistics.fmean(cpu[old]) / statistics.fmean(cpu[new]):5.2f}x "
        f"wall {statistics.fmean(wall[old]) / statistics.fmean(wall[new]):5.2f}x"
    )
    return "  ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.solver_ab", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", default=list(DEFAULT_FILES), help="Pons benchmark files ('all': six)")
    parser.add_argument("--baseline", default="HEAD", help="git revision of the old solver")
    parser.add_argument("--limit", type=int, default=200, help="first N positions of each file")
    parser.add_argument("--begin", type=int, default=0, help="also N random positions of plies 4-12, all columns")
    parser.add_argument("--begin-plies", default="4-12", help="ply range of the --begin positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tt-bits", type=int, default=new_solver.DEFAULT_TT_BITS)
    parser.add_argument("--threads", type=int, default=1, help="search threads of the new solver")
    parser.add_argument("--baseline-threads", type=int, default=1, help="search threads of the old solver")
    args = parser.parse_args(argv)
    files = list(ALL_FILES) if args.files == ["all"] else args.files
    paths = [_resolve(f) for f in files]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: no such benchmark file: {', '.join(missing)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        baseline = load_baseline(args.baseline, Path(folder))
        warm = Connect4Spec().parse_position("4444433332")
        solvers: list[tuple[str, Any]] = [
            ("old", baseline.Solver(tt_bits=args.tt_bits, threads=args.baseline_threads)),
            ("new", new_solver.Solver(tt_bits=args.tt_bits, threads=args.threads)),
        ]
        for _, solver in solvers:  # compile both before timing
            solver.analyze_columns(warm)
            solver.clear()
        print(
            f"baseline {args.baseline} ({args.baseline_threads} thread(s)) against the working copy "
            f"({args.threads} thread(s))",
            flush=True,
        )
        for path in paths:
            rows = [(p, e) for p, e, _ in _load(path, args.limit)]
            print(compare(path.name, rows, solvers, columns=False), flush=True)
        if args.begin:
            low, high = (int(p) for p in args.begin_plies.split("-"))
            rows = begin_positions(args.begin, args.seed, (low, high))
            print(compare(f"begin {low}-{high}", rows, solvers, columns=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
