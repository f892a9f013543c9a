"""The first search after a fast one keeps to its budget (the chunk size and rate of the previous
search are not carried over: a proven end-game's near-free iterations once sized a first chunk of
a million UTTT iterations)."""

from __future__ import annotations

import time

import pytest

from ai.mcts.search import Searcher
from game.rules.registry import get_game


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game", ["uttt", "gomoku", "connect4"])
def test_a_search_after_a_fast_one_starts_with_a_small_chunk(game: str) -> None:
    spec = get_game(game)
    searcher = Searcher(spec, seed=2, threads=1)
    try:
        searcher.warm_up()
        for w in searcher._workers:  # what a search in a proven end-game leaves behind
            w.chunk = 1 << 20
            w.rate = 1e9
        start = spec.start()
        searcher.set_position(start.play(start.legal_moves()[0]))
        t0 = time.perf_counter()
        searcher.search(time_ms=50, early_stop=False)
        elapsed = time.perf_counter() - t0
    finally:
        searcher.close()
    assert elapsed < 1.0  # 50 ms asked; a million-iteration first chunk takes many seconds
