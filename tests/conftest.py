"""Shared test setup: headless SDL (dummy video and audio) and a private config directory."""

from __future__ import annotations

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real settings, autosave or saved games."""
    monkeypatch.setenv("CONNECT4_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
