"""The About page (the help card's last page) and the third-party notices it lists: the version and commit,
every bundled component with its licence, and `connect4 --version`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.play.themes import THEMES
from game.ui import about, overlays
from game.ui.frame import HelpCard
from game.version import current

ROOT = Path(__file__).resolve().parents[1]


def test_the_about_lines_name_the_version_and_every_bundled_licence() -> None:
    lines = about.about_lines()
    assert current().version in lines[0] and current().commit in lines[0]
    rows = dict(about.notice_rows())
    assert "LGPL" in rows["pygame-ce"]
    assert "BSD" in rows["NumPy"]
    assert any("DejaVu" in name for name in rows)
    assert any("SDL2" in name and "zlib" in licence for name, licence in rows.items())
    assert all(f"{name}: {licence}" in lines for name, licence in rows.items())


@pytest.mark.parametrize("last", [False, True])
def test_the_last_page_of_the_help_card_is_the_about_page(last: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    surface = pygame.Surface((900, 700))
    drawn: list[Any] = []
    monkeypatch.setattr(about, "draw_about", lambda *args: drawn.append(args))
    card, _, per_page = overlays.help_pages(surface.get_size())
    shortcut_pages = (len(overlays.SHORTCUTS) + per_page - 1) // per_page
    overlays.draw_help(surface, HelpCard(shortcut_pages if last else 0), THEMES["classic"])
    assert len(drawn) == (1 if last else 0)
    if last:
        assert drawn[0][1] == card


def test_the_about_page_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    surface = pygame.Surface((900, 700))
    card = pygame.Rect(50, 50, 800, 600)
    before = pygame.image.tobytes(surface, "RGB")
    about.draw_about(surface, card, THEMES["classic"])
    assert pygame.image.tobytes(surface, "RGB") != before


@pytest.mark.timeout(120)
def test_connect4_version_prints_the_version_and_the_commit() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--version"], capture_output=True, text=True, cwd=ROOT, timeout=100
    )
    assert done.returncode == 0, done.stderr
    first, kernels = done.stdout.splitlines()[:2]
    assert first == current().line()
    assert kernels.startswith("search kernels: ")
