"""The balanced-opening picker (ai/benchmarks/piskvork_openings.py) against a stand-in judge brain: it keeps
exactly the openings the judge rates within the margin and not a forced win, and refuses bad arguments."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from ai.benchmarks.piskvork_openings import main

pytestmark = pytest.mark.timeout(120)

# A Piskvork brain that rates a position (x - 7) * 60 by the x of its last stone, a forced win when that
# stone is in column 10, and prints it as Rapfi does ("MESSAGE ... Eval N ...").
JUDGE = textwrap.dedent(
    """
    import sys
    board = None
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("START"):
            print("OK", flush=True)
        elif line == "BOARD":
            board = []
        elif line == "DONE":
            x = int(board[-1].split(",")[0])
            value = "+M9" if x == 10 else str((x - 7) * 60)
            print(f"MESSAGE Speed 1K | Depth 3 | Eval {value} | Node 1", flush=True)
            print("0,0", flush=True)
            board = None
        elif board is not None:
            board.append(line)
        elif line == "END":
            break
    """
)


def test_keeps_the_openings_the_judge_rates_even(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judge = tmp_path / "judge.py"
    judge.write_text(JUDGE)
    status = main(["--judge", f"{sys.executable} {judge}", "--count", "3", "--tries", "40", "--ms", "10"])
    out = capsys.readouterr().out.splitlines()
    tried = [line for line in out if line[:1].isdigit()]
    kept = [ast.literal_eval(line.strip().rstrip(",")) for line in out if line.startswith("    (")]
    assert status == 0 and len(kept) == 3
    for line in tried:  # the judge's verdict is the last stone's column: kept exactly when |x - 7| <= 1
        stones = ast.literal_eval(line[line.index("[") : line.index("]") + 1])
        x = stones[-1][0]
        assert line.endswith(" kept") == (abs(x - 7) <= 1), line
    chosen = [t for t in tried if t.endswith(" kept")]
    assert [list(k) for k in kept] == [ast.literal_eval(t[t.index("[") : t.index("]") + 1]) for t in chosen]


@pytest.mark.parametrize("args", [["--count", "0"], ["--stones", "11"], ["--margin", "-1"], ["--bogus"]])
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--judge", "none", *args])
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err
