"""The real app, killed with SIGKILL mid-game, restores the game with every move on the next launch.

Headless: SDL dummy drivers and a private config directory (``CONNECT4_CONFIG_DIR``). The app
plays bot-vs-bot from a distinctive opening; the test watches the autosave (written atomically
after every move), kills the app, relaunches it without ``--position`` and checks that the
relaunched app continues the very same game (its autosave extends the killed game's moves).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from ai.client.proc_probe import children
from game.play.savefile import SaveFileError, parse_game_text
from tests.waiting import WaitTimeout, wait_until

ROOT = Path(__file__).resolve().parents[1]
OPENING = "1122"  # a bot would never start like this: a new game could not pass for the restored one
AUTOSAVE = "autosave.json"
T = TypeVar("T")

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"), pytest.mark.timeout(400)]


def _env(config: Path) -> dict[str, str]:
    return dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        CONNECT4_CONFIG_DIR=str(config),
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )


def _launch(config: Path, log: Path, *extra: str) -> subprocess.Popen[bytes]:
    args = [sys.executable, str(ROOT / "main.py"), "--mode", "bot-vs-bot", "--bot-time", "30", "--mute", *extra]
    with open(log, "ab") as out:
        return subprocess.Popen(
            args, cwd=ROOT, env=_env(config), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT
        )


def _saved_moves(config: Path) -> str | None:
    """The autosaved game's moves, or None before the first autosave. Never a half-written file."""
    path = config / AUTOSAVE
    if not path.exists():
        return None
    try:
        spec, moves, _cursor = parse_game_text(path.read_text(encoding="utf-8"))
    except SaveFileError as exc:  # pragma: no cover - would mean the write was not atomic
        raise AssertionError(f"autosave unreadable mid-game: {exc}") from None
    assert spec.name == "connect4"
    return spec.moves_to_text(moves)


def _wait_for(proc: subprocess.Popen[bytes], log: Path, predicate: Callable[[], T | None], timeout: float = 120.0) -> T:
    def found() -> tuple[T] | None:
        if proc.poll() is not None:
            raise AssertionError(f"the app exited with {proc.returncode}: {log.read_text(errors='replace')[-2000:]}")
        value = predicate()
        return None if value is None else (value,)

    try:
        return wait_until(found, timeout, "the app")[0]
    except WaitTimeout:
        raise AssertionError(f"timed out; app log: {log.read_text(errors='replace')[-2000:]}") from None


def _gone(pid: int, timeout: float) -> bool:
    def exited() -> bool:
        try:
            os.kill(pid, 0)
            status = Path(f"/proc/{pid}/stat").read_text().split()[2] if sys.platform == "linux" else ""
            return status == "Z"  # a zombie: it has exited, only not reaped by its (dead) parent yet
        except (ProcessLookupError, FileNotFoundError):
            return True

    try:
        return wait_until(exited, timeout, f"process {pid} to exit")
    except WaitTimeout:
        return False


def _kill(proc: subprocess.Popen[bytes]) -> list[int]:
    kids = children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    return kids


def test_sigkilled_app_restores_every_move(tmp_path: Path) -> None:
    config = tmp_path / "config"
    log = tmp_path / "app.log"

    first = _launch(config, log, "--position", OPENING)
    try:

        def enough_moves() -> str | None:
            moves = _saved_moves(config)
            return moves if moves is not None and len(moves) >= len(OPENING) + 4 else None

        _wait_for(first, log, enough_moves)
    finally:
        engines = _kill(first)
    before = _saved_moves(config)  # every move the app had made when it died
    assert before is not None and before.startswith(OPENING) and len(before) >= len(OPENING) + 4
    for engine_pid in engines:  # the orphaned engine notices the closed pipe and exits
        assert _gone(engine_pid, timeout=15), f"engine process {engine_pid} outlived the killed app"

    second = _launch(config, log)  # no --position, no --new: the autosave decides
    try:
        after = _wait_for(second, log, lambda: m if (m := _saved_moves(config)) not in (None, before) else None)
    finally:
        _kill(second)
    assert after.startswith(before), f"killed at {before!r}, relaunched as {after!r}"
    assert len(after) > len(before)
    leftovers = [p.name for p in config.iterdir() if p.name.startswith(AUTOSAVE + ".")]
    assert len(leftovers) <= 2, f"temporary autosave files pile up: {leftovers}"  # at most one per SIGKILL


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSTOP], ids=["killed", "hung"])
def test_engine_killed_or_hung_under_the_running_app_play_goes_on(tmp_path: Path, sig: signal.Signals) -> None:
    config = tmp_path / "config"
    log = tmp_path / "app.log"
    app = _launch(config, log, "--position", OPENING)
    old_engine: int | None = None
    try:

        def engine_pid() -> int | None:
            kids = children(app.pid)
            return kids[0] if kids else None

        _wait_for(app, log, lambda: m if (m := _saved_moves(config)) and len(m) >= len(OPENING) + 2 else None)
        old_engine = _wait_for(app, log, engine_pid)
        os.kill(old_engine, sig)
        struck_at = _saved_moves(config)
        assert struck_at is not None
        new_engine = _wait_for(app, log, lambda: p if (p := engine_pid()) not in (None, old_engine) else None)
        assert new_engine != old_engine  # the app restarted its engine
        after = _wait_for(app, log, lambda: m if (m := _saved_moves(config)) and len(m) >= len(struck_at) + 3 else None)
        assert after.startswith(struck_at)  # the same game goes on; no move was lost or replayed
        assert app.poll() is None
    finally:
        _kill(app)
        if sig == signal.SIGSTOP and old_engine is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(old_engine, signal.SIGKILL)
