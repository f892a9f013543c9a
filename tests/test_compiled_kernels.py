"""The kernels compiled ahead of time (``ai.jit.compiled``, built by ``tools/build_kernels.py``): the same
results as numba's JIT for every game, no numba in the process, the GIL released, typed entry points.

The module is built once (about a minute) into the user cache dir under the sources digest and reused
by later sessions; the tests need a C compiler (CI has gcc) and skip, saying so, without one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.engine import kernels_build
from ai.jit import compiled, kernels_dir, sources_digest

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINT = (
    "import json, sys\n"
    "from ai.engine.kernel_workload import fingerprint\n"
    "import ai.jit\n"
    "data = fingerprint()\n"
    "print(json.dumps({'mode': ai.jit.MODE, 'numba_loaded': 'numba' in sys.modules, 'data': data}))\n"
)


@pytest.fixture(scope="session")
def built() -> str:
    if not kernels_build.compiler_available():
        pytest.skip("no C compiler here: the compiled kernels cannot be built (the JIT path is the one tested)")
    outcome = kernels_build.ensure_built()
    assert outcome.path is not None, f"the build failed: {outcome}"
    return outcome.path


def _run(mode: str, code: str, timeout: float = 400) -> dict[str, Any]:
    env = dict(os.environ, CONNECT4_KERNELS=mode, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-c", code]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "is not compiled ahead" not in done.stderr, "a kernel the workload reaches ran as plain Python"
    print(done.stderr[-2000:], file=sys.stderr)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.timeout(900)
def test_the_compiled_kernels_find_what_the_jit_finds_in_every_game(built: str) -> None:
    jit_run = _run("jit", FINGERPRINT)
    aot_run = _run("compiled", FINGERPRINT)
    assert jit_run["mode"] == "jit" and aot_run["mode"] == "compiled"
    assert aot_run["numba_loaded"] is False, "the compiled mode must not import numba"
    games = {item["game"] for item in aot_run["data"]["searches"]}
    assert {"connect4", "tictactoe", "gomoku", "uttt"} <= games
    assert any(code >= 0 for item in aot_run["data"]["vcf"] for _, code, _ in item["vcf"]), "no VCF found at all"
    for kind in ("searches", "solves", "vcf"):
        for jit_item, aot_item in zip(jit_run["data"][kind], aot_run["data"][kind], strict=True):
            assert aot_item == jit_item, f"{kind}: the compiled kernels differ from the JIT"


STOPPABLE_SOLVE = (
    "import json, threading\n"
    "from ai.jit import registry\n"
    "from ai.solver import kernel\n"
    "from ai.solver.core import Solver\n"
    "from game.rules.connect4 import Connect4Spec\n"
    "solver = Solver(tt_bits=kernel.MIN_TT_BITS, use_book=False)\n"
    "found = []\n"
    "worker = threading.Thread(target=lambda: found.append(solver.solve(Connect4Spec().start()).score))\n"
    "worker.start()\n"
    "stops = 0\n"
    "while worker.is_alive():\n"  # this thread runs only if the solving thread let go of the GIL
    "    solver.stop()\n"
    "    stops += 1\n"
    "    worker.join(0.05)\n"
    "entry = registry['ai.solver.kernel.solve_position']\n"
    "print(json.dumps({'score': found[0], 'stops': stops, 'nogil': getattr(entry, 'nogil', None)}))\n"
)


@pytest.mark.timeout(120)
def test_a_compiled_solve_lets_other_threads_run_and_stop_it(built: str) -> None:
    """An empty board without the book takes hours to solve: the main thread can stop it only while
    the kernel runs without the GIL (holding it, this test would hang until its timeout)."""
    result = _run("compiled", STOPPABLE_SOLVE, timeout=100)
    assert result["nogil"] is True
    assert result["score"] is None, "the solve was not stopped"


SIDE_BY_SIDE = (
    "import json, threading, time\n"
    "from ai.mcts import Searcher\n"
    "from game.rules import get_game\n"
    "spec = get_game('connect4')\n"
    "def one(seed):\n"
    "    s = Searcher(spec, seed=seed, threads=1); s.warm_up(); s.set_position(spec.start())\n"
    "    s.search(iterations=1_000_000, early_stop=False); s.close()\n"
    "one(1)\n"
    "wall, cpu = time.perf_counter(), time.process_time()\n"
    "threads = [threading.Thread(target=one, args=(seed,)) for seed in (2, 3)]\n"
    "[t.start() for t in threads]; [t.join() for t in threads]\n"
    "print(json.dumps({'wall': time.perf_counter() - wall, 'cpu': time.process_time() - cpu}))\n"
)


@pytest.mark.timeout(300)
def test_two_searches_side_by_side_figures(built: str) -> None:
    """Figures only (no timing assert): CPU seconds per wall second of two searches in two threads; about
    2 on two idle cores when the compiled code releases the GIL, at most 1 when it does not."""
    for mode in ("jit", "compiled"):
        figures = _run(mode, SIDE_BY_SIDE)
        print(f"{mode}: two searches in {figures['wall']:.2f} s wall, {figures['cpu']:.2f} s CPU")
        assert figures["cpu"] > 0


def _loaded(built: str) -> compiled.Loaded:
    loaded = compiled.load(sources_digest(), [os.path.dirname(built)])
    assert loaded is not None
    return loaded


def test_a_wrong_dtype_or_shape_is_a_clear_value_error(built: str) -> None:
    from ai.mcts import kernel_connect4

    loaded = _loaded(built)
    name = "ai.mcts.kernel_connect4.c4_playout"
    wrapper = compiled.entry(loaded, name, kernel_connect4.c4_playout)
    assert isinstance(wrapper, compiled.CompiledKernel), sorted(loaded.entries)[:20]
    types = wrapper.overloads[0][0]
    good = [np.zeros(8, dtype=t[1]) if t[0] == "array" and t[2] == 1 else 0 for t in types]
    assert all(t[0] != "array" or t[2] == 1 for t in types), types
    for bad in (
        [a.astype(np.int32) if isinstance(a, np.ndarray) else a for a in good],  # wrong dtype
        [a.astype(a.dtype.newbyteorder()) if isinstance(a, np.ndarray) else a for a in good],  # other byte order
        [np.zeros((16,), dtype=a.dtype)[::2] if isinstance(a, np.ndarray) else a for a in good],  # not contiguous
        [a.reshape(2, 4) if isinstance(a, np.ndarray) else a for a in good],  # wrong shape
        good[:-1],  # an argument missing
        [None if isinstance(a, np.ndarray) else a for a in good],  # not an array
    ):
        with pytest.raises(ValueError, match=r"c4_playout: the compiled kernel takes \(array\(int64"):
            wrapper(*bad)


def test_the_manifest_names_a_kernel_of_the_sources(built: str) -> None:
    """Every entry of the module is a kernel the sources define (the digest names this build)."""
    loaded = _loaded(built)
    assert os.path.dirname(built) == kernels_dir() or os.environ.get("CONNECT4_KERNELS_DIR")
    assert any(name.startswith("ai.mcts.core.make_run_chunk") for name in loaded.entries)
    assert "ai.solver.kernel.solve_position" in loaded.entries
    assert all(hasattr(loaded.module, item["symbol"]) for items in loaded.entries.values() for item in items)


def test_the_wrappers_are_safe_from_several_threads(built: str) -> None:
    loaded = _loaded(built)
    from ai.mcts import kernel_connect4

    wrapper = compiled.entry(loaded, "ai.mcts.kernel_connect4.c4_playout", kernel_connect4.c4_playout)
    errors: list[BaseException] = []

    def call() -> None:
        try:
            wrapper(np.zeros(3, dtype=np.float32))
        except ValueError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(errors) == 4


FROZEN = (
    "import json, sys\n"
    "sys.frozen = True\n"
    "sys._MEIPASS = sys.argv[1]\n"
    "import ai.jit\n"
    "print(json.dumps({'mode': ai.jit.MODE, 'digest': ai.jit.sources_digest(), 'numba': 'numba' in sys.modules}))\n"
)


def test_a_frozen_app_runs_the_module_it_ships_without_numba(built: str, tmp_path: Path) -> None:
    """What a bundle does at start (sys.frozen, its data in sys._MEIPASS): the shipped module, no sources."""
    digest = sources_digest()
    for path in (built, compiled.manifest_path(os.path.dirname(built), digest)):
        (tmp_path / os.path.basename(path)).write_bytes(Path(path).read_bytes())
    env = dict(
        os.environ, CONNECT4_KERNELS="auto", CONNECT4_KERNELS_DIR=str(tmp_path / "nothing"), PYTHONPATH=str(ROOT)
    )
    command = [sys.executable, "-c", FROZEN, str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {"mode": "compiled", "digest": digest, "numba": False}


INSTALLED = (
    "import json, sys\n"
    "import ai.jit\n"
    "print(json.dumps({'mode': ai.jit.MODE, 'where': ai.jit.describe(), 'numba': 'numba' in sys.modules}))\n"
)


def test_an_installed_copy_runs_the_module_in_its_package_folder(built: str, tmp_path: Path) -> None:
    """What a wheel built with a C compiler installs (setup.py): the packages with the module and its manifest in
    ai/jit/kernels; its files give the digest the build named the module after, so it loads without numba."""
    site = tmp_path / "site-packages"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("ai", "game"):
        shutil.copytree(ROOT / package, site / package, ignore=skip)
    folder = site / "ai" / "jit" / "kernels"
    folder.mkdir()
    for path in (built, compiled.manifest_path(os.path.dirname(built), sources_digest())):
        shutil.copy(path, folder)
    env = dict(
        os.environ,
        CONNECT4_KERNELS="auto",
        CONNECT4_KERNELS_DIR=str(tmp_path / "nothing"),
        HOME=str(tmp_path),
        PYTHONPATH=str(site),
    )
    done = subprocess.run(
        [sys.executable, "-c", INSTALLED], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["mode"] == "compiled" and result["numba"] is False, result
    assert str(folder) in result["where"], result
