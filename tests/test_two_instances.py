"""Issue 17, item 8: two instances in one config folder keep both games; none is lost.

Unit tests of the slot lock with real second processes, then two real apps (headless, bot-vs-bot)
sharing one config folder, killed and relaunched.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from test_crash_restore import _kill, _launch, _wait_for

from game.play import settings as settings_mod
from game.play.autosave import unfinished_since
from game.play.instance_lock import autosave_name, claim, lock_name
from game.play.savefile import SaveFileError, parse_game_text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes and signals")
ROOT = Path(__file__).resolve().parents[1]
HOLDER = r"""
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from game.play.autosave import unfinished_since
from game.play.instance_lock import claim
slot = claim(Path(sys.argv[2]), unfinished_since)
print(slot.number, flush=True)
sys.stdin.read()  # hold the slot until the test closes stdin (or kills us)
"""


def _holder(directory: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(ROOT), str(directory)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def _game(moves: str) -> str:
    return json.dumps({"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": moves})


@pytest.mark.timeout(60)
def test_a_second_process_gets_its_own_slot_and_sees_the_first(tmp_path: Path) -> None:
    first, number = _holder(tmp_path)
    try:
        assert number == 1
        slot = claim(tmp_path, unfinished_since)
        try:
            assert slot.number == 2 and slot.autosave_path.name == "autosave-2.json"
            assert slot.others == (first.pid,)
        finally:
            slot.release()
    finally:
        first.kill()
        first.wait(10)


@pytest.mark.timeout(60)
def test_stale_locks_are_taken_over(tmp_path: Path) -> None:
    (tmp_path / lock_name(1)).write_text("999999999\n")  # a lock file left by a crashed app
    slot = claim(tmp_path, unfinished_since)
    assert slot.number == 1 and slot.others == ()
    assert (tmp_path / lock_name(1)).read_text().strip() == str(os.getpid())
    slot.release()
    holder, number = _holder(tmp_path)
    assert number == 1
    holder.send_signal(signal.SIGKILL)  # killed while holding the lock: the system releases it
    holder.wait(10)
    slot = claim(tmp_path, unfinished_since)
    assert slot.number == 1
    slot.release()


@pytest.mark.timeout(60)
def test_a_later_launch_restores_the_newest_game_and_keeps_the_other(tmp_path: Path) -> None:
    (tmp_path / autosave_name(1)).write_text(_game("1122"))
    os.utime(tmp_path / autosave_name(1), (time.time() - 60, time.time() - 60))
    (tmp_path / autosave_name(2)).write_text(_game("7766"))
    saved, notice = settings_mod.load_autosave(tmp_path)
    try:
        assert saved is not None and saved[0].moves_to_text(saved[1]) == "7766"
        assert notice is not None and "autosave.json" in notice and "\n" not in notice
        other, number = _holder(tmp_path)  # a second window at the same time gets the other game
        try:
            assert number == 1
        finally:
            other.kill()
            other.wait(10)
        assert (tmp_path / autosave_name(1)).read_text() == _game("1122")
    finally:
        assert settings_mod._slot is not None
        settings_mod._slot.release()
        settings_mod._slot = None


def _holds_slot(config: Path, number: int, pid: int) -> Callable[[], bool | None]:
    def holds() -> bool | None:
        try:
            return (config / lock_name(number)).read_text().strip() == str(pid) or None
        except OSError:
            return None

    return holds


def _moves(path: Path) -> str | None:
    try:
        spec, moves, _cursor = parse_game_text(path.read_text(encoding="utf-8"))
    except (OSError, SaveFileError):
        return None
    return spec.moves_to_text(moves)


@pytest.mark.timeout(400)
def test_two_real_apps_in_one_home_keep_both_games(tmp_path: Path) -> None:
    config, log = tmp_path / "config", tmp_path / "apps.log"
    first_file, second_file = config / autosave_name(1), config / autosave_name(2)

    def grown(path: Path, prefix: str, more: int) -> Callable[[], str | None]:
        return lambda: m if (m := _moves(path)) and m.startswith(prefix) and len(m) >= len(prefix) + more else None

    a = _launch(config, log, "--position", "1122")
    b = None
    try:
        _wait_for(a, log, grown(first_file, "1122", 2))
        b = _launch(config, log, "--position", "7766")
        _wait_for(b, log, grown(second_file, "7766", 2))
    finally:
        _kill(a)
        if b is not None:
            _kill(b)
    game_a, game_b = _moves(first_file), _moves(second_file)
    assert game_a is not None and game_a.startswith("1122"), game_a
    assert game_b is not None and game_b.startswith("7766"), game_b

    # Both relaunched: each window continues one of the two games; neither is lost or replaced.
    c = _launch(config, log)
    d = None
    try:
        _wait_for(c, log, _holds_slot(config, 1, c.pid))  # the first takes slot 1 before the second starts
        d = _launch(config, log)
        _wait_for(c, log, grown(first_file, game_a, 1))
        _wait_for(d, log, grown(second_file, game_b, 1))
    finally:
        _kill(c)
        if d is not None:
            _kill(d)


@pytest.mark.timeout(60)
def test_without_file_locks_the_pid_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from game.play import instance_lock

    def no_locks(_fd: int) -> bool:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(instance_lock, "_lock_nb", no_locks)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # sleep-ok: a live process
    try:
        (tmp_path / lock_name(1)).write_text(f"{sleeper.pid}\n")  # a live process holds slot 1
        (tmp_path / lock_name(2)).write_text("999999999\n")  # a dead one held slot 2: stale
        slot = claim(tmp_path, unfinished_since)
        assert slot.number == 2 and (tmp_path / lock_name(2)).read_text().strip() == str(os.getpid())
        slot.release()
    finally:
        sleeper.kill()
        sleeper.wait(10)
