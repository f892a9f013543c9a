"""The hybrid searcher (MCTS + exact solver): exact moves, slowest losses, flags and scores,
the engine protocol, the pure-MCTS path, and the root solver without numba."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from ai.mcts import Searcher, supports
from ai.search.exact_root import RootSolver, bounds_class
from ai.search.hybrid import HybridSearcher, merge, solver_supports
from ai.solver.core import Solver
from ai.vocab.results import MoveStats, SearchResult
from game.rules import get_game
from game.rules.connect4 import Connect4Spec
from tests.engine_helpers import EngineProcess
from tests.positions import WIN_IN_ONE_OFF_BOOK, sample

ROOT = Path(__file__).resolve().parents[1]
C4 = Connect4Spec()
BUDGET_MS = 30_000.0  # a search ends once the solver has scored every column (a few ms here); the budget
# only bounds a stalled solve, so a loaded machine never turns a settled position into an estimate


@cache
def _solver() -> Solver:
    return Solver(tt_bits=20)


@cache
def _column_scores(moves: str) -> tuple[int | None, ...]:
    columns = _solver().analyze_columns(C4.parse_position(moves))
    assert columns.complete
    return columns.scores


@cache
def _searcher() -> HybridSearcher:
    searcher = HybridSearcher(C4, seed=3, threads=1, solver=Solver(tt_bits=20))
    searcher.warm_up()
    return searcher


def _search(moves: str, **kwargs: object) -> SearchResult:
    searcher = _searcher()
    searcher.set_position(C4.parse_position(moves))
    return searcher.search(**{"time_ms": BUDGET_MS, **kwargs})  # type: ignore[arg-type]


def _lost_positions_with_spread(count: int) -> list[str]:
    """Lost positions where the losing columns do not all lose equally fast."""
    found = []
    for moves, score in sample("Test_L2_R1", 200, seed=11):
        if score < 0:
            scores = [s for s in _column_scores(moves) if s is not None]
            if len(set(scores)) > 1:
                found.append(moves)
        if len(found) == count:
            return found
    pytest.fail("no lost positions with different loss lengths in the sample")


@pytest.mark.parametrize(("moves", "score"), sample("Test_L3_R1", 3, seed=5) + sample("Test_L2_R1", 3, seed=6))
def test_root_solver_finds_an_optimal_column_and_every_score(moves: str, score: int) -> None:
    root = RootSolver(_solver(), C4.parse_position(moves), deadline=None).start()
    root.join()
    facts = root.facts
    scores = _column_scores(moves)
    assert root.error is None
    assert facts.complete and facts.score == score and facts.result == bounds_class((score, score))
    assert facts.best is not None and scores[facts.best] == score
    assert [facts.column_score(c) for c in range(C4.width)] == list(scores)


@pytest.mark.parametrize(("moves", "score"), sample("Test_L3_R1", 3, seed=1) + sample("Test_L2_R1", 3, seed=2))
def test_plays_an_exact_best_move_with_exact_flag_and_scores(moves: str, score: int) -> None:
    result = _search(moves)
    scores = _column_scores(moves)
    assert scores[result.best_move] == score  # one of the solver's optimal columns
    assert result.exact and result.proven == bounds_class((score, score))
    assert result.proven is not None
    assert result.value == {1: 1.0, 0: 0.5, -1: 0.0}[result.proven]
    chosen = next(c for c in result.children if c.move == result.best_move)
    assert chosen.score == score and chosen.proven == result.proven
    for child in result.children:  # every score shown is right
        assert child.score is None or child.score == scores[child.move]


def test_plays_the_slowest_loss() -> None:
    for moves in _lost_positions_with_spread(3):
        scores = _column_scores(moves)
        result = _search(moves)
        assert scores[result.best_move] == max(s for s in scores if s is not None), moves
        assert result.proven == -1 and result.value == 0.0 and result.exact


def test_takes_the_fastest_win() -> None:
    for moves, score in sample("Test_L2_R1", 40, seed=8):
        scores = [s for s in _column_scores(moves) if s is not None]
        if score > 0 and len({s for s in scores if s > 0}) > 1:  # several wins of different lengths
            result = _search(moves)
            assert _column_scores(moves)[result.best_move] == score, moves
            return
    pytest.fail("no position with wins of different lengths in the sample")


def test_pure_mcts_path_is_unchanged_without_exact() -> None:
    position = C4.parse_position("4453")
    hybrid = HybridSearcher(C4, seed=9, threads=1)
    plain = Searcher(C4, seed=9, threads=1)
    results = []
    for searcher in (hybrid, plain):
        searcher.set_position(position)
        results.append(
            searcher.search(iterations=3000, exact=False) if searcher is hybrid else searcher.search(iterations=3000)
        )
    assert results[0].best_move == results[1].best_move
    assert results[0].children == results[1].children and not results[0].exact
    assert all(c.score is None for c in results[0].children)


def test_unsettled_position_still_answers_within_about_the_budget() -> None:
    """A position the solver cannot settle in the budget, whatever the book and the solver's speed: the second ply
    of an 8x7 board (no book; minutes for the solver)."""
    wide = Connect4Spec(8, 7)
    searcher = HybridSearcher(wide, seed=3, threads=1, solver=Solver(tt_bits=20))
    searcher.warm_up()
    searcher.set_position(wide.parse_position("45"))
    result = searcher.search(time_ms=150.0)
    assert not result.exact and result.proven is None
    assert result.best_move in wide.parse_position("45").legal_moves() and result.iterations > 0
    assert result.elapsed_ms < 150.0 + 1000.0  # loose: the real figure is a benchmark


class _StalledSolver:
    """A solver that proves nothing: each call waits until it is stopped or its time is up."""

    def __init__(self) -> None:
        self._stopped = threading.Event()

    def stop(self) -> None:
        self._stopped.set()

    def _wait(self, time_ms: float | None) -> None:
        self._stopped.clear()  # like the real solver, a call clears an earlier stop
        self._stopped.wait(None if time_ms is None else time_ms / 1000.0)

    def table_move(self, position: object) -> None:
        return None

    def bounds(
        self, position: object, alpha: int, beta: int, *, time_ms: float | None = None, max_nodes: int | None = None
    ) -> None:
        self._wait(time_ms)
        return None

    def solve(self, position: object, *, time_ms: float | None = None, max_nodes: int | None = None) -> SimpleNamespace:
        self._wait(time_ms)
        return SimpleNamespace(score=None)


def test_info_keeps_coming_while_a_proven_search_waits_for_the_solver() -> None:
    """MCTS proves the root at once (a win in one), the solver gets nowhere: the search waits for it
    until the deadline and must still report, or the app's client takes the engine for hung."""
    searcher = HybridSearcher(C4, seed=4, threads=1, solver=_StalledSolver())
    searcher.set_position(C4.parse_position(WIN_IN_ONE_OFF_BOOK))  # not answered by the book
    times: list[float] = []
    start = time.perf_counter()
    result = searcher.search(
        time_ms=1200.0, info_ms=50.0, early_stop=False, on_info=lambda r: times.append(time.perf_counter())
    )
    end = time.perf_counter()
    assert result.proven == 1 and result.best_move == 1
    assert end - start > 1.0  # it did wait for the solver
    gaps = [b - a for a, b in zip([start, *times], [*times, end], strict=True)]
    assert max(gaps) < 0.5, f"{len(times)} info calls, longest silence {max(gaps):.2f} s"


def test_merge_never_plays_a_proven_loss_while_another_move_is_open() -> None:
    position = C4.parse_position("4453")
    root = RootSolver(_solver(), position, deadline=None)  # not started: only the immediate facts
    facts = root.facts
    columns = list(facts.columns)
    columns[3] = (-10, -2)  # pretend the solver proved column 4 lost
    mcts = SearchResult(3, 0.6, tuple(MoveStats(m, 100 if m == 3 else 10, 0.5) for m in range(7)), 160, 1.0, 3, (3,))
    merged = merge(mcts, type(facts)(facts.root, tuple(columns)))
    assert merged.best_move != 3 and not merged.exact
    assert next(c for c in merged.children if c.move == 3).proven == -1


def test_other_games_use_plain_mcts() -> None:
    spec = get_game("tictactoe")
    assert not solver_supports(spec) and solver_supports(C4)
    if not supports(spec):
        with pytest.raises(ValueError):
            HybridSearcher(spec)
        return
    searcher = HybridSearcher(spec, seed=1, threads=1)
    result = searcher.search(iterations=500, exact=True)
    assert not result.exact and all(c.score is None for c in result.children)


def test_engine_bestmove_carries_exact_and_scores() -> None:
    moves, score = sample("Test_L3_R1", 1, seed=4)[0]
    engine = EngineProcess("--seed", "1")
    try:
        assert engine.read()["type"] == "ready"
        engine.send({"cmd": "position", "moves": moves})
        engine.send({"cmd": "go", "time_ms": BUDGET_MS, "id": 1})
        best, _ = engine.read_until("bestmove")
        scores = _column_scores(moves)
        assert best["exact"] is True and best["id"] == 1
        assert scores[C4.parse_move(best["move"])] == score
        by_move = {c["move"]: c for c in best["children"]}
        assert by_move[best["move"]]["score"] == score
        proven = bounds_class((score, score))
        assert proven is not None
        assert by_move[best["move"]]["proven"] == {1: "win", 0: "draw", -1: "loss"}[proven]
        engine.send({"cmd": "go", "time_ms": 100, "id": 2, "exact": False})
        plain, _ = engine.read_until("bestmove")
        assert plain["exact"] is False and all(c["score"] is None for c in plain["children"])
    finally:
        assert engine.close() == 0


def test_root_solver_runs_without_numba() -> None:
    code = (
        "from ai.search.exact_root import RootSolver\n"
        "from ai.solver.core import Solver\n"
        "from game.rules.connect4 import Connect4Spec\n"
        "pos = Connect4Spec(5, 4).parse_position('3322')\n"
        "solver = Solver(tt_bits=19)\n"
        "root = RootSolver(solver, pos, deadline=None).start()\n"
        "root.join()\n"
        "cols = solver.analyze_columns(pos)\n"
        "f = root.facts\n"
        "assert root.error is None and f.complete, (root.error, f)\n"
        "assert f.best is not None and cols.scores[f.best] == cols.best_score == f.score, (f, cols)\n"
        "assert [f.column_score(c) for c in range(5)] == list(cols.scores)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, CONNECT4_NO_NUMBA="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_analyze_reports_exact_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import main

    moves, score = sample("Test_L3_R1", 1, seed=12)[0]
    assert main.main(["analyze", moves, "--json", "--time-ms", str(BUDGET_MS), "--threads", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and _column_scores(moves)[C4.parse_move(data["best_move"])] == score
    assert {c["move"]: c["score"] for c in data["children"]}[data["best_move"]] == score
    assert main.main(["analyze", moves, "--json", "--iterations", "500", "--no-exact", "--seed", "1"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["exact"] is False and all(c["score"] is None for c in plain["children"])
