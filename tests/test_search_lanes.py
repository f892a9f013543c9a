"""Issue 17 item 11: a search never runs more OS threads than cores (its trees share "lanes"), so
``bestmove`` keeps its deadline at any thread count (figures: ``python -m ai.benchmarks.deadline``)."""

from __future__ import annotations

import os
import threading

import pytest

from ai.mcts import Searcher
from game.rules import get_game

pytestmark = pytest.mark.timeout(120)


def test_sixty_four_trees_run_on_at_most_one_thread_per_core() -> None:
    spec = get_game("connect4")
    searcher = Searcher(spec, seed=1, threads=64, max_nodes=64 * 4096)
    searcher.warm_up()
    before = threading.active_count()
    seen: list[int] = []
    searcher.search(
        time_ms=300, on_info=lambda result: seen.append(threading.active_count()), info_ms=20, early_stop=False
    )
    searcher.close()
    cores = os.cpu_count() or 1
    assert seen, "no info callback ran"
    assert max(seen) - before <= min(64, cores) - 1, f"{max(seen) - before} extra threads on {cores} cores"


def test_the_same_seed_gives_the_same_search_whatever_the_lanes(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("connect4")
    results = []
    for cores in (1, 3, 8):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        searcher = Searcher(spec, seed=7, threads=8, max_nodes=8 * 8192)
        searcher.set_position(spec.parse_position("4453"))
        result = searcher.search(iterations=4000)
        searcher.close()
        results.append([(c.move, c.visits) for c in result.children])
    assert results[0] == results[1] == results[2]
