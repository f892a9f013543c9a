"""The installable package ships every file the app reads at run time, and its command exists."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _data_files(package: str) -> list[str]:
    """Files of a package that are not Python sources (what importlib.resources reads)."""
    folder = ROOT / package
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    )


@pytest.mark.parametrize("package", ["assets", "ai"])
def test_every_data_file_is_package_data(package: str) -> None:
    patterns = _pyproject()["tool"]["setuptools"]["package-data"][package]  # type: ignore[index]
    files = _data_files(package)
    assert files, f"{package} has no data files?"
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in patterns)]
    assert not missing, f"not shipped in the wheel: {missing}"


def test_the_connect4_command_points_at_the_launcher() -> None:
    import main

    project = _pyproject()["project"]
    module, _, function = project["scripts"]["connect4"].partition(":")  # type: ignore[index]
    assert module == "main" and callable(getattr(main, function))
    runtime = {
        line.split("==")[0].lower()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    }
    declared = {dep.split(">")[0].split("<")[0].split("=")[0].lower() for dep in project["dependencies"]}  # type: ignore[index]
    assert runtime == declared, "requirements.txt and pyproject's dependencies name different packages"
