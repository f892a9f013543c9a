"""Issue 39: ``main.py review MOVES|FILE [--json]``: the classified move list, the JSON of every ply and the
per-player summary, one-line errors with exit status 2; the review job gives its results as they come."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

import main
from ai.search.review import ReviewJob, iter_exact, review_order
from game.play.savefile import game_to_json
from game.rules import get_game

pytestmark = pytest.mark.timeout(120)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(["review", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_of_a_book_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "4444442", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "connect4-mcts-review" and data["exact"] is True and data["complete"] is True
    assert [p["ply"] for p in data["plies"]] == list(range(7))
    last = data["plies"][6]
    assert last["player"] == 1 and last["played"] == "2" and last["class"] == "blunder" and last["mark"] == "??"
    assert last["scores"] == {"1": -1, "2": 0, "3": 1, "5": 1, "6": 0, "7": -1}  # column 4 is full
    assert last["best"] == ["3", "5"] and last["played_verdict"] == "draw" and last["best_verdict"].startswith("win")
    assert all(p["source"] == "book" for p in data["plies"])
    red, yellow = data["summary"]
    assert red["player"] == 1 and red["moves"] == 4 and red["counts"]["blunder"] == 1
    assert yellow["moves"] == 3 and sum(yellow["counts"].values()) == 3
    assert 0 <= red["accuracy"] < yellow["accuracy"] <= 100


def test_text_marks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "4144441")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "  1. 4 best"
    assert lines[2].startswith("  2. 1?! inaccuracy") and "best 4: loss in" in lines[2]
    assert lines[7].startswith("  7. 1?? blunder")
    assert lines[-2].startswith("player 1: 4 moves, accuracy")


def test_a_saved_file_and_the_solver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A saved game of a small board: no book, every position from the solver."""
    spec = get_game("connect4:5x4")
    path = tmp_path / "small.c4game.json"
    path.write_text(game_to_json(spec, spec.parse_moves("33322")), encoding="utf-8")
    code, out, err = run_cli(capsys, str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "connect4:5x4" and data["complete"] and len(data["plies"]) == 5
    assert {p["source"] for p in data["plies"]} == {"solver"}
    for ply in data["plies"]:
        best = max(ply["scores"].values())
        assert ply["best_score"] == best and sorted(ply["best"]) == sorted(
            m for m, s in ply["scores"].items() if s == best
        )


def test_estimates_are_labelled_and_repeatable(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("b2 a1", "--game", "tictactoe", "--json", "--iterations", "300", "--seed", "5")
    outs = []
    for _ in range(2):
        code, out, err = run_cli(capsys, *args)
        assert code == 0, err
        outs.append(json.loads(out))
    for data in outs:
        data.pop("elapsed_ms")
    assert outs[0] == outs[1]
    data = outs[0]
    assert data["estimate"] is True and data["exact"] is False and data["thresholds"]["blunder"] == 30.0
    assert len(data["plies"]) == 2 and all(0 <= v <= 1 for v in data["plies"][0]["scores"].values())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["4x"], "not a column"),
        (["4444444"], "full"),
        ([""], "no moves"),
        (["missing/game.json"], "no such file"),
        (["44", "--game", "chess"], "unknown game"),
        (["44", "--iterations", "0"], "--iterations"),
        (["44", "--time-ms", "1e300"], "--time-ms"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err.lower()


def test_a_bad_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    code, _, err = run_cli(capsys, str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a valid game file" in err


def test_order_shown_first_then_from_the_end() -> None:
    assert review_order(6, [0, 1], 3) == [3, 5, 4, 2]
    assert review_order(4, [], None) == [3, 2, 1, 0]
    assert review_order(4, [2], 2) == [3, 1, 0]


def test_progressive_results_book_first() -> None:
    spec = get_game("connect4")
    moves = spec.parse_moves("4444443333332")  # 13 plies: 0-9 from the book, 10-12 from the solver
    plies = [r.ply for r in iter_exact(spec, moves, shown=11)]
    assert plies[:10] == list(range(10)) and plies[10:] == [11, 12, 10]


def test_review_job_hands_results_over_and_stops() -> None:
    spec = get_game("connect4")
    first = threading.Event()
    job = ReviewJob(spec, spec.parse_moves("4444443333332"), on_result=lambda r: first.set())
    assert first.wait(60)
    assert job.wait(60) and job.error is None
    results = job.poll()
    assert sorted(r.ply for r in results) == list(range(13)) and job.poll() == []
    stopped = ReviewJob(spec, spec.parse_moves("4444443333332"))
    stopped.stop()
    assert stopped.wait(60) and stopped.error is None
    assert all(r.source == "book" for r in stopped.poll())  # stopped before the solver's positions


def test_start_review_fills_the_model_and_prepare_loads_ahead() -> None:
    from ai.search.review import prepare
    from game.play.review import start_review

    assert prepare(get_game("tictactoe")) is None
    loading = prepare(get_game("connect4"))
    assert loading is not None
    loading.join(60)
    assert not loading.is_alive()
    spec = get_game("connect4")
    review, job = start_review(spec, spec.parse_moves("44444433"), shown=7, threads=1)
    assert job.wait(60) and job.error is None
    for numbers in job.poll():
        review.add(numbers)
    assert review.complete and review.reviews[7].klass in ("best", "good", "inaccuracy", "mistake", "blunder")


def test_a_saved_file_with_variations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from game.play.variations import MoveTree, tree_to_saved_text

    spec = get_game("connect4")
    tree = MoveTree(spec, spec.parse_moves("4444442"))  # Red's last move 2 only draws
    tree.add_line(spec.parse_moves("444444"), (2,))  # the variation 3 wins
    tree.add_line(spec.parse_moves("4"), (0,))  # Yellow's 1: worse than 4, not marked
    path = tmp_path / "tree.c4game.json"
    path.write_text(tree_to_saved_text(tree), encoding="utf-8")
    code, out, err = run_cli(capsys, str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["moves"] == "4444442" and data["better_variations"] == [{"ply": 6, "move": "3", "class": "best"}]
    code, out, _ = run_cli(capsys, str(path))
    assert out.splitlines()[-1] == "variation at move 7: 3 was better (best)"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["variations"] = [{"ply": 1, "moves": "9"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli(capsys, str(path))
    assert code == 2 and "variation at ply 1" in err and len(err.strip().splitlines()) == 1


def test_a_partly_known_position_is_not_judged(capsys: pytest.CaptureFixture[str]) -> None:
    from ai.vocab.review_scores import PositionScores
    from game.play.review import GameReview

    spec = get_game("connect4")
    review = GameReview(spec, spec.parse_moves("41"))
    partial = PositionScores(1, ((0, -2.0),), True, False, "partial", 5.0)  # column 4 (-1) unknown
    assert review.add(partial) == [] and 1 not in review.reviews
    code, out, err = run_cli(capsys, "4" * 4 + "3" * 6 + "5" * 6, "--time-ms", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    partly = [p for p in data["plies"] if p["source"] == "partial"]
    assert all(p["class"] for p in data["plies"])
    assert data["complete"] is (len(data["plies"]) == 16) and not partly  # partial positions are left out
