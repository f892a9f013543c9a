"""numba cache locator for the frozen app (PyInstaller), bundled as a top-level module.

Why numba's own locators are not enough when frozen:
- PyInstaller stores modules in its archive and rewrites each code object's ``co_filename`` to a
  path relative to the bundle ("ai/mcts/kernel_connect4.py"), so numba's ``inspect.getfile``
  check for the source file fails (or, worse, succeeds against the current directory);
- the cache sub-directory numba derives from the absolute source path changes on every launch
  of the one-file build (it unpacks to a fresh ``_MEIxxxxxx`` directory), so nothing is reused.

This locator keys the cache on the bundle-relative path (stable across launches and install
places) inside ``NUMBA_CACHE_DIR`` (set by ``ai/jit.py`` to the user cache dir), and stamps entries
with the size and mtime of the executable, so a rebuilt executable compiles afresh once.
The runtime hook ``rth_numba_cache.py`` selects it through ``NUMBA_CACHE_LOCATOR_CLASSES``.
"""

from __future__ import annotations

import os
import sys
import tempfile

from numba.core import config
from numba.core.caching import _CacheLocator


class FrozenCacheLocator(_CacheLocator):
    """Cache in ``$NUMBA_CACHE_DIR/frozen/<package path>``, valid while the executable is unchanged."""

    def __init__(self, py_func, py_file: str) -> None:  # noqa: ANN001 - numba's signature
        self._lineno = py_func.__code__.co_firstlineno
        relative = py_file
        bundle = getattr(sys, "_MEIPASS", "")
        if bundle and os.path.isabs(relative) and relative.startswith(bundle + os.sep):
            relative = relative[len(bundle) + 1:]
        package = os.path.dirname(os.path.normpath(relative)).replace(os.sep, ".").replace("..", "_").strip(".")
        base = config.CACHE_DIR or os.path.join(tempfile.gettempdir(), "connect4-mcts-numba")
        self._cache_path = os.path.join(base, "frozen", package or "_top")

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> tuple[float, int]:
        st = os.stat(sys.executable)
        return st.st_mtime, st.st_size

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):  # noqa: ANN001, ANN206 - numba's signature
        if not getattr(sys, "frozen", False):
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:  # not writable: let the next locator in the list try
            return None
        return locator
