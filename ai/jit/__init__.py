"""The kernels' compile helper: compiled ahead of time, numba's JIT, or plain Python.

Every kernel is one Python function marked ``@jit`` (or made by a factory and passed to
:func:`jit_unit`). How it runs is chosen once per process (``CONNECT4_KERNELS``, default ``auto``):

* ``compiled``: the extension module built ahead of time from these same sources by
  ``python tools/build_kernels.py`` (``ai.jit.pycc_build``; shipped in the bundle or in the wheel's
  ``ai/jit/kernels``, or in the user cache dir keyed on the sources' digest). Each entry point is called
  through a typed wrapper (``ai.jit.compiled``) that checks dtypes and shapes; numba is not imported at all.
* ``jit``: numba compiles at run time and caches in the user's cache directory.
* ``python``: the functions run as they are (slow, with a warning). ``CONNECT4_NO_NUMBA=1`` = this.

``auto`` takes the compiled module when one matching the sources is found, else numba (and says
so on stderr, once), else plain Python.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from ai.jit import compiled as _compiled

F = TypeVar("F", bound=Callable[..., Any])

APP_NAME = "connect4-mcts"
MODES = ("auto", "compiled", "jit", "python")
# A file with this mark is part of the sources digest without kernels of its own: the workload that
# decides which signatures the ahead-of-time build compiles (ai/engine/kernel_workload.py).
DIGEST_MARK = b"ai.jit: in the sources digest"


def _cache_base() -> str:
    try:
        from platformdirs import user_cache_dir

        return str(user_cache_dir(APP_NAME, appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a runtime dependency
        return os.path.join(os.path.expanduser("~"), ".cache", APP_NAME)


def _cache_dir() -> str:
    return os.path.join(_cache_base(), "numba", sources_digest())


def kernels_dir() -> str:
    """Where a source checkout keeps the compiled kernels it built (one file per sources digest);
    ``CONNECT4_KERNELS_DIR`` names another folder."""
    return os.environ.get("CONNECT4_KERNELS_DIR") or os.path.join(_cache_base(), "kernels")


def checkout_kernels_dir() -> str | None:
    """``build/kernels-local`` of a source checkout (where its first launch builds the kernels once, for
    every user of it; the bundle's portable build goes to ``build/kernels``), None for an installed copy."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if getattr(sys, "frozen", False) or not os.path.isfile(os.path.join(root, "pyproject.toml")):
        return None
    return os.path.join(root, "build", "kernels-local")


def package_kernels_dir() -> str:
    """``ai/jit/kernels`` of this package: where an installed wheel carries the module its build compiled
    (setup.py; absent from a checkout and from a wheel built without a C compiler)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def sources_digest() -> str:
    """A digest of the compiled sources (``ai/**/*.py`` with ``@jit`` or ``jit_unit``): numba keys a
    cached function on its own file only, so a caller (``mcts.core.run_chunk``) would keep stale code
    after a callee's file (a kernel) changed; the compiled module is named after it. A frozen app has
    no sources: its digest is the one of the module it ships."""
    if getattr(sys, "frozen", False):
        return _compiled.shipped_digest() or "frozen"
    digest = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))  # the compile helper itself is not a kernel
    root = os.path.dirname(here)
    for folder, _, files in sorted(os.walk(root)):
        if "__pycache__" in folder or folder == here or folder.startswith(here + os.sep):
            continue
        for name in sorted(f for f in files if f.endswith(".py")):
            try:
                with open(os.path.join(folder, name), "rb") as fh:
                    text = fh.read()
            except OSError:
                continue
            if b"@jit" in text or b"jit_unit(" in text or DIGEST_MARK in text:  # compiled functions, workload
                digest.update(name.encode() + text)
    return digest.hexdigest()[:16]


def _requested_mode() -> str:
    if os.environ.get("CONNECT4_NO_NUMBA"):
        return "python"
    mode = os.environ.get("CONNECT4_KERNELS", "auto").strip().lower() or "auto"
    if mode not in MODES:
        raise SystemExit(f"error: CONNECT4_KERNELS must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


def _choose() -> tuple[str, Any, Any, str]:
    """(mode, compiled module or None, numba or None, a note for the user or '')."""
    requested = _requested_mode()
    module = None
    if requested in ("auto", "compiled"):
        folders = [kernels_dir(), *filter(None, [checkout_kernels_dir()]), package_kernels_dir()]
        module = _compiled.load(sources_digest(), folders)
        if module is not None:
            return "compiled", module, None, ""
        if requested == "compiled":
            raise SystemExit(
                f"error: no compiled kernels for these sources ({sources_digest()}); build them with "
                "`python tools/build_kernels.py`"
            )
    if requested != "python":
        os.environ.setdefault("NUMBA_CACHE_DIR", _cache_dir())
        nb: Any
        try:
            import numba as nb
        except ImportError:  # pragma: no cover - exercised by the no-numba test in a subprocess
            nb = None
        if nb is not None:
            note = "note: no kernels compiled ahead for these sources (tools/build_kernels.py); numba compiles them"
            return "jit", None, nb, "" if requested == "jit" else note
    return "python", None, None, "warning: numba is not available; the search runs as plain Python (slow)"


MODE: str
MODE, _module, numba, MODE_NOTE = _choose()
NUMBA_AVAILABLE = numba is not None
COMPILED = _module is not None

if MODE_NOTE:
    print(MODE_NOTE, file=sys.stderr)
if MODE == "python":
    warnings.filterwarnings("ignore", category=RuntimeWarning, message="overflow")


def describe() -> str:
    """One line: how the kernels run in this process."""
    if MODE == "compiled":
        return f"compiled ahead of time ({_compiled.origin(_module)})"
    if MODE == "jit":
        return f"numba {numba.__version__} JIT (cache {os.environ.get('NUMBA_CACHE_DIR', '')})"
    return "plain Python (slow)"


# Every kernel by its stable name (module.qualname, [key] for a factory's closure) and what it became.
registry: dict[str, Any] = {}


def jit(fn: F) -> F:
    """Compile ``fn`` (ahead of time, numba nopython with the GIL released, or not at all)."""
    return _compile(fn, None)


def jit_unit(fn: F, key: str) -> F:
    """Like :func:`jit` for a closure made by a factory (one compile unit per ``key``).

    numba keys a cached closure on a pickle of the values it closes over, which differs from one
    process to the next for compiled functions, so it would never be found again: ``key`` (stable,
    naming what the closure holds) stands in for that pickle, and names the closure's entries in the
    compiled module. The sources digest of the cache directory still catches any change of the code."""
    return _compile(fn, key)


def kernel_name(fn: Callable[..., Any], key: str | None) -> str:
    name = f"{fn.__module__}.{fn.__qualname__}"
    return name if key is None else f"{name}[{key}]"


_dispatchers: list[Any] = []


def _compile(fn: F, key: str | None) -> F:
    name = kernel_name(fn, key)
    if MODE == "compiled":
        result = _compiled.entry(_module, name, fn)
    elif numba is not None:
        dispatcher = numba.njit(cache=False, nogil=True)(fn)
        cache = _make_cache(fn, key)
        if cache is not None:
            dispatcher._cache = cache
        _dispatchers.append(dispatcher)
        result = dispatcher
    else:
        result = fn
    registry[name] = result
    return result  # type: ignore[no-any-return]


def compilations() -> int:
    """How many times this process compiled a function rather than loading it from the cache
    (numba counts each miss; compiled ahead or plain Python, nothing is ever compiled)."""
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
