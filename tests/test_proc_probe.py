"""The engine client's view of a process from /proc (issue 37 #3): a busy process uses CPU time, a SIGSTOPped
one is stopped. A real child process, bounded in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from ai.client.proc_probe import sample
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.timeout(30),
    pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc on this system"),
]


def test_a_spinning_process_uses_cpu_and_a_stopped_one_is_stopped() -> None:
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        first = sample(child.pid)
        assert first is not None and not first.stopped

        def used_cpu() -> bool:
            now = sample(child.pid)
            return now is not None and now.cpu_s > first.cpu_s

        wait_until(used_cpu, 20, "the child to use CPU")
        os.kill(child.pid, signal.SIGSTOP)

        def is_stopped() -> bool:
            seen = sample(child.pid)
            return seen is not None and seen.stopped

        wait_until(is_stopped, 5, "the child to show as stopped")
        stopped = sample(child.pid)
        assert stopped is not None and stopped.stopped and not stopped.runnable
    finally:
        child.kill()
        child.wait(5)
    assert sample(child.pid) is None  # gone: nothing known
