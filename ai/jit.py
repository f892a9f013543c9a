"""numba, when it is there; plain Python (slow, with a warning) when it is not.

Compiled code is cached in the user's cache directory (also from the frozen app), so the
JIT cost is paid once per machine. Set ``CONNECT4_NO_NUMBA=1`` to force plain Python.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

APP_NAME = "connect4-mcts"


def _cache_dir() -> str:
    try:
        from platformdirs import user_cache_dir

        base = user_cache_dir(APP_NAME, appauthor=False)
    except ImportError:  # pragma: no cover - platformdirs is a runtime dependency
        base = os.path.join(os.path.expanduser("~"), ".cache", APP_NAME)
    if getattr(sys, "frozen", False):  # the frozen app's locator keys on the executable
        return os.path.join(base, "numba")
    return os.path.join(base, "numba", _sources_digest())


def _sources_digest() -> str:
    """A digest of the compiled sources (``ai/**/*.py`` with ``@jit``): numba keys a cached function on its own
    file only, so a caller (``mcts.core.run_chunk``) would keep stale code after a callee's file
    (a kernel) changed."""
    digest = hashlib.sha256()
    root = os.path.dirname(os.path.abspath(__file__))
    for folder, dirs, files in sorted(os.walk(root)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            try:
                with open(os.path.join(folder, name), "rb") as fh:
                    text = fh.read()
            except OSError:
                continue
            if b"@jit" in text:  # only files with compiled functions
                digest.update(name.encode() + text)
    return digest.hexdigest()[:16]


if os.environ.get("CONNECT4_NO_NUMBA"):
    numba = None
else:
    os.environ.setdefault("NUMBA_CACHE_DIR", _cache_dir())
    try:
        import numba
    except ImportError:  # pragma: no cover - exercised by the no-numba test in a subprocess
        numba = None

NUMBA_AVAILABLE = numba is not None

if numba is None:
    print("warning: numba is not available; the search runs as plain Python (slow)", file=sys.stderr)
    warnings.filterwarnings("ignore", category=RuntimeWarning, message="overflow")


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (nopython, cached, GIL released) or return it unchanged."""
    if numba is None:
        return fn
    return numba.njit(cache=True, nogil=True)(fn)  # type: ignore[no-any-return]
