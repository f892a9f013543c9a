"""Keep the costliest solves of a book-builder store: the positions of one ply whose solve took many nodes.

    python tools/book_costs.py --db build/opening_book.sqlite --ply 10 [--min-nodes 4000000]
                               [--out tools/data/book10_costly.csv.gz]

A store seeded from the shipped book (``make_opening_book.py --seed``, a new checkout) knows the scores but
not what each solve cost, and the book is built over several sessions whose stores do not survive. The
costly positions are the ones worth a deeper look (many of their columns are slow all-columns analyses one
ply past the book, though a solve's nodes predict its all-columns nodes only loosely: Spearman 0.43 on 40
random-game positions, docs/opening-book.md), so each session merges
its own into this file (``moves,nodes`` a line, sorted by moves; a position already listed keeps the
larger count), which the repository keeps.
"""

from __future__ import annotations

import argparse
import gzip
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "tools" / "data" / "book10_costly.csv.gz"


def read_costs(path: Path) -> dict[str, int]:
    """``moves -> nodes`` of a costs file (empty when there is none)."""
    if not path.exists():
        return {}
    costs: dict[str, int] = {}
    with gzip.open(path, "rt", encoding="ascii") as lines:
        for number, line in enumerate(lines, 1):
            moves, _, nodes = line.strip().partition(",")
            if not moves.isdigit() or not nodes.isdigit():
                raise ValueError(f"{path}:{number}: expected 'moves,nodes', got {line.strip()!r}")
            costs[moves] = int(nodes)
    return costs


def write_costs(path: Path, costs: dict[str, int]) -> None:
    """Sorted by moves, gzip with no name or time in its header: the same costs give the same bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"{moves},{costs[moves]}\n" for moves in sorted(costs)).encode("ascii")
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as out:
        out.write(text)


def merge(store: Path, out: Path, ply: int, min_nodes: int) -> tuple[int, int]:
    """Merge the store's solves of ``ply`` with at least ``min_nodes`` nodes into ``out``: (new, total)."""
    costs = read_costs(out)  # a damaged file stops the merge before the store is opened
    before = len(costs)
    with closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        query = "SELECT moves, nodes FROM solved WHERE nodes >= ? AND length(moves) = ?"
        for moves, nodes in db.execute(query, (min_nodes, ply)):
            costs[moves] = max(int(nodes), costs.get(moves, 0))
    write_costs(out, costs)
    return len(costs) - before, len(costs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the builder's store (make_opening_book.py --db)")
    parser.add_argument("--ply", type=int, required=True, help="the ply whose solves to keep")
    parser.add_argument("--min-nodes", type=int, default=4_000_000, help="keep solves of at least this many nodes")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args(argv)
    if not Path(args.db).exists():
        parser.error(f"no store at {args.db}")
    try:
        new, total = merge(Path(args.db), Path(args.out), args.ply, args.min_nodes)
    except (ValueError, sqlite3.Error, OSError) as error:
        print(f"book_costs: {error}", file=sys.stderr)
        return 1
    print(f"{args.out}: {new} new positions, {total} in all (ply {args.ply}, at least {args.min_nodes} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
