"""numba cache locator for the frozen app (PyInstaller), bundled as a top-level module.

Why numba's own locators are not enough when frozen:
- PyInstaller stores modules in its archive and rewrites each code object's ``co_filename`` to a
  path relative to the bundle ("ai/mcts/kernel_connect4.py"), so numba's ``inspect.getfile``
  check for the source file fails (or, worse, succeeds against the current directory);
- the cache sub-directory numba derives from the absolute source path changes on every launch
  of the one-file build (it unpacks to a fresh ``_MEIxxxxxx`` directory), so nothing is reused.

This locator keys the cache on the bundle-relative path (stable across launches and install
places) inside ``$NUMBA_CACHE_DIR/frozen/<build id>`` (``ai/jit.py`` sets ``NUMBA_CACHE_DIR`` to
the user cache dir), and stamps entries with the build id written into the bundle when it was
built, so a rebuilt executable compiles afresh while a copied or reinstalled one does not.

A bundle may ship compiled code: ``tools/prime_bundle_cache.py`` runs the built app once with its
cache in ``<bundle>/numba_cache`` for a portable CPU (the runtime hook sets ``NUMBA_CPU_NAME=generic``),
and the first start on a user's machine copies that folder into the user cache instead of compiling.
If numba rejects the shipped code (another CPU architecture), it compiles as it would without it.
The runtime hook ``rth_numba_cache.py`` selects this locator through ``NUMBA_CACHE_LOCATOR_CLASSES``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from typing import Any

from numba.core import config
from numba.core.caching import _CacheLocator

BUILD_ID_FILE = "connect4_build_id.txt"
SHIPPED_CACHE = "numba_cache"


def bundle_dir() -> str:
    return getattr(sys, "_MEIPASS", os.path.dirname(os.path.abspath(sys.executable)))


def build_id() -> str:
    """The id written at build time (the executable's size and mtime if it is missing)."""
    try:
        with open(os.path.join(bundle_dir(), BUILD_ID_FILE), encoding="ascii") as fh:
            return fh.read().strip() or "unknown"
    except OSError:
        st = os.stat(sys.executable)
        return f"exe-{st.st_size}-{int(st.st_mtime)}"


def cache_root() -> str:
    base = getattr(config, "CACHE_DIR", "") or os.path.join(tempfile.gettempdir(), "connect4-mcts-numba")
    return os.path.join(base, "frozen", build_id())


_seeded = False
_seed_lock = threading.Lock()


def seed_from_bundle() -> None:
    """Once per process: copy the bundle's shipped cache into the user cache if it is not there yet
    (into a temporary name first, then renamed, so two processes starting at once cannot mix). The
    engine compiles from several threads at start: the others wait here until the copy is in place, or
    one of them would create the cache folder first and the shipped code would never be copied."""
    global _seeded
    with _seed_lock:
        if _seeded:
            return
        try:
            _copy_shipped_cache()
        finally:
            _seeded = True


def _copy_shipped_cache() -> None:
    target = cache_root()
    shipped = os.path.join(bundle_dir(), SHIPPED_CACHE, "frozen", build_id())
    if os.path.isdir(target) or not os.path.isdir(shipped) or os.path.abspath(shipped) == os.path.abspath(target):
        return
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".seed-", dir=os.path.dirname(target))
        shutil.copytree(shipped, os.path.join(staging, "cache"))
        os.rename(os.path.join(staging, "cache"), target)
        shutil.rmtree(staging, ignore_errors=True)
    except OSError:  # full disk, read-only cache, or another process won the rename: compile as usual
        pass


class FrozenCacheLocator(_CacheLocator):
    """Cache in ``$NUMBA_CACHE_DIR/frozen/<build id>/<package path>``, valid for this build."""

    def __init__(self, py_func: Any, py_file: str) -> None:  # numba's signature
        self._lineno = py_func.__code__.co_firstlineno
        relative = py_file
        bundle = getattr(sys, "_MEIPASS", "")
        if bundle and os.path.isabs(relative) and relative.startswith(bundle + os.sep):
            relative = relative[len(bundle) + 1 :]
        package = os.path.dirname(os.path.normpath(relative)).replace(os.sep, ".").replace("..", "_").strip(".")
        self._cache_path = os.path.join(cache_root(), package or "_top")

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return build_id()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> FrozenCacheLocator | None:  # numba's signature
        if not getattr(sys, "frozen", False):
            return None
        seed_from_bundle()
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:  # not writable: let the next locator in the list try
            return None
        return locator
