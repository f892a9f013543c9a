"""The Gomoku threat-space search on the incremental tables (ai/mcts/gomoku_threats.py): a VCT of one
three found and its first move, its shortest length ("VCT in 3"), no VCF claimed where only threes win, the
VCT refuted when the defender has a counter-four, a win that needs two threes (Rapfi agrees), the root
dropping a move that leaves the opponent a win, the transposition table, the clock, the tables put back."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ai.mcts.gomoku_search import GomokuSearcher
from ai.mcts.gomoku_threats import CHUNK, T_PLIES, find_win, shortest_win
from ai.vocab.results import ForcedLine
from game.rules.registry import get_game
from tests.test_gomoku_threats import position_of

GOMOKU = get_game("gomoku")
pytestmark = pytest.mark.timeout(300)

# X to move: two twos crossing at (7,7), every end open. X (7,7) is a double open three (three-three):
# O blocks one, X makes an open four of the other. No four anywhere: no VCF. O's stones are far away.
THREE_THREE = """
O . O . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . O
"""

# The same, but O has an open three on row 12: any three of X is answered by O's open four.
REFUTED = """
O . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . O O O . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


@pytest.fixture(scope="module")
def searcher() -> GomokuSearcher:
    s = GomokuSearcher(GOMOKU)
    s.warm_up(position_of(THREE_THREE, True))
    return s


def win_for(searcher: GomokuSearcher, diagram: str, x_to_move: bool, attacker: int, threes: int) -> int:
    """The first move (board cell) of a win of ``attacker`` found with ``threes`` threes, or -1."""
    board, cnt, ev, n4, near, hsh = searcher._board(position_of(diagram, x_to_move))
    before = (board.copy(), cnt.copy(), ev.copy(), n4.copy(), near.copy(), hsh.copy())
    tables = (searcher.g, searcher.cwin, searcher.wcell, board, cnt, ev, n4, near, hsh, searcher.zob)
    move = int(find_win(*tables, *searcher._scratch, attacker, threes, 12, 200_000, -1))
    after = (board, cnt, ev, n4, near, hsh)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True)), "the tables must be put back"
    return -1 if move < 0 else searcher.cell(move)


def test_three_three_is_a_vct_of_one_three_and_no_vcf(searcher: GomokuSearcher) -> None:
    assert win_for(searcher, THREE_THREE, True, 1, 0) == -1
    assert win_for(searcher, THREE_THREE, True, 1, 1) == 7 * 15 + 7
    # the first line found may take detours (fours first); the shortest: three-three, block, open four, block, five
    assert int(searcher._scratch[2][T_PLIES]) >= 5


def test_the_searcher_plays_the_vct_and_says_how_long_it_is(searcher: GomokuSearcher) -> None:
    result = searcher.search(position_of(THREE_THREE, True), time_ms=300)
    assert result.best_move == 7 * 15 + 7 and result.proven == 1
    assert result.forced == ForcedLine(5, "VCT") and result.forced.describe("Red") == "Red wins: VCT in 3"


def test_the_shortest_win_is_found_by_deepening(searcher: GomokuSearcher) -> None:
    board, cnt, ev, n4, near, hsh = searcher._board(position_of(THREE_THREE, True))
    tables = (searcher.g, searcher.cwin, searcher.wcell, board, cnt, ev, n4, near, hsh, searcher.zob)
    move, plies = shortest_win(*tables, *searcher._scratch, 1, 2, 12, 200_000, -1)
    assert searcher.cell(move) == 7 * 15 + 7 and plies == 5
    assert shortest_win(*tables, *searcher._scratch, 1, 0, 12, 200_000, -1) == (-1, 0)  # no VCF


def test_a_counter_open_four_refutes_every_three(searcher: GomokuSearcher) -> None:
    assert win_for(searcher, REFUTED, True, 1, 3) == -1
    # and O, to move there, wins at once by threats (its open three)
    assert win_for(searcher, REFUTED, False, 2, 0) >= 0


# X to move; O has an open three on row 7 (x 5..7) and nothing else near: a far move lets O make an open
# four (a VCF), a block at (4,7) leaves it one dead four.
OPEN_THREE = """
X . X . . . . . . . . . . . .
. . . . . . . . . . . . . . .
X . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . O O O . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def test_the_root_drops_a_move_that_leaves_the_opponent_a_win(searcher: GomokuSearcher) -> None:
    position = position_of(OPEN_THREE, True)
    board, cnt, ev, n4, near, hsh = searcher._board(position)
    far, block = searcher.padded(14 * 15 + 7), searcher.padded(7 * 15 + 4)
    win, keep = searcher._threat_analysis((board, cnt, ev, n4, near, hsh), 1, -1, [far, block], 1.0)
    assert win is None
    assert keep == [block]


# O to move: X took (7,7), the cell of O's four-three (O's dead three on row 7 and two on column 7).
# O still wins with two threes: the search finds it, and Rapfi, asked about this position, reports a mate
# in 7 for O. One three is not enough.
FOUR_THREE_TAKEN = """
X . X . . . . . . . . . . . .
. . . . . . . . . . . . . . .
X . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . X O O O X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . X
"""


def test_a_win_that_needs_two_threes(searcher: GomokuSearcher) -> None:
    assert win_for(searcher, FOUR_THREE_TAKEN, False, 2, 1) == -1
    assert win_for(searcher, FOUR_THREE_TAKEN, False, 2, 2) >= 0


def test_a_second_search_reads_the_first_from_its_table() -> None:
    """The threat search's transposition table keeps proofs and exhaustive fails: the same question again
    costs a few nodes and gets the same answer (a fresh searcher, so the table starts empty)."""
    fresh = GomokuSearcher(GOMOKU)
    first = win_for(fresh, FOUR_THREE_TAKEN, False, 2, 2)
    nodes_first = int(fresh._scratch[2][0])
    again = win_for(fresh, FOUR_THREE_TAKEN, False, 2, 2)
    assert first == again >= 0
    assert int(fresh._scratch[2][0]) < nodes_first
    assert win_for(fresh, FOUR_THREE_TAKEN, False, 2, 1) == -1  # a fail with fewer threes is not a stored win


def test_a_search_past_its_deadline_stops_within_a_chunk() -> None:
    """The threat search looks at the clock every CHUNK nodes: with the deadline already past, a search that
    would need more than one chunk stops after the first one and reports no win; with no deadline it goes on."""
    position = GOMOKU.parse_position("h8 i7 g6 g8 g7 f6 h7 h9 f7 h5")  # a middle game, black to move
    fresh = GomokuSearcher(GOMOKU)
    board, cnt, ev, n4, near, hsh = fresh._board(position)
    tables = (fresh.g, fresh.cwin, fresh.wcell, board, cnt, ev, n4, near, hsh, fresh.zob, *fresh._scratch)
    ctl = fresh._scratch[2]
    assert find_win(*tables, 1, 4, 20, 10 * CHUNK, -1, time.perf_counter() - 1.0) == -1
    assert CHUNK <= ctl[0] < 2 * CHUNK
    fresh = GomokuSearcher(GOMOKU)  # an empty table: the same search with no deadline uses its whole budget
    tables = (fresh.g, fresh.cwin, fresh.wcell, board, cnt, ev, n4, near, hsh, fresh.zob, *fresh._scratch)
    assert find_win(*tables, 1, 4, 20, 3 * CHUNK, -1) == -1
    assert fresh._scratch[2][0] >= 3 * CHUNK
