"""A source checkout's first launch builds the compiled kernels once in the background (ai/engine/first_build.py),
only when the JIT runs for want of them, into the checkout's build/kernels-local; without a compiler it says so."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

import ai.jit
from ai.engine import first_build, kernels_build
from ai.vocab.results import KernelsBuild, Reply


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(first_build, "_started", type(first_build._started)())
    monkeypatch.setattr(ai.jit, "MODE", "jit")
    monkeypatch.setattr(ai.jit, "MODE_NOTE", "note: no kernels compiled ahead for these sources")
    monkeypatch.setattr(ai.jit, "checkout_kernels_dir", lambda: str(tmp_path / "kernels-local"))

    def ensure_built(out: str, **options: Any) -> kernels_build.Outcome:
        calls.append({"out": out, **options})
        return kernels_build.Outcome("built", out, "ok", 1.0)

    monkeypatch.setattr(kernels_build, "ensure_built", ensure_built)
    monkeypatch.delenv("CONNECT4_KERNELS_BUILD", raising=False)
    return calls


def test_the_first_launch_builds_once_into_the_checkout(
    fresh: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(kernels_build, "compiler_available", lambda: True)
    reports: list[Reply] = []
    first_build._build(reports.append)
    assert fresh == [{"out": str(tmp_path / "kernels-local"), "cpu": "host", "nice": True}]
    assert "building the compiled search kernels once" in capsys.readouterr().err
    # the engine tells its client when the build starts and how it ended (the app shows it while it runs)
    assert [(r.state, r.running) for r in reports if isinstance(r, KernelsBuild)] == [
        ("building", True),
        ("built", False),
    ]
    monkeypatch.setattr(first_build, "_build", lambda report: None)  # the thread start() runs: nothing real
    assert first_build.start() is True
    assert first_build.start() is False, "a second start in the same process builds nothing"


def test_without_a_compiler_the_jit_goes_on_and_says_so(
    fresh: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(kernels_build, "compiler_available", lambda: False)
    reports: list[Reply] = []
    first_build._build(reports.append)
    assert fresh == []
    assert "no C compiler" in capsys.readouterr().err
    assert [r.state for r in reports if isinstance(r, KernelsBuild)] == ["no-compiler"]


@pytest.mark.parametrize(("mode", "note", "switch"), [("compiled", "", "1"), ("jit", "", "1"), ("jit", "note", "0")])
def test_no_build_when_not_wanted(
    fresh: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, mode: str, note: str, switch: str
) -> None:
    """Compiled already, the JIT asked for (CONNECT4_KERNELS=jit: no note), or the build turned off."""
    monkeypatch.setattr(ai.jit, "MODE", mode)
    monkeypatch.setattr(ai.jit, "MODE_NOTE", note)
    monkeypatch.setenv("CONNECT4_KERNELS_BUILD", switch)
    assert first_build.start() is False


def test_one_build_at_a_time_per_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app launched before the module exists starts a build: the folder's lock lets one run (a dozen
    launches made a dozen builds of 500 MB each before it), and the lock goes with the process that held it."""
    folder = str(tmp_path / "kernels")
    held = kernels_build.try_lock(folder)
    assert held is not None
    assert kernels_build.try_lock(folder) is None, "a second build must find the folder busy"
    monkeypatch.setattr(kernels_build, "existing", lambda out_dir=None: None)
    monkeypatch.setattr(kernels_build, "compiler_available", lambda: True)
    spawned: list[Any] = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: spawned.append(a))
    outcome = kernels_build.ensure_built(folder)
    assert (outcome.state, spawned) == ("busy", []), "no build process while another holds the lock"
    assert kernels_build.main(["--out", folder]) == kernels_build.BUSY_EXIT
    held.close()
    again = kernels_build.try_lock(folder)
    assert again is not None, "the lock is free once its holder is gone"
    again.close()
