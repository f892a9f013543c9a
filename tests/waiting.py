"""Waiting on a condition, the one place the suite polls (``tests/test_no_sleeps.py`` checks that no other
test sleeps to synchronise): a test waits for what it needs to have happened, never for a fixed time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL_S = 0.005


class WaitTimeout(AssertionError):
    """The condition did not come in time."""


def wait_until(predicate: Callable[[], T | None], timeout_s: float, what: str = "the condition") -> T:
    """Return the first truthy value of ``predicate()``; AssertionError after ``timeout_s`` without one."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(POLL_S)


async def wait_until_async(predicate: Callable[[], T | None], timeout_s: float, what: str = "the condition") -> T:
    """``wait_until`` inside an event loop: the loop runs (other tasks go on) between the checks."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout_s:g} s waiting for {what}")
        await asyncio.sleep(POLL_S)
