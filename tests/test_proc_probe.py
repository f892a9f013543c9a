"""The engine client's view of a process from /proc (issue 37 #3): a busy process uses CPU time, a SIGSTOPped
one is stopped. A real child process, bounded in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from ai.proc_probe import sample

pytestmark = [
    pytest.mark.timeout(30),
    pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc on this system"),
]


def test_a_spinning_process_uses_cpu_and_a_stopped_one_is_stopped() -> None:
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        first = sample(child.pid)
        assert first is not None and not first.stopped
        deadline = time.monotonic() + 20
        while (now := sample(child.pid)) is not None and now.cpu_s <= first.cpu_s and time.monotonic() < deadline:
            time.sleep(0.02)  # polling the child's CPU time, not waiting for it
        assert now is not None and now.cpu_s > first.cpu_s
        os.kill(child.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while (stopped := sample(child.pid)) is not None and not stopped.stopped and time.monotonic() < deadline:
            time.sleep(0.01)
        assert stopped is not None and stopped.stopped and not stopped.runnable
    finally:
        child.kill()
        child.wait(5)
    assert sample(child.pid) is None  # gone: nothing known
