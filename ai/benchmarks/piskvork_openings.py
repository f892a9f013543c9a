"""Balanced Gomoku openings, as a strong engine judges them (a benchmark tool: how ``piskvork_match.BALANCED``
was made; the project never needs the judge).

    python -m ai.benchmarks.piskvork_openings --judge "/tmp/rapfi/pbrain-rapfi --config config.toml" \\
        --cwd /tmp/rapfi --seed 1 --count 12 --ms 1000

Draws random openings (black's first stone in the centre, the other stones anywhere within ``--radius`` of
it, ``--stones`` in all), asks the judge (a Piskvork brain that prints ``Eval N`` in its MESSAGE lines, as
Rapfi does) to think ``--ms`` about each and keeps those it rates within ``--margin`` of even and not a
forced win. An opening that is a rotation or reflection of one already judged, or of one in the match's books
(``piskvork_match.BOOKS``), is the same game for the engines and is not asked about again ("same as ...").
Prints every opening tried with the judge's evaluation, then the kept ones as Python tuples.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex

from ai.benchmarks.piskvork_manager import Brain
from ai.benchmarks.piskvork_match import BOOKS, SIZE, Stones

CENTRE = SIZE // 2


def canonical(stones: Stones) -> tuple[Stones, Stones]:
    """The same key for an opening and its 7 rotations and reflections about the centre: the least of its
    8 images, each as (black's stones, white's stones) sorted."""
    images = []
    for turn in range(8):
        moved = []
        for x, y in stones:
            dx, dy = x - CENTRE, y - CENTRE
            dx, dy = (-dx if turn & 1 else dx), (-dy if turn & 2 else dy)
            moved.append((dy, dx) if turn & 4 else (dx, dy))
        images.append((tuple(sorted(moved[0::2])), tuple(sorted(moved[1::2]))))
    return min(images)


EVAL = re.compile(r"\bEval ([-+]?M?\d+)")


def judge(command: str, cwd: str | None, stones: list[tuple[int, int]], ms: int) -> str | None:
    """The judge's last ``Eval`` for the side to move after ``stones`` (black first), or None."""
    brain = Brain(shlex.split(command), cwd=cwd)
    try:
        reply, _ = brain.ask("START 15", timeout=60)
        if reply != "OK":
            raise RuntimeError(f"the judge answered {reply!r} to START 15")
        brain.send("INFO rule 0", f"INFO timeout_turn {ms}", "INFO timeout_match 100000000")
        me = len(stones) % 2
        lines = [f"{x},{y},{1 if i % 2 == me else 2}" for i, (x, y) in enumerate(stones)]
        brain.ask("BOARD", *lines, "DONE", timeout=ms / 1000 + 30)
        found = [m.group(1) for line in brain.messages if (m := EVAL.search(line))]
        return found[-1] if found else None
    finally:
        brain.close()


def main(argv: list[str] | None = None) -> int:
    prog = "python -m ai.benchmarks.piskvork_openings"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--judge", required=True, help="the judging brain's command line")
    parser.add_argument("--cwd", default=None, help="its working directory")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=12, help="openings wanted")
    parser.add_argument("--tries", type=int, default=200, help="openings tried at most")
    parser.add_argument("--stones", type=int, default=3)
    parser.add_argument("--radius", type=int, default=3, help="largest distance of a stone from the centre")
    parser.add_argument("--ms", type=int, default=1000, help="the judge's time per opening")
    parser.add_argument("--margin", type=int, default=100, help="largest |evaluation| kept")
    args = parser.parse_args(argv)
    if args.count < 1 or args.tries < 1 or not 1 <= args.stones <= 10 or args.ms < 1 or args.margin < 0:
        parser.error("--count, --tries, --ms >= 1, --stones 1..10, --margin >= 0")
    if not 1 <= args.radius <= CENTRE or (2 * args.radius + 1) ** 2 < args.stones:
        parser.error(f"--radius 1..{CENTRE}, with room for the stones")
    rng = random.Random(args.seed)
    kept: list[list[tuple[int, int]]] = []
    known = {canonical(opening): f"{name} {i}" for name, book in BOOKS.items() for i, opening in enumerate(book)}
    low, high = CENTRE - args.radius, CENTRE + args.radius
    for tried in range(1, args.tries + 1):
        stones = [(CENTRE, CENTRE)]
        while len(stones) < args.stones:
            cell = (rng.randint(low, high), rng.randint(low, high))
            if cell not in stones:
                stones.append(cell)
        key = canonical(tuple(stones))
        if key in known:
            print(f"{tried} {stones} same as {known[key]}", flush=True)
            continue
        value = judge(args.judge, args.cwd, stones, args.ms)
        keep = value is not None and "M" not in value and abs(int(value)) <= args.margin
        print(f"{tried} {stones} {value}{' kept' if keep else ''}", flush=True)
        known[key] = f"kept {len(kept)}" if keep else f"tried {tried}"
        if keep:
            kept.append(stones)
            if len(kept) == args.count:
                break
    for stones in kept:
        print(f"    ({', '.join(str(s) for s in stones)}),")
    return 0 if len(kept) == args.count else 1


if __name__ == "__main__":
    raise SystemExit(main())
