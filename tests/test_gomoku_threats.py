"""Threat-space search of the m,n,k kernel (ai/mcts/mnk_threats.py) and its use in the children and
the search: VCFs of known length found, refuted where a defence exists, the only defences kept,
hand-checked proofs, and a cross-check against a plain recursive VCF on random positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.mcts.games import adapter_for
from ai.mcts.kernel_mnk import MNK_PAD, MNK_PW, _unpack, mnk_gen_children, mnk_state
from ai.mcts.layout import LOSS, WIN
from ai.mcts.mnk_threats import NO_VCF, VCF_UNKNOWN, vcf
from ai.mcts.search import Searcher
from game.rules.registry import get_game

GOMOKU = get_game("gomoku")

# X to move (or O, as the test says). ``X X X`` on row 7 is closed by O on the left; column 8 holds
# two X above row 7. X (8,7) is a four (win cell (9,7)) and an open three down column 8; after O
# blocks (9,7), X (8,4) or (8,8) is an open four: a VCF in 2. (9,7) first instead is answered at
# (8,7), which kills both lines: it is the only first move.
VCF2 = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . O . .
. . . . O X X X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . O . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def stones(diagram: str) -> tuple[int, int]:
    rows = [r.split() for r in diagram.strip().splitlines()]
    s0 = s1 = 0
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "X":
                s0 |= 1 << (y * len(row) + x)
            elif ch == "O":
                s1 |= 1 << (y * len(row) + x)
    return s0, s1


def _adapter(spec):  # type: ignore[no-untyped-def]
    adapter = adapter_for(spec)
    assert adapter is not None
    return adapter


def padded(spec, s0: int, s1: int) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    params = _adapter(spec).make_params(spec)
    return params, _unpack(params, mnk_state(spec.width * spec.height, s0, s1, -1))


def code_xy(params: np.ndarray, code: int) -> tuple[tuple[int, int], int]:
    move, length = divmod(code, 256)
    pw, pad = int(params[MNK_PW]), int(params[MNK_PAD])
    return (move % pw - pad, move // pw - pad), length


def vcf_of(diagram: str, attacker: int, depth: int = 10, budget: int = 100_000) -> int:
    params, board = padded(GOMOKU, *stones(diagram))
    before = board.copy()
    code = int(vcf(board, int(params[MNK_PW]), 5, attacker, depth, budget))
    assert np.array_equal(board, before), "vcf() must put the board back"
    return code


def position_of(diagram: str, x_to_move: bool):  # type: ignore[no-untyped-def]
    """A game position with these stones (X moved first; the move order is made up)."""
    s0, s1 = stones(diagram)
    xs = [c for c in range(225) if s0 >> c & 1]
    os_ = [c for c in range(225) if s1 >> c & 1]
    while len(xs) < len(os_) + (0 if x_to_move else 1):
        xs.append(next(c for c in range(224, -1, -1) if not (s0 | s1) >> c & 1 and c not in xs))
    while len(os_) < len(xs) - (0 if x_to_move else 1):
        os_.append(next(c for c in range(225) if not (s0 | s1) >> c & 1 and c not in os_ and c not in xs))
    pos = GOMOKU.start()
    for i in range(len(xs) + len(os_)):
        pos = pos.play(xs[i // 2] if i % 2 == 0 else os_[i // 2])
    return pos


def children(pos) -> list[tuple[tuple[int, int], int]]:  # type: ignore[no-untyped-def]
    adapter = _adapter(GOMOKU)
    params = adapter.make_params(GOMOKU)
    moves = np.zeros(225, dtype=np.int64)
    status = np.zeros(225, dtype=np.int64)
    n = mnk_gen_children(params, adapter.encode(pos), moves, status)
    return [((int(m) % 15, int(m) // 15), int(s)) for m, s in zip(moves[:n], status[:n], strict=True)]


@pytest.mark.timeout(120)
def test_a_vcf_in_two_is_found_with_its_only_first_move() -> None:
    params, _ = padded(GOMOKU, 0, 0)
    assert code_xy(params, vcf_of(VCF2, 1)) == ((8, 7), 2)
    assert vcf_of(VCF2, 1, depth=1) == VCF_UNKNOWN  # one four is not enough (and the cut is known)
    assert vcf_of(VCF2, 2) == NO_VCF  # O has no four at all


@pytest.mark.timeout(120)
def test_the_vcf_is_refuted_when_the_forced_block_makes_a_four() -> None:
    # O on (9,4) (9,5) (9,6): its forced block at (9,7) makes an open four: X's line fails, and
    # (9,7) first is answered at (8,7). No VCF for X any more.
    refuted = VCF2.splitlines()
    for y in (4, 5, 6):
        row = refuted[y + 1].split()
        row[9] = "O"
        refuted[y + 1] = " ".join(row)
    assert vcf_of("\n".join(refuted), 1) == NO_VCF


@pytest.mark.timeout(120)
def test_an_open_three_is_a_vcf_in_one_and_its_only_defences_are_its_ends() -> None:
    three = "\n".join(
        ". . . . . X X X . . . . . . ." if y == 7 else ". . . . . . . . . . O . . . ." if y == 2 else ". " * 15
        for y in range(15)
    )
    params, _ = padded(GOMOKU, 0, 0)
    assert code_xy(params, vcf_of(three, 1))[1] == 1
    kids = children(position_of(three, x_to_move=False))
    assert {m for m, _ in kids} == {(4, 7), (8, 7)}


@pytest.mark.timeout(120)
def test_only_the_defences_against_a_vcf_are_children() -> None:
    # O to move in VCF2: (8,7), (9,7), (8,4) and (8,8) stop it (worked out by hand: after O (8,3) or
    # (8,9) the four at (8,7) and a block leave X an open four down column 8).
    kids = children(position_of(VCF2, x_to_move=False))
    assert kids and {m for m, _ in kids} <= {(8, 7), (9, 7), (8, 4), (8, 8)}
    assert (8, 7) in {m for m, _ in kids}


@pytest.mark.timeout(120)
def test_the_vcf_is_a_proven_single_child_and_the_search_proves_the_root() -> None:
    pos = position_of(VCF2, x_to_move=True)
    assert children(pos) == [((8, 7), WIN)]
    searcher = Searcher(GOMOKU, seed=3, threads=1)
    try:
        searcher.set_position(pos)
        result = searcher.search(iterations=50)
    finally:
        searcher.close()
    assert result.proven == 1 and result.best_move == 7 * 15 + 8


@pytest.mark.timeout(120)
def test_a_double_open_three_is_proven_lost_for_the_defender_and_one_three_is_not() -> None:
    # X: open threes on row 7 (5-7) and column 11 (rows 2-4), far apart; O has no four: O to move loses.
    rows = [["."] * 15 for _ in range(15)]
    for x in (5, 6, 7):
        rows[7][x] = "X"
    for y in (2, 3, 4):
        rows[y][11] = "X"
    rows[12][1] = rows[12][3] = rows[13][13] = rows[0][0] = "O"
    double = "\n".join(" ".join(r) for r in rows)
    kids = children(position_of(double, x_to_move=False))
    assert kids and all(s == LOSS for _, s in kids)
    searcher = Searcher(GOMOKU, seed=3, threads=1)
    try:
        searcher.set_position(position_of(double, x_to_move=False))
        assert searcher.search(iterations=200).proven == -1
        rows[2][11] = "."  # one open three only: O can defend, nothing is proven
        rows[1][1] = "O"
        single = "\n".join(" ".join(r) for r in rows)
        searcher.set_position(position_of(single, x_to_move=False))
        assert searcher.search(iterations=200).proven is None
    finally:
        searcher.close()


# -- cross-check against a plain recursive VCF on a 9x9 board ------------------------------------------
SMALL = get_game("mnk:9x9:5")


def _five(board: dict[tuple[int, int], int], x: int, y: int, p: int) -> bool:
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for s in (1, -1):
            i = 1
            while board.get((x + s * i * dx, y + s * i * dy)) == p:
                run += 1
                i += 1
        if run >= 5:
            return True
    return False


def _win_cells(board: dict[tuple[int, int], int], p: int) -> set[tuple[int, int]]:
    return {(x, y) for x in range(9) for y in range(9) if board[(x, y)] == 0 and _five(board, x, y, p)}


def ref_vcf(board: dict[tuple[int, int], int], att: int, depth: int) -> int | None:
    """The length of the shortest VCF of ``att`` within ``depth`` fours, by brute force."""
    if depth == 0:
        return None
    theirs = _win_cells(board, 3 - att)
    if len(theirs) >= 2:
        return None
    empty = [c for c, v in board.items() if v == 0]
    best = None
    for c in sorted(theirs) if theirs else empty:
        board[c] = att
        mine = _win_cells(board, att)
        if len(mine) >= 2:
            best = 1
        elif len(mine) == 1 and depth > 1:
            (w,) = mine
            board[w] = 3 - att
            r = ref_vcf(board, att, depth - 1 if best is None else min(depth - 1, best - 2))
            board[w] = 0
            if r is not None and (best is None or r + 1 < best):
                best = r + 1
        board[c] = 0
        if best == 1:
            break
    return best


@pytest.mark.timeout(240)
def test_vcf_lengths_match_a_brute_force_search_on_random_positions() -> None:
    rng = random.Random(11)
    params = _adapter(SMALL).make_params(SMALL)
    found = 0
    for _ in range(40):
        cells = rng.sample(range(81), 16)
        s0 = sum(1 << c for c in cells[:8])
        s1 = sum(1 << c for c in cells[8:])
        board = {(c % 9, c // 9): (1 if s0 >> c & 1 else 2 if s1 >> c & 1 else 0) for c in range(81)}
        if _win_cells(board, 1) or any(_five(board, c % 9, c // 9, 1 + (s1 >> c & 1)) for c in cells):
            continue  # X could win at once, or a five stands: not a VCF question
        ref = ref_vcf(board, 1, 3)
        cells_board = _unpack(params, mnk_state(81, s0, s1, -1))
        code = int(vcf(cells_board, int(params[MNK_PW]), 5, 1, 3, 1_000_000))
        ours = None if code < 0 else code % 256
        assert ours == ref, (s0, s1, code, ref)
        found += ours is not None
    assert found >= 3  # the sample holds some VCFs


# -- VCT ---------------------------------------------------------------------------------------------------
# X: (5,7) (6,7) on row 7 and (7,5) (7,6) on column 7. X (7,7) makes two open threes at once: no
# single O stone stops both open fours, a VCT with one threat. O to move stops it only on (7,7).
DOUBLE_THREE = "\n".join(
    " ".join(
        "X" if (x, y) in {(5, 7), (6, 7), (7, 5), (7, 6)} else "O" if (x, y) in {(0, 0), (14, 14), (0, 14)} else "."
        for x in range(15)
    )
    for y in range(15)
)


@pytest.mark.timeout(120)
def test_a_double_three_is_a_vct_and_the_root_analysis_proves_it() -> None:
    from ai.mcts.mnk_root import mnk_allows_vct, mnk_vct_move, root_threat_proofs

    adapter = _adapter(GOMOKU)
    params = adapter.make_params(GOMOKU)
    x_to_move = adapter.encode(position_of(DOUBLE_THREE, x_to_move=True))
    assert mnk_vct_move(params, x_to_move, 1, 10_000) == 7 * 15 + 7
    assert mnk_vct_move(params, x_to_move, 0, 10_000) == -1  # no VCF: the threat is needed
    o_to_move = adapter.encode(position_of(DOUBLE_THREE, x_to_move=False))
    assert mnk_allows_vct(params, o_to_move, 7 * 15 + 7, 1, 10_000) == 0  # the shared cell stops both
    assert mnk_allows_vct(params, o_to_move, 7 * 15 + 8, 1, 10_000) == 0  # (8,7) spoils the row: one three
    assert mnk_allows_vct(params, o_to_move, 3 * 15 + 3, 1, 10_000) == 1  # far away: X (7,7) wins
    proofs = root_threat_proofs(params, o_to_move, [7 * 15 + 7, 3 * 15 + 3, 12 * 15 + 12], 30.0)
    assert proofs == {3 * 15 + 3: -1, 12 * 15 + 12: -1}


@pytest.mark.timeout(120)
def test_no_vct_when_the_defender_has_a_four_of_its_own() -> None:
    # O gets three in a row on row 12 with both ends free (an open three: a VCF for O if X plays a
    # slow threat), so X's double three is too slow: the VCT search must not claim a win.
    rows = [r.split() for r in DOUBLE_THREE.splitlines()]
    for x in (2, 3, 4):
        rows[12][x] = "O"
    diagram = "\n".join(" ".join(r) for r in rows)
    adapter = _adapter(GOMOKU)
    params = adapter.make_params(GOMOKU)
    from ai.mcts.mnk_root import mnk_vct_move

    assert mnk_vct_move(params, adapter.encode(position_of(diagram, x_to_move=True)), 2, 10_000) < 0
