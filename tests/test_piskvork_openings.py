"""The balanced-opening picker (ai/benchmarks/piskvork_openings.py) against a stand-in judge brain: it keeps
exactly the openings the judge rates within the margin and not a forced win, and refuses bad arguments."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from ai.benchmarks.piskvork_match import BOOKS
from ai.benchmarks.piskvork_openings import canonical, main

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
    tried = [line for line in out if line[:1].isdigit() and " same as " not in line]  # the judged ones
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


def test_an_opening_and_its_rotations_and_reflections_share_one_key() -> None:
    opening = ((7, 7), (9, 6), (4, 8))
    images = {
        canonical(
            tuple(
                (7 + sx * (x - 7), 7 + sy * (y - 7)) if not swap else (7 + sy * (y - 7), 7 + sx * (x - 7))
                for x, y in opening
            )
        )
        for sx in (1, -1)
        for sy in (1, -1)
        for swap in (False, True)
    }
    assert len(images) == 1
    assert canonical(((7, 7), (4, 8), (9, 6))) != canonical(opening)  # the colours swapped: another opening
    assert canonical(((7, 7), (9, 6), (4, 9))) != canonical(opening)


def test_an_opening_the_books_or_the_run_already_have_is_not_judged_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judge = tmp_path / "judge.py"
    judge.write_text(JUDGE)
    args = ["--judge", f"{sys.executable} {judge}", "--count", "60", "--tries", "300", "--ms", "10", "--radius", "2"]
    main(args)  # 3 stones within 2 of the centre: few openings, so repeats are certain; x = 5 or 9 is rejected
    out = capsys.readouterr().out.splitlines()
    judged = [line for line in out if line[:1].isdigit() and " same as " not in line]
    keys = [canonical(tuple(ast.literal_eval(line[line.index("[") : line.index("]") + 1]))) for line in judged]
    assert len(keys) == len(set(keys))  # each opening judged once, whatever its image
    assert any(" same as kept " in line for line in out) and any(" same as tried " in line for line in out)
    book_keys = {canonical(o) for book in BOOKS.values() for o in book}
    assert not set(keys) & book_keys
