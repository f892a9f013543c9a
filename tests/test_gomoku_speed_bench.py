"""The Gomoku speed benchmark reports the nominal depth (its completed depths) and, with ``--depths``,
each depth's time, nodes and score."""

from __future__ import annotations

import re

import pytest

from ai.benchmarks import gomoku_speed
from ai.mcts.gomoku_search import SCALE


def test_depth_report_lists_every_completed_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert gomoku_speed.main(["--time-ms", "150", "--openings", "1", "--plies", "2", "--depths"]) == 0
    lines = capsys.readouterr().out.splitlines()
    summary = lines[-1]
    found = re.search(r"nominal depth mean ([\d.]+) \(min (\d+), max (\d+)\)", summary)
    assert found, summary
    per_position = [line for line in lines[:-1] if line.startswith("ply ")]
    assert per_position, lines
    counts = [len(line.split(": ", 1)[1].split(", ")) for line in per_position]
    assert int(found.group(2)) == min(counts) >= 1
    assert int(found.group(3)) == max(counts)
    for line in per_position:
        for step in line.split(": ", 1)[1].split(", "):
            assert re.fullmatch(r"\d+ ms [\d,]+ ([+-]\d+|won|lost)", step), step


def test_score_is_the_logit_of_the_win_chance_scaled() -> None:
    assert gomoku_speed._score(0.5) == "+0"
    assert gomoku_speed._score(1.0) == "won"
    assert gomoku_speed._score(0.0) == "lost"
    assert gomoku_speed._score(1 / (1 + 2.718281828459045)) == f"{-SCALE:+.0f}"
