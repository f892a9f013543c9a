"""Compile the kernels ahead of time with ``numba.pycc`` into one extension module (needs numba and a C compiler).

Run in a JIT process after a workload has played every game (``ai.engine.kernels_build`` does both):
every signature the JIT compiled for a kernel is exported from the module under a short symbol
(``k0``, ``k1``, ...), except signatures with literal types, which only arise inside other kernels.
The module is named after the sources digest and written with a JSON manifest (kernel name,
symbol and argument types of each entry, which ``ai.jit.compiled`` reads); both are written under
temporary names and renamed, so a reader never sees half a module.

numba's own flags decide what the exported wrappers do with the GIL: ``numba.pycc`` leaves them
holding it, which would run the search lanes and solver threads one at a time, so the build
compiles with ``release_gil`` set (the same as ``nogil=True`` for the JIT).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import numba
from numba.core import types

from ai.jit import compiled

pycc_compiler: Any = importlib.import_module("numba.pycc.compiler")
CC: Any = importlib.import_module("numba.pycc").CC


@dataclass(frozen=True)
class BuildResult:
    path: str
    manifest: str
    entries: int
    kernels: int
    skipped: tuple[str, ...]
    seconds: float


def _gil_releasing_flags() -> Any:
    """numba's compile flags with the GIL released by the exported Python wrappers."""
    base: Any = pycc_compiler.Flags

    class GilReleasingFlags(base):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    return GilReleasingFlags


def _arg_type(t: Any) -> list[Any] | None:
    """The manifest's form of a numba argument type, None for one the wrappers cannot check."""
    if isinstance(t, types.Array) and t.layout == "C" and t.mutable and t.aligned:
        if isinstance(t.dtype, (types.Integer, types.Float, types.Boolean)):
            return ["array", str(t.dtype), t.ndim]
        return None
    if isinstance(t, types.Literal):
        return None
    if isinstance(t, (types.Integer, types.Float)):
        return ["scalar", str(t)]
    if isinstance(t, types.Boolean):
        return ["scalar", "bool"]
    return None


def exports(registry: dict[str, Any]) -> tuple[list[tuple[str, Any, Any, list[list[Any]]]], list[str]]:
    """(name, python function, numba signature, manifest argument types) of every entry to compile,
    and the signatures left out (literal types: only called from other kernels)."""
    chosen: list[tuple[str, Any, Any, list[list[Any]]]] = []
    skipped: list[str] = []
    for name in sorted(registry):
        dispatcher = registry[name]
        if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
            continue
        for sig in dispatcher.signatures:
            args = [_arg_type(t) for t in sig]
            if any(a is None for a in args):
                skipped.append(f"{name}{tuple(str(t) for t in sig)}")
                continue
            overload: Any = dispatcher.overloads[sig]
            full = overload.signature
            chosen.append((name, dispatcher.py_func, full, args))  # type: ignore[arg-type]
    return chosen, skipped


def build(registry: dict[str, Any], digest: str, out_dir: str, *, cpu: str = "", verbose: bool = False) -> BuildResult:
    """Compile every exported signature of ``registry`` into ``out_dir/c4kernels_<digest>``. ``cpu``: LLVM's
    name of the target CPU ("" = a generic one of this architecture, what a bundle ships; "host" = this one)."""
    started = time.monotonic()
    chosen, skipped = exports(registry)
    if not chosen:
        raise RuntimeError("no kernel signatures to compile: run a workload under the JIT first")
    os.makedirs(out_dir, exist_ok=True)
    name = compiled.PREFIX + digest
    manifest: dict[str, Any] = {
        "digest": digest,
        "numba": numba.__version__,
        "cpu": cpu or "generic",
        "release_gil": True,
        "entries": [],
    }
    with tempfile.TemporaryDirectory(prefix=".build-", dir=out_dir) as tmp:
        cc = CC(name)
        cc.output_dir = tmp
        cc.verbose = verbose
        cc.target_cpu = cpu
        for index, (kernel, py_func, signature, args) in enumerate(chosen):
            symbol = f"k{index}"
            cc.export(symbol, signature)(py_func)
            manifest["entries"].append({"name": kernel, "symbol": symbol, "args": args})
        saved = pycc_compiler.Flags
        pycc_compiler.Flags = _gil_releasing_flags()
        try:
            cc.compile()
        finally:
            pycc_compiler.Flags = saved
        built = compiled.module_path(tmp, digest)
        if built is None:
            raise RuntimeError(f"numba.pycc wrote no module for {name} in {tmp}: {os.listdir(tmp)}")
        target = os.path.join(out_dir, os.path.basename(built))
        manifest_file = compiled.manifest_path(out_dir, digest)
        with open(os.path.join(tmp, "manifest.json"), "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, indent=1)
        shutil.move(built, target + ".part")
        os.replace(target + ".part", target)
        os.replace(os.path.join(tmp, "manifest.json"), manifest_file)
    kernels = len({kernel for kernel, *_ in chosen})
    return BuildResult(target, manifest_file, len(chosen), kernels, tuple(skipped), time.monotonic() - started)
