"""The opening-book builder: which positions it scores, and the same file whatever the workers.

Real scores at ply 4 cost seconds each, so the tree tests use made-up (but fixed) scores: the tree's
shape only depends on which children score best.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.vocab.opening_book import canonical_key, from_bytes, ply_of_keys, position_key
from tests.tools_loader import load_tool

ROOT = Path(__file__).resolve().parents[1]
mob = load_tool("make_opening_book")


class FakeScores(dict):  # type: ignore[type-arg]
    """A fixed pseudo-random score for every key (the real ones are too costly for a test)."""

    def get(self, key: Any, default: Any = None) -> int:
        return int(hashlib.sha256(str(key).encode()).digest()[0]) % 5 - 2


class FakeStore:
    def __init__(self) -> None:
        self.scores = FakeScores()


def _weak() -> Any:
    return mob.Book(
        mob.np.zeros(0, dtype=mob.np.uint64),
        mob.np.zeros(0, dtype=mob.np.int8),
        from_bytes((ROOT / "ai" / mob.BOOK_FILE).read_bytes()).weak,
    )


@pytest.mark.timeout(120)
def test_tree_keeps_the_best_moves_of_the_perfect_side_and_every_move_of_the_other() -> None:
    store = FakeStore()
    levels = mob.tree_levels(5, store, _weak(), mob.FIRST | mob.SECOND)
    assert len(levels) == 6
    weak = _weak()
    for ply, level in enumerate(levels[:-1]):
        for tag in (mob.FIRST, mob.SECOND):
            perfect = (ply % 2 == 0) == (tag == mob.FIRST)
            expected: set[int] = set()
            for position, tags in level.values():
                if not tags & tag:
                    continue
                kids = {canonical_key(position_key(c)): c for c in mob.children(position)}
                if not perfect:
                    expected |= set(kids)
                elif ply >= mob.SKELETON_PLY:
                    best = max((-store.scores.get(k) for k in kids), default=None)
                    expected |= {k for k in kids if -store.scores.get(k) == best}
                else:
                    expected.add(canonical_key(position_key(position.play(weak.entry(position).move))))
            assert {k for k, (_, tags) in levels[ply + 1].items() if tags & tag} == expected, (ply, tag)
    wanted = mob.needed(levels, 5)
    for level in levels[:5]:
        for position, _ in level.values():
            assert all(canonical_key(position_key(c)) in wanted for c in mob.children(position))


@pytest.mark.timeout(60)
def test_first_tree_only_is_smaller_and_inside_the_full_one() -> None:
    store = FakeStore()
    first = mob.needed(mob.tree_levels(4, store, _weak(), mob.FIRST), 5)
    both = mob.needed(mob.tree_levels(4, store, _weak(), mob.FIRST | mob.SECOND), 5)
    assert set(first) < set(both)


class RecordingClient:
    def __init__(self) -> None:
        self.submitted: list[str] = []

    def submit(self, fn: Any, texts: tuple[str, ...], *args: Any, **kwargs: Any) -> Any:
        self.submitted.extend(texts)
        raise RuntimeError("stop here")


@pytest.mark.timeout(60)
def test_a_resumed_run_submits_only_the_positions_not_stored(tmp_path: Path) -> None:
    store = mob.Store(tmp_path / "db.sqlite")
    spec = mob.get_game("connect4")
    positions = {
        canonical_key(position_key(spec.parse_position(t))): spec.parse_position(t) for t in ("4444", "4443", "4442")
    }
    store.add("4442", 1, 10, 0.5)
    assert mob.Store(tmp_path / "db.sqlite").scores == store.scores  # persisted
    client = RecordingClient()
    with pytest.raises(RuntimeError):
        mob.run_tasks(client, positions, store, 20, None, "test")
    assert client.submitted == ["4443", "4444"]  # sorted, in one task, the stored one left out


@pytest.mark.timeout(240)
def test_one_and_two_workers_write_the_same_file(tmp_path: Path) -> None:
    """A store that already knows every score: the build only assembles the file (no solving)."""
    db = tmp_path / "db.sqlite"
    store = mob.Store(db)
    fake = FakeScores()
    levels = mob.tree_levels(3, store, _weak(), mob.FIRST)
    for key, position in sorted(mob.needed(levels, 4, mob.SKELETON_PLY + 1).items(), reverse=True):
        store.add(position.to_text(), fake.get(key), 1, 0.01)
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"book{workers}.npz"
        run = subprocess.run(
            [
                sys.executable,
                str(ROOT / "tools" / "make_opening_book.py"),
                "--depth",
                "4",
                "--second-depth",
                "0",
                "--workers",
                str(workers),
                "--db",
                str(db),
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            timeout=200,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert "positions to solve" not in run.stdout
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    book = from_bytes(outs[0])
    assert len(book) == len(mob.needed(levels, 4, mob.SKELETON_PLY + 1)) and book.max_ply == 4


# a build of the same kinds as the shipped book's (``--first-depth 9 --second-depth 7 --top --full 10``), small
# enough to write in seconds: the full arguments enumerate every position to ply 10 (100 s alone, 300 s under load)
SMALL_BUILD = ["--first-depth", "6", "--second-depth", "5", "--top", "--full", "4"]


@pytest.mark.timeout(120)
def test_a_store_seeded_from_the_shipped_book_writes_its_entries_again(tmp_path: Path) -> None:
    """A new checkout has no store: ``--seed`` takes the shipped scores in, and a build from it writes the shipped
    entries again (every position to the ``--full`` ply, the trees and the weak entries, with the shipped scores),
    so extending the book continues from it, counting no cost for the seeded entries."""
    shipped = from_bytes((ROOT / "ai" / mob.BOOK_FILE).read_bytes())
    out = tmp_path / "book.npz"
    db = tmp_path / "db.sqlite"
    assert mob.main([*SMALL_BUILD, "--seed", "--write-only", "--db", str(db), "--out", str(out)]) == 0
    small = from_bytes(out.read_bytes())
    shipped_scores = dict(zip(shipped.keys.tolist(), shipped.scores.tolist(), strict=True))
    written = dict(zip(small.keys.tolist(), small.scores.tolist(), strict=True))
    assert small.max_ply == 6 and all(shipped_scores.get(k) == score for k, score in written.items())
    to_ply_4 = {k for k, ply in zip(shipped.keys.tolist(), ply_of_keys(shipped.keys).tolist(), strict=True) if ply <= 4}
    assert to_ply_4 and to_ply_4 <= set(written)  # --full 4: every position to ply 4
    assert small.weak == shipped.weak
    store = mob.Store(db)
    assert len(store.scores) == len(shipped)
    assert store.seed(shipped) == 0  # nothing new the second time
    assert store.cost(int(k) for k in shipped.keys) == (0, 0.0)


@pytest.mark.timeout(60)
def test_every_position_folds_the_known_counts_of_distinct_positions() -> None:
    """OEIS A212693 (distinct 7x6 positions after n moves): 1, 7, 49, 238, 1120; each mirror pair kept once."""
    from ai.vocab.opening_book import mirror_key

    for ply, distinct in enumerate((1, 7, 49, 238, 1120)):
        level = mob.every_position(ply)
        assert all(p.ply == ply and not p.outcome.is_over for p in level.values())
        both = {k for key in level for k in (key, mirror_key(key))}
        assert len(both) == distinct, ply


@pytest.mark.timeout(120)
def test_a_score_from_the_children_is_the_solvers_score(tmp_path: Path) -> None:
    from ai.solver.core import Solver

    solver = Solver(tt_bits=20, use_book=False)
    spec = mob.get_game("connect4")
    for text in ("44444343331", "1234567123", "4455661", "434343", "1434343"):  # the last two: a win at once
        position = spec.parse_position(text)
        scores = {canonical_key(position_key(c)): solver.solve(c).score for c in mob.children(position)}
        assert mob.score_from_children(position, scores) == solver.solve(position).score, text
    assert mob.score_from_children(spec.parse_position("434343"), {}) is None  # every child's score is needed
    position = spec.parse_position("4455661")
    key = canonical_key(position_key(position))
    kids = [canonical_key(position_key(c)) for c in mob.children(position)]
    store = mob.Store(tmp_path / "db.sqlite")
    for k in kids[1:]:  # one child unknown: nothing derived
        store.scores[k] = solver.solve(spec.parse_position(mob.children(position)[kids.index(k)].to_text())).score
    assert mob.derive({key: position}, store) == 0 and key not in store.scores
    store.scores[kids[0]] = solver.solve(mob.children(position)[0]).score
    assert mob.derive({key: position}, store) == 1
    assert mob.Store(tmp_path / "db.sqlite").scores[key] == solver.solve(position).score  # stored, persisted
