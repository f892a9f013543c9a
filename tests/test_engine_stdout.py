"""The engine's stdout carries protocol lines only; warnings and stray prints go to stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.positions import OFF_BOOK_SEARCH

ROOT = Path(__file__).resolve().parents[1]

SEARCH = (
    "\n".join(
        json.dumps(c)
        for c in [
            {"cmd": "isready"},
            {"cmd": "position", "game": "connect4", "moves": OFF_BOOK_SEARCH},
            {"cmd": "go", "iterations": 300, "info_ms": 10, "id": 1},
            {"cmd": "isready"},
        ]
    )
    + "\n"
)
REST = "\n".join(json.dumps(c) for c in [{"cmd": "bogus"}, {"cmd": "position", "moves": "9"}, {"cmd": "quit"}]) + "\n"


def _run_engine(args: list[str], env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Send a search, wait for its bestmove (it may wait for compiled code first), then the rest."""
    env = dict(os.environ, **env_extra)
    proc = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(SEARCH)
    proc.stdin.flush()
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if '"bestmove"' in line:
            break
    out, err = proc.communicate(REST, timeout=300)
    return subprocess.CompletedProcess(args, proc.returncode, "".join(lines) + out, err)


def _assert_protocol_only(stdout: str) -> list[dict[str, Any]]:
    lines = stdout.splitlines()
    assert lines, "the engine wrote nothing"
    messages = []
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            raise AssertionError(f"non-protocol line on the engine's stdout: {line[:200]!r}") from None
        assert isinstance(message, dict) and isinstance(message.get("type"), str), line[:200]
        messages.append(message)
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "ready" and "bestmove" in kinds and kinds.count("error") == 2, kinds
    return messages


@pytest.mark.timeout(300)
def test_engine_without_numba_warns_on_stderr_only() -> None:
    done = _run_engine([sys.executable, str(ROOT / "main.py"), "engine", "--seed", "1"], {"CONNECT4_NO_NUMBA": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "warning" in done.stderr.lower() and "numba" in done.stderr.lower()  # the warning did happen
    _assert_protocol_only(done.stdout)


STRAY_OUTPUT = r"""
import os, sys, warnings
sys.path.insert(0, os.getcwd())
import ai.mcts
import main

real_search = ai.mcts.Searcher.search

def noisy_search(self, **kwargs):
    print("stray print from the search")
    warnings.warn("stray warning from the search")
    os.write(1, b"stray bytes written to fd 1\n")
    sys.__stdout__.write("stray sys.__stdout__ line\n")
    sys.__stdout__.flush()
    return real_search(self, **kwargs)

ai.mcts.Searcher.search = noisy_search
print("stray print before the engine starts", flush=True)
sys.exit(main.main(["engine", "--seed", "1"]))
"""


@pytest.mark.timeout(300)
def test_stray_prints_and_warnings_inside_the_engine_go_to_stderr() -> None:
    done = _run_engine([sys.executable, "-c", STRAY_OUTPUT], {})
    assert done.returncode == 0, done.stderr[-2000:]
    for text in (
        "stray print from the search",
        "stray warning from the search",
        "stray bytes written to fd 1",
        "stray sys.__stdout__ line",
    ):
        assert text in done.stderr, f"{text!r} vanished"
    stdout = done.stdout
    # The one line printed before main() runs is outside the engine's control; everything after is protocol.
    first, _, rest = stdout.partition("\n")
    assert first == "stray print before the engine starts"
    _assert_protocol_only(rest)
