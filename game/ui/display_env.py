"""Keep the graphics driver's on-disk caches from killing the window on a full or read-only disk.

Mesa maps its shader cache (``$MESA_SHADER_CACHE_DIR``, else ``$XDG_CACHE_HOME/mesa_shader_cache``,
else ``~/.cache/mesa_shader_cache``) and NVIDIA's driver writes ``~/.nv/GLCache``; on a full disk a
mapped cache file can end the process with SIGBUS inside ``set_mode``. Before pygame opens the display,
``disable_unusable_caches`` checks where those caches live and, when a folder cannot take a write
(full, read-only, not a folder), turns the caches off with the drivers' documented switches
(``MESA_SHADER_CACHE_DISABLE=true``, the older ``MESA_GLSL_CACHE_DISABLE=true``, and
``__GL_SHADER_DISK_CACHE=0``) and returns one line saying so. A value the user set is never changed.
No pygame here.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import MutableMapping
from pathlib import Path

MIN_FREE_BYTES = 32 * 1024 * 1024  # a shader cache index alone is over 1 MB; keep a margin
PROBE_BYTES = 64 * 1024
DISABLE_SWITCHES = {
    "MESA_SHADER_CACHE_DISABLE": "true",
    "MESA_GLSL_CACHE_DISABLE": "true",
    "__GL_SHADER_DISK_CACHE": "0",
}


def cache_folders(env: MutableMapping[str, str]) -> list[Path]:
    """Where the graphics drivers would put their on-disk shader caches under ``env``."""
    home = Path(env.get("HOME") or Path.home())
    xdg = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home / ".cache"
    mesa = Path(env["MESA_SHADER_CACHE_DIR"]) if env.get("MESA_SHADER_CACHE_DIR") else xdg / "mesa_shader_cache"
    nvidia = Path(env["__GL_SHADER_DISK_CACHE_PATH"]) if env.get("__GL_SHADER_DISK_CACHE_PATH") else home / ".nv"
    return [mesa, nvidia]


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return path


def folder_problem(path: Path) -> str | None:
    """Why ``path`` (or, if it does not exist yet, the folder it would be made in) cannot take a cache
    write: "full (N kB free)", "read-only", "not a folder"...; None when it can."""
    where = _nearest_existing(path)
    if not where.is_dir():
        return "not a folder"
    try:
        info = os.statvfs(where) if hasattr(os, "statvfs") else None
    except OSError as exc:
        return exc.strerror or "unreadable"
    if info is not None:
        free = info.f_bavail * info.f_frsize
        if free < MIN_FREE_BYTES:
            return f"full ({free // 1024} kB free)"
    try:
        with tempfile.TemporaryFile(dir=where, prefix=".connect4-probe-") as probe:
            probe.write(b"\0" * PROBE_BYTES)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return (exc.strerror or str(exc)).lower()
    return None


def _shown(folder: Path, env: MutableMapping[str, str]) -> str:
    text, home = os.fsdecode(folder), env.get("HOME", "")
    if home not in ("", "/") and text.startswith(home.rstrip("/") + "/"):
        return "~" + text[len(home.rstrip("/")) :]
    return text


def disable_unusable_caches(env: MutableMapping[str, str] | None = None) -> str | None:
    """Turn the drivers' disk caches off when a cache folder cannot take a write; one line, or None."""
    env = os.environ if env is None else env
    for folder in cache_folders(env):
        problem = folder_problem(folder)
        if problem is None:
            continue
        for name, value in DISABLE_SWITCHES.items():
            env.setdefault(name, value)
        return f"Graphics shader caches off for this run: {_shown(folder, env)} is {problem}"
    return None
