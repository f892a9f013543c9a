"""No test sleeps to synchronise: a test waits for what it needs (``tests/waiting.wait_until``, an event, a
line from a process), never for a fixed time. A sleep that *is* the behaviour under test (a slow client, a
hung child process) says so on its line with ``# sleep-ok: <why>``."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SLEEP = re.compile(r"\bsleep\(")
ALLOWED_FILE = "waiting.py"  # the one poll of the suite


def test_no_test_sleeps_to_synchronise() -> None:
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(TESTS.glob("*.py"))
        if path.name not in (ALLOWED_FILE, Path(__file__).name)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SLEEP.search(line) and "# sleep-ok:" not in line
    ]
    assert not offenders, "tests that sleep (wait on a condition instead):\n" + "\n".join(offenders)
