"""The rules-based MCTS (``ai.mcts.rules_search``), the engine's search for a game without a compiled kernel:
it finds and proves what a small position holds, answers in the compiled search's result types, and is
picked only where ``ai.mcts.games`` has no adapter."""

from __future__ import annotations

import threading

import pytest

from ai.mcts import Searcher
from ai.mcts.games import ADAPTERS
from ai.mcts.rules_search import RulesSearcher, searcher_for
from ai.vocab.results import MoveStats, SearchResult
from game.rules import get_game

pytestmark = pytest.mark.timeout(60)
SMALL = get_game("connect4:6x5")


def search(moves: str, iterations: int, seed: int = 1) -> SearchResult:
    searcher = RulesSearcher(SMALL, seed=seed)
    searcher.set_position(SMALL.parse_position(moves))
    return searcher.search(iterations=iterations)


def test_it_takes_and_proves_a_win_in_one() -> None:
    result = search("112233", 2000)  # X has 1, 2, 3 on the bottom row: column 4 wins
    assert SMALL.move_to_text(result.best_move) == "4" and result.proven == 1 and result.value == 1.0


def test_it_blocks_the_only_threat_and_proves_every_other_move_lost() -> None:
    result = search("11223", 3000)  # O must take column 4
    assert SMALL.move_to_text(result.best_move) == "4"
    lost = {c.move for c in result.children if c.proven == -1}
    assert lost == set(SMALL.parse_position("11223").legal_moves()) - {3}


def test_its_results_are_the_compiled_search_types_with_one_row_per_legal_move() -> None:
    result = search("", 300)
    assert isinstance(result, SearchResult) and all(isinstance(c, MoveStats) for c in result.children)
    assert [c.move for c in result.children] == list(range(SMALL.width))
    assert sum(c.visits for c in result.children) == result.iterations == 300
    assert result.pv and result.pv[0] == result.best_move and result.max_depth >= len(result.pv)
    early = search("", 2)  # fewer iterations than moves: the moves not tried yet are rows with no visits
    assert [c.move for c in early.children] == list(range(SMALL.width)) and sum(c.visits for c in early.children) == 2


def test_the_same_seed_gives_the_same_search() -> None:
    one, two = search("34", 500, seed=7), search("34", 500, seed=7)
    assert (one.best_move, one.children, one.pv) == (two.best_move, two.children, two.pv)


def test_a_stop_request_ends_it_after_one_iteration() -> None:
    searcher = RulesSearcher(SMALL, seed=1)
    stop = threading.Event()
    stop.set()
    assert searcher.search(iterations=10_000, stop_event=stop).iterations == 1


def test_bad_budgets_and_finished_games_are_refused() -> None:
    searcher = RulesSearcher(SMALL, seed=1)
    with pytest.raises(ValueError, match="give a budget"):
        searcher.search()
    searcher.set_position(SMALL.parse_position("1212121"))
    with pytest.raises(ValueError, match="the game is over"):
        searcher.search(iterations=10)


def test_it_is_picked_only_for_a_game_without_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(searcher_for(SMALL, seed=1, threads=1), Searcher)
    monkeypatch.delitem(ADAPTERS, SMALL.family)
    assert isinstance(searcher_for(SMALL, seed=1, threads=1), RulesSearcher)
