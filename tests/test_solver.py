"""Exact Connect 4 solver: Pons' benchmark scores, brute force on small boards, limits, CLI, no-numba."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.solver import kernel
from ai.solver.core import NO_FLOOR, ColumnScores, Solver, analyze_columns, max_score, solve, warm_up
from ai.solver.watchdog import Watchdog
from game.rules import GameError, get_game
from game.rules.connect4 import Connect4Position, Connect4Spec
from tests.positions import positions_dir, sample

ROOT = Path(__file__).resolve().parents[1]
C4 = Connect4Spec()


def sample_lines(name: str, count: int, seed: int = 2024) -> list[tuple[str, int]]:
    return sample(name, count, seed)


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_bits=20, use_book=False)  # the search itself, not the book


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"])
def test_reproduces_pons_scores(solver: Solver, name: str) -> None:
    wrong = []
    for moves, expected in sample_lines(name, 30):
        result = solver.solve(C4.parse_position(moves))
        assert result.complete and result.nodes > 0
        if result.score != expected:
            wrong.append((moves, expected, result.score))
    assert wrong == []


def test_fresh_table_gives_the_same_scores() -> None:
    fresh = Solver(tt_bits=19, use_book=False)
    for moves, expected in sample_lines("Test_L2_R1", 10, seed=5):
        fresh.clear()
        assert fresh.solve(C4.parse_position(moves)).score == expected


def test_column_scores_match_move_quality_file(solver: Solver) -> None:
    records = [json.loads(ln) for ln in (positions_dir() / "move_quality_public.jsonl").read_text().splitlines()]
    easy = [r for r in records if r["solve_ms"] < 40]
    for record in random.Random(11).sample(easy, 8):
        result = solver.analyze_columns(C4.parse_position(record["moves"]))
        assert isinstance(result, ColumnScores) and result.complete
        assert list(result.scores) == record["scores"], record["moves"]
        assert result.best_score == record["best_score"]
        assert [c + 1 for c in result.best_columns] == record["optimal_cols"]


# --- brute force on small boards, written on a plain grid independently of the bitboards ---


def _wins(grid: tuple[tuple[int, ...], ...], col: int, player: int) -> bool:
    """Would ``player`` dropping in ``col`` make four in a row? ``grid`` is a tuple of columns."""
    width = len(grid)
    row = len(grid[col])
    height_of = [list(c) for c in grid]
    height_of[col].append(player)

    def owner(c: int, r: int) -> int | None:
        return height_of[c][r] if 0 <= c < width and 0 <= r < len(height_of[c]) else None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while owner(c, r) == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


@cache
def brute_force(width: int, height: int) -> Callable[[tuple[tuple[int, ...], ...], int], int]:
    """Memoised plain negamax over (grid as a tuple of columns, ply): Pons' score for the side to move."""
    cells = width * height

    @cache
    def negamax(grid: tuple[tuple[int, ...], ...], ply: int) -> int:
        player = ply % 2
        playable = [c for c in range(width) if len(grid[c]) < height]
        if not playable:
            return 0
        if any(_wins(grid, c, player) for c in playable):
            return (cells + 1 - ply) // 2
        best = -cells
        for c in playable:
            child = tuple(col + (player,) if i == c else col for i, col in enumerate(grid))
            best = max(best, -negamax(child, ply + 1))
        return best

    return negamax


def brute_force_score(width: int, height: int, moves: str) -> int:
    start: list[list[int]] = [[] for _ in range(width)]
    for i, ch in enumerate(moves):
        start[int(ch) - 1].append(i % 2)
    result: int = brute_force(width, height)(tuple(tuple(c) for c in start), len(moves))
    return result


def random_position(spec: Any, rng: random.Random, plies: int) -> Any:
    while True:
        pos = spec.start()
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if not pos.outcome.is_over:
            return pos


SMALL_BOARDS = [
    ("4x4", 2, 2),
    ("5x4", 7, 8),
    ("4x5", 7, 8),
    ("6x4", 11, 3),
    ("8x7", 44, 3),
    ("9x6", 42, 3),
    ("4x15", 48, 3),
]


@pytest.mark.parametrize(("size", "plies", "count"), SMALL_BOARDS)  # 8x7: 64 bits, 4x15: tall columns
def test_small_boards_agree_with_brute_force(size: str, plies: int, count: int) -> None:
    spec = get_game(f"connect4:{size}")
    rng = random.Random(size)
    small = Solver(tt_bits=19)
    for _ in range(count):
        pos = random_position(spec, rng, plies)
        expected = brute_force_score(spec.width, spec.height, pos.to_text())
        assert small.solve(pos).score == expected, pos.to_text()
        columns = small.analyze_columns(pos)
        for col in range(spec.width):
            if pos.can_play(col):
                child = pos.play(col)
                if child.outcome.is_over:
                    want = 0 if child.outcome.winner is None else (spec.width * spec.height + 1 - pos.ply) // 2
                else:
                    want = -brute_force_score(spec.width, spec.height, child.to_text())
                assert columns.scores[col] == want, (pos.to_text(), col)
            else:
                assert columns.scores[col] is None
        assert columns.best_score == expected


def test_max_score() -> None:
    assert max_score(C4) == 18  # 22 - 4: a win with the 4th stone
    assert max_score(Connect4Spec(5, 4)) == (20 - 5) // 2


def test_mirrored_positions_have_the_same_score(solver: Solver) -> None:
    for moves, expected in sample_lines("Test_L2_R1", 5, seed=3):
        mirrored = "".join(str(8 - int(ch)) for ch in moves)
        assert solver.solve(C4.parse_position(mirrored)).score == expected


def test_limits_give_unknown_and_leave_the_solver_usable() -> None:
    limited = Solver(tt_bits=19, use_book=False)  # the book answers these openings at once
    start = C4.start()
    by_nodes = limited.solve(start, max_nodes=3000)
    assert by_nodes.score is None and not by_nodes.complete
    assert by_nodes.nodes < 10_000
    by_time = limited.solve(C4.parse_position("44"), time_ms=30)
    assert by_time.score is None and not by_time.complete
    columns = limited.analyze_columns(start, max_nodes=5000)
    assert not columns.complete and columns.best_score is None
    moves, expected = sample_lines("Test_L3_R1", 1, seed=9)[0]
    assert limited.solve(C4.parse_position(moves)).score == expected


def test_partial_column_scores_are_exact_where_known(solver: Solver) -> None:
    position = C4.parse_position("742172341137")
    full = solver.analyze_columns(position)
    assert full.complete
    partial = Solver(tt_bits=19).analyze_columns(position, max_nodes=200_000)
    assert not partial.complete and partial.best_score is None
    known = [(c, s) for c, s in enumerate(partial.scores) if s is not None]
    assert known and all(full.scores[c] == s for c, s in known)


def test_stop_from_another_thread() -> None:
    stoppable = Solver(tt_bits=19, use_book=False)  # the book answers the start at once
    results = []
    worker = threading.Thread(target=lambda: results.append(stoppable.solve(C4.start())))
    worker.start()
    for _ in range(500):  # keep asking: a stop before the search starts is forgotten
        worker.join(0.02)
        if not worker.is_alive():
            break
        stoppable.stop()
    worker.join(5)
    assert not worker.is_alive()
    assert results[0].score is None and not results[0].complete


def test_bad_positions_are_rejected() -> None:
    with pytest.raises(GameError):
        solve(C4.parse_position("1212121"))  # already won
    with pytest.raises(GameError):
        analyze_columns(get_game("tictactoe").start())  # type: ignore[arg-type]  # the wrong game on purpose


def _run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "solve", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_cli_json_output() -> None:
    record = json.loads((positions_dir() / "move_quality_public.jsonl").read_text().splitlines()[2])
    done = _run_cli(record["moves"], "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["position"] == record["moves"] and out["complete"] is True
    assert out["score"] == record["best_score"]
    assert [c["move"] for c in out["columns"]] == [str(i) for i in range(1, 8)]
    assert [c["score"] for c in out["columns"]] == record["scores"]
    assert out["elapsed_ms"] >= 0


@pytest.mark.parametrize(
    "args",
    [
        ["44x"],
        ["4444444"],
        ["1212121"],
        ["12", "--game", "nope"],
        ["12", "--game", "tictactoe"],
        ["12", "--game", "connect4:3x3"],
    ],
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    done = _run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("error:")


def test_plain_python_solves_an_endgame() -> None:
    moves, expected = sample_lines("Test_L3_R1", 1, seed=1)[0]
    env = dict(os.environ, CONNECT4_NO_NUMBA="1")
    code = (
        "from ai.solver.core import Solver; from game.rules import get_game; "
        f"print(Solver(tt_bits=19).solve(get_game('connect4').parse_position({moves!r})).score)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) == expected
    assert "numba is not available" in done.stderr


@pytest.mark.timeout(120)
def test_helper_threads_give_the_same_scores_as_one_thread() -> None:
    rnd = random.Random(4)
    positions: list[Connect4Position] = []
    while len(positions) < 16:
        position = C4.start()
        for _ in range(rnd.randrange(8, 14)):
            legal = [c for c in position.legal_moves() if not position.play(c).outcome.is_over]
            if not legal:
                break
            position = position.play(rnd.choice(legal))
        if not position.outcome.is_over:
            positions.append(position)
    single = Solver(tt_bits=20, use_book=False)
    multi = Solver(tt_bits=20, use_book=False, threads=2)
    for position in positions:
        single.clear()
        multi.clear()
        expected = single.solve(position)
        got = multi.solve(position)
        assert got.score == expected.score, position.to_text()
    assert multi.solve(C4.parse_position("4453"), max_nodes=10_000).score is None  # limits still stop it


@pytest.mark.timeout(120)
@pytest.mark.parametrize("time_ms", [None, 60_000.0], ids=["one pass", "passes"])
def test_columns_split_over_threads_match_the_move_quality_file(time_ms: float | None) -> None:
    records = [json.loads(ln) for ln in (positions_dir() / "move_quality_public.jsonl").read_text().splitlines()]
    middling = [r for r in records if 5 < r["solve_ms"] < 150]
    split = Solver(tt_bits=20, use_book=False, threads=3)
    for record in random.Random(12).sample(middling, 6):
        split.clear()
        result = split.analyze_columns(C4.parse_position(record["moves"]), time_ms=time_ms)
        assert result.complete and result.nodes > 0
        assert list(result.scores) == record["scores"], record["moves"]


@pytest.mark.timeout(60)
def test_a_split_analysis_stops_at_once_and_keeps_only_proved_scores() -> None:
    position = C4.parse_position("2617527")  # every column: about 12 s of search without the book
    split = Solver(tt_bits=20, use_book=False, threads=2)
    warm_up()  # compiled code loaded: the 0.2 s below are search
    found: list[ColumnScores] = []
    worker = threading.Thread(target=lambda: found.append(split.analyze_columns(position)))
    worker.start()
    threading.Event().wait(0.2)
    assert "solver-column" in [t.name for t in threading.enumerate()]
    split.stop()
    worker.join(0.5)
    assert not worker.is_alive(), "a stop did not reach every column thread"
    split.clear()
    by_deadline = split.analyze_columns(position, time_ms=100.0)  # the watchdog stops every thread
    assert not by_deadline.complete and by_deadline.elapsed_ms < 600
    check = Solver(tt_bits=20, use_book=False)
    for partial in (found[0], by_deadline):
        assert not partial.complete
        for col, score in enumerate(partial.scores):
            if score is not None:
                child = check.solve(position.play(col)).score
                assert child is not None and score == -child, (col, partial.scores)


@pytest.mark.timeout(60)
def test_an_idle_column_thread_finishes_a_column_still_running(monkeypatch: pytest.MonkeyPatch) -> None:
    position = C4.parse_position("4223133")  # every column needs a search of a few tens of ms
    expected = Solver(tt_bits=20, use_book=False).analyze_columns(position, threads=1).scores
    split = Solver(tt_bits=20, use_book=False, threads=2)
    original = Solver.kernel_solve
    stalled: list[bool] = []
    first = threading.Lock()

    def stall_the_first_column(
        self: Solver, board: object, child: Connect4Position, ctl: np.ndarray, floor: int = NO_FLOOR
    ) -> int:
        with first:  # both threads start a column at once: one stalls
            stall = not stalled and board in [worker[0] for worker in self._column_workers.rows]
            if stall:
                stalled.append(False)  # its owner waits until a helper has the answer
        if not stall:
            return original(self, board, child, ctl, floor)  # type: ignore[arg-type]
        for _ in range(20_000):
            if ctl[kernel.PEER_DONE]:
                stalled[0] = True
                break
            threading.Event().wait(0.001)
        return kernel.UNKNOWN

    monkeypatch.setattr(Solver, "kernel_solve", stall_the_first_column)
    result = split.analyze_columns(position)
    assert stalled == [True], "no idle thread took over the stalled column"
    assert result.complete and result.scores == expected


def test_the_deadline_raises_every_threads_stop_flag() -> None:
    flags = [np.zeros(kernel.CTL_SIZE, dtype=np.int64)]
    watchdog = Watchdog(flags)
    flags.append(np.zeros(kernel.CTL_SIZE, dtype=np.int64))  # a column thread added after the solver was made
    with watchdog.armed(5.0):
        threading.Event().wait(0.2)
    assert [int(f[kernel.STOP]) for f in flags] == [1, 1]
