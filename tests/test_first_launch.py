"""First launch: each game compiles only its own search code, the compiled code is found again by
the next process, and a cache that cannot be written does not stop the search (the bundle ships kernels
compiled ahead of time instead: tests/test_compiled_kernels.py)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ai import jit as jit_module

ROOT = Path(__file__).resolve().parents[1]
PREPARE = (
    "import json, sys\n"
    "from ai.engine.warmup import prepare\n"
    "steps = []\n"
    "for game in sys.argv[1:]:\n"
    "    prepare(game, lambda p: steps.append([p.game, p.done, p.total, p.label, p.compiling]))\n"
    "print(json.dumps(steps))\n"
)


def _prepare_in_new_process(cache: Path, *games: str) -> list[list[object]]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", PREPARE, *games], capture_output=True, text=True, env=env, cwd=ROOT, timeout=280
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: list[list[object]] = json.loads(done.stdout.splitlines()[-1])
    return result


def _cached(cache: Path) -> set[str]:
    return {p.name for p in cache.rglob("*.nbc")}


@pytest.mark.timeout(300)
@pytest.mark.skipif(not jit_module.NUMBA_AVAILABLE, reason="compile units exist only with numba")
def test_a_game_compiles_only_its_own_code_and_the_next_process_reuses_it(tmp_path: Path) -> None:
    steps = _prepare_in_new_process(tmp_path, "connect4")
    assert [s[1] for s in steps] == list(range(int(str(steps[0][2])) + 1)), "progress counts every step once"
    assert steps[-1][4] is True, "a fresh cache compiles"
    first = _cached(tmp_path)
    assert any("kernel_connect4" in name for name in first)
    assert not any("kernel_mnk" in name or "kernel_uttt" in name for name in first), sorted(first)

    again = _prepare_in_new_process(tmp_path, "connect4")
    assert _cached(tmp_path) == first, "the second process compiled again instead of loading the cache"
    assert again[-1][4] is False


@pytest.mark.timeout(120)
@pytest.mark.skipif(not jit_module.NUMBA_AVAILABLE, reason="the file cache exists only with numba")
def test_a_cache_that_cannot_be_written_still_compiles_and_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from numba.core import caching

    def full_disk(self: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(caching.IndexDataCacheFile, "save", full_disk)
    monkeypatch.setattr(jit_module, "_cache_warned", False)

    def add_one(values):  # type: ignore[no-untyped-def]
        total = 0
        for v in values:
            total += v + 1
        return total

    compiled = jit_module.jit(add_one)
    assert compiled(np.arange(4, dtype=np.int64)) == 10
    assert "not cached (No space left on device" in capsys.readouterr().err


@pytest.mark.timeout(200)
def test_a_search_without_the_solver_never_waits_for_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from ai.engine import warmup

    monkeypatch.setattr(warmup, "_prepared", set())
    steps: list[object] = []
    with warmup._unit_lock(warmup.SOLVER_UNIT):  # as if another thread were compiling the solver
        worker = threading.Thread(target=warmup.prepare, args=("connect4", steps.append), kwargs={"exact": False})
        worker.start()
        worker.join(timeout=150)
        assert not worker.is_alive(), "prepare(exact=False) waited for the solver's lock"
    assert warmup.prepared("connect4", exact=False)
    assert not warmup.prepared("connect4", exact=True)
    assert warmup.SOLVER_UNIT not in {getattr(p, "label", None) for p in steps}


@pytest.mark.timeout(30)
def test_the_engine_starts_a_search_that_is_not_exact_before_the_solver_is_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from ai.engine import warmup
    from ai.engine.prepare import Preparer
    from game.rules import get_game

    spec = get_game("connect4")
    search_unit = warmup._units(spec, exact=False)[0][0]
    monkeypatch.setattr(warmup, "_prepared", {search_unit})  # MCTS ready, the solver still compiling
    preparer = Preparer(lambda reply: None, games=())  # not started: nothing finishes on its own
    assert preparer.is_prepared(spec, exact=False)
    assert not preparer.is_prepared(spec, exact=True)
    assert preparer.wait_for(spec, threading.Event(), exact=False) is None
    stop = threading.Event()
    stop.set()
    assert preparer.wait_for(spec, stop, exact=True) == "stopped"
