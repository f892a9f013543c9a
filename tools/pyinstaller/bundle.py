"""Settings shared by connect4.spec (onedir, CI) and connect4-onefile.spec (release).

Imported by the spec files (PyInstaller puts their folder in SPECPATH). Set ``CONNECT4_BUNDLE_LEAN=0``
to build without the excludes and without stripping (to measure what they save).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from PyInstaller.utils.hooks import collect_submodules

HERE = os.path.dirname(os.path.abspath(__file__))
LEAN = os.environ.get("CONNECT4_BUNDLE_LEAN", "1") != "0"

# Standard-library and third-party parts the game never uses (the engine process needs numba,
# llvmlite and numpy; the window process pygame-ce). Each is either pulled in by some hook's
# optional import or only used by tests and tools.
EXCLUDES = [
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib",
    "unittest", "doctest", "pydoc", "pydoc_data", "pdb", "lib2to3", "test", "tests",
    "distutils", "setuptools", "pkg_resources", "pip", "wheel", "_distutils_hack",
    "sqlite3", "_sqlite3", "xmlrpc", "curses", "_curses", "ensurepip", "venv",
    "IPython", "scipy", "matplotlib", "pandas", "PIL", "cffi", "pytest", "_pytest", "hypothesis",
    "numpy.f2py", "numpy.testing", "numpy.distutils", "numpy.typing", "numpy._pyinstaller",
    "numba.tests", "numba.testing", "numba.cuda", "numba.misc.gdb_print_extension",
    "llvmlite.tests", "pygame.tests", "pygame.examples", "pygame.docs", "pygame.__pyinstaller",
]


def analysis_options(root: str) -> dict[str, object]:
    """Keyword arguments for PyInstaller's ``Analysis``; ``root`` is the repository (SPECPATH)."""
    # main.py imports its subcommands with importlib, so name every app module explicitly.
    hidden = collect_submodules("ai") + collect_submodules("game")
    return {
        "scripts": [os.path.join(root, "main.py")],
        "pathex": [root, HERE],
        "datas": [(os.path.join(root, "assets"), "assets"),
                  (os.path.join(root, "ai", "opening_book.npz"), "ai")],
        # assets: a package, so importlib.resources finds its files (datas above) in the bundle too;
        # numba._devicearray: imported from C by numba, invisible to the analysis once numba.cuda is excluded
        "hiddenimports": [*hidden, "assets", "frozen_numba_cache", "numba._devicearray"],
        "runtime_hooks": [os.path.join(HERE, "rth_numba_cache.py")],
        "excludes": EXCLUDES if LEAN else [],
        "noarchive": False,
        "optimize": 0,  # like a source run: asserts and docstrings kept
    }


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
