"""A source checkout's first launch builds the compiled kernels once, in the background.

When the engine runs its kernels under numba's JIT only because no compiled module exists for these
sources (``CONNECT4_KERNELS=auto``) and a C compiler is there, it builds the module in a child process at
the lowest CPU priority once every game is prepared (numba's cache then makes the build's workload
quick), into the checkout's ``build/kernels-local`` (or the user cache dir when that is not writable).
Later starts, from any HOME, load it and compile nothing. Without a compiler nothing is built and the
JIT goes on, saying so. ``CONNECT4_KERNELS_BUILD=0`` turns the build off.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

from ai.vocab.results import KernelsBuild, Reply

_started = threading.Event()


def _target() -> str:
    from ai.jit import checkout_kernels_dir, kernels_dir

    local = checkout_kernels_dir()
    if local is not None:
        try:
            os.makedirs(local, exist_ok=True)
            if os.access(local, os.W_OK):
                return local
        except OSError:
            pass
    return kernels_dir()


def wanted() -> bool:
    import ai.jit

    return ai.jit.MODE == "jit" and bool(ai.jit.MODE_NOTE) and os.environ.get("CONNECT4_KERNELS_BUILD", "1") != "0"


def start(report: Callable[[Reply], None] | None = None) -> bool:
    """Start the background build once per process if it is wanted; True if it started. ``report`` gets a
    ``KernelsBuild`` when the build starts and when it ends (the app shows it while it runs)."""
    if _started.is_set() or not wanted():
        return False
    _started.set()
    threading.Thread(target=_build, args=(report,), name="kernels-build", daemon=True).start()
    return True


def _build(report: Callable[[Reply], None] | None) -> None:
    from ai.engine import kernels_build

    tell = report or (lambda reply: None)
    if not kernels_build.compiler_available():
        print("note: no C compiler: the search kernels stay under numba's JIT (compiled on first use)", file=sys.stderr)
        tell(KernelsBuild("no-compiler", "no C compiler: the search kernels stay under numba's JIT"))
        return
    target = _target()
    print(f"note: building the compiled search kernels once, in the background, into {target}", file=sys.stderr)
    tell(KernelsBuild("building", f"into {target}"))
    outcome = kernels_build.ensure_built(target, cpu="host", nice=True)
    print(f"note: compiled kernels {outcome.state} ({outcome.detail}; {outcome.seconds:.0f} s)", file=sys.stderr)
    tell(KernelsBuild(outcome.state, f"{outcome.detail} ({outcome.seconds:.0f} s)"))
