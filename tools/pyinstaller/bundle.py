"""Settings shared by connect4.spec (onedir, CI) and connect4-onefile.spec (release).

Imported by the spec files (PyInstaller puts their folder in SPECPATH). Set ``CONNECT4_BUNDLE_LEAN=0``
to build without the excludes and without stripping (to measure what they save).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from PyInstaller.utils.hooks import collect_submodules

HERE = os.path.dirname(os.path.abspath(__file__))
# The Gomoku engine for Gomocup managers (tools/pyinstaller/rth_pbrain.py): the same program under this name.
PBRAIN_NAME = "pbrain-mcts"
LEAN = os.environ.get("CONNECT4_BUNDLE_LEAN", "1") != "0"

# Standard-library and third-party parts the game never uses (the engine process needs numpy and the
# kernels compiled ahead of time; the window process pygame-ce). Each is either pulled in by some hook's
# optional import or only used by tests and tools. numba and llvmlite (160 MB of LLVM) only compile: the
# bundle ships the compiled kernels (ai.jit.compiled) instead, and never imports them.
EXCLUDES = [
    "numba",
    "llvmlite",
    "ai.jit.pycc_build",
    # no TLS anywhere (loopback network play, no downloads): without _ssl and _hashlib the bundle needs no
    # libcrypto (4.6 MB); hashlib falls back to its built-in sha256
    "ssl",
    "_ssl",
    "_hashlib",
    "yaml",
    # never imported by the app, the engine, the terminal client or the server (checked by listing
    # sys.modules after each ran): rich needs pygments only to highlight code and tracebacks
    "pygments",
    "numpy.fft",
    "numpy.polynomial",
    "numpy.ma",
    "_codecs_jp",
    "_codecs_hk",
    "_codecs_cn",
    "_codecs_kr",
    "_codecs_tw",
    "_codecs_iso2022",
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
    "pygame.tests",
    "pygame.examples",
    "pygame.docs",
    "pygame.__pyinstaller",
]


def analysis_options(root: str) -> dict[str, object]:
    """Keyword arguments for PyInstaller's ``Analysis``; ``root`` is the repository (SPECPATH)."""
    kernels = compiled_kernels(root)
    # main.py imports its subcommands with importlib, so name every app module explicitly.
    hidden = [m for m in collect_submodules("ai") + collect_submodules("game") if m not in EXCLUDES]
    return {
        "scripts": [os.path.join(root, "main.py")],
        "pathex": [root, HERE],
        "binaries": [(kernels[0], ".")],
        "datas": [
            (os.path.join(root, "assets"), "assets"),
            *_package_data(root),
            (kernels[1], "."),
            (write_build_info(root), "."),
            *[(path, ".") for path in notices(root)],
            (collect_licences(root), "licenses"),
        ],
        # assets: a package, so importlib.resources finds its files (datas above) in the bundle too
        "hiddenimports": [*hidden, "assets"],
        "runtime_hooks": [os.path.join(HERE, "rth_pbrain.py")],
        "excludes": EXCLUDES if LEAN else [m for m in EXCLUDES if m in ("numba", "llvmlite", "ai.jit.pycc_build")],
        "noarchive": False,
        "optimize": 0,  # like a source run: asserts and docstrings kept
    }


PBRAIN_LAUNCHER = """#!/bin/sh
# pbrain-mcts: the Gomoku engine of this app for Gomocup managers (Piskvork protocol on stdin/stdout).
# Not a second copy of the program: it runs the executable beside it (through any links) as `piskvork`.
here=$(dirname "$(readlink -f "$0")")
exec "$here/{target}" piskvork "$@"
"""


def write_pbrain_launcher(folder: str, target: str) -> str:
    """``folder/pbrain-mcts``: a small shell launcher of ``target`` (POSIX). PyInstaller's bootloader gives
    the program its resolved name, so a symbolic link would start the app, not the engine."""
    path = os.path.join(folder, PBRAIN_NAME)
    if os.path.lexists(path):
        os.remove(path)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(PBRAIN_LAUNCHER.format(target=target))
    os.chmod(path, 0o755)
    return path


def compiled_kernels(root: str) -> tuple[str, str]:
    """(module, manifest) of the kernels compiled ahead of time for a portable CPU, built into
    ``build/kernels`` first if they are not there (tools/build_kernels.py; needs numba and a C compiler)."""
    sys.path.insert(0, root)
    from ai.engine import kernels_build
    from ai.jit import compiled, sources_digest

    folder = os.path.join(root, "build", "kernels")
    outcome = kernels_build.ensure_built(folder, cpu=kernels_build.portable_cpu())
    if outcome.path is None:
        raise SystemExit(f"bundle: the compiled kernels could not be built ({outcome.state}: {outcome.detail})")
    return outcome.path, compiled.manifest_path(folder, sources_digest())


def write_build_info(root: str) -> str:
    """``build/connect4_build.json``: the version and the git commit this bundle is built from
    (``connect4 --version`` reads it; a bundle has no git)."""
    sys.path.insert(0, root)
    from game.version import build_info_file, describe_source

    path = os.path.join(root, "build", build_info_file())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(describe_source(root), fh)
    return path


def notices(root: str) -> list[str]:
    """The licence files every artefact carries (the third-party notices and the project's licence)."""
    names = ("assets/THIRD_PARTY_NOTICES.md", "LICENSE")  # a copy at the top (assets/ has it too)
    return [os.path.join(root, name) for name in names if os.path.isfile(os.path.join(root, name))]


# The distributions whose code the bundle ships (numba: its runtime is compiled into the kernels).
SHIPPED_DISTRIBUTIONS = ("pygame-ce", "numpy", "numba", "platformdirs", "rich", "markdown-it-py", "mdurl", "Pygments")


def collect_licences(root: str) -> str:
    """``build/licenses``: the licence files of every shipped distribution (from its installed metadata)
    and of Python itself, each named ``<distribution>-<file>``; returns the folder."""
    from importlib import metadata

    folder = os.path.join(root, "build", "licenses")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name in SHIPPED_DISTRIBUTIONS:
        dist = metadata.distribution(name)
        for item in dist.files or []:
            base = os.path.basename(str(item)).upper()
            if base.startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE")) or "/licenses/" in str(item).lower():
                target = os.path.join(folder, f"{name}-" + str(item).split("/", 1)[-1].replace("/", "-"))
                shutil.copyfile(str(dist.locate_file(item)), target)
    python_licence = os.path.join(os.path.dirname(os.__file__), "LICENSE.txt")
    if os.path.isfile(python_licence):
        shutil.copyfile(python_licence, os.path.join(folder, "python-LICENSE.txt"))
    return folder


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
_STRIP_MARKERS = ("libpython3", "lib-dynload", "c4kernels_")


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


# A one-file build inflates every compressed member at each start: about 3.4 ms per MB here, 0.17 s for the
# whole bundle. The largest shared libraries are stored as they are instead, up to this many bytes more in the
# file (each member's cost measured by compressing it as PyInstaller does); the one-file stays under 50 MB.
RAW_BUDGET_BYTES = 15_000_000
# PyInstaller compresses members by type code; both codes are extracted the same way (a shared library).
RAW, PACKED = "BINARY", "EXTENSION"


def one_file_compression() -> dict[str, bool]:
    """The one-file EXE's ``cdict``: PyInstaller's default, with the members typed RAW left uncompressed."""
    return {
        "EXTENSION": True,
        "DATA": True,
        "BINARY": False,
        "EXECUTABLE": True,
        "PYSOURCE": True,
        "PYMODULE": True,
        "SPLASH": True,
        "PYZ": False,
        "SYMLINK": False,
    }


def store_largest_raw(
    binaries: list[tuple[str, str, str]], budget: int = RAW_BUDGET_BYTES
) -> list[tuple[str, str, str]]:
    """``binaries`` retyped so that the largest (the most inflating at a start) are RAW while the bytes they add to
    the one-file stay within ``budget``; every other one is PACKED."""
    import zlib

    sizes = [
        (os.path.getsize(src), dest, src)
        for dest, src, kind in binaries
        if kind in (RAW, PACKED) and os.path.isfile(src)
    ]
    raw: set[str] = set()
    spent = 0
    for size, dest, src in sorted(sizes, reverse=True):
        with open(src, "rb") as fh:
            added = size - len(zlib.compress(fh.read(), 9))
        if spent + added <= budget:
            raw.add(dest)
            spent += added
    return [(d, s, (RAW if d in raw else PACKED) if k in (RAW, PACKED) else k) for d, s, k in binaries]
