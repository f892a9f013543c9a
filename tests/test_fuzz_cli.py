"""Fuzz the command line: ``main.main(argv)`` in-process with random argv.

Nothing heavy or interactive may happen, so the last step of each path is replaced: the app's
window (``window.create_app``) and ``--smoke`` game, the engine's serve loop (and its stdout
redirection), the search core (``ai.mcts.Searcher``) and the solver get cheap stand-ins. Every
argument check before them is the real code. The outcome is either success (0, or the stand-in
reached), or exit status 2 with exactly one line on stderr; no exception escapes.
"""

from __future__ import annotations

import io
import math
import sys
from types import SimpleNamespace
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from ai.vocab.results import MoveStats, SearchResult


class WindowWouldOpen(Exception):
    pass


class FakeSearcher:
    """Stands in for ai.mcts.Searcher: instant, and checks the budget it is handed is sane."""

    def __init__(self, spec, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.spec, self.position = spec, spec.start()

    def warm_up(self) -> None: ...

    def clear(self) -> None: ...

    def close(self) -> None: ...

    def stop(self) -> None: ...

    def set_position(self, position) -> None:  # type: ignore[no-untyped-def]
        self.position = position

    def search(self, *, time_ms=None, iterations=None, **kwargs) -> SearchResult:  # type: ignore[no-untyped-def]
        assert time_ms is None or (math.isfinite(time_ms) and time_ms > 0), f"search given time_ms={time_ms!r}"
        assert iterations is None or iterations >= 1, f"search given iterations={iterations!r}"
        move = self.position.legal_moves()[0]
        return SearchResult(move, 0.5, (MoveStats(move, 1, 0.5),), 1, 1.0, 1, (move,))


def fake_analyze_columns(position, *, time_ms=None, max_nodes=None, threads=None):  # type: ignore[no-untyped-def]
    assert threads is None or 1 <= threads <= 64, f"solver given threads={threads!r}"
    assert time_ms is None or time_ms >= 0, f"solver given time_ms={time_ms!r}"  # inf = no limit; never NaN
    return SimpleNamespace(
        scores=(None,) * position.spec.width, best_score=None, complete=False, nodes=0, elapsed_ms=0.0
    )


@pytest.fixture()
def safe_main(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    import ai.engine.process
    import ai.mcts
    import ai.solver.core
    from game.ui import app_run, headless

    def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise WindowWouldOpen("stand-in")

    monkeypatch.setattr(app_run, "create_app", create_app)
    monkeypatch.setattr(headless, "smoke", lambda run: 0)
    monkeypatch.setattr(ai.engine.process, "_protocol_stdout", io.StringIO)
    monkeypatch.setattr(ai.engine.process.Engine, "serve", lambda self, stdin: 0)
    monkeypatch.setattr(ai.mcts, "Searcher", FakeSearcher)
    monkeypatch.setattr(ai.solver.core, "analyze_columns", fake_analyze_columns)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"4453\n\nnot a position\n1212121\n")))
    return main.main


def _run(main_fn, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    try:
        code = main_fn(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        code = exc.code
    out, err = capsys.readouterr()
    if code == 1 and "cannot open the window" in err and "stand-in" in err:
        return  # every app argument was accepted; the window would open now
    if ("-h" in argv or "--help" in argv) and code == 0:
        return
    assert code in (0, 2), f"{argv!r}: exit status {code!r}; stderr {err!r}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, f"{argv!r}: expected one line on stderr, got {len(lines)}: {err!r}"
        assert "error" in lines[0].lower()


SUBCOMMANDS = ["engine", "solve", "analyze", "bench"]
FLAGS = [
    "--game",
    "--position",
    "--mode",
    "--human",
    "--bot",
    "--bot-time",
    "--theme",
    "--heatmap",
    "--no-eval",
    "--mute",
    "--size",
    "--load",
    "--new",
    "--screenshot-wait",
    "--smoke",
    "--threads",
    "--seed",
    "--max-nodes",
    "--time-ms",
    "--iterations",
    "--json",
    "--seconds",
    "--",
    "-",
    "--bogus",
    "-x",
]
VALUES = [
    "",
    "0",
    "1",
    "-1",
    "2",
    "64",
    "65",
    "1e9",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "9" * 30,
    "0x10",
    "4453",
    "1212121",
    "12121212",
    "a1 b2",
    "e5 e5",
    "connect4",
    "connect4:8x7",
    "connect4:3x3",
    "tictactoe",
    "mnk:6x6:4",
    "mnk:99x9:9",
    "gomoku",
    "uttt",
    "chess",
    "hotseat",
    "vs-bot",
    "bot-vs-bot",
    "first",
    "second",
    "random",
    "easy",
    "hard",
    "custom",
    "classic",
    "dark",
    "colorblind",
    "1280x800",
    "10x10",
    "99999x99999",
    "x",
    "/nonexistent/file.json",
    "\x00",
    "\u0663",
    "--",
    "=",
    "-5",
]


def _argv_strategy():  # type: ignore[no-untyped-def]
    token = st.one_of(st.sampled_from(FLAGS), st.sampled_from(VALUES), st.text(max_size=12))
    flag_value = st.tuples(st.sampled_from(FLAGS), st.sampled_from(VALUES)).map(list)
    body = st.lists(st.one_of(token.map(lambda t: [t]), flag_value), max_size=5).map(lambda xs: sum(xs, []))
    head: st.SearchStrategy[list[str]] = st.one_of(st.just([]), st.sampled_from(SUBCOMMANDS).map(lambda s: [s]))
    return st.tuples(head, body).map(lambda hb: hb[0] + hb[1])


@settings(
    max_examples=700, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(argv=_argv_strategy())
def test_fuzz_argv(safe_main, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    _run(safe_main, argv, capsys)


EXPLICIT = [
    ["--bogus"],
    ["--size", "10x10"],
    ["--size", "x"],
    ["--bot-time", "5"],
    ["--bot-time", "nan"],
    ["--game", "chess"],
    ["--game", "mnk:99x9:9"],
    ["--position", "12121212"],
    ["--position", "9"],
    ["--game", "uttt", "--position", "e5 e5"],
    ["--load", "/nonexistent/file.json"],
    ["--mode", "solo"],
    ["--screenshot-wait", "-1", "--screenshot", "/nonexistent/dir/x.png"],
    ["engine", "--threads", "0"],
    ["engine", "--threads", "100000"],
    ["engine", "--max-nodes", "10"],
    ["engine", "--max-nodes", "1000000000000"],
    ["engine", "--seed", "x"],
    ["engine", "extra"],
    ["solve", "9"],
    ["solve", "1212121"],
    ["solve", "--game", "uttt"],
    ["solve", "--time-ms", "-1"],
    ["solve", "--time-ms", "nan"],
    ["solve", "--time-ms", "inf", "4453"],
    ["analyze"],
    ["analyze", "9"],
    ["analyze", "--time-ms", "0", ""],
    ["analyze", "--time-ms", "nan", ""],
    ["analyze", "--iterations", "0", ""],
    ["analyze", "--game", "chess", ""],
    ["analyze", "-", "--json"],
    ["analyze", "--time-ms", "inf", ""],
    ["bench", "--seconds", "inf"],  # a search that would never end
    ["bench", "--seconds", "0"],
    ["bench", "--seconds", "nan"],
    ["bench", "--threads", "-1", "--seconds", "0.01"],
    ["--help"],
    ["solve", "--help"],
]


@pytest.mark.parametrize("argv", EXPLICIT, ids=[" ".join(a) or "(empty)" for a in EXPLICIT])
def test_hostile_argv(safe_main, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    _run(safe_main, argv, capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["engine", "--threads", "0"],
        ["engine", "--max-nodes", "1000000000000"],
        ["--size", "10x10"],
        ["--game", "chess"],
        ["solve", "9"],
        ["--bogus"],
    ],
)
def test_known_bad_argv_is_rejected(safe_main, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) if argv == ["--bogus"] else _no_exit():
        assert safe_main(argv) == 2
    assert capsys.readouterr().err.strip()


class _no_exit:
    def __enter__(self) -> None: ...

    def __exit__(self, *exc: object) -> Literal[False]:
        return False
