"""Known counts, computed by traversing the rules.

* Tic-tac-toe: 5,478 reachable positions (empty board included) and 255,168 possible games,
  of which 131,184 are won by the first player, 77,904 by the second and 46,080 drawn.
* Connect 4 (7x6): distinct positions after exactly n plies for n = 1..8, from the bitboard rules,
  must equal a brute-force count on a plain list-of-columns board done here, and OEIS A212693.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from game.rules import Status, get_game
from game.rules.connect4 import Connect4Spec

A212693 = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)  # oeis.org/A212693, n = 0..8
MAX_PLY = 8


def test_tictactoe_reachable_positions() -> None:
    spec = get_game("tictactoe")
    seen = {spec.start()}
    frontier = [spec.start()]
    while frontier:
        pos = frontier.pop()
        for move in pos.legal_moves():
            child = pos.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == 5478


def test_tictactoe_possible_games() -> None:
    spec = get_game("tictactoe")

    @cache
    def games(pos: Any) -> tuple[int, int, int]:
        """(first player wins, second player wins, draws) over all move orders from ``pos``."""
        outcome = pos.outcome
        if outcome.status is Status.WIN:
            return (1, 0, 0) if outcome.winner == 0 else (0, 1, 0)
        if outcome.status is Status.DRAW:
            return (0, 0, 1)
        totals = [games(pos.play(move)) for move in pos.legal_moves()]
        return tuple(sum(t[i] for t in totals) for i in range(3))  # type: ignore[return-value]

    start: Any = spec.start()  # positions are frozen dataclasses: hashable
    first, second, draws = games(start)
    assert first + second + draws == 255_168
    assert (first, second, draws) == (131_184, 77_904, 46_080)


def bitboard_counts(max_ply: int) -> list[int]:
    level = {Connect4Spec().start()}
    counts = [len(level)]
    for _ in range(max_ply):
        level = {pos.play(move) for pos in level for move in pos.legal_moves()}
        counts.append(len(level))
    return counts


Columns = tuple[tuple[int, ...], ...]  # columns[c] = the stones of column c, bottom first


def _owner(columns: Columns, col: int, row: int) -> int | None:
    if 0 <= col < 7 and 0 <= row < len(columns[col]):
        return columns[col][row]
    return None


def _makes_four(columns: Columns, col: int) -> bool:
    """Does the top stone of ``col`` complete four in a row? (walk both ways in each direction)"""
    row = len(columns[col]) - 1
    me = columns[col][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while _owner(columns, c, r) == me:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def array_counts(max_ply: int) -> list[int]:
    """Brute force on a list-of-columns board: level maps each board to 'is the game over'."""
    level: dict[Columns, bool] = {tuple(() for _ in range(7)): False}
    counts = [len(level)]
    for ply in range(max_ply):
        player = ply % 2
        children: dict[Columns, bool] = {}
        for columns, over in level.items():
            if over:
                continue
            for col in range(7):
                if len(columns[col]) == 6:
                    continue
                child = columns[:col] + (columns[col] + (player,),) + columns[col + 1 :]
                if child not in children:
                    children[child] = _makes_four(child, col) or ply + 1 == 42
        level = children
        counts.append(len(level))
    return counts


def test_connect4_positions_per_ply() -> None:
    bitboard = bitboard_counts(MAX_PLY)
    array = array_counts(MAX_PLY)
    assert bitboard == array
    assert tuple(bitboard) == A212693[: MAX_PLY + 1]
