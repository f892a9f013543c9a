"""The Gomoku alpha-beta searcher (ai/mcts/gomoku_search.py, gomoku_ab.py, gomoku_board.py): wins in
one, the only block of a four, the defences of an open three, a VCF of known length, no move that
leaves the opponent a VCF, the incremental tables equal to a recount, the time budget, and
``Searcher`` handing Gomoku (not the small m,n,k boards) to it."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from ai.mcts.games import adapter_for
from ai.mcts.gomoku_board import geometry, make, new_state, unmake
from ai.mcts.gomoku_search import GomokuSearcher
from ai.mcts.mnk_threats import vcf
from ai.mcts.search import Searcher
from ai.vocab.results import ForcedLine
from game.rules.registry import get_game
from tests.test_gomoku_threats import VCF2, position_of

GOMOKU = get_game("gomoku")
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def searcher() -> GomokuSearcher:
    s = GomokuSearcher(GOMOKU)
    s.search(position_of(VCF2, True), iterations=50)  # compile (or load) once: the root VCF
    s.search(position_of(OPEN3, True), iterations=50)  # and the alpha-beta
    return s


def xy(cell: int) -> tuple[int, int]:
    return cell % 15, cell // 15


# X to move. X: four on row 3 (x 3..6) open at (7,3) and closed at (2,3); O: four on row 10 too.
WIN1 = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . O X X X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X O O O O . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""

# X to move, no four of its own (an open two), O has a four on column 9 (rows 4..7), open at (9,8).
BLOCK4 = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . X . . . . .
. . . . . . . . . O . . . . .
. . . . . . . . . O . . . . .
. . . . . . . . . O . . . . .
. . . . . . X X . O . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . X . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""

# X to move; O has an open three on row 7 (x 6..8) with two empty cells on each side; X has
# scattered stones that make no four and no three. The defences: (4,7) (5,7) (9,7) (10,7).
OPEN3 = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . X . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . O O O . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . X . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def test_only_gomoku_goes_to_alpha_beta() -> None:
    alpha_beta = {
        name: adapter.alpha_beta
        for name in ("gomoku", "mnk:9x9:5", "mnk:8x8:5", "tictactoe", "mnk:15x15:4", "connect4")
        if (adapter := adapter_for(get_game(name)))
    }
    assert alpha_beta == {
        "gomoku": True,
        "mnk:9x9:5": True,
        "mnk:8x8:5": False,
        "tictactoe": False,
        "mnk:15x15:4": False,
        "connect4": False,
    }
    assert Searcher(GOMOKU, seed=1, threads=1)._gomoku is not None
    assert Searcher(get_game("tictactoe"), seed=1, threads=1)._gomoku is None


def test_win_in_one(searcher: GomokuSearcher) -> None:
    result = searcher.search(position_of(WIN1, True), time_ms=200)
    assert xy(result.best_move) == (7, 3)
    assert result.proven == 1 and result.value == 1.0
    assert result.forced == ForcedLine(1, "search")


def test_blocks_the_four(searcher: GomokuSearcher) -> None:
    result = searcher.search(position_of(BLOCK4, True), time_ms=200)
    assert xy(result.best_move) == (9, 8)


def test_blocks_the_open_three(searcher: GomokuSearcher) -> None:
    result = searcher.search(position_of(OPEN3, True), time_ms=300)
    assert xy(result.best_move) in {(4, 7), (5, 7), (9, 7), (10, 7)}
    assert {xy(m.move) for m in result.children} <= {(4, 7), (5, 7), (9, 7), (10, 7)}  # only defences searched


def test_vcf_of_known_length(searcher: GomokuSearcher) -> None:
    result = searcher.search(position_of(VCF2, True), time_ms=300)
    assert xy(result.best_move) == (8, 7)
    assert result.proven == 1
    assert result.max_depth == 3  # two fours, the block between them
    assert len(result.pv) == 4 and xy(result.pv[0]) == (8, 7)  # four, block, open four, a win cell
    # four, block, open four, block, five: the app says "Red wins: VCF in 3"
    assert result.forced == ForcedLine(5, "VCF") and result.forced.describe("Red") == "Red wins: VCF in 3"


def test_the_move_leaves_the_opponent_no_vcf(searcher: GomokuSearcher) -> None:
    """O (not to move) has a VCF in 2 in VCF2 when the stones are swapped; the search must stop it."""
    swapped = VCF2.replace("X", "o").replace("O", "X").replace("o", "O")
    pos = position_of(swapped, True)
    assert pos.outcome.is_over is False
    result = searcher.search(pos, time_ms=400)
    after = pos.play(result.best_move)
    s0, s1 = after.stones0, after.stones1
    board = searcher._board(after)[0]
    assert (s0 | s1) and int(vcf(board, int(searcher.g[0]), 5, 2, 12, 200_000)) < 0


def _recount(g, wcell, board, cnt, n4) -> None:  # type: ignore[no-untyped-def]
    valid = [w for w in range(int(g[2])) if wcell[w, 0] >= 0]
    for w in valid:
        for q in range(2):
            assert cnt[w, q] == sum(board[c] == q + 1 for c in wcell[w])
    for q in range(2):
        assert n4[q] == sum(1 for w in valid if cnt[w, q] == 4 and cnt[w, 1 - q] == 0)
        assert n4[2 + q] == sum(1 for w in valid if cnt[w, q] == 3 and cnt[w, 1 - q] == 0)


def test_tables_match_a_recount() -> None:
    """60 stones packed in the central 9x9 (fours, blocked fours and fives arise), then taken back."""
    g, cwin, wcell, board = geometry(15, 15, 5)
    cnt, ev, n4, near, hsh = new_state(g)
    zob = np.random.default_rng(1).integers(1, 2**62, size=(board.shape[0], 2), dtype=np.int64)
    pw = int(g[0])
    cells = [(r + 5 + 3) * pw + c + 5 + 3 for r in range(9) for c in range(9)]
    played = []
    for i, c in enumerate(np.random.default_rng(7).choice(cells, size=60, replace=False)):
        make(g, cwin, board, cnt, ev, n4, near, hsh, zob, int(c), 1 + i % 2)
        played.append((int(c), 1 + i % 2))
    assert n4.any()  # the position has four windows to count
    _recount(g, wcell, board, cnt, n4)
    for j, (c, p) in enumerate(reversed(played)):
        unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p)
        if j % 7 == 0:
            _recount(g, wcell, board, cnt, n4)
    assert not cnt[:, :2].any() and not ev.any() and not n4.any() and not near.any() and hsh[0] == 0


def test_a_timed_search_answers_a_legal_move(searcher: GomokuSearcher) -> None:
    """How close a search keeps to its budget is a figure of ``ai.benchmarks.gomoku_speed`` (time targets are
    benchmarks); here, a timed search returns a move it searched, at a short and a longer budget."""
    pos = position_of(OPEN3, False).play(9 * 15 + 9)  # X blocks nothing: a middle game with O to move
    for time_ms in (50, 200):
        result = searcher.search(pos, time_ms=time_ms)
        assert result.iterations > 0 and result.best_move in pos.legal_moves()


@pytest.mark.timeout(10)
def test_the_watcher_stops_the_search_at_its_deadline_or_on_a_stop_request() -> None:
    """The budget's mechanism, with no clock to wait on: the watcher sets the compiled search's stop flag at once
    when the deadline has passed or a stop was asked, and leaves it alone when the search ended first."""
    past = time.perf_counter() - 1.0
    for deadline, stops, done_first, flag in (
        (past, [], False, 1),
        (None, [_set_event()], False, 1),
        (None, [threading.Event()], True, 0),
        (time.perf_counter() + 3600.0, [], True, 0),
    ):
        stop, done = np.zeros(1, dtype=np.int64), threading.Event()
        if done_first:
            done.set()
        GomokuSearcher._watch(stop, done, deadline, stops)
        assert int(stop[0]) == flag, (deadline, done_first)


def _set_event() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


@pytest.mark.timeout(30)
def test_stop_event_ends_the_search(searcher: GomokuSearcher) -> None:
    """A stop request ends the threat analysis too (it took 4.2 s of this 60 s search when it only looked at its
    clock): the search gets 60 s and the test 30 (its timeout), so only a search the request ends passes."""
    event = _set_event()
    result = searcher.search(position_of(OPEN3, False).play(9 * 15 + 9), time_ms=60_000, stop_event=event)
    assert result.best_move >= 0
