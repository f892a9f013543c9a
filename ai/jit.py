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


numba: Any
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
    return _compile(fn, None)


def jit_unit(fn: F, key: str) -> F:
    """Like :func:`jit` for a closure made by a factory (one compile unit per ``key``).

    numba keys a cached closure on a pickle of the values it closes over, which differs from one
    process to the next for compiled functions, so it would never be found again: ``key`` (stable,
    naming what the closure holds) stands in for that pickle. The sources digest of the cache
    directory still catches any change of the code."""
    return _compile(fn, key)


_dispatchers: list[Any] = []


def _compile(fn: F, key: str | None) -> F:
    if numba is None:
        return fn
    dispatcher = numba.njit(cache=False, nogil=True)(fn)
    cache = _make_cache(fn, key)
    if cache is not None:
        dispatcher._cache = cache
    _dispatchers.append(dispatcher)
    return dispatcher  # type: ignore[no-any-return]


def compilations() -> int:
    """How many times this process compiled a function rather than loading it from the cache
    (numba counts each miss; without numba nothing is ever compiled)."""
    return sum(sum(d._cache_misses.values()) for d in _dispatchers)


_cache_warned = False


def _warn_no_cache(reason: str) -> None:
    """One line, once per process: the engine runs on, compiling in memory only."""
    global _cache_warned
    if not _cache_warned:
        _cache_warned = True
        print(f"warning: compiled code is not cached ({reason}); every start compiles again", file=sys.stderr)


def _make_cache(fn: Callable[..., Any], key: str | None) -> Any:
    """numba's file cache for ``fn``, made to survive a cache it cannot write (full disk, read-only
    or missing directory): then the function is compiled in memory and the process goes on."""
    from numba.core.caching import FunctionCache

    class _TolerantCache(FunctionCache):
        def _index_key(self, sig: Any, codegen: Any) -> Any:
            if key is None:
                return super()._index_key(sig, codegen)
            code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
            return (sig, codegen.magic_tuple(), (code, key))

        def save_overload(self, sig: Any, data: Any) -> None:
            try:
                super().save_overload(sig, data)
            except OSError as exc:
                _warn_no_cache(f"{exc.strerror or exc} under {os.environ.get('NUMBA_CACHE_DIR', '')}")

        def load_overload(self, sig: Any, target_context: Any) -> Any:
            try:
                return super().load_overload(sig, target_context)
            except OSError:
                return None

    try:
        return _TolerantCache(fn)
    except (OSError, RuntimeError) as exc:  # no writable place for this function's cache
        _warn_no_cache(str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__)
        return None
