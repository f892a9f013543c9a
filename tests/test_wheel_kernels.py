"""The wheel's build step (setup.py): it runs the kernels build for the package folder with the right command,
ships only the module of the installed sources' digest, and never fails the wheel when it cannot build; and an
installed ``ai.jit`` looks in its own package folder. No real build here (``tests/test_compiled_kernels.py``
runs one; ``.ci/run`` builds and installs the wheel): the child processes are stood in for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import setup as wheel_build

ROOT = Path(__file__).resolve().parents[1]
DIGEST = "0123456789abcdef"
MODULE = f"c4kernels_{DIGEST}.cpython-311-x86_64-linux-gnu.so"
MANIFEST = f"c4kernels_{DIGEST}.json"


class FakeChildren:
    """Stands in for ``subprocess.run``: the kernels build writes what ``build_writes`` names (or fails as told),
    the digest script prints ``digest``. Every call is recorded with what its environment held then."""

    def __init__(self, build_writes: tuple[str, ...] = (MODULE, MANIFEST), digest: str = DIGEST) -> None:
        self.build_writes = build_writes
        self.digest = digest
        self.build_fails: BaseException | subprocess.CompletedProcess[str] | None = None
        self.calls: list[dict[str, Any]] = []

    def __call__(self, command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        env = options["env"]
        cache = env.get("NUMBA_CACHE_DIR")
        cache_was_empty = cache is not None and Path(cache).is_dir() and not any(Path(cache).iterdir())
        self.calls.append({"command": command, "cache_was_empty": cache_was_empty, **options})
        if command[1:3] == ["-m", "ai.engine.kernels_build"]:
            if isinstance(self.build_fails, BaseException):
                raise self.build_fails
            if self.build_fails is not None:
                return self.build_fails
            out = Path(command[command.index("--out") + 1])
            out.mkdir(parents=True, exist_ok=True)
            for name in (*self.build_writes, ".build.lock"):
                (out / name).write_bytes(b"compiled")
            return subprocess.CompletedProcess(command, 0, "compiled 99 entries\n", "")
        assert command[1] == "-c" and command[2] == wheel_build.DIGEST_SCRIPT
        return subprocess.CompletedProcess(command, 0, f"{self.digest}\n", "warning: plain Python\n")


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> FakeChildren:
    fake = FakeChildren()
    monkeypatch.setattr(subprocess, "run", fake)  # (setup.py calls it as subprocess.run)
    monkeypatch.setattr(wheel_build, "compiler_available", lambda: True)
    monkeypatch.setattr(wheel_build, "numba_available", lambda: True)
    monkeypatch.delenv(wheel_build.SWITCH, raising=False)
    return fake


def _kernels(build_lib: Path) -> list[str]:
    folder = build_lib / wheel_build.KERNELS_SUBDIR
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_the_build_step_compiles_portable_kernels_into_the_package_folder(
    children: FakeChildren, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / wheel_build.KERNELS_SUBDIR / "c4kernels_fedcba9876543210.json"  # an earlier build's
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    assert wheel_build.add_compiled_kernels(tmp_path) is True
    build, digest = children.calls
    out_dir = tmp_path / wheel_build.KERNELS_SUBDIR
    expected = [sys.executable, "-m", "ai.engine.kernels_build", "--out", str(out_dir), "--cpu", "portable"]
    assert build["command"] == expected
    assert build["cwd"] == wheel_build.SOURCE_ROOT == ROOT
    assert build["env"]["PYTHONPATH"].split(":")[0] == str(ROOT)
    assert build["env"]["CONNECT4_KERNELS"] == "jit" and build["cache_was_empty"]
    assert build["timeout"] == wheel_build.BUILD_TIMEOUT_S
    assert digest["env"]["PYTHONPATH"].split(":")[0] == str(tmp_path), "the digest of the wheel's own files"
    assert _kernels(tmp_path) == [MODULE, MANIFEST], "the lock file and the stale manifest are not shipped"
    assert "compiled ahead of time into the wheel" in capsys.readouterr().err


def _fails_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str], *said: str) -> None:
    assert wheel_build.add_compiled_kernels(tmp_path) is False
    assert _kernels(tmp_path) == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "search kernels not compiled into the wheel" in err[0], err
    assert all(words in err[0] for words in said), err


def test_a_failed_build_leaves_a_wheel_without_kernels_and_one_line(
    children: FakeChildren, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    numba_says = "Traceback ...\nRuntimeError: Attempted to compile AOT function without\n\n#> conda install\n"
    children.build_fails = subprocess.CompletedProcess([], 1, "", numba_says)
    _fails_cleanly(tmp_path, capsys, "exit code 1", "RuntimeError: Attempted to compile AOT function")


def test_a_build_that_hangs_is_stopped_and_the_wheel_goes_on(
    children: FakeChildren, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    children.build_fails = subprocess.TimeoutExpired(["python"], wheel_build.BUILD_TIMEOUT_S)
    _fails_cleanly(tmp_path, capsys, "took more than")


def test_a_module_of_other_sources_is_not_shipped(
    children: FakeChildren, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    children.digest = "ffffffffffffffff"  # the wheel's files would look for another module than the one built
    _fails_cleanly(tmp_path, capsys, "ffffffffffffffff")


def test_a_module_without_its_manifest_is_not_shipped(
    children: FakeChildren, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    children.build_writes = (MODULE,)
    _fails_cleanly(tmp_path, capsys)


@pytest.mark.parametrize("reason", ["no C compiler", "no numba", "switched off"])
def test_nothing_is_built_without_a_compiler_numba_or_when_switched_off(
    reason: str,
    children: FakeChildren,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if reason == "no C compiler":
        monkeypatch.setattr(wheel_build, "compiler_available", lambda: False)
    elif reason == "no numba":
        monkeypatch.setattr(wheel_build, "numba_available", lambda: False)
    else:
        monkeypatch.setenv(wheel_build.SWITCH, "0")
    said = {"no C compiler": "no C compiler", "no numba": "numba", "switched off": "CONNECT4_WHEEL_KERNELS=0"}
    _fails_cleanly(tmp_path, capsys, said[reason])
    assert children.calls == []
    assert wheel_build.KernelsDistribution().has_ext_modules() is False, "a wheel without a module stays pure"


def test_a_wheel_that_may_carry_a_module_is_tagged_for_this_platform(children: FakeChildren) -> None:
    assert wheel_build.KernelsDistribution().has_ext_modules() is True


def test_an_editable_install_builds_nothing(children: FakeChildren, tmp_path: Path) -> None:
    from setuptools.dist import Distribution

    command = wheel_build.BuildPyWithKernels(Distribution({"packages": [], "py_modules": []}))
    command.initialize_options()
    command.build_lib = str(tmp_path)
    command.editable_mode = True
    command.finalize_options()
    command.run()
    assert children.calls == []


def test_ai_jit_looks_for_the_module_in_its_package_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    import ai.jit

    searched: list[list[str]] = []
    found = object()

    def load(digest: str, folders: list[str]) -> object:
        searched.append(list(folders))
        return found

    monkeypatch.setattr(ai.jit._compiled, "load", load)
    monkeypatch.setenv("CONNECT4_KERNELS", "auto")
    monkeypatch.delenv("CONNECT4_NO_NUMBA", raising=False)
    assert ai.jit._choose() == ("compiled", found, None, "")
    package_folder = str(Path(ai.jit.__file__).resolve().parent / "kernels")
    assert ai.jit.package_kernels_dir() == package_folder
    assert searched[0][-1] == package_folder, "the user's own builds (host CPU) come first"
