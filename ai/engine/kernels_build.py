"""Build the kernels ahead of time: ``python -m ai.engine.kernels_build [--out DIR]`` (``tools/build_kernels.py``).

In a process whose kernels run under numba's JIT, play the fixed workload of every game
(``kernel_workload.fingerprint``) so that every signature the search uses gets compiled, then
compile them all with ``numba.pycc`` into one extension module named after the sources digest
(``ai.jit.pycc_build``). Default destination: the user cache dir (``ai.jit.kernels_dir()``), where a
source checkout finds it at its next start. :func:`ensure_built` runs this in a child process once,
when a C compiler is there and the module is missing.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 1200


@dataclass(frozen=True)
class Outcome:
    """What :func:`ensure_built` did: ``state`` is "present", "built", "busy" (another process builds),
    "no-compiler", "no-numba" or "failed"."""

    state: str
    path: str | None
    detail: str
    seconds: float


def compiler_available() -> bool:
    """True when the C compiler Python's build configuration names is on the PATH."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None or shutil.which("cc") is not None


def portable_cpu() -> str:
    """The target CPU of a module that ships to other machines: x86-64-v2 (SSE4.2 and POPCNT, every x86-64
    PC since about 2009; measured 97% of the JIT's speed where a generic x86-64 gave 95%), else generic."""
    return "x86-64-v2" if platform.machine().lower() in ("x86_64", "amd64") else ""


def build_env() -> dict[str, str]:
    """The environment of a build process: the JIT, this checkout on the path. The caller gives it an empty
    ``NUMBA_CACHE_DIR``: a cold JIT compiles (and so records) every signature the workload reaches, where
    a warm one would load the callers only, and the module would depend on the cache's state."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, CONNECT4_KERNELS="jit", PYTHONPATH=path)


LOCK_NAME = ".build.lock"
BUSY_EXIT = 3  # the build's exit status when another process holds the folder's lock


def try_lock(folder: str) -> IO[bytes] | None:
    """The folder's build lock, taken without waiting (None: another build holds it). The operating system
    releases it when its process ends, so a killed build leaves no stale lock. Where there is no ``fcntl``
    (Windows) every caller gets it: one build at a time is then the caller's affair."""
    os.makedirs(folder, exist_ok=True)
    handle = open(os.path.join(folder, LOCK_NAME), "ab")  # noqa: SIM115 (held for the build's life)
    try:
        import fcntl
    except ImportError:
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def existing(out_dir: str | None = None) -> str | None:
    from ai.jit import compiled, kernels_dir, sources_digest

    folder = out_dir or kernels_dir()
    digest = sources_digest()
    path = compiled.module_path(folder, digest)
    return path if path and os.path.isfile(compiled.manifest_path(folder, digest)) else None


def ensure_built(
    out_dir: str | None = None, *, cpu: str = "host", nice: bool = False, timeout_s: float = BUILD_TIMEOUT_S
) -> Outcome:
    """Build the module in a child process unless it is there already (or cannot be built here).
    ``cpu``: "host" (default) for this machine only; :func:`portable_cpu` for a bundle. ``nice``: at the
    lowest CPU priority (a build in the background of a game)."""
    start = time.monotonic()
    found = existing(out_dir)
    if found:
        return Outcome("present", found, "already built", 0.0)
    if not compiler_available():
        return Outcome("no-compiler", None, "no C compiler: the kernels run under numba's JIT", 0.0)
    try:
        import importlib.util

        if importlib.util.find_spec("numba") is None:
            return Outcome("no-numba", None, "numba is not installed", 0.0)
    except (ImportError, ValueError):
        return Outcome("no-numba", None, "numba is not installed", 0.0)
    from ai.jit import kernels_dir

    probe = try_lock(out_dir or kernels_dir())  # (the build takes it again: a parent may die, its child not)
    if probe is None:
        return Outcome("busy", None, "another process is building the kernels", 0.0)
    probe.close()
    env = build_env()
    command = [sys.executable, "-m", "ai.engine.kernels_build", "--cpu", cpu, *(["--out", out_dir] if out_dir else [])]
    try:
        lowest = shutil.which("nice") if nice else None
        command = [lowest, "-n", "19", *command] if lowest else command
        with tempfile.TemporaryDirectory(prefix="connect4-kernels-jit-") as cache:
            env["NUMBA_CACHE_DIR"] = cache
            done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Outcome("failed", None, f"{type(exc).__name__}: {exc}", time.monotonic() - start)
    if done.returncode == BUSY_EXIT:
        return Outcome("busy", None, "another process is building the kernels", time.monotonic() - start)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Outcome("failed", None, f"exit code {done.returncode}: {last}", time.monotonic() - start)
    return Outcome("built", existing(out_dir), done.stdout.strip().splitlines()[-1], time.monotonic() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_kernels", description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="destination folder (default: the user cache dir)")
    parser.add_argument(
        "--cpu", default="host", help='LLVM target CPU: "host" (default, this machine), "portable" (a bundle), a name'
    )
    parser.add_argument("--verbose", action="store_true", help="show the C compiler's commands")
    args = parser.parse_args(argv)
    import ai.jit as jit

    if jit.MODE != "jit":
        print(
            f"error: the build needs numba's JIT in this process (mode {jit.MODE}); set CONNECT4_KERNELS=jit",
            file=sys.stderr,
        )
        return 2
    out = args.out or jit.kernels_dir()
    lock = try_lock(out)
    if lock is None:
        print(f"another process is building the kernels into {out}: nothing to do", file=sys.stderr)
        return BUSY_EXIT
    found = existing(args.out)
    if found:  # (built by a process that held the lock before us)
        print(f"already built: {found}")
        return 0
    from ai.engine.kernel_workload import fingerprint
    from ai.jit import pycc_build

    start = time.monotonic()
    fingerprint()
    played = time.monotonic() - start
    cpu = portable_cpu() if args.cpu == "portable" else args.cpu
    result = pycc_build.build(jit.registry, jit.sources_digest(), out, cpu=cpu, verbose=args.verbose)
    size_mb = os.path.getsize(result.path) / 1e6
    print(
        f"compiled {result.entries} entries of {result.kernels} kernels ({len(result.skipped)} internal signatures "
        f"left to the callers) in {result.seconds:.1f} s after a {played:.1f} s workload: "
        f"{result.path} ({size_mb:.2f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
