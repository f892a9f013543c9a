"""Line patterns of freestyle Gomoku (five or more wins) for the alpha-beta search: for an empty cell, a
direction and a player, the shape a stone of that player placed there makes on that line.

A *line key* describes the 8 cells within 4 steps of a cell on one line, 2 bits each (``0`` empty,
``1`` / ``2`` a stone of player 1 / 2, ``3`` the border): the cell at offset ``i`` (-4..-1, 1..4) sits in
slot ``i + 4`` for negative offsets and ``i + 3`` for positive ones, so a key is below 4^8 = 65,536.
``TABLE[q, key]`` is the shape for player ``q + 1`` (the opponent's stones and the border block alike).

Shapes, weakest to strongest (standard definitions; all counted on fives through the cell):
``FIVE`` five or more in a row; ``FLEX4`` two or more cells that make a five (an open four);
``BLOCK4`` one such cell (a four); ``FLEX3`` a cell that makes a FLEX4 (an open three); ``BLOCK3`` a cell
that makes a BLOCK4; ``FLEX2`` / ``BLOCK2`` a cell that makes a FLEX3 / BLOCK3; ``NONE`` otherwise.

The table is built once per process by brute force over the 3^8 = 6,561 lines of one player's view
(empty / own / blocked, memoised), then mapped to the 4^8 keys of both players with numpy.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ai.jit import jit

NONE, BLOCK2, FLEX2, BLOCK3, FLEX3, BLOCK4, FLEX4, FIVE = range(8)
SHAPES = ("NONE", "BLOCK2", "FLEX2", "BLOCK3", "FLEX3", "BLOCK4", "FLEX4", "FIVE")
SPAN = 4  # cells on each side of the centre that a shape depends on
NKEYS = 1 << (4 * SPAN)
EMPTY, OWN, BLOCKED = 0, 1, 2


def slot(offset: int) -> int:
    """The slot of the cell ``offset`` steps away (-4..-1, 1..4) in a line key."""
    return offset + SPAN if offset < 0 else offset + SPAN - 1


def _run(line: tuple[int, ...]) -> int:
    """Length of the own run through the centre of a 9-cell line."""
    n = 1
    i = SPAN - 1
    while i >= 0 and line[i] == OWN:
        n += 1
        i -= 1
    i = SPAN + 1
    while i < len(line) and line[i] == OWN:
        n += 1
        i += 1
    return n


def _with(line: tuple[int, ...], i: int) -> tuple[int, ...]:
    return line[:i] + (OWN,) + line[i + 1 :]


def _shape_of(line: tuple[int, ...], memo: dict[tuple[int, ...], int]) -> int:
    """Shape of a 9-cell line (``EMPTY`` / ``OWN`` / ``BLOCKED``) whose centre holds the player's stone."""
    got = memo.get(line)
    if got is not None:
        return got
    empties = [i for i, v in enumerate(line) if v == EMPTY]
    if _run(line) >= 5:
        shape = FIVE
    else:
        wins = sum(1 for i in empties if _run(_with(line, i)) >= 5)
        if wins >= 2:
            shape = FLEX4
        elif wins == 1:
            shape = BLOCK4
        else:
            after = {_shape_of(_with(line, i), memo) for i in empties}
            shape = NONE
            for made, result in ((FLEX4, FLEX3), (BLOCK4, BLOCK3), (FLEX3, FLEX2), (BLOCK3, BLOCK2)):
                if made in after:
                    shape = result
                    break
    memo[line] = shape
    return shape


@lru_cache(maxsize=1)
def build_table() -> np.ndarray:
    """``TABLE[q, key]`` (uint8, 2 x 65,536): the shape for player ``q + 1`` of every line key."""
    memo: dict[tuple[int, ...], int] = {}
    ternary = np.zeros(3 ** (2 * SPAN), dtype=np.uint8)
    for t in range(ternary.shape[0]):
        digits = [(t // 3**s) % 3 for s in range(2 * SPAN)]  # digit s = slot s
        line = tuple(digits[:SPAN]) + (OWN,) + tuple(digits[SPAN:])
        ternary[t] = _shape_of(line, memo)
    keys = np.arange(NKEYS, dtype=np.int64)
    table = np.zeros((2, NKEYS), dtype=np.uint8)
    for q in range(2):
        index = np.zeros(NKEYS, dtype=np.int64)
        for s in range(2 * SPAN):
            code = (keys >> (2 * s)) & 3
            view = np.where(code == 0, EMPTY, np.where(code == q + 1, OWN, BLOCKED))
            index += view * 3**s
        table[q] = ternary[index]
    return table


def key_of(cells: list[int] | tuple[int, ...]) -> int:
    """The line key of the 8 neighbours given from offset -4 to +4 without the centre (codes 0..3)."""
    key = 0
    for s, code in enumerate(cells):
        key |= code << (2 * s)
    return key


def shape(line: str, player: int = 1) -> int:
    """Shape for ``player`` of a 9-character line (``.`` empty, ``X`` player 1, ``O`` player 2, ``#``
    border) whose centre is empty or holds the player's stone: a helper for tests and debugging."""
    codes = {".": 0, "X": 1, "O": 2, "#": 3}
    cells = [codes[ch] for i, ch in enumerate(line) if i != SPAN]
    return int(build_table()[player - 1, key_of(cells)])


TABLE = build_table()
DX = np.array([1, 0, 1, -1], dtype=np.int64)  # as ``mnk_lines.DX`` / ``DY``: right, up, up-right, up-left
DY = np.array([0, 1, 1, 1], dtype=np.int64)


def border_keys(board: np.ndarray, pw: int) -> np.ndarray:
    """The line keys (``size * 4``, index ``cell * 4 + d``) of an empty padded board: border slots 3."""
    size = board.shape[0]
    keys = np.zeros(size * 4, dtype=np.int64)
    off = board == 3
    for d in range(4):
        step = int(DY[d]) * pw + int(DX[d])
        for i in range(1, SPAN + 1):
            for sign in (-1, 1):
                n = np.arange(size) + sign * i * step  # the neighbour at offset sign * i
                inside = (n >= 0) & (n < size)
                blocked = np.ones(size, dtype=bool)
                blocked[inside] = off[n[inside]]
                keys[d::4] |= np.where(blocked, 3 << (2 * slot(sign * i)), 0)
    return keys


@jit
def _cell_index(cnt, n, q):  # type: ignore[no-untyped-def]
    """The 4 shapes of player ``q + 1`` at cell ``n`` as one index below 8^4 (direction 0 highest)."""
    idx = np.int64(0)
    for d in range(4):
        idx = idx * 8 + np.int64(TABLE[q, cnt[n * 4 + d, 2]])
    return idx


@jit
def _cell_enter(cnt, ev, n):  # type: ignore[no-untyped-def]
    """Compute what the empty cell ``n`` caches for each player ``q + 1`` from its 4 line keys: its
    shape index (``cnt[n * 4 + q, 4]``) and values (``cnt[n * 4 + q, 3]`` as the side to move,
    ``cnt[n * 4 + 2 + q, 3]`` as the opponent), and add the values to the sums ``ev[q]`` / ``ev[2 + q]``."""
    for q in range(2):
        idx = _cell_index(cnt, n, q)
        cnt[n * 4 + q, 4] = idx
        for j in range(2):
            value = CELL_VALUE[j, idx]
            ev[2 * j + q] += value
            cnt[n * 4 + 2 * j + q, 3] = value


@jit
def _cell_shape(cnt, ev, n, d, old, new):  # type: ignore[no-untyped-def]
    """The line key of the empty cell ``n`` in direction ``d`` went from ``old`` to ``new``: update its
    cached shape index and values, and the sums, for each player whose shape there changed."""
    weight = 1 << (3 * (3 - d))
    for q in range(2):
        was = np.int64(TABLE[q, old])  # int64: the table's uint8 would wrap in plain Python
        now = np.int64(TABLE[q, new])
        if was != now:
            idx = cnt[n * 4 + q, 4] + (now - was) * weight
            cnt[n * 4 + q, 4] = idx
            for j in range(2):
                w = n * 4 + 2 * j + q
                value = CELL_VALUE[j, idx]
                ev[2 * j + q] += value - cnt[w, 3]
                cnt[w, 3] = value


@jit
def line_update(g, board, cnt, ev, c, p, add):  # type: ignore[no-untyped-def]
    """Add (``add`` = 1) or take back (0) the stone of ``p`` on ``c`` in the line keys ``cnt[:, 2]`` of
    the 32 cells within 4 steps on its lines, and update the cached shapes and values of the empty ones;
    the cell ``c`` itself leaves (add) or rejoins (take back, its cache recomputed) the sums."""
    pw = g[0]
    if add:
        for j in range(4):
            ev[j] -= cnt[c * 4 + j, 3]
    for d in range(4):
        step = DY[d] * pw + DX[d]
        for i in range(1, SPAN + 1):
            for j in range(2):
                if j == 0:
                    n = c + i * step
                    bit = p << (2 * (SPAN - i))
                else:
                    n = c - i * step
                    bit = p << (2 * (i + SPAN - 1))
                w = n * 4 + d
                old = cnt[w, 2]
                new = old + bit if add else old - bit
                cnt[w, 2] = new
                if board[n] == 0:
                    _cell_shape(cnt, ev, n, d, old, new)
    if not add:
        _cell_enter(cnt, ev, c)


# threat classes of a cell for one player, from the shapes of its 4 lines (weakest to strongest)
T_NONE, T_TWO, T_THREE, T_TWO_TWO, T_FLEX3, T_FOUR, T_THREE_THREE, T_FOUR_THREE, T_FLEX4, T_FIVE = range(10)


def class_of(shapes: tuple[int, ...]) -> int:
    """The threat class of a cell from the shapes a stone makes on its 4 lines."""
    count = [shapes.count(s) for s in range(8)]
    if count[FIVE]:
        return T_FIVE
    if count[FLEX4] or count[BLOCK4] >= 2:
        return T_FLEX4
    if count[BLOCK4] and count[FLEX3]:
        return T_FOUR_THREE
    if count[FLEX3] >= 2:
        return T_THREE_THREE
    if count[BLOCK4]:
        return T_FOUR
    if count[FLEX3]:
        return T_FLEX3
    if count[BLOCK3] + count[FLEX2] >= 2:
        return T_TWO_TWO
    if count[BLOCK3]:
        return T_THREE
    return T_TWO if count[FLEX2] else T_NONE


# the 4 shapes of each shape index (``_cell_index``: direction 0 in the highest 3 bits), built once
CELL_SHAPES = np.array([(i >> 9 & 7, i >> 6 & 7, i >> 3 & 7, i & 7) for i in range(8**4)], dtype=np.int64)
CELL_CLASS = np.array([class_of(tuple(int(x) for x in s)) for s in CELL_SHAPES], dtype=np.int64)

# Leaf evaluation: every empty cell is worth, for each player, the weights of the shapes a stone would
# make on its 4 lines plus the weight of its threat class; row 0 for the side to move, row 1 for the
# opponent (subtracted). The line weights are round 3's line values times 4, the opponent's times 5
# (its 5/4 in integers). The class weights are 0: fitted to Rapfi's evaluations they played worse, and a
# hand-set bonus for double threats no better (docs/history/gomoku-rounds.md, round 4).
LINE_WEIGHT = np.array([[0, 4, 16, 32, 100, 120, 400, 800], [0, 5, 20, 40, 125, 150, 500, 1000]], dtype=np.int64)
CLASS_WEIGHT = np.zeros((2, 10), dtype=np.int64)
TEMPO = 240


def cell_values() -> np.ndarray:
    """``[2, 8^4]``: the value of a cell by its shape index for the side to move (0) and the opponent (1)."""
    values: np.ndarray = LINE_WEIGHT[:, CELL_SHAPES].sum(axis=2) + CLASS_WEIGHT[:, CELL_CLASS]
    return values


CELL_VALUE = cell_values()

# Move ordering (a linear policy fitted to a strong engine's moves, docs/gomoku.md): for the mover
# (row 0) and the opponent (row 1) a weight per shape on each of the cell's 4 lines and per threat class
# of the cell, and a weight by the Chebyshev distance (1, 2, 3, 4, 5 or more) to the opponent's last stone
# (row 0) and to the mover's own (row 1). Fives and the opponent's open fours never reach the fit (forced
# nodes and threat nodes were left out): they get the largest weights.
POLICY_SHAPE = np.array(
    [[-2228, -2133, -731, -595, 1427, 1156, 3105, 6000], [-889, -1072, -517, -103, 841, 1740, 3000, 6000]],
    dtype=np.int64,
)
POLICY_CLASS = np.array(
    [
        [-1102, -894, -969, -830, -849, -698, 496, 1663, 3182, 6000],
        [-516, -280, -209, -546, 168, 304, -356, 1436, 3000, 6000],
    ],
    dtype=np.int64,
)
POLICY_NEAR = np.array([[248, 85, 41, 253, -627], [629, 313, -160, -245, -537]], dtype=np.int64)
CELL_POLICY = POLICY_SHAPE[:, CELL_SHAPES].sum(axis=2) + POLICY_CLASS[:, CELL_CLASS]


@jit
def threat_class(cnt, c, q):  # type: ignore[no-untyped-def]
    """The threat class of a stone of player ``q + 1`` on the empty cell ``c`` (five, open four or double
    four, four-three, three-three, four, open three, ...), looked up by the shape index the cell caches."""
    return CELL_CLASS[cnt[c * 4 + q, 4]]
