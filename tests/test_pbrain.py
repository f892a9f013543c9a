"""The bundle's ``pbrain-mcts``: the runtime hook that makes a ``pbrain-`` named executable the Piskvork
brain, the spec that builds it beside ``connect4``, and the manager-style smoke CI runs on the build."""

from __future__ import annotations

import importlib
import os
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.benchmarks.piskvork_manager import Brain

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / "tools" / "pyinstaller" / "rth_pbrain.py"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "pyinstaller"))

bundle = importlib.import_module("bundle")  # tools/pyinstaller/bundle.py (the specs' helpers)
pbrain_smoke = importlib.import_module("pbrain_smoke")  # tools/pbrain_smoke.py (CI's bundle smoke)


def _argv_after_hook(monkeypatch: pytest.MonkeyPatch, executable: str, *args: str) -> list[str]:
    monkeypatch.setattr(sys, "executable", executable)
    monkeypatch.setattr(sys, "argv", [executable, *args])
    runpy.run_path(str(HOOK))
    return list(sys.argv)


@pytest.mark.timeout(10)
def test_a_pbrain_named_executable_runs_the_piskvork_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    exe = "/opt/connect4/pbrain-mcts"
    assert _argv_after_hook(monkeypatch, exe) == [exe, "piskvork"]
    assert _argv_after_hook(monkeypatch, exe, "--threads", "2") == [exe, "piskvork", "--threads", "2"]
    assert _argv_after_hook(monkeypatch, "PBRAIN-MCTS.EXE") == ["PBRAIN-MCTS.EXE", "piskvork"]  # Windows
    assert _argv_after_hook(monkeypatch, "/opt/connect4/connect4", "engine") == ["/opt/connect4/connect4", "engine"]


class _Built:
    """Records what a spec file builds (PyInstaller's spec globals, without building)."""

    def __init__(self, kind: str, *parts: Any, **options: Any) -> None:
        self.kind, self.parts, self.options = kind, parts, options
        self.binaries: list[Any] = []
        self.datas: list[Any] = []
        self.scripts: list[Any] = []
        self.pure: list[Any] = []


def _run_spec(spec: str, monkeypatch: pytest.MonkeyPatch, dist: Path) -> list[_Built]:
    """What ``spec`` builds, recorded without building (PyInstaller's spec globals stand in)."""
    monkeypatch.setattr(bundle, "collect_submodules", lambda package: [package])
    monkeypatch.setattr(bundle, "compiled_kernels", lambda root: ("/k/c4kernels_x.so", "/k/c4kernels_x.json"))
    monkeypatch.setattr(bundle, "write_build_info", lambda root: "/b/connect4_build.json")
    monkeypatch.setattr(bundle, "collect_licences", lambda root: "/b/licenses")
    built: list[_Built] = []

    def make(kind: str):  # type: ignore[no-untyped-def]
        def build(*parts: Any, **options: Any) -> _Built:
            built.append(_Built(kind, *parts, **options))
            return built[-1]

        return build

    names = {kind: make(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT")}
    code = compile((ROOT / spec).read_text(), spec, "exec")
    exec(code, {"SPECPATH": str(ROOT), "workpath": "/tmp/x", "DISTPATH": str(dist), **names})
    analysis = next(b for b in built if b.kind == "Analysis")
    assert str(HOOK) in analysis.options["runtime_hooks"]
    assert ("/k/c4kernels_x.so", ".") in analysis.options["binaries"]
    assert {"numba", "llvmlite"} <= set(analysis.options["excludes"])
    return built


@pytest.mark.timeout(30)
def test_the_folder_build_has_a_pbrain_executable_sharing_the_app_libraries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """connect4.spec: `connect4` and `pbrain-mcts` are two executables of one analysis in one folder (a
    pbrain-mcts.exe a Windows manager can start; tools/release.py hard-links the twin on POSIX)."""
    built = _run_spec("connect4.spec", monkeypatch, tmp_path)
    exes = [b for b in built if b.kind == "EXE"]
    assert [e.options["name"] for e in exes] == ["connect4", bundle.PBRAIN_NAME]
    assert all(e.options["exclude_binaries"] for e in exes)  # the libraries live once, in _internal
    (collect,) = [b for b in built if b.kind == "COLLECT"]
    assert all(e in collect.parts for e in exes)


@pytest.mark.timeout(30)
def test_the_one_file_build_puts_a_pbrain_launcher_beside_itself(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One executable; pbrain-mcts beside it is a launcher of it as `piskvork` (not a second copy of the app)."""
    built = _run_spec("connect4-onefile.spec", monkeypatch, tmp_path)
    assert [b.options["name"] for b in built if b.kind == "EXE"] == ["connect4-onefile"]
    launcher = tmp_path / bundle.PBRAIN_NAME
    assert os.access(launcher, os.X_OK)
    assert 'exec "$here/connect4-onefile" piskvork "$@"' in launcher.read_text()


@pytest.mark.timeout(30)
def test_release_hard_links_the_pbrain_twin(tmp_path: Path) -> None:
    release = importlib.import_module("release")
    (tmp_path / "connect4").write_bytes(b"bootloader")
    (tmp_path / bundle.PBRAIN_NAME).write_bytes(b"bootloader")
    release.link_twin(tmp_path)
    assert (tmp_path / "connect4").stat().st_ino == (tmp_path / bundle.PBRAIN_NAME).stat().st_ino
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "connect4").write_bytes(b"bootloader")
    (tmp_path / "other" / bundle.PBRAIN_NAME).write_bytes(b"different")
    release.link_twin(tmp_path / "other")  # not twins: both stay as they are
    assert (tmp_path / "other" / bundle.PBRAIN_NAME).read_bytes() == b"different"


@pytest.mark.timeout(180)
def test_the_ci_smoke_drives_a_brain_like_a_manager() -> None:
    brain = Brain()  # main.py piskvork: the program the bundle's pbrain-mcts runs
    try:
        report = pbrain_smoke.drive(brain, turn_ms=200)
    finally:
        if brain.proc.poll() is None:
            brain.proc.kill()
    assert "END -> exit 0" in report
    assert brain.proc.returncode == 0
