"""The opening book: its format, mirror folding, the solver's use of its scores, and the engine's use.

Re-proving the shipped entries takes minutes for the shallow ones (``python -m ai.benchmarks.verify_book``);
here the shipped book is checked for what can be checked quickly, and small books are made by solving
late positions.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.search.hybrid import with_book
from ai.solver.board import KernelBoard
from ai.solver.core import NO_FLOOR, Solver
from ai.vocab import opening_book
from ai.vocab.opening_book import (
    Book,
    BookEntry,
    bitboard_children,
    canonical_key,
    from_bytes,
    has_four,
    lookup,
    mirror_key,
    mirror_keys,
    ply_of_keys,
    position_key,
    to_bytes,
)
from ai.vocab.results import MoveStats, SearchResult
from game.rules.connect4 import Connect4Spec
from tests.positions import OFF_BOOK_SEARCH, WIN_IN_ONE_OFF_BOOK

SPEC = Connect4Spec()
LATE = "5275331143367744242212"  # 22 plies: every child solves in milliseconds


def _positions(draw: st.DrawFn) -> str:
    position = SPEC.start()
    for _ in range(draw(st.integers(0, 20))):
        legal = [c for c in position.legal_moves() if not position.play(c).outcome.is_over]
        if not legal:
            break
        position = position.play(draw(st.sampled_from(legal)))
    return position.to_text()


positions = st.composite(_positions)


@pytest.mark.timeout(60)
@settings(max_examples=60, deadline=None)
@given(positions())
def test_keys_mirror_and_count_stones(text: str) -> None:
    position = SPEC.parse_position(text)
    mirrored = SPEC.parse_position(opening_book.mirror_text(text))
    key = position_key(position)
    assert mirror_key(key) == position_key(mirrored)
    assert mirror_key(mirror_key(key)) == key
    assert canonical_key(key) == canonical_key(position_key(mirrored))
    words = np.array([key, position_key(mirrored)], dtype=np.uint64)
    assert [int(k) for k in mirror_keys(words)] == [position_key(mirrored), key]
    assert [int(p) for p in ply_of_keys(words)] == [position.ply, position.ply]


def _solved_book(parent: str, wrong: int | None = None) -> tuple[Book, tuple[int | None, ...]]:
    """A book of the children of ``parent`` scored by the solver alone (one of them off by ``wrong``)."""
    solver = Solver(tt_bits=20, use_book=False)
    position = SPEC.parse_position(parent)
    keys, scores = [], []
    for col in position.legal_moves():
        child = position.play(col)
        if child.outcome.is_over:
            continue
        keys.append(canonical_key(position_key(child)))
        score = solver.solve(child).score
        assert score is not None  # no time limit: every solve finishes
        scores.append(score)
    if wrong is not None:
        scores[0] += wrong
    book = Book(np.array(keys, dtype=np.uint64), np.array(scores, dtype=np.int8))
    return book, solver.analyze_columns(position).scores


@pytest.mark.timeout(60)
def test_book_column_scores_agree_with_the_solver_alone_also_mirrored() -> None:
    book, expected = _solved_book(LATE)
    assert book.column_scores(SPEC.parse_position(LATE)) == expected
    mirrored = book.column_scores(SPEC.parse_position(opening_book.mirror_text(LATE)))
    assert mirrored == tuple(reversed(expected))
    entry = book.entry(SPEC.parse_position(LATE))
    best = max(s for s in expected if s is not None)
    assert entry is not None and expected[entry.move] == best and entry.result == (best > 0) - (best < 0)
    assert book.column_scores(SPEC.parse_position(LATE + "1")) is None  # children not in the book


@pytest.mark.timeout(60)
def test_the_solver_takes_book_scores_as_exact_leaves() -> None:
    """A deliberately wrong entry changes the solver's answer: proof that the search reads the book."""
    root = SPEC.parse_position(LATE)
    honest, expected = _solved_book(LATE)
    assert Solver(tt_bits=20, book=honest).analyze_columns(root).scores == expected
    liar, _ = _solved_book(LATE, wrong=-30)  # the first child now looks like a quick win for the root's mover
    lied = Solver(tt_bits=20, book=liar).analyze_columns(root).scores  # children: looked up at the root
    assert lied != expected and sum(a != b for a, b in zip(lied, expected, strict=True)) == 1
    honest_score = Solver(tt_bits=20, use_book=False).solve(root).score
    lied_score = Solver(tt_bits=20, book=liar).solve(root).score
    assert honest_score is not None and lied_score is not None
    assert Solver(tt_bits=20, book=honest).solve(root).score == honest_score
    assert lied_score > honest_score  # read inside the search


@pytest.mark.timeout(30)
def test_file_round_trip_and_a_corrupt_file_gives_an_empty_book(monkeypatch: pytest.MonkeyPatch) -> None:
    book, _ = _solved_book(LATE)
    book.weak["4"] = BookEntry(-1, 3)
    again = from_bytes(to_bytes(book))
    assert np.array_equal(again.keys, book.keys) and np.array_equal(again.scores, book.scores)
    assert again.weak == book.weak and again.max_ply == len(LATE) + 1
    with pytest.raises(ValueError):
        from_bytes(b"not a book")


@pytest.mark.timeout(120)
def test_shipped_book_is_loaded_consistent_and_covers_the_first_plies() -> None:
    book = opening_book.load()
    start = lookup(SPEC.start())
    assert start is not None and start.move == 3
    for first in range(SPEC.width):
        assert lookup(SPEC.start().play(first)) is not None, f"no entry for {first + 1} (or its mirror)"
    assert np.all(np.diff(book.keys.astype(np.uint64)) > 0), "keys sorted and unique"
    assert np.all(book.keys <= mirror_keys(book.keys)), "keys folded to the smaller mirror image"
    both, values, depth = book.kernel_arrays
    assert len(both) >= len(book) and depth == book.max_ply
    # every entry is found by walking down from the start; an entry's score is its best column's
    found = opening_book.book_lines(book)
    assert set(found) == {int(k) for k in book.keys}
    checked = 0
    for key in sorted(found)[:: max(1, len(found) // 300)]:
        position = SPEC.parse_position(found[key])
        assert canonical_key(position_key(position)) == key, found[key]
        columns = book.column_scores(position)
        if columns is not None:
            assert book.score(position) == max(s for s in columns if s is not None), found[key]
            checked += 1
    assert checked >= (1 if book.max_ply >= 5 else 0)


FULL_PLIES = 10  # the shipped book has every position of plies 1..10 (README, docs/opening-book.md)
# OEIS A212693: distinct 7x6 positions
POSITIONS_AT_PLY = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623)


@pytest.mark.timeout(120)  # walks 1.66 M ply-10 positions: 16 s on this 2-core machine, idle
def test_shipped_book_answers_every_column_of_every_position_before_its_full_depth() -> None:
    """Random openings too: each column of any position of plies 0..FULL_PLIES-1 is a lookup (no search).
    Walks every position to FULL_PLIES on bitboards (one of each mirror pair; the book holds both images), counts
    them against OEIS A212693, and asks the book's own ``column_scores`` on a sample."""
    book = opening_book.load()
    keys = {int(k) for k in book.kernel_arrays[0]}
    level = {0: (0, 0, "")}  # canonical key -> (stones of the side to move, all stones, moves)
    sample: list[str] = []
    rnd = random.Random(8)
    for ply in range(1, FULL_PLIES + 1):
        following: dict[int, tuple[int, int, str]] = {}
        won: set[int] = set()  # games over: not in the book
        for current, mask, moves in level.values():
            for col, mover, child_current, child_mask in bitboard_children(current, mask):
                key = child_current + child_mask
                if has_four(mover):
                    won.add(canonical_key(key))
                    continue
                assert key in keys, moves + str(col + 1)
                following.setdefault(canonical_key(key), (child_current, child_mask, moves + str(col + 1)))
        assert sum(1 if mirror_key(k) == k else 2 for k in [*following, *won]) == POSITIONS_AT_PLY[ply]
        sample += rnd.sample([moves for _, _, moves in following.values()], min(50, len(following)))
        level = following
    for moves in sample:
        position = SPEC.parse_position(moves)
        assert book.score(position) is not None
        if len(moves) < FULL_PLIES:
            assert book.column_scores(position) is not None, moves
    split = Solver(threads=2)  # no column thread searches (or helps search) a book position
    for moves in [m for m in sample if len(m) == FULL_PLIES - 1][:20]:
        result = split.analyze_columns(SPEC.parse_position(moves))
        assert result.complete and result.nodes == 0, moves


def _book_to_ply_9() -> Book:
    """The shipped book's entries of plies 1-9: the bound tests below need a book that ends at ply 9 whatever part
    of the ply-10 level the shipped file holds (it is built in steps)."""
    book = opening_book.load()
    shallow = ply_of_keys(book.keys) <= 9
    return Book(book.keys[shallow], book.scores[shallow], book.weak)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("moves", ["111344343", "212112332", "122244662"])
def test_the_book_bounds_the_column_searches_below_it(moves: str) -> None:
    """At a ply-9 position the book knows the score S but not the columns: a column scores at most S, and at most
    what the book's score of any other parent of the child allows, so each column's search starts from the best
    such bound. The scores stay those of separate searches without the book."""
    position = SPEC.parse_position(moves)
    book = _book_to_ply_9()
    known = book.score(position)
    assert known is not None and book.column_scores(position) is None
    board = KernelBoard(SPEC, book)
    bounds = {
        col: board.parent_floor(child.current, child.mask, child.ply)
        for col, child in ((c, position.play(c)) for c in position.legal_moves())
        if not child.outcome.is_over
    }
    assert min(bounds.values()) >= -known and max(bounds.values()) > -known  # another parent bounds one tighter
    columns = Solver(threads=2, book=book).analyze_columns(position)
    assert columns.complete and columns.best_score == known
    separate = Solver(use_book=False)
    for col in bounds:
        score = separate.solve(position.play(col)).score
        assert score is not None and columns.scores[col] == -score, (moves, col)


# one ply past a ply-9 book, each the best move of one of its parents: the parents' bound is the exact score
TIGHT_PAST_THE_BOOK = {"1113356676": -4, "2161116645": 3, "1344163664": -5}


@pytest.mark.timeout(60)
def test_a_position_past_the_book_is_bounded_by_its_parents_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent worth S to its mover leaves each child at least -S: the solver starts a solve (and the bounds of the
    exact play) one ply past the book from the best such bound (here tight), and still finds the score a solver
    without the book finds."""
    book = _book_to_ply_9()
    solver, alone = Solver(book=book), Solver(use_book=False)
    board = KernelBoard(SPEC, book)
    assert board.book is not None
    for moves, expected in TIGHT_PAST_THE_BOOK.items():
        position = SPEC.parse_position(moves)
        assert board.book.score(position) is None
        assert board.parent_floor(position.current, position.mask, position.ply) == expected, moves
        assert solver.solve(position).score == alone.solve(position).score == expected, moves
        assert Solver(book=book).bounds(position, -99, 99) == (expected, expected), moves
    beyond = SPEC.parse_position("21135666121")  # two plies past the deepest entries
    assert board.parent_floor(beyond.current, beyond.mask, beyond.ply) == NO_FLOOR
    # the solve, and a column's search in an analysis, start from the bound: one above the score makes them wrong
    moves, expected = next(iter(TIGHT_PAST_THE_BOOK.items()))
    parent, col = SPEC.parse_position(moves[:-1]), int(moves[-1]) - 1
    assert Solver(book=book).analyze_columns(parent).scores[col] == -expected
    monkeypatch.setattr(KernelBoard, "parent_floor", lambda self, current, mask, ply: expected + 1)
    assert Solver(book=book).solve(SPEC.parse_position(moves)).score != expected
    assert Solver(book=book).bounds(SPEC.parse_position(moves), -99, 99) != (expected, expected)
    assert Solver(book=book).analyze_columns(parent).scores[col] != -expected


def test_the_tests_off_book_position_is_off_the_shipped_book() -> None:
    """The engine tests that need a real search use OFF_BOOK_SEARCH (and WIN_IN_ONE_OFF_BOOK, where the search proves
    a win in one at once): a deeper book must not answer them."""
    book = opening_book.load()
    position = SPEC.parse_position(OFF_BOOK_SEARCH)
    assert book.score(position) is None and book.column_scores(position) is None
    assert book.column_scores(SPEC.parse_position(WIN_IN_ONE_OFF_BOOK)) is None


def _result(best: int, proven: int | None = None) -> SearchResult:
    children = tuple(MoveStats(m, 10 + m, 0.5, None) for m in range(7))
    return SearchResult(best, 0.5, children, 70, 1.0, 3, (best,), False, proven)


def _weak_only(weak: dict[str, BookEntry]) -> Book:
    return Book(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), weak)


@pytest.mark.timeout(30)
def test_with_book_plays_the_book_move_unless_the_solver_knows_better(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening_book, "load", lambda: _weak_only({"": BookEntry(1, 3)}))
    start = SPEC.start()
    booked = with_book(_result(best=2), start)
    assert booked.best_move == 3 and booked.proven == 1 and booked.value == 1.0
    assert next(c for c in booked.children if c.move == 3).proven == 1
    solved = _result(best=2, proven=0)
    assert with_book(solved, start) is solved
    assert with_book(_result(best=2), SPEC.parse_position("44")).best_move == 2


@pytest.mark.timeout(300)  # the first run compiles the MCTS
def test_engine_opens_in_the_centre_with_exact_play() -> None:
    from ai.search.hybrid import HybridSearcher

    searcher = HybridSearcher(SPEC, seed=3)
    searcher.set_position(SPEC.start())
    result = searcher.search(time_ms=150, exact=True)
    assert result.best_move == 3
    assert result.proven == 1


@pytest.mark.timeout(30)
def test_a_lost_book_position_plays_the_book_move_to_stay_in_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening_book, "load", lambda: _weak_only({"4": BookEntry(-1, 3)}))
    booked = with_book(_result(best=5), SPEC.parse_position("4"))
    assert booked.best_move == 3 and booked.proven == -1 and booked.value == 0.0


@pytest.mark.timeout(300)  # the first run compiles the MCTS
def test_exact_search_answers_a_book_position_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai.search.hybrid import HybridSearcher

    book, expected = _solved_book(LATE)
    monkeypatch.setattr(opening_book, "load", lambda: book)
    searcher = HybridSearcher(SPEC, seed=3)
    searcher.set_position(SPEC.parse_position(LATE))
    result = searcher.search(time_ms=2000, exact=True)
    best = max(s for s in expected if s is not None)
    assert result.iterations == 0 and result.exact and result.elapsed_ms < 500
    assert expected[result.best_move] == best and result.proven == (best > 0) - (best < 0)
    assert {c.move: c.score for c in result.children} == {c: s for c, s in enumerate(expected) if s is not None}
    searcher.set_position(SPEC.parse_position(LATE + "1"))  # not in the book: a real search
    assert searcher.search(time_ms=100, exact=True).iterations > 0
