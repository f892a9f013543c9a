"""The kernels compiled ahead of time: find the extension module, and call it only through typed wrappers.

The module (``c4kernels_<digest>``, built by ``ai.jit.pycc_build``) holds one entry per signature the
JIT met while playing every game, each under a short symbol; a JSON manifest beside it names the
kernel and the argument types of every symbol. This file imports numpy, never numba: the bundle
ships without it. The compiled entries convert no types and check nothing (a wrong dtype can crash
the process), so :class:`CompiledKernel` checks each call first: arrays must have the compiled dtype
and number of dimensions, be C-contiguous and writeable; scalars must be numbers of the right kind.
Anything else raises a ``ValueError`` that names the kernel, what it got and what it takes.
"""

from __future__ import annotations

import functools
import glob
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

PREFIX = "c4kernels_"
MANIFEST_SUFFIX = ".json"


def bundle_dir() -> str | None:
    """The frozen app's data folder (PyInstaller), None from a source checkout."""
    if not getattr(sys, "frozen", False):
        return None
    return str(getattr(sys, "_MEIPASS", os.path.dirname(os.path.abspath(sys.executable))))


def shipped_digest() -> str | None:
    """The sources digest of the module a frozen app ships (from its manifest's name)."""
    folder = bundle_dir()
    if folder is None:
        return None
    names = sorted(glob.glob(os.path.join(folder, PREFIX + "*" + MANIFEST_SUFFIX)))
    return os.path.basename(names[0])[len(PREFIX) : -len(MANIFEST_SUFFIX)] if names else None


def module_path(folder: str, digest: str) -> str | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, PREFIX + digest + suffix)
        if os.path.isfile(path):
            return path
    return None


def manifest_path(folder: str, digest: str) -> str:
    return os.path.join(folder, PREFIX + digest + MANIFEST_SUFFIX)


@dataclass(frozen=True)
class Loaded:
    """The compiled module, its manifest (kernel name -> entries) and where it came from."""

    module: ModuleType
    entries: dict[str, list[dict[str, Any]]]
    path: str
    release_gil: bool


def load(digest: str, folders: Sequence[str]) -> Loaded | None:
    """The compiled module for ``digest`` from the bundle or one of ``folders``, or None."""
    shipped = bundle_dir()
    for folder in [*([shipped] if shipped else []), *folders]:
        path = module_path(folder, digest)
        if path is None or not os.path.isfile(manifest_path(folder, digest)):
            continue
        try:
            with open(manifest_path(folder, digest), encoding="utf-8") as fh:
                manifest = json.load(fh)
            spec = importlib.util.spec_from_file_location(PREFIX + digest, path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except (OSError, ImportError, ValueError) as exc:
            print(f"warning: compiled kernels at {path} do not load ({exc}); not using them", file=sys.stderr)
            continue
        entries: dict[str, list[dict[str, Any]]] = {}
        for item in manifest["entries"]:
            entries.setdefault(item["name"], []).append(item)
        return Loaded(module, entries, path, bool(manifest.get("release_gil")))
    return None


def origin(loaded: Loaded | None) -> str:
    return "none" if loaded is None else loaded.path


# An argument's compiled type: ("array", dtype name, ndim) or ("scalar", numpy type name).
ArgType = tuple[Any, ...]

_KINDS = {"b": "bool", "i": "int", "u": "int", "f": "float"}


def _scalar_type(value: Any) -> str | None:
    """The numpy type numba gives a scalar argument (Python int -> int64, float -> float64)."""
    if isinstance(value, np.generic):
        return value.dtype.name
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64" if -(2**63) <= value < 2**63 else "uint64"
    if isinstance(value, float):
        return "float64"
    return None


def describe_arg(value: Any) -> str:
    if isinstance(value, np.ndarray):
        order = "C" if value.flags.c_contiguous else "non-contiguous"
        ro = "" if value.flags.writeable else " read-only"
        return f"array({value.dtype.name}, {value.ndim}d, {order}{ro})"
    scalar = _scalar_type(value)
    return scalar if scalar is not None else type(value).__name__


def describe_type(arg: ArgType) -> str:
    return f"array({arg[1]}, {arg[2]}d, C)" if arg[0] == "array" else str(arg[1])


_DTYPES: dict[str, np.dtype[Any]] = {}


def _dtype(name: str) -> np.dtype[Any]:
    """numpy's dtype of ``name``, made once (comparing dtypes is done in C; ``dtype.name`` is Python code,
    about a percent of a search's time when every call checks a dozen arrays by it)."""
    found = _DTYPES.get(name)
    if found is None:
        found = _DTYPES[name] = np.dtype(name)
    return found


def _fits(value: Any, arg: ArgType, exact: bool) -> bool:
    if arg[0] == "array":
        return bool(
            type(value) is np.ndarray
            and value.dtype == _dtype(arg[1])
            and value.ndim == arg[2]
            and value.flags.c_contiguous
            and value.flags.writeable
        )
    scalar = _scalar_type(value)
    if scalar is None:
        return False
    if exact:
        return bool(scalar == arg[1])
    kind, want = _KINDS.get(np.dtype(scalar).kind), _KINDS.get(np.dtype(arg[1]).kind)
    return kind == want or (want == "int" and kind == "bool") or (want == "float" and kind in ("int", "bool"))


class CompiledKernel:
    """A kernel compiled ahead of time: checks each call's arguments, then runs the compiled entry
    of the matching signature (exact types first, then scalars of the same kind)."""

    def __init__(
        self, name: str, py_func: Callable[..., Any], overloads: list[tuple[tuple[ArgType, ...], Any]], nogil: bool
    ) -> None:
        self.name = name
        self.nogil = nogil  # the compiled entries release the GIL while they run
        self.py_func = py_func
        self.overloads = overloads
        functools.update_wrapper(self, py_func, updated=())  # its name, docstring, __wrapped__ (not its attributes)

    def __call__(self, *args: Any) -> Any:
        for exact in (True, False):
            for types, compiled_fn in self.overloads:
                if len(types) == len(args) and all(_fits(a, t, exact) for a, t in zip(args, types, strict=True)):
                    return compiled_fn(*args)
        got = ", ".join(describe_arg(a) for a in args)
        takes = "; ".join("(" + ", ".join(describe_type(t) for t in types) + ")" for types, _ in self.overloads)
        raise ValueError(f"{self.name}: the compiled kernel takes {takes}, not ({got})")

    def __repr__(self) -> str:
        return f"<compiled kernel {self.name} ({len(self.overloads)} signatures)>"


class _Uncompiled:
    """A kernel the build compiled only inside others: called from Python it runs as plain Python, which
    is slow, so the first such call says so on stderr (the workload of ai.engine.kernel_workload then
    misses a path: add it there)."""

    def __init__(self, name: str, py_func: Callable[..., Any]) -> None:
        self.name = name
        self.py_func = py_func
        self.warned = False
        functools.update_wrapper(self, py_func, updated=())

    def __call__(self, *args: Any) -> Any:
        if not self.warned:
            self.warned = True
            got = ", ".join(describe_arg(a) for a in args)
            print(
                f"warning: kernel {self.name} ({got}) is not compiled ahead; it runs as plain Python", file=sys.stderr
            )
        return self.py_func(*args)


def entry(loaded: Loaded | None, name: str, py_func: Callable[..., Any]) -> Any:
    """What ``@jit`` gives ``py_func`` in the compiled mode: its typed wrapper, or the plain function
    when nothing calls it from Python (it was compiled only inside other kernels)."""
    items = [] if loaded is None else loaded.entries.get(name, [])
    if not items:
        return _Uncompiled(name, py_func)
    assert loaded is not None
    overloads = [(tuple(tuple(arg) for arg in item["args"]), getattr(loaded.module, item["symbol"])) for item in items]
    return CompiledKernel(name, py_func, overloads, loaded.release_gil)
