"""The ladder's position set says what it claims: positions where the choice matters, scored exactly."""

from __future__ import annotations

import json

import pytest

from ai.benchmarks.ladder import wilson
from ai.benchmarks.ladder_positions import DEFAULT_OUT, judged
from ai.solver.core import Solver
from game.rules import get_game

pytestmark = pytest.mark.timeout(120)


def test_judged_marks_the_columns_that_keep_the_value() -> None:
    item = judged("4", (-3, 1, None, 0, 2, -1, -5), "easy-medium")
    assert item["value_preserving_cols"] == [2, 5] and item["optimal_cols"] == [5]
    assert item["value_choice_matters"] and item["ply"] == 1
    drawn = judged("44", (0, 0, 0, 0, 0, 0, None), "x")
    assert not drawn["value_choice_matters"] and drawn["value_preserving_cols"] == [1, 2, 3, 4, 5, 6]


def test_the_shipped_set_is_large_and_its_scores_are_the_solvers() -> None:
    with open(DEFAULT_OUT, encoding="utf-8") as fh:
        items = [json.loads(line) for line in fh]
    assert len(items) >= 300 and all(item["value_choice_matters"] for item in items)
    assert len({item["moves"] for item in items}) == len(items)
    spec = get_game("connect4")
    solver = Solver()
    late = [item for item in items if item["ply"] >= 24][:6]  # quick to prove again
    assert late
    for item in late:
        columns = solver.analyze_columns(spec.parse_position(item["moves"]))  # type: ignore[arg-type]
        assert columns.complete and list(columns.scores) == item["scores"], item["moves"]
        assert item == judged(item["moves"], columns.scores, item["game"])


def test_wilson_interval() -> None:
    low, high = wilson(10, 100)
    assert 5.0 < low < 10.0 < high < 18.0
    assert wilson(0, 50)[0] == 0.0 and wilson(0, 0) == (0.0, 100.0)
