"""Settings shared by connect4.spec (onedir, CI) and connect4-onefile.spec (release).

Imported by the spec files (PyInstaller puts their folder in SPECPATH). Set ``CONNECT4_BUNDLE_LEAN=0``
to build without the excludes and without stripping (to measure what they save).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid

from PyInstaller.utils.hooks import collect_submodules

HERE = os.path.dirname(os.path.abspath(__file__))
# The Gomoku engine for Gomocup managers (tools/pyinstaller/rth_pbrain.py): the same program under this name.
PBRAIN_NAME = "pbrain-mcts"
LEAN = os.environ.get("CONNECT4_BUNDLE_LEAN", "1") != "0"

# Standard-library and third-party parts the game never uses (the engine process needs numba,
# llvmlite and numpy; the window process pygame-ce). Each is either pulled in by some hook's
# optional import or only used by tests and tools.
EXCLUDES = [
    "tkinter",
    "_tkinter",
    "turtle",
    "turtledemo",
    "idlelib",
    "unittest",
    "doctest",
    "pydoc",
    "pydoc_data",
    "pdb",
    "lib2to3",
    "test",
    "tests",
    "distutils",
    "setuptools",
    "pkg_resources",
    "pip",
    "wheel",
    "_distutils_hack",
    "xmlrpc",
    "curses",
    "_curses",
    "ensurepip",
    "venv",
    "IPython",
    "scipy",
    "matplotlib",
    "pandas",
    "PIL",
    "cffi",
    "pytest",
    "_pytest",
    "hypothesis",
    "numpy.f2py",
    "numpy.testing",
    "numpy.distutils",
    "numpy.typing",
    "numpy._pyinstaller",
    "numba.tests",
    "numba.testing",
    "numba.cuda",
    "numba.misc.gdb_print_extension",
    "llvmlite.tests",
    "pygame.tests",
    "pygame.examples",
    "pygame.docs",
    "pygame.__pyinstaller",
]


def analysis_options(root: str, reuse_onedir_cache: bool = False) -> dict[str, object]:
    """Keyword arguments for PyInstaller's ``Analysis``; ``root`` is the repository (SPECPATH).
    ``reuse_onedir_cache``: ship the compiled code primed in the onedir build (``dist/connect4``,
    tools/prime_bundle_cache.py) under its build id, when there is one (the one-file release)."""
    shipped = _primed_onedir(root) if reuse_onedir_cache else None
    # main.py imports its subcommands with importlib, so name every app module explicitly.
    hidden = collect_submodules("ai") + collect_submodules("game")
    return {
        "scripts": [os.path.join(root, "main.py")],
        "pathex": [root, HERE],
        "datas": [
            (os.path.join(root, "assets"), "assets"),
            *_package_data(root),
            *([(shipped[1], "numba_cache")] if shipped else []),
            (shipped[0] if shipped else write_build_id(root), "."),
        ],
        # assets: a package, so importlib.resources finds its files (datas above) in the bundle too;
        # numba._devicearray: imported from C by numba, invisible to the analysis once numba.cuda is excluded
        "hiddenimports": [*hidden, "assets", "frozen_numba_cache", "numba._devicearray"],
        "runtime_hooks": [os.path.join(HERE, "rth_numba_cache.py"), os.path.join(HERE, "rth_pbrain.py")],
        "excludes": EXCLUDES if LEAN else [],
        "noarchive": False,
        "optimize": 0,  # like a source run: asserts and docstrings kept
    }


def write_build_id(root: str) -> str:
    """A fresh id for this build (``build/connect4_build_id.txt``): the frozen app's compiled-code
    cache is keyed on it (see frozen_numba_cache.py)."""
    path = os.path.join(root, "build", "connect4_build_id.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii") as fh:
        fh.write(uuid.uuid4().hex + "\n")
    return path


def _primed_onedir(root: str) -> tuple[str, str] | None:
    """(build id file, primed cache folder) of the onedir build, if it was primed."""
    internal = os.path.join(root, "dist", "connect4", "_internal")
    build_id, cache = os.path.join(internal, "connect4_build_id.txt"), os.path.join(internal, "numba_cache")
    return (build_id, cache) if os.path.isfile(build_id) and os.path.isdir(cache) else None


def _package_data(root: str) -> list[tuple[str, str]]:
    """The data files of the ``ai`` package (the opening book), as pyproject.toml ships them in the wheel."""
    folder = os.path.join(root, "ai")
    kinds = (".json", ".bin", ".gz", ".npz", ".xz")
    return [(os.path.join(folder, name), "ai") for name in sorted(os.listdir(folder)) if name.endswith(kinds)]


def icon(root: str) -> str | None:
    """The executable's icon (Windows/macOS convert the PNG with Pillow; Linux executables have none)."""
    if sys.platform.startswith("linux"):
        return None
    return os.path.join(root, "assets", "icon.png")


# Shared libraries that carry symbol tables the app does not need. Only these are stripped: the
# auditwheel-repaired libraries of numpy and pygame-ce (numpy.libs, pygame_ce.libs) break when
# stripped ("ELF load command address/offset not page-aligned"), so PyInstaller's global strip is off.
_STRIP_MARKERS = ("libllvmlite.so", "libpython3", "lib-dynload")


def strip_selected(binaries: list[tuple[str, str, str]], workpath: str) -> list[tuple[str, str, str]]:
    """``binaries`` with the listed libraries replaced by stripped copies (Linux, lean builds only)."""
    strip = shutil.which("strip")
    if not (LEAN and strip and sys.platform.startswith("linux")):
        return binaries
    result = []
    for dest, src, kind in binaries:
        if any(marker in dest for marker in _STRIP_MARKERS):
            target = os.path.join(workpath, "stripped", dest)
            if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(src):
                os.makedirs(os.path.dirname(target), exist_ok=True)
                subprocess.run([strip, "--strip-unneeded", "-o", target, src], check=True)
            src = target
        result.append((dest, src, kind))
    return result
