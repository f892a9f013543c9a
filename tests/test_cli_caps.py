"""Issue 17 item 10: every CLI path refuses out-of-range numbers and huge inputs with one short
line and exit status 2, and ``analyze -`` reads bounded lines (no line can fill memory)."""

from __future__ import annotations

import io
import json
import sys

import pytest
from test_fuzz_cli import safe_main  # noqa: F401 - the fixture

from ai.vocab import limits

HUGE_MOVES = "4" * 130_000

REFUSED = [
    ["analyze", "--threads", "-5", ""],
    ["analyze", "--threads", "100000", ""],
    ["bench", "--threads", "100000"],
    ["analyze", "--time-ms", "1e300", ""],
    ["solve", "--time-ms", "1e300", "4453"],
    ["solve", "", "--game", "connect4:9x6", "--time-ms", "1e8"],
    ["solve", "--threads", "-1", "4453"],
    ["solve", "--threads", "100000", "4453"],
    ["analyze", "--iterations", "1" + "0" * 30, ""],
    ["bench", "--seconds", "1e12"],
    ["analyze", HUGE_MOVES],
    ["solve", HUGE_MOVES],
    ["analyze", "--game", "x" * 100_000, ""],
    ["solve", "--game", "x" * 100_000],
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("argv", REFUSED, ids=[" ".join(a)[:50] for a in REFUSED])
def test_out_of_range_arguments_get_one_short_line_and_status_2(safe_main, capsys, argv) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    capsys.readouterr()
    code = safe_main(argv)
    err = capsys.readouterr().err
    assert code == 2, err[:300]
    assert len(err.strip().splitlines()) == 1 and "error" in err
    assert len(err) < 400, f"echo not bounded: {len(err)} characters"


@pytest.mark.timeout(30)
def test_analyze_stdin_reads_bounded_lines(safe_main, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    data = b"0" * (5 * limits.MAX_LINE + 17) + b"\n4453\n" + b"1" * (3 * limits.MAX_LINE)  # the last has no newline
    reads: list[int] = []

    class Recording(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            reads.append(len(line))
            return line

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Recording(data)))
    capsys.readouterr()
    assert safe_main(["analyze", "-", "--iterations", "10"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [("error" in r) for r in rows] == [True, False, True]
    assert "too long" in rows[0]["error"] and rows[1]["best_move"]
    assert all(len(json.dumps(r)) < 1000 for r in rows)
    assert max(reads) <= limits.MAX_LINE + 1


def test_excerpt_is_bounded() -> None:
    text = limits.excerpt("9" * 100_000)
    assert len(text) < 100 and "100000 characters" in text
