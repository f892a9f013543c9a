"""Issue 17, item 3 (app side): an unusable cache folder turns the graphics drivers' disk caches off
(documented switches) before the window opens, with one line; a usable one changes nothing."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from game.ui import display_env
from game.ui.display_env import DISABLE_SWITCHES, disable_unusable_caches

pytestmark = pytest.mark.timeout(30)


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), **extra}


def test_a_usable_cache_folder_changes_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert disable_unusable_caches(env) is None
    assert env == _env(tmp_path)
    assert list(tmp_path.iterdir()) == []  # the probe left nothing behind


def test_a_full_disk_turns_the_caches_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "statvfs", lambda _path: SimpleNamespace(f_bavail=3, f_frsize=4096))
    env = _env(tmp_path)
    note = disable_unusable_caches(env)
    assert note is not None and "\n" not in note and "full (12 kB free)" in note
    assert all(env[name] == value for name, value in DISABLE_SWITCHES.items())


def test_a_failing_write_turns_the_caches_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_space(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_space)
    env = _env(tmp_path, MESA_SHADER_CACHE_DISABLE="false")  # the user's own choice is kept
    note = disable_unusable_caches(env)
    assert note is not None and "no space left on device" in note
    assert env["MESA_SHADER_CACHE_DISABLE"] == "false" and env["__GL_SHADER_DISK_CACHE"] == "0"


def test_a_cache_path_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "cachefile").write_text("")
    env = _env(tmp_path, XDG_CACHE_HOME=str(tmp_path / "cachefile"))
    note = disable_unusable_caches(env)
    assert note is not None and "not a folder" in note and env["MESA_SHADER_CACHE_DISABLE"] == "true"


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="POSIX")
def test_the_real_full_file_system_if_one_can_be_mounted(tmp_path: Path) -> None:
    """With root and tmpfs: a 256 kB file system filled to the brim (skipped where mounting is not allowed)."""
    import subprocess

    mount = tmp_path / "full"
    mount.mkdir()
    if (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here")
    try:
        with open(mount / "filler", "wb") as fh:
            try:
                fh.write(b"\0" * (1 << 20))
            except OSError:
                pass
        env = _env(mount)
        note = display_env.disable_unusable_caches(env)
        assert note is not None and "full" in note and env["MESA_SHADER_CACHE_DISABLE"] == "true"
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)
