"""``connect4 --version``: the version and the git commit of this copy.

A source checkout asks git (when it is there); an installed wheel reads its own metadata; a bundle reads
``connect4_build.json``, written when it was built (tools/pyinstaller/bundle.py), since it has no git.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DISTRIBUTION = "connect4-mcts"
ROOT = Path(__file__).resolve().parents[1]
UNKNOWN = "unknown"


def build_info_file() -> str:
    return "connect4_build.json"


@dataclass(frozen=True)
class VersionInfo:
    version: str
    commit: str
    source: str  # "bundle", "checkout" or "installed"

    def line(self) -> str:
        return f"connect4 {self.version} (commit {self.commit}, {self.source})"


def _pyproject_version(root: Path) -> str | None:
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    return match[1] if match else None


def _git_commit(root: Path) -> str | None:
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def describe_source(root: str | Path = ROOT) -> dict[str, str]:
    """Version and commit of a source tree (what a bundle built from it bakes in)."""
    path = Path(root)
    return {"version": _pyproject_version(path) or UNKNOWN, "commit": _git_commit(path) or UNKNOWN}


def current() -> VersionInfo:
    if getattr(sys, "frozen", False):
        folder = getattr(sys, "_MEIPASS", os.path.dirname(os.path.abspath(sys.executable)))
        try:
            with open(os.path.join(folder, build_info_file()), encoding="utf-8") as fh:
                data = json.load(fh)
            return VersionInfo(str(data.get("version", UNKNOWN)), str(data.get("commit", UNKNOWN)), "bundle")
        except (OSError, ValueError):
            return VersionInfo(UNKNOWN, UNKNOWN, "bundle")
    local = _pyproject_version(ROOT)
    if local is not None:
        return VersionInfo(local, _git_commit(ROOT) or UNKNOWN, "checkout")
    try:
        from importlib.metadata import PackageNotFoundError, version

        return VersionInfo(version(DISTRIBUTION), UNKNOWN, "installed")
    except (ImportError, PackageNotFoundError):
        return VersionInfo(UNKNOWN, UNKNOWN, "installed")
