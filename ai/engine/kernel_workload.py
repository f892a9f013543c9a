"""A fixed workload over every game's kernels: what the ahead-of-time build plays to learn the signatures
to compile, and what the equivalence test compares between the JIT and the compiled module.

:func:`fingerprint` prepares every game (the engine's own warm-up, solver included), runs seeded
single-thread searches with iteration budgets, exact Connect 4 solves and Gomoku VCF searches on
fixed positions, and returns what they found as plain JSON data: the same sources must give the
same data whichever way the kernels run.
"""

# ai.jit: in the sources digest (what this workload reaches decides which signatures get compiled)

from __future__ import annotations

from typing import Any

import numpy as np

from ai.engine.warmup import prepare
from game.rules import get_game

# one game of each kernel and board family, at the start and after a few moves
SEARCHES: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("connect4", (), 3000),
    ("connect4", (3, 3, 4, 2), 3000),
    ("connect4:5x4", (2,), 2000),
    ("tictactoe", (), 2000),
    ("tictactoe", (4, 0), 2000),
    ("mnk:6x6:4", (14, 15), 2000),
    ("gomoku", (112, 113), 400),
    ("gomoku", (112, 96, 113, 97, 114), 400),
    ("uttt", (), 2000),
    ("uttt", (40, 41), 2000),
)
# exact Connect 4 scores (Pons' convention), moves in the usual 1-based column notation
SOLVES = ("4453", "44444", "274552224131661", "3344554")
SOLVE_NODES = 300_000  # a node budget keeps a hard position bounded and the run deterministic
# Gomoku cells (15 x 15, row * 15 + column) played in turn: X's broken and open lines, O scattered
VCF_POSITIONS: tuple[tuple[int, ...], ...] = (
    (112, 0, 113, 14, 114, 210, 97, 224, 127, 30),
    (112, 0, 113, 14, 98, 210, 128, 224, 82, 44),
    (112, 111, 128, 96, 144, 80, 97, 64),
)
# X has four in a row (112-115) with X to move, then with O to move (O must block)
FOURS: tuple[tuple[int, ...], ...] = ((112, 0, 113, 14, 114, 210, 115, 224), (112, 0, 113, 14, 114, 210, 115))
VCF_DEPTH = 12
VCF_BUDGET = 20_000
THREAT_BUDGET = 20_000


def _search(game: str, moves: tuple[int, ...], iterations: int) -> dict[str, Any]:
    from ai.mcts import Searcher

    spec = get_game(game)
    position = spec.start()
    for move in moves:
        position = position.play(move)
    searcher = Searcher(spec, seed=7, threads=1)
    try:
        searcher.set_position(position)
        result = searcher.search(iterations=iterations, early_stop=False)
    finally:
        searcher.close()
    return {
        "game": game,
        "moves": list(moves),
        "best": result.best_move,
        "iterations": result.iterations,
        "depth": result.max_depth,
        "proven": result.proven,
        "children": [[c.move, c.visits, c.proven, round(c.value, 9)] for c in result.children],
        "pv": list(result.pv),
    }


def _solve(moves: str) -> dict[str, Any]:
    from ai.solver.core import Solver
    from game.rules.connect4 import Connect4Spec

    solver = Solver(threads=1)
    position = Connect4Spec().parse_position(moves)
    result = solver.solve(position, max_nodes=SOLVE_NODES)
    columns = solver.analyze_columns(position, max_nodes=SOLVE_NODES, threads=1)
    return {"moves": moves, "score": result.score, "nodes": result.nodes, "columns": list(columns.scores)}


def _vcf(cells: tuple[int, ...]) -> dict[str, Any]:
    from ai.mcts.gomoku_search import GomokuSearcher
    from ai.mcts.gomoku_threats import find_win
    from ai.mcts.mnk_threats import vcf_line

    spec = get_game("gomoku")
    position = spec.start()
    for cell in cells:
        position = position.play(cell)
    searcher = GomokuSearcher(spec)
    board = searcher._board(position)[0]
    mover = 1 if len(cells) % 2 == 0 else 2
    found = []
    for attacker in (mover, 3 - mover):
        line = np.zeros(2 * VCF_DEPTH + 4, dtype=np.int64)
        code = int(vcf_line(board, searcher.g[0], searcher.g[1], attacker, VCF_DEPTH, VCF_BUDGET, line))  # type: ignore[no-untyped-call]
        found.append([attacker, code, [int(c) for c in line[: 1 + max(0, int(line[0]))]] if code >= 0 else []])
    threats = []
    for attacker in (mover, 3 - mover):
        board, cnt, ev, n4, near, hsh = searcher._board(position)
        tables = (searcher.g, searcher.cwin, searcher.wcell, board, cnt, ev, n4, near, hsh, searcher.zob)
        win = find_win(*tables, *searcher._scratch, attacker, 2, 8, THREAT_BUDGET, -1)  # type: ignore[no-untyped-call]
        threats.append([attacker, int(win)])
    return {"cells": list(cells), "vcf": found, "threats": threats}


def _exercise() -> None:
    """The paths a game takes with a clock (not deterministic, so not in the fingerprint): the engine's
    timed searches, Gomoku's root threat search and warm-up, the solver's analysis with threads."""
    from ai.mcts import Searcher
    from ai.mcts.gomoku_search import GomokuSearcher

    for game in dict.fromkeys(game for game, _, _ in SEARCHES):
        spec = get_game(game)
        searcher = Searcher(spec, seed=3, threads=2)
        try:
            searcher.warm_up()
            searcher.set_position(spec.start())
            searcher.search(time_ms=150)
        finally:
            searcher.close()
    spec = get_game("gomoku")
    gomoku = GomokuSearcher(spec)
    position = spec.start()
    for cell in VCF_POSITIONS[0]:
        position = position.play(cell)
    gomoku.warm_up(position)
    gomoku.search(position, time_ms=300)
    for cells in FOURS:  # a four on the board: the win in one, and the block
        position = spec.start()
        for cell in cells:
            position = position.play(cell)
        gomoku.search(position, time_ms=100)


def fingerprint(exercise: bool = True) -> dict[str, Any]:
    """Everything the fixed workload found, as JSON data (after the timed paths, when ``exercise``)."""
    for game in dict.fromkeys(game for game, _, _ in SEARCHES):
        prepare(game, exact=True)
    if exercise:
        _exercise()
    return {
        "searches": [_search(*item) for item in SEARCHES],
        "solves": [_solve(moves) for moves in SOLVES],
        "vcf": [_vcf(cells) for cells in VCF_POSITIONS],
    }
