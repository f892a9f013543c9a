"""Write the shipped Connect 4 puzzles (``ai/puzzles.json``), reproducibly from a seed.

    python tools/make_puzzles.py [--seed 39] [--count 300] [--out ai/puzzles.json] [--max-nodes 400000]

See ``ai/search/puzzles.py`` for what makes a puzzle and how it is graded. The same seed, count and node limit write
the same file on any machine (node limits, not time limits; the solver's table cleared per candidate).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.search import puzzles  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "ai" / puzzles.PUZZLE_FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--max-nodes", type=int, default=puzzles.MAX_NODES, help="solver nodes per candidate")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 100_000 or args.max_nodes < 1000:
        print("error: --count must be 1-100000 and --max-nodes at least 1000", file=sys.stderr)
        return 2
    start = time.perf_counter()
    found = []
    for puzzle in puzzles.generate(args.seed, args.count, max_nodes=args.max_nodes):
        found.append(puzzle)
        if len(found) % 50 == 0:
            print(f"{len(found)} puzzles, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(puzzles.to_json(found, args.seed), encoding="utf-8")
    grades = {g: sum(1 for p in found if p.grade == g) for g in ("easy", "medium", "hard", "expert")}
    goals = {g: sum(1 for p in found if p.goal == g) for g in ("win", "draw")}
    print(f"wrote {len(found)} puzzles to {args.out} in {time.perf_counter() - start:.1f} s: {grades} {goals}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
