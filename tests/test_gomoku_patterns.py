"""Line patterns of the Gomoku alpha-beta (ai/mcts/gomoku_patterns.py): hand-checked shapes, the table
against a plain recount on the board's lines, hand-checked threat classes, and the incremental keys,
cached shape indexes and cell-value sums of make / unmake against a recount on random positions."""

from __future__ import annotations

import numpy as np
import pytest

from ai.mcts.gomoku_board import geometry, make, new_state, unmake
from ai.mcts.gomoku_patterns import (
    BLOCK2,
    BLOCK3,
    BLOCK4,
    CELL_CLASS,
    CELL_VALUE,
    DX,
    DY,
    FIVE,
    FLEX2,
    FLEX3,
    FLEX4,
    NONE,
    SPAN,
    T_FIVE,
    T_FLEX3,
    T_FLEX4,
    T_FOUR,
    T_FOUR_THREE,
    T_NONE,
    T_THREE,
    T_THREE_THREE,
    T_TWO,
    T_TWO_TWO,
    TABLE,
    class_of,
    shape,
    slot,
)

pytestmark = pytest.mark.timeout(300)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("..XX.X...", FLEX4),  # the centre fills _XXXX_
        (".XX..X...", BLOCK4),  # XX_XX: one win cell
        ("..XXX....", FLEX3),  # open three _XXX_ (the centre is the third X)
        ("..XX.....", FLEX3),
        (".XX.X....", FLEX3),  # broken three _XX_X_
        ("O.XXX...O", FLEX3),
        (".O.XXX.O.", BLOCK3),  # O.XXX.O: no open four fits
        ("OXXX.....", BLOCK4),  # a dead four
        ("#XXX.....", BLOCK4),  # the border blocks like a stone
        ("..X.X.X..", BLOCK3),
        ("...XX....", FLEX2),
        ("OXX......", BLOCK3),
        ("OX.......", BLOCK2),
        ("XXXX.XXXX", FIVE),  # an overline wins in freestyle
        ("X.XX.XX..", FIVE),
        ("XXX.X.XXX", FLEX4),  # two win cells on one line
        ("O..X....O", FLEX2),  # two stones with room for an open four between the Os
        ("O.X.X.O..", BLOCK2),  # six cells between the Os: only a dead four fits
        ("....X....", NONE),  # a lone stone
        ("OO.......", NONE),
    ],
)
def test_hand_checked_shapes(line: str, expected: int) -> None:
    assert shape(line) == expected
    swapped = line.replace("X", "o").replace("O", "X").replace("o", "O")
    assert shape(swapped, 2) == expected  # the same for player 2


def _run(line: list[int], centre: int, p: int) -> int:
    n = 1
    i = centre - 1
    while i >= 0 and line[i] == p:
        n, i = n + 1, i - 1
    i = centre + 1
    while i < len(line) and line[i] == p:
        n, i = n + 1, i + 1
    return n


def _plain(line: list[int], centre: int, p: int) -> int:
    """Shape for ``p`` of a stone on ``line[centre]`` (a whole board line), by brute force."""
    line = line[:]
    line[centre] = p
    if _run(line, centre, p) >= 5:
        return FIVE
    empties = [i for i in range(max(0, centre - SPAN), min(len(line), centre + SPAN + 1)) if line[i] == 0]
    wins = 0
    for i in empties:
        line[i] = p
        wins += _run(line, centre, p) >= 5
        line[i] = 0
    if wins:
        return FLEX4 if wins >= 2 else BLOCK4
    made = set()
    for i in empties:
        line[i] = p
        made.add(_plain(line, centre, p))
        line[i] = 0
    for shape_made, result in ((FLEX4, FLEX3), (BLOCK4, BLOCK3), (FLEX3, FLEX2), (BLOCK3, BLOCK2)):
        if shape_made in made:
            return result
    return NONE


def _line(board: np.ndarray, pw: int, c: int, d: int) -> tuple[list[int], int]:
    """The board line through ``c`` in direction ``d`` (stones 1 / 2, empty 0; ends at the border)."""
    step = int(DY[d]) * pw + int(DX[d])
    start = c
    while board[start - step] != 3:
        start -= step
    cells = []
    e = start
    while board[e] != 3:
        cells.append(int(board[e]))
        e += step
    return cells, (c - start) // step


def _check(g: np.ndarray, board: np.ndarray, cnt: np.ndarray, ev: np.ndarray) -> int:
    pw = int(g[0])
    total = [0, 0, 0, 0]  # each player's cell values as the side to move, then as the opponent
    checked = 0
    for c in range(board.shape[0]):
        if board[c] != 0:
            continue
        shapes = [[0] * 4, [0] * 4]
        for d in range(4):
            key = 0
            step = int(DY[d]) * pw + int(DX[d])
            for i in (-4, -3, -2, -1, 1, 2, 3, 4):
                key |= int(board[c + i * step]) << (2 * slot(i))
            assert cnt[c * 4 + d, 2] == key
            line, centre = _line(board, pw, c, d)
            for q in range(2):
                got = int(TABLE[q, key])
                shapes[q][d] = got
                if got != NONE or line.count(q + 1) > 0:
                    assert got == _plain(line, centre, q + 1), (c, d, q, line, centre)
                    checked += 1
        for q in range(2):
            index = ((shapes[q][0] * 8 + shapes[q][1]) * 8 + shapes[q][2]) * 8 + shapes[q][3]
            assert cnt[c * 4 + q, 4] == index  # the cached shape index, and the values cached beside it
            assert cnt[c * 4 + q, 3] == CELL_VALUE[0, index] and cnt[c * 4 + 2 + q, 3] == CELL_VALUE[1, index]
            total[q] += int(CELL_VALUE[0, index])
            total[2 + q] += int(CELL_VALUE[1, index])
    assert list(ev) == total
    return checked


def test_incremental_keys_and_sums_match_a_recount() -> None:
    """Random stones packed in the board's centre and corner (border shapes), then taken back."""
    g, cwin, wcell, board = geometry(15, 15, 5)
    cnt, ev, n4, near, hsh = new_state(g)
    zob = np.random.default_rng(1).integers(1, 2**62, size=(board.shape[0], 2), dtype=np.int64)
    pw = int(g[0])
    rng = np.random.default_rng(11)
    cells = [(r + 5) * pw + c + 5 for r in range(15) for c in range(15) if r < 5 or 4 <= r < 11 and 4 <= c < 11]
    played = []
    for i, c in enumerate(rng.choice(cells, size=46, replace=False)):
        make(g, cwin, board, cnt, ev, n4, near, hsh, zob, int(c), 1 + i % 2)
        played.append((int(c), 1 + i % 2))
        if i % 9 == 0:
            _check(g, board, cnt, ev)
    assert _check(g, board, cnt, ev) > 500
    for j, (c, p) in enumerate(reversed(played)):
        unmake(g, cwin, board, cnt, ev, n4, near, hsh, zob, c, p)
        if j % 11 == 0:
            _check(g, board, cnt, ev)
    empty = new_state(g)
    assert (cnt == empty[0]).all() and not ev.any()


@pytest.mark.parametrize(
    ("shapes", "expected"),
    [
        ((FIVE, NONE, NONE, NONE), T_FIVE),
        ((BLOCK4, BLOCK4, NONE, NONE), T_FLEX4),  # a double four
        ((FLEX4, NONE, NONE, NONE), T_FLEX4),
        ((BLOCK4, NONE, FLEX3, NONE), T_FOUR_THREE),
        ((NONE, FLEX3, NONE, FLEX3), T_THREE_THREE),
        ((BLOCK4, BLOCK3, BLOCK3, NONE), T_FOUR),
        ((FLEX3, BLOCK3, NONE, NONE), T_FLEX3),
        ((BLOCK3, FLEX2, NONE, NONE), T_TWO_TWO),
        ((BLOCK3, BLOCK2, NONE, NONE), T_THREE),
        ((FLEX2, BLOCK2, NONE, NONE), T_TWO),
        ((BLOCK2, BLOCK2, BLOCK2, BLOCK2), T_NONE),
    ],
)
def test_threat_classes_of_hand_checked_shapes(shapes: tuple[int, ...], expected: int) -> None:
    assert class_of(shapes) == expected
    index = ((shapes[0] * 8 + shapes[1]) * 8 + shapes[2]) * 8 + shapes[3]
    assert CELL_CLASS[index] == expected


def test_every_shape_occurs_in_the_table() -> None:
    for q in range(2):
        assert set(np.unique(TABLE[q])) == set(range(8))


def _candidates(diagram: str, x_to_move: bool, width: int, killer: int = -1) -> set[tuple[int, int]]:
    from ai.mcts.gomoku_search import GomokuSearcher
    from tests.test_gomoku_ab import GOMOKU
    from tests.test_gomoku_policy import candidate_scores
    from tests.test_gomoku_threats import position_of

    searcher = GomokuSearcher(GOMOKU)
    cells = candidate_scores(searcher, position_of(diagram, x_to_move), 1 if x_to_move else 2, width, killer)
    return {(searcher.cell(c) % 15, searcher.cell(c) // 15) for c in cells}


# X to move. O: an open three on row 7 (x 6..8, two empty cells each side) and a dead three on column 2
# (rows 10..12, closed by X above): only (5,7) and (9,7) stop the open four; the cells where O makes a
# four out of the dead three ((2,13), (2,14)) and the far ends of the open three ((4,7), (10,7)) do not.
OPEN3_AND_DEAD3 = """
X . . . . . . . . . . . . . X
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . X . .
. . . . . . . . . . . . . . .
. . . . . . O O O . . . . . .
. . . . . . . . . . . . . . .
. . X . . . . . . . . . . . .
. . O . . . . . . . . . X . .
. . O . . . . . . . . . . . .
. . O . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . X . . .
"""

# X to move. O makes two open threes with one stone on (4,2) (row 2 and column 4): a double threat that
# is kept among X's candidates whatever the width, here 1 with a killer move ranked first.
O_DOUBLE = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . O O . . . . . . . . . . .
. . . . O . . . . . . . . . .
. . . . O . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X X . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def test_only_the_moves_that_stop_an_open_four_are_searched() -> None:
    assert _candidates(OPEN3_AND_DEAD3, True, 8) == {(5, 7), (9, 7)}


def test_double_threat_cells_are_never_cut() -> None:
    killer = (7 + 5) * 25 + 9 + 5  # (9, 7) on the padded board (pitch 25)
    assert _candidates(O_DOUBLE, True, 1, killer) == {(4, 2)}  # the killer alone without the rule
    assert _candidates(O_DOUBLE, True, 2, killer) == {(4, 2), (9, 7)}


# X to move, lost: O has two open threes far apart (rows 3 and 11) and X no four; no cell stops both,
# and the candidates fall back to the cells where O makes a four (never an empty list: no move at all).
TWO_OPEN3 = """
X . . . . . . . . . . . . . X
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . O O O . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . O O O . . .
. . . . . . . . . . . . . . .
. . . . . . X . . . . . . . .
X . . . . . . . . . . . . . X
"""


def test_a_lost_position_still_has_candidates() -> None:
    got = _candidates(TWO_OPEN3, True, 8)
    assert got == {(1, 3), (2, 3), (6, 3), (7, 3), (7, 11), (8, 11), (12, 11), (13, 11)}
