"""The Python environment a release bundles: ``build/release-venv``, the runtime requirements at their tested
versions (``requirements.txt``) plus PyInstaller, with numpy built from its own source without BLAS.

Why: numpy's wheels carry OpenBLAS and the gfortran runtime (28 MB unpacked, a third of the one-folder
build), which only matrix products and linear algebra use; nothing in the app or the engine calls either
(they would still work, through numpy's own fallback code). numpy's build has options for exactly this
(``-Dblas=none -Dlapack=none``). The wheel is built once per machine and numpy version (about 6 minutes on
2 cores, needs a C/C++ compiler; it is kept in the user cache dir) and installed over the wheel from the
registry. Where it cannot be built, the release goes on with the registry's numpy and says so.

    .venv/bin/python tools/release_python.py        prints the environment's python (building it if needed)
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "build" / "release-venv"
STAMP = VENV / "connect4-release.stamp"
NO_BLAS = ("-Csetup-args=-Dblas=none", "-Csetup-args=-Dlapack=none", "-Csetup-args=-Dallow-noblas=true")
BUILD_TOOLS = ("pyinstaller", "pyinstaller-hooks-contrib")
NUMPY_BUILD_TIMEOUT_S = 1800


def venv_python(venv: Path = VENV) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def pinned(requirements: Path, name: str) -> str | None:
    """The version ``requirements`` pins ``name`` to (``name==X``), None if it does not."""
    pattern = re.compile(rf"^\s*{re.escape(name)}==([^\s#;]+)", re.IGNORECASE | re.MULTILINE)
    found = pattern.search(requirements.read_text(encoding="utf-8"))
    return found.group(1) if found else None


def wheel_cache() -> Path:
    try:
        from platformdirs import user_cache_dir

        base = Path(user_cache_dir("connect4-mcts", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a runtime requirement
        base = Path.home() / ".cache" / "connect4-mcts"
    return base / "wheels" / "numpy-no-blas"


def run(*command: str, timeout: float | None = None) -> None:
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True, timeout=timeout)


def no_blas_numpy(version: str, python: Path) -> Path | None:
    """numpy ``version`` built without BLAS for ``python``'s interpreter (cached), None if it cannot be built."""
    folder = wheel_cache()
    tag = subprocess.run(
        [str(python), "-c", "import sys; print(f'cp{sys.version_info[0]}{sys.version_info[1]}')"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    found = sorted(glob.glob(str(folder / f"numpy-{version}-{tag}-*.whl")))
    if found:
        return Path(found[-1])
    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("cl")):
        print("release: no C compiler: numpy is bundled from the registry's wheel (with OpenBLAS)", flush=True)
        return None
    print(f"release: building numpy {version} without BLAS once (cached in {folder}); this takes minutes", flush=True)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="numpy-no-blas-") as tmp:
        try:
            run(
                str(python),
                "-m",
                "pip",
                "wheel",
                "-q",
                "--no-deps",
                "--no-binary",
                "numpy",
                f"numpy=={version}",
                *NO_BLAS,
                "-w",
                tmp,
                timeout=NUMPY_BUILD_TIMEOUT_S,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            print(f"release: numpy could not be built without BLAS ({exc}); bundling the registry's wheel", flush=True)
            return None
        built = sorted(glob.glob(os.path.join(tmp, "numpy-*.whl")))
        if not built:
            return None
        target = folder / os.path.basename(built[-1])
        shutil.move(built[-1], target)
        return target


def _stamp(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def release_python(*, with_blas: bool = False) -> Path:
    """The release environment's python, created or brought up to date first."""
    python = venv_python()
    requirements = ROOT / "requirements.txt"
    dev = ROOT / "requirements-dev.txt"
    tools = [f"{name}=={version}" if (version := pinned(dev, name)) else name for name in BUILD_TOOLS]
    numpy_version = pinned(requirements, "numpy")
    if not python.exists():
        run(sys.executable, "-m", "venv", "--clear", str(VENV))
    wheel = None if with_blas or numpy_version is None else no_blas_numpy(numpy_version, python)
    want = _stamp(requirements.read_text(encoding="utf-8"), *tools, str(wheel))
    if STAMP.exists() and STAMP.read_text(encoding="utf-8") == want:
        return python
    run(str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(requirements), *tools)
    if wheel is not None:
        run(str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel))
    STAMP.write_text(want, encoding="utf-8")
    return python


def blas_of(python: Path) -> str:
    """What the environment's numpy uses for BLAS ("none" when built without)."""
    code = "import numpy; b = numpy.show_config('dicts')['Build Dependencies']['blas']; print(b.get('name', 'none'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip() or "none"


if __name__ == "__main__":
    found = release_python(with_blas="--with-blas" in sys.argv[1:])
    print(f"{found} (numpy BLAS: {blas_of(found)})")
