"""The opening books of the Gomoku benchmark against another engine (``ai/benchmarks/piskvork_match.py``)."""

from __future__ import annotations

import pytest

from ai.benchmarks.piskvork_match import BALANCED, BOOKS, CENTRAL, FRESH, SIZE, WIDE
from ai.benchmarks.piskvork_openings import canonical


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_every_opening_is_three_distinct_stones_from_the_centre(name: str) -> None:
    for opening in BOOKS[name]:
        assert len(opening) == 3 and len(set(opening)) == 3, opening
        assert opening[0] == (SIZE // 2, SIZE // 2)
        assert all(0 <= x < SIZE and 0 <= y < SIZE for x, y in opening)


def test_the_fresh_book_is_new_up_to_rotations_and_reflections() -> None:
    assert WIDE[: len(BALANCED)] == BALANCED
    fresh = [canonical(o) for o in FRESH]
    assert len(fresh) == 32 and len(set(fresh)) == 32
    assert not set(fresh) & {canonical(o) for o in WIDE + CENTRAL}
