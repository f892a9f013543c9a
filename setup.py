"""The wheel's build step: after setuptools copies the packages, compile the search kernels into the wheel.

The metadata is pyproject.toml's; this file adds one thing to ``build_py``: where a C compiler and numba
are present, it runs the same ahead-of-time build as ``tools/build_kernels.py`` (``python -m
ai.engine.kernels_build --cpu portable``, a JIT workload then ``numba.pycc``, about a minute) in a child
process and puts the module and its manifest in ``ai/jit/kernels`` of the wheel, where ``ai.jit`` finds
them. Without a compiler or numba, or if the build fails or times out, it says so in one line and the
wheel is built without them (the kernels then run under numba's JIT): installing never needs a compiler.
``CONNECT4_WHEEL_KERNELS=0`` skips the step. An editable install (``pip install -e .``) skips it too: a
source checkout builds its own kernels at its first launch (``ai.engine.first_build``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

SOURCE_ROOT = Path(__file__).resolve().parent
KERNELS_SUBDIR = Path("ai", "jit", "kernels")  # ai.jit's package folder of compiled kernels
MODULE_PREFIX = "c4kernels_"  # ai.jit.compiled.PREFIX (this file cannot import the package it builds)
SWITCH = "CONNECT4_WHEEL_KERNELS"
BUILD_TIMEOUT_S = 900.0
DIGEST_TIMEOUT_S = 120.0
DIGEST_SCRIPT = "import ai.jit; print(ai.jit.sources_digest())"
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit)\b.*:")


def say(message: str) -> None:
    """One line on stderr (pip shows it with ``-v``, or when the build fails)."""
    print(f"connect4-mcts wheel: {message}", file=sys.stderr, flush=True)


def compiler_available() -> bool:
    """True when the C compiler Python's build configuration names is on the PATH
    (``ai.engine.kernels_build.compiler_available``, which this file cannot import)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None or shutil.which("cc") is not None


def numba_available() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def skip_reason() -> str | None:
    """Why the kernels cannot be compiled into this wheel, None when they can."""
    if os.environ.get(SWITCH, "1").strip() == "0":
        return f"{SWITCH}=0"
    if not compiler_available():
        return "no C compiler"
    if not numba_available():
        return "numba is not installed in the build environment"
    return None


def child_env(python_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a child python: ``python_path`` first on the path (before what pip's isolated
    build environment put there), no bytecode written into the trees, the kernels mode and others given."""
    env = {k: v for k, v in os.environ.items() if k not in ("CONNECT4_NO_NUMBA", "CONNECT4_KERNELS_DIR")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(python_path), os.environ.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def build_command(out_dir: Path) -> list[str]:
    return [sys.executable, "-m", "ai.engine.kernels_build", "--out", str(out_dir), "--cpu", "portable"]


def run_kernels_build(out_dir: Path, source_root: Path) -> str | None:
    """Build the module of ``source_root``'s kernels into ``out_dir``; None when built, else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="connect4-wheel-numba-") as numba_cache:
        env = child_env(source_root, CONNECT4_KERNELS="jit", NUMBA_CACHE_DIR=numba_cache)
        try:
            done = subprocess.run(
                build_command(out_dir),
                cwd=source_root,
                env=env,
                capture_output=True,
                text=True,
                timeout=BUILD_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return f"the build took more than {BUILD_TIMEOUT_S:.0f} s"
        except OSError as exc:
            return f"the build did not start ({exc})"
    if done.returncode != 0:
        return f"the build failed (exit code {done.returncode}: {failure_line(done.stderr)[:300]})"
    return None


def failure_line(stderr: str) -> str:
    """The line of a child's stderr that says what failed: its last exception's (numba's compiler error is
    followed by advice lines), else its last line."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    raised = [line for line in lines if EXCEPTION_LINE.match(line)]
    return (raised or lines or ["no output"])[-1]


def installed_digest(build_lib: Path) -> str | None:
    """The sources digest ``ai.jit`` computes from the files of the wheel (the name its module must have)."""
    env = child_env(build_lib, CONNECT4_KERNELS="python")
    try:
        done = subprocess.run(
            [sys.executable, "-c", DIGEST_SCRIPT],
            cwd=build_lib,
            env=env,
            capture_output=True,
            text=True,
            timeout=DIGEST_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.strip().splitlines()
    return lines[-1].strip() if done.returncode == 0 and lines else None


def keep_only(folder: Path, digest: str | None) -> list[Path]:
    """Remove from ``folder`` everything but the module and manifest of ``digest`` (a lock file, a stale
    module of an earlier build); the files kept, module first."""
    if not folder.is_dir():
        return []
    kept: list[Path] = []
    for path in sorted(folder.iterdir()):
        if digest is not None and path.is_file() and path.name.startswith(f"{MODULE_PREFIX}{digest}."):
            kept.append(path)
        elif path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    kept.sort(key=lambda p: p.suffix == ".json")
    if len(kept) == 2:
        return kept
    shutil.rmtree(folder, ignore_errors=True)  # a module without its manifest (or the reverse) is not loaded
    return []


def add_compiled_kernels(build_lib: Path, source_root: Path = SOURCE_ROOT) -> bool:
    """Compile the kernels into ``build_lib``'s ai/jit/kernels; True when the wheel will carry them. Never raises
    for a build that cannot happen or fails: the wheel is then built without them."""
    out_dir = build_lib / KERNELS_SUBDIR
    reason = skip_reason()
    if reason is None:
        reason = run_kernels_build(out_dir, source_root)
    if reason is not None:
        keep_only(out_dir, None)
        say(f"search kernels not compiled into the wheel ({reason}); numba's JIT compiles them on first use")
        return False
    digest = installed_digest(build_lib)
    kept = keep_only(out_dir, digest)
    if not kept:
        say(f"search kernels not compiled into the wheel (no module for the installed sources' digest {digest})")
        return False
    say(f"search kernels compiled ahead of time into the wheel: {kept[0].name} ({kept[0].stat().st_size / 1e6:.1f} MB)")
    return True


class BuildPyWithKernels(build_py):
    """``build_py``, then the compiled kernels into the build folder (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            add_compiled_kernels(Path(self.build_lib))


class KernelsDistribution(Distribution):
    """A wheel that may carry a compiled module is tagged for this Python and platform (a pure
    ``py3-none-any`` wheel would claim to fit every interpreter)."""

    def has_ext_modules(self) -> bool:
        return skip_reason() is None


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildPyWithKernels}, distclass=KernelsDistribution)
