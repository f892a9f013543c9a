"""tools/book_costs.py: the costly solves of one ply, merged across sessions into one deterministic file."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest

from tests.tools_loader import load_tool

costs_tool = load_tool("book_costs")


def _store(path: Path, rows: list[tuple[str, int]]) -> Path:
    """A store in the builder's schema (a seeded row has no moves and nodes -1)."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE solved (key TEXT PRIMARY KEY, moves TEXT, score INTEGER, nodes INTEGER, cpu_s REAL)")
    db.executemany("INSERT INTO solved VALUES (?, ?, 0, ?, 0.0)", [(str(i), m, n) for i, (m, n) in enumerate(rows)])
    db.commit()
    db.close()
    return path


@pytest.mark.timeout(30)
def test_costly_solves_of_the_ply_are_merged_sorted_keeping_the_larger_count(tmp_path: Path) -> None:
    out = tmp_path / "costly.csv.gz"
    first = _store(
        tmp_path / "a.sqlite",
        [("4444444441", 9_000_000), ("1111111112", 5_000_000), ("2222222223", 100), ("444444444", 8_000_000), ("", -1)],
    )
    assert costs_tool.main(["--db", str(first), "--ply", "10", "--min-nodes", "1000000", "--out", str(out)]) == 0
    assert gzip.decompress(out.read_bytes()).decode() == "1111111112,5000000\n4444444441,9000000\n"
    written = out.read_bytes()
    assert costs_tool.main(["--db", str(first), "--ply", "10", "--min-nodes", "1000000", "--out", str(out)]) == 0
    assert out.read_bytes() == written  # the same costs, the same bytes
    second = _store(tmp_path / "b.sqlite", [("4444444441", 2_000_000), ("3333333331", 7_000_000)])
    assert costs_tool.merge(second, out, 10, 1_000_000) == (1, 3)
    assert costs_tool.read_costs(out) == {"1111111112": 5_000_000, "3333333331": 7_000_000, "4444444441": 9_000_000}


def test_a_damaged_costs_file_is_one_line_of_error_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "costly.csv.gz"
    out.write_bytes(gzip.compress(b"1111111112,5000000\nnot a line\n"))
    damaged = out.read_bytes()
    store = _store(tmp_path / "a.sqlite", [("4444444441", 9_000_000)])
    assert costs_tool.main(["--db", str(store), "--ply", "10", "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "costly.csv.gz:2" in error
    assert out.read_bytes() == damaged
    with pytest.raises(SystemExit):
        costs_tool.main(["--db", str(tmp_path / "missing.sqlite"), "--ply", "10", "--out", str(out)])
