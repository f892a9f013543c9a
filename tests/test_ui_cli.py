"""The app's command line: one-line errors with status 2, headless screenshots, the real engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.play.players import BotSetting, Mode
from game.play.session import Session
from game.play.settings import Settings
from game.ui.app_run import create_app, shutdown
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[1]


def run_main(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--position", "4489"),
        ("--position", "4444444"),
        ("--game", "chess"),
        ("--game", "connect4:3x3"),
        ("--size", "10x10"),
        ("--load", "/nonexistent/game.json"),
    ],
)
def test_bad_values_exit_2_with_one_line(args: Any) -> None:
    result = run_main(*args, "--screenshot", "unused.png")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("connect4: error:"), result.stderr
    assert not (ROOT / "unused.png").exists()


def test_screenshot_of_a_position_with_the_heatmap(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    result = run_main("--position", "4453", "--heatmap", "--screenshot", str(out), "--screenshot-wait", "1500")
    assert result.returncode == 0, result.stderr
    image = pygame.image.load(str(out))
    assert image.get_width() >= 720 and image.get_height() >= 520


@pytest.mark.slow
def test_a_bot_game_with_the_real_engine_finishes_and_shows_the_heatmap() -> Any:
    settings = Settings(
        mode=Mode.BOT_VS_BOT,
        heatmap=True,
        sound=False,
        window=(1000, 700),
        bots=[BotSetting("custom", 30), BotSetting("custom", 30)],
    )
    app = create_app(settings, Session.from_text("connect4", "4453"), persist=False)
    app.turns.min_bot_delay = 0.0
    app.motion.gravity *= 20
    heat_seen = 0
    try:

        def finished() -> bool:
            nonlocal heat_seen
            assert app.turns.driver.unavailable is None, app.turns.driver.unavailable
            app.step()
            heat_seen += app.turns.heat is not None and app.turns.heat_moves == app.session.moves_text
            return app.session.final_position.outcome.is_over and app.animation is None

        wait_until(finished, 150, "the bot game to finish")
        assert app.session.line[:4] == [3, 3, 4, 2]
        assert len(app.session.line) > 8
        assert heat_seen > 0
        assert app.session.evals  # the engine's values went into the eval graph
    finally:
        shutdown(app)
