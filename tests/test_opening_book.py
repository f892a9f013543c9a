"""The opening book: well-formed, consistent with itself, and used by the engine.

Re-proving the entries takes minutes per entry (``python -m ai.benchmarks.verify_book``); here
the book is checked for what can be checked quickly.
"""

from __future__ import annotations

import pytest

from ai import opening_book
from ai.hybrid import with_book
from ai.opening_book import BookEntry, lookup
from ai.results import MoveStats, SearchResult
from game import get_game

SPEC = get_game("connect4")


def test_book_is_loaded_and_covers_the_first_ply() -> None:
    book = opening_book.entries()
    assert "" in book
    for first in range(SPEC.width):
        assert lookup(SPEC.start().play(first)) is not None, f"no entry for {first + 1} (or its mirror)"


def test_entries_are_legal_and_agree_with_their_children() -> None:
    checked = 0
    for moves, entry in opening_book.entries().items():
        position = SPEC.parse_position(moves)
        assert not position.outcome.is_over
        assert entry.move in position.legal_moves()
        child = lookup(position.play(entry.move))
        if child is not None:  # the book move keeps the result, so the child is the opposite
            assert child.result == -entry.result, f"{moves} + {entry.move + 1}"
            checked += 1
    assert checked >= 1


def test_mirror_lookup_reflects_the_move() -> None:
    assert lookup(SPEC.parse_position("7")) == BookEntry(lookup(SPEC.parse_position("1")).result,
                                                         SPEC.width - 1 - lookup(SPEC.parse_position("1")).move)
    assert lookup(get_game("connect4:8x7").start()) is None


def _result(best: int, proven: int | None = None) -> SearchResult:
    children = tuple(MoveStats(m, 10 + m, 0.5, None) for m in range(7))
    return SearchResult(best, 0.5, children, 70, 1.0, 3, (best,), False, proven)


def test_with_book_plays_the_book_move_unless_the_solver_knows_better(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening_book, "entries", lambda: {"": BookEntry(1, 3)})
    start = SPEC.start()
    booked = with_book(_result(best=2), start)
    assert booked.best_move == 3 and booked.proven == 1 and booked.value == 1.0
    assert next(c for c in booked.children if c.move == 3).proven == 1
    solved = _result(best=2, proven=0)
    assert with_book(solved, start) is solved
    assert with_book(_result(best=2), SPEC.parse_position("44")) .best_move == 2


def test_engine_opens_in_the_centre_with_exact_play() -> None:
    from ai.hybrid import HybridSearcher

    searcher = HybridSearcher(SPEC, seed=3)
    searcher.set_position(SPEC.start())
    result = searcher.search(time_ms=150, exact=True)
    assert result.best_move == 3
    assert result.proven == 1


def test_a_lost_book_position_keeps_the_search_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening_book, "entries", lambda: {"4": BookEntry(-1, 3)})
    booked = with_book(_result(best=5), SPEC.parse_position("4"))
    assert booked.best_move == 5 and booked.proven == -1 and booked.value == 0.0
