"""``--frame-bench``: bad values are one-line errors with exit status 2, and SIGTERM ends a running
benchmark promptly (SDL turns it into a quit event, which the benchmark loop now obeys)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ai.client.proc_probe import children
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("value", ["-1", "nan", "1e12", "inf", "0"])
def test_bad_frame_bench_values_are_one_line_errors(value: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), f"--frame-bench={value}"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=50,
    )
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "--frame-bench" in done.stderr


@pytest.mark.timeout(90)
def test_sigterm_ends_a_running_frame_benchmark(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--frame-bench", "600"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(ENV, HOME=str(tmp_path)),
    )
    try:
        # the window is up once it has started its engine: inside the benchmark (or still waiting for the
        # engine), both loops must obey
        wait_until(lambda: proc.poll() is not None or children(proc.pid), 60, "the app to start its engine")
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
            pytest.fail("the frame benchmark ignored SIGTERM for 30 s")
