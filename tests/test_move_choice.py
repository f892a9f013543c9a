"""The move the search plays (``ai.mcts.search._choose``), on hand-built root children ``(move, visits, total value,
proof code)`` as OpenSpiel tests its MCTS: a proven win first, else the most visited move that is not a proven loss
(ties: the higher mean value), else the most visited."""

from __future__ import annotations

from ai.mcts.layout import DRAW, LOSS, UNKNOWN, WIN
from ai.mcts.search import _choose

Child = tuple[int, int, float, int]


def test_no_children_no_move() -> None:
    assert _choose([]) is None


def test_a_proven_win_is_played_however_few_its_visits() -> None:
    children: list[Child] = [(0, 900, 600.0, UNKNOWN), (1, 3, 3.0, WIN), (2, 90, 40.0, UNKNOWN)]
    assert _choose(children) == (1, 3, 3.0, WIN)


def test_among_proven_wins_the_most_visited() -> None:
    children: list[Child] = [(0, 5, 5.0, WIN), (1, 900, 100.0, UNKNOWN), (2, 40, 40.0, WIN)]
    assert _choose(children) == (2, 40, 40.0, WIN)


def test_the_most_visited_move_that_is_not_a_proven_loss() -> None:
    children: list[Child] = [(0, 1000, 900.0, LOSS), (1, 400, 200.0, UNKNOWN), (2, 300, 290.0, UNKNOWN)]
    assert _choose(children) == (1, 400, 200.0, UNKNOWN)


def test_a_proven_draw_is_not_a_loss_and_competes_on_visits() -> None:
    children: list[Child] = [(0, 700, 350.0, DRAW), (1, 500, 400.0, UNKNOWN), (2, 800, 0.0, LOSS)]
    assert _choose(children) == (0, 700, 350.0, DRAW)


def test_equal_visits_go_to_the_higher_mean_value() -> None:
    children: list[Child] = [(0, 200, 90.0, UNKNOWN), (1, 200, 130.0, UNKNOWN), (2, 100, 99.0, UNKNOWN)]
    assert _choose(children) == (1, 200, 130.0, UNKNOWN)


def test_when_every_move_loses_the_most_visited() -> None:
    children: list[Child] = [(0, 10, 0.0, LOSS), (1, 30, 0.0, LOSS), (2, 20, 0.0, LOSS)]
    assert _choose(children) == (1, 30, 0.0, LOSS)


def test_unvisited_children_count_as_a_mean_of_zero() -> None:
    children: list[Child] = [(0, 0, 0.0, UNKNOWN), (1, 0, 0.0, UNKNOWN)]
    assert _choose(children) in children
    assert _choose([(0, 0, 0.0, UNKNOWN), (1, 1, 0.2, UNKNOWN)]) == (1, 1, 0.2, UNKNOWN)
