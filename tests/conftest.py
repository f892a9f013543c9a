"""Shared test setup: headless SDL (dummy video and audio) and a private config directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The suite runs the kernels under numba's JIT whatever the user cache holds (a compiled module built by
# an earlier run would otherwise change what it tests); tests/test_compiled_kernels.py runs both ways.
os.environ.setdefault("CONNECT4_KERNELS", "jit")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real settings, autosave or saved games."""
    monkeypatch.setenv("CONNECT4_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture
def made() -> Iterator[Any]:
    """``test_ui_fakes.make_test_app`` as a fixture: every app it made is shut down after the test. (The
    app is imported here, not at the top, so that tests without a window never import pygame.)"""
    from test_ui_fakes import make_test_app

    from game.ui.app_run import shutdown

    apps: list[Any] = []

    def factory(*args: Any, **kw: Any) -> Any:
        app, client = make_test_app(*args, **kw)
        apps.append(app)
        return app, client

    yield factory
    for app in apps:
        shutdown(app)


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[int]:
    """The port of a real game server (``main.py serve``) on a fresh games file, killed after the test; a test
    parametrizes it (``indirect=True``) with the server's extra arguments."""
    from tests.net_helpers import start_server

    args = getattr(request, "param", ())
    proc, port = start_server(tmp_path / "games.db", *args)
    yield port
    proc.kill()
    proc.wait(5)
