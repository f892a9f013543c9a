"""Thinking on the opponent's time (``ai.search.ponder``) with the in-process searcher."""

from __future__ import annotations

import pytest

from ai.search.hybrid import HybridSearcher
from ai.search.ponder import Ponderer
from game.rules import get_game
from tests.waiting import wait_until


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game", ["uttt", "connect4"])
def test_a_predicted_reply_starts_the_next_search_ahead(game: str) -> None:
    spec = get_game(game)
    searcher = HybridSearcher(spec, threads=1, seed=3)
    searcher.warm_up()
    ponderer = Ponderer(searcher)
    assert ponderer.stop() is None  # nothing to stop
    position = spec.parse_position("e5" if game == "uttt" else "4")
    ponderer.start(position)
    assert ponderer.active
    wait_until(lambda: searcher.root_visits > 2000, 30, "the ponder to search 2,000 iterations")
    first = ponderer.stop()
    assert first is not None and first.predicted in position.legal_moves() and first.iterations > 1000
    kept = searcher.root_visits
    ponderer.start(position)  # again, and the opponent plays the expected reply
    wait_until(lambda: searcher.root_visits > kept + 2000, 30, "the second ponder to search")
    outcome = ponderer.stop(first.predicted)
    assert outcome is not None and not ponderer.active
    searcher.set_position(position.play(first.predicted))
    assert searcher.root_visits > 1000  # the search after the reply starts from the pondered subtree
    assert ponderer.ponders == 1 and ponderer.hits == int(outcome.hit)
    searcher.close()


@pytest.mark.timeout(30)
def test_no_ponder_on_a_finished_game() -> None:
    spec = get_game("connect4")
    searcher = HybridSearcher(spec, threads=1, seed=1)
    ponderer = Ponderer(searcher)
    ponderer.start(spec.parse_position("1212121"))
    assert not ponderer.active and ponderer.stop(0) is None
    searcher.close()
