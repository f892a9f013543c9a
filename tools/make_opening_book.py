"""Build ai/opening_book.npz: exact scores (Pons' convention) of the 7x6 positions that matter most.

    python tools/make_opening_book.py --depth 6 [--first-depth 7] [--second-depth 6] [--workers 1]
                                      [--scheduler tcp://HOST:8786]
                                      [--db book.sqlite] [--out ai/opening_book.npz] [--tt-bits 24]
                                      [--top] [--full N] [--seed] [--write-only]

Importance: the book holds every position reachable when one side plays perfectly and the other
plays anything (both sides in turn), down to ``--depth`` plies, and every child of those positions,
so each column of a book position is a lookup. The perfect side's moves are all its best-scoring
moves; below ``SKELETON_PLY`` (where exact scores cost hours) they are the proved result-keeping
moves of the weak entries. ``--top`` then scores the skeleton's positions too, from the deepest
ply up, with the solver using the book built so far as exact leaves. ``--full N`` adds every position of plies
1..N (random openings too), deepest ply first: a position whose children are all scored gets its score
from them (a negamax step, no search), the others are solved with the book so far as exact leaves.

Runs on Dask distributed: a ``LocalCluster`` of ``--workers`` single-threaded processes by default,
or the cluster of ``--scheduler`` (the same code path). Results are appended to an SQLite file keyed
by position, so a killed run continues where it stopped; the book is written from sorted keys, so
it is the same file whatever the number of workers.
"""

from __future__ import annotations

import argparse
import itertools
import sqlite3
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from ai.vocab.opening_book import (  # noqa: E402
    BOOK_FILE,
    Book,
    canonical_key,
    column_scores_from,
    from_bytes,
    position_key,
    to_bytes,
)
from game.rules import get_game  # noqa: E402
from game.rules.connect4 import Connect4Position, Connect4Spec  # noqa: E402

SKELETON_PLY = 3  # plies 0..2 follow the weak entries' moves; from ply 3 on, the exact scores' best moves
DERIVED = -2  # the store's node count of a score taken from the children's (no search; -1: seeded)
CHUNK = 64  # positions per task (neighbours in sorted order: at ply 10, 3-8% fewer nodes than tasks of 16)
IN_FLIGHT = 16  # tasks submitted ahead of the results
FIRST, SECOND = 1, 2  # tree tags: which side plays perfectly
Level = dict[int, tuple[Connect4Position, int]]  # canonical key -> (position, tree tags)


def standard() -> Connect4Spec:
    spec = get_game("connect4")
    assert isinstance(spec, Connect4Spec)
    return spec


def solve_task(texts: tuple[str, ...], tt_bits: int, book_data: bytes | None) -> list[tuple[str, int, int, float]]:
    """Worker side: the exact scores of a few positions (one reused solver per worker process)."""
    from distributed import get_worker

    from ai.solver.core import Solver

    worker: Any = get_worker()
    token = (tt_bits, None if book_data is None else hash(book_data))
    cached = getattr(worker, "connect4_book_solver", None)
    if cached is None or cached[0] != token:
        book = None if book_data is None else from_bytes(book_data)
        cached = (token, Solver(tt_bits=tt_bits, use_book=book is not None, book=book))
        worker.connect4_book_solver = cached
    solved = []
    for text in texts:
        started = time.process_time()
        result = cached[1].solve(standard().parse_position(text))
        assert result.score is not None
        solved.append((text, result.score, result.nodes, time.process_time() - started))
    return solved


class Store:
    """Solved positions in SQLite: canonical key -> score, with the cost of each solve."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(str(path))
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS solved (key TEXT PRIMARY KEY, moves TEXT, score INTEGER, "
            "nodes INTEGER, cpu_s REAL)"
        )
        self.scores: dict[int, int] = {int(k): s for k, s in self.db.execute("SELECT key, score FROM solved")}

    def add(self, text: str, score: int, nodes: int, cpu_s: float, *, commit: bool = True) -> None:
        key = canonical_key(position_key(standard().parse_position(text)))
        self.scores[key] = score
        self.db.execute("INSERT OR REPLACE INTO solved VALUES (?, ?, ?, ?, ?)", (str(key), text, score, nodes, cpu_s))
        if commit:
            self.db.commit()

    def seed(self, book: Book) -> int:
        """Take the exact entries of a book (e.g. the shipped file, the store being lost) that the store lacks;
        they are marked ``nodes = -1`` (cost unknown) and count in no cost figure. Returns how many were new."""
        fresh = [(int(k), int(s)) for k, s in zip(book.keys, book.scores, strict=True) if int(k) not in self.scores]
        self.db.executemany("INSERT INTO solved VALUES (?, '', ?, -1, 0.0)", [(str(k), s) for k, s in fresh])
        self.db.commit()
        self.scores.update(fresh)
        return len(fresh)

    def cost(self, keys: Iterable[int]) -> tuple[int, float]:
        """(positions solved here, their CPU seconds) among ``keys`` (seeded entries left out)."""
        wanted = {str(k) for k in keys}
        rows = [r for r in self.db.execute("SELECT key, cpu_s FROM solved WHERE nodes >= 0") if r[0] in wanted]
        return len(rows), sum(r[1] for r in rows)


def children(position: Connect4Position) -> list[Connect4Position]:
    """The positions after each legal move that do not end the game."""
    out = []
    for col in position.legal_moves():
        child = position.play(col)
        if not child.outcome.is_over:
            out.append(child)
    return out


def best_children(position: Connect4Position, store: Store, weak: Book) -> list[Connect4Position] | None:
    """The perfect side's moves: all best-scoring ones (a win now ends the tree), None if unsolved."""
    wins = [c for c in position.legal_moves() if position.play(c).outcome.winner is not None]
    if wins:
        return []
    if position.ply < SKELETON_PLY:
        entry = weak.entry(position)
        if entry is None:
            raise RuntimeError(f"no weak entry for {position.to_text()!r}: extend the skeleton")
        return [position.play(entry.move)]
    scored: list[tuple[int, Connect4Position]] = []
    for child in children(position):
        score = store.scores.get(canonical_key(position_key(child)))
        if score is None:
            return None
        scored.append((-score, child))
    if not scored:  # every move ends the game in a draw (full board) or there is none
        return []
    best = max(s for s, _ in scored)
    return [c for s, c in scored if s == best]


def tree_levels(depth: int, store: Store, weak: Book, trees: int = FIRST | SECOND) -> list[Level]:
    """Tree nodes per ply (canonical key -> (position, tags)) as far as the store's scores allow."""
    levels: list[Level] = [{canonical_key(0): (standard().start(), trees)}]
    while len(levels) <= depth:
        following: Level = {}
        for key in sorted(levels[-1]):
            position, tags = levels[-1][key]
            for tag in (FIRST, SECOND):
                if not tags & tag:
                    continue
                perfect = (position.ply % 2 == 0) == (tag == FIRST)
                picked = best_children(position, store, weak) if perfect else children(position)
                if picked is None:
                    return levels
                for child in picked:
                    ck = canonical_key(position_key(child))
                    old = following.get(ck)
                    following[ck] = (old[0] if old else child, (old[1] if old else 0) | tag)
        levels.append(following)
    return levels


def needed(levels: list[Level], depth: int, min_ply: int = 0) -> dict[int, Connect4Position]:
    """Positions to score: every child (from ``min_ply`` on) of a tree node above ``depth`` (so the tree's
    nodes too)."""
    out: dict[int, Connect4Position] = {}
    for level in levels[:depth]:
        for key in sorted(level):
            for child in children(level[key][0]):
                if child.ply >= min_ply:
                    out.setdefault(canonical_key(position_key(child)), child)
    return out


def every_level(ply: int) -> list[dict[int, Connect4Position]]:
    """Every position after 0, 1, ..., ``ply`` moves that is not over, one per mirror pair (canonical key ->
    position), ply by ply."""
    levels = [{canonical_key(0): standard().start()}]
    for _ in range(ply):
        following: dict[int, Connect4Position] = {}
        for key in sorted(levels[-1]):
            for child in children(levels[-1][key]):
                following.setdefault(canonical_key(position_key(child)), child)
        levels.append(following)
    return levels


def every_position(ply: int) -> dict[int, Connect4Position]:
    """Every position after ``ply`` moves that is not over, one per mirror pair (canonical key -> position)."""
    return every_level(ply)[-1]


def score_from_children(position: Connect4Position, scores: dict[int, int]) -> int | None:
    """The exact score of ``position`` from its children's (canonical key -> score), None if one is unknown."""
    columns = column_scores_from(position, lambda child: scores.get(canonical_key(position_key(child))))
    return None if columns is None else max(s for s in columns if s is not None)


def derive(positions: dict[int, Connect4Position], store: Store) -> int:
    """Score from their children the positions the store lacks whose children it all knows; returns how many."""
    derived = 0
    for key in sorted(positions):
        if key not in store.scores:
            score = score_from_children(positions[key], store.scores)
            if score is not None:
                store.add(positions[key].to_text(), score, DERIVED, 0.0, commit=False)
                derived += 1
    store.db.commit()
    return derived


def run_tasks(
    client: Any, positions: dict[int, Connect4Position], store: Store, tt_bits: int, book_data: bytes | None, label: str
) -> None:
    from distributed import as_completed

    # siblings one after another: the worker's table keeps what they share (the order changes no score)
    todo = sorted(positions[k].to_text() for k in positions if k not in store.scores)
    if not todo or client is None:  # no client: write what the store knows, solve nothing
        return
    print(f"{label}: {len(todo)} positions to solve ({len(positions) - len(todo)} already known)", flush=True)
    started = time.perf_counter()
    book_ref = None if book_data is None else client.scatter(book_data, broadcast=True, hash=False)  # sent once
    # tasks of CHUNK neighbours in sorted order (siblings share much of their trees: solved by one worker, one
    # after the other, they take 1.14x fewer nodes than spread over two at ply 9), a bounded window of them in flight
    # (submitting a whole level, 260,000 at ply 9, kept the client busy past the scheduler's heartbeat)
    chunks = (tuple(todo[i : i + CHUNK]) for i in range(0, len(todo), CHUNK))
    pending = as_completed(
        [
            client.submit(solve_task, chunk, tt_bits, book_ref, pure=False)
            for chunk in itertools.islice(chunks, IN_FLIGHT)
        ]
    )
    done = 0
    for future in pending:
        for text, score, nodes, cpu_s in future.result():
            store.add(text, score, nodes, cpu_s, commit=False)
        store.db.commit()
        following = next(chunks, None)
        if following is not None:
            pending.add(client.submit(solve_task, following, tt_bits, book_ref, pure=False))
        reported, done = done, done + len(future.result())
        if done // 100 > reported // 100 or done == len(todo):
            rate = done / (time.perf_counter() - started)
            print(f"  {done}/{len(todo)} solved, {rate:.2f} positions/s", flush=True)


def write_book(out: Path, keys: Iterable[int], store: Store, weak: Book) -> Book:
    chosen = sorted(k for k in set(keys) if k in store.scores)
    book = Book(
        np.array(chosen, dtype=np.uint64), np.array([store.scores[k] for k in chosen], dtype=np.int8), weak.weak
    )
    out.write_bytes(to_bytes(book))
    return book


def plan(args: argparse.Namespace) -> list[tuple[int, int]]:
    """(tree tag, depth) to build, in order of importance: the lines of Perfect moving first, then second."""
    depths = (
        (FIRST, args.first_depth if args.first_depth is not None else args.depth),
        (SECOND, args.second_depth if args.second_depth is not None else args.depth),
    )
    return [(tag, depth) for tag, depth in depths if depth > SKELETON_PLY]


def build(client: Any, args: argparse.Namespace) -> Book:
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    store = Store(Path(args.db))
    out = Path(args.out)
    weak = from_bytes((ROOT / "ai" / BOOK_FILE).read_bytes())
    if args.seed:
        print(f"seeded the store with {store.seed(weak)} exact entries of the shipped book", flush=True)
    weak = Book(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), weak.weak)
    keys: set[int] = set()
    trees = plan(args)
    for tag, tree_depth in trees:
        name = "first" if tag == FIRST else "second"
        # the trees built before (all exact) are leaves of this one's searches
        leaves = to_bytes(write_book(out, keys, store, weak)) if keys else None
        for depth in range(SKELETON_PLY + 1, tree_depth + 1):  # ply by ply: the tree grows with the scores
            levels = tree_levels(depth - 1, store, weak, tag)
            run_tasks(
                client,
                needed(levels, depth, SKELETON_PLY + 1),
                store,
                args.tt_bits,
                leaves,
                f"{name} player perfect, ply {depth}",
            )
        keys |= set(needed(tree_levels(tree_depth - 1, store, weak, tag), tree_depth, SKELETON_PLY + 1))
    if args.top:  # the skeleton's plies, deepest first, with the book so far as exact leaves
        for ply in range(SKELETON_PLY, 0, -1):
            top: dict[int, Connect4Position] = {}
            for tag, tree_depth in trees:
                levels = tree_levels(tree_depth - 1, store, weak, tag)
                top.update({k: p for k, p in needed(levels, ply).items() if p.ply == ply})
            book_data = to_bytes(write_book(out, keys, store, weak))
            run_tasks(client, top, store, args.tt_bits, book_data, f"top ply {ply}")
            keys |= set(top)
    every = every_level(args.full) if args.full > 0 else []  # each ply enumerated once
    for ply in range(args.full, 0, -1):  # every position, deepest ply first: the deeper ones score the others
        level, above = every[ply], every[ply - 1]  # above: the next level, its known scores this one's leaves
        derived = derive(level, store) if client is not None else 0
        if client is not None:
            print(f"every position, ply {ply}: {len(level)} positions, {derived} scored from children", flush=True)
        # with the ply above known (e.g. a seeded store), each solve starts from its parents' bound
        leaf_keys = keys | {k for k in (above if client is not None else {}) if k in store.scores}
        exact_leaves = to_bytes(write_book(out, leaf_keys, store, weak)) if leaf_keys else None
        run_tasks(client, level, store, args.tt_bits, exact_leaves, f"every position, ply {ply}")
        keys |= set(level)
    book = write_book(out, keys, store, weak)
    count, cpu_s = store.cost(keys)
    print(
        f"book: {len(book)} positions (to ply {book.max_ply}), {out.stat().st_size} bytes, "
        f"{cpu_s / 3600:.3f} CPU hours of solving, {count / max(cpu_s, 1e-9):.2f} positions/s per worker"
    )
    return book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="book positions down to this ply (both trees)")
    parser.add_argument("--first-depth", type=int, default=None, help="depth of the first-player-perfect tree")
    parser.add_argument(
        "--second-depth", type=int, default=None, help="depth of the second-player-perfect tree (0: leave it out)"
    )
    parser.add_argument("--workers", type=int, default=1, help="LocalCluster worker processes")
    parser.add_argument("--scheduler", default=None, help="address of a running Dask scheduler instead")
    parser.add_argument(
        "--db", default=str(ROOT / "build" / "opening_book.sqlite"), help="resumable store of solved positions"
    )
    parser.add_argument("--out", default=str(ROOT / "ai" / BOOK_FILE))
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--top", action="store_true", help="also score the skeleton plies (slow)")
    parser.add_argument(
        "--full",
        type=int,
        default=0,
        metavar="N",
        help="also every position of plies 1..N (random openings), deepest first",
    )
    parser.add_argument(
        "--seed",
        action="store_true",
        help="first take the shipped book's exact scores into the store (e.g. a new checkout)",
    )
    parser.add_argument(
        "--write-only",
        action="store_true",
        help="solve nothing: write the book from what the store knows (e.g. after a stopped run)",
    )
    args = parser.parse_args(argv)
    if not plan(args) and not args.full:
        parser.error(f"a depth must be more than {SKELETON_PLY}")
    if args.write_only:
        build(None, args)
        return 0
    from distributed import Client, LocalCluster

    if args.scheduler:
        with Client(args.scheduler) as client:
            build(client, args)
        return 0
    cluster = LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    )
    with cluster, Client(cluster) as client:
        build(client, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
