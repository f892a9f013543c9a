"""``main.py analyze`` / ``bench`` and the plain-Python (no numba) search, in subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.positions import WIN_IN_ONE_OFF_BOOK

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_analyze_single_position_json() -> None:
    proc = _run("main.py", "analyze", WIN_IN_ONE_OFF_BOOK, "--iterations", "200", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["position"] == WIN_IN_ONE_OFF_BOOK
    assert data["best_move"] == "2"
    assert data["iterations"] >= 1  # a search, not a book answer
    assert {c["move"] for c in data["children"]} == set("1234567")
    assert next(c for c in data["children"] if c["move"] == "2")["proven"] == "win"


def test_analyze_table_output() -> None:
    proc = _run("main.py", "analyze", "4453", "--iterations", "500", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    assert "best move" in proc.stdout and "visits" in proc.stdout


def test_analyze_batch_goes_on_after_bad_lines() -> None:
    proc = _run("main.py", "analyze", "-", "--iterations", "300", "--seed", "1", stdin="4453\n48\n1212121\n12131\n")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["position"] for r in rows] == ["4453", "48", "1212121", "12131"]
    assert "error" not in rows[0] and rows[0]["best_move"] in "1234567"
    assert "out of range" in rows[1]["error"]
    assert "over" in rows[2]["error"]
    assert rows[3]["best_move"] == "1"


def test_analyze_bad_input_exits_2_with_one_line() -> None:
    for args in (["x"], ["44", "--game", "chess"], ["1", "--iterations", "0"]):
        proc = _run("main.py", "analyze", *args)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("error:")


def test_bench_json_reports_rates() -> None:
    proc = _run("main.py", "bench", "--seconds", "0.05", "--threads", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["runs"] and all(r["iterations"] > 0 for r in data["runs"])
    assert data["jit_load_s"] > 0


def test_plain_python_search_without_numba() -> None:
    code = (
        "from ai.mcts import Searcher\nfrom game.rules import get_game\n"
        "spec = get_game('connect4:5x4')\ns = Searcher(spec, seed=1)\n"
        "s.set_position(spec.parse_position('121212'))\nr = s.search(iterations=60)\n"
        "print(r.best_move, r.iterations, r.proven)\n"
        "s.set_position(spec.parse_position('12121'))\nr = s.search(iterations=60)\nprint(r.best_move)\n"
        "s.set_position(spec.parse_position('121211'))\nprint(s.root_visits, s.search(iterations=20).best_move)\n"
    )
    proc = _run("-c", code, env={"CONNECT4_NO_NUMBA": "1"})
    assert proc.returncode == 0, proc.stderr
    first, second, third = proc.stdout.split("\n")[:3]
    assert first.split() == ["0", "1", "1"]  # takes the win: proven after one iteration
    assert second == "0"  # blocks column 1
    visits, move = third.split()
    assert int(visits) >= 50  # the block's subtree is kept (compacted)
    assert move in "1234"  # column 1 is full now
