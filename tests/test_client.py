"""The app's engine client against the real engine process: normal use, kills and hangs.
Protocol behaviour (heartbeat, deadlines, back-off) is tested fast against a scripted engine in
test_client_protocol.py; these keep the real process for what only it can show."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from ai.client.engine_client import EngineClient, Limit
from ai.vocab import wire
from tests.positions import OFF_BOOK_SEARCH
from tests.waiting import WaitTimeout, wait_until

pytestmark = pytest.mark.timeout(180)


def wait_for(
    client: EngineClient, predicate: Callable[[dict[str, Any]], bool], timeout: float = 120.0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []

    def found() -> dict[str, Any] | None:
        for message in poll(client):
            seen.append(message)
            if predicate(message):
                return message
        return None

    try:
        return wait_until(found, timeout, "the engine's message"), seen
    except WaitTimeout:
        raise AssertionError(f"timed out; saw {[m.get('type') for m in seen]}") from None


def poll(client: EngineClient) -> list[dict[str, Any]]:
    """The client's typed replies as they went over the wire (the checks below read the protocol's fields)."""
    return [wire.encode(reply) for reply in client.poll_replies()]


@pytest.fixture()
def client():  # type: ignore[no-untyped-def]
    c = EngineClient(threads=1)
    c.start()
    wait_for(c, lambda m: m["type"] == "ready")
    yield c
    c.close()


def test_search_reports_info_and_bestmove(client: EngineClient) -> None:
    client.set_position("connect4", "44")
    search = client.go(Limit(time_ms=300), info_ms=50)
    best, seen = wait_for(client, lambda m: m["type"] == "bestmove")
    assert best["id"] == search.id
    assert any(m["type"] == "info" and m["id"] == search.id for m in seen)
    assert client.status.state == "ready"


def test_a_go_at_a_level_is_answered_by_the_levels_rule(client: EngineClient) -> None:
    client.set_position("connect4", "")
    search = client.go(Limit(time_ms=20_000), level="medium")  # the level decides the exactness: no "exact" sent
    best, _ = wait_for(client, lambda m: m["type"] in ("bestmove", "error"))
    assert (best["type"], best["id"], best["level"], best["choice"], best["move"]) == (
        "bestmove",
        search.id,
        "medium",
        "book",
        "4",
    )


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSTOP])
def test_engine_killed_or_hung_mid_search_is_restarted_and_search_resumed(client: EngineClient, sig) -> None:  # type: ignore[no-untyped-def]
    client.set_position("connect4", OFF_BOOK_SEARCH)  # seconds for the solver: a real search
    search = client.go(Limit(time_ms=1500), info_ms=100)
    wait_for(client, lambda m: m["type"] == "info")
    old_pid = client.pid
    assert old_pid is not None
    os.kill(old_pid, sig)
    struck = time.monotonic()
    restarted, _ = wait_for(client, lambda m: m["type"] == "engine_restarted", timeout=10)
    noticed = client.restart_log[-1].noticed_at - struck
    print(f"noticed after {noticed:.2f} s: {restarted['message']}")  # figure; the 1 s bound is in the fake tests
    assert client.pid != old_pid
    assert "restarted" in restarted["message"] and "\n" not in restarted["message"]
    if sig == signal.SIGKILL:
        assert "stopped (exit code -9)" in restarted["message"]  # noticed by the closed pipe, not a timer
    else:
        assert "stopped answering" in restarted["message"]
    best, _ = wait_for(client, lambda m: m["type"] == "bestmove")
    assert best["id"] == search.id
    assert best["move"] in list("1234567")


def test_engine_hung_while_idle_is_restarted(client: EngineClient) -> None:
    old_pid = client.pid
    assert old_pid is not None
    os.kill(old_pid, signal.SIGSTOP)  # the player is thinking: no search runs
    try:
        restarted, _ = wait_for(client, lambda m: m["type"] == "engine_restarted", timeout=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(old_pid, signal.SIGKILL)
    assert "stopped answering" in restarted["message"] and client.pid != old_pid
    wait_for(client, lambda m: m["type"] == "ready", timeout=60)


def test_an_engine_that_cannot_start_is_reported_and_retried() -> None:
    client = EngineClient(command=[sys.executable, "-c", "import sys; sys.exit(3)"])
    client.start()
    try:
        failed, seen = wait_for(client, lambda m: m["type"] == "engine_failed", timeout=20)
        assert "exit code 3" in failed["message"] and "not available" in failed["message"]
        assert sum(m["type"] == "engine_restarted" for m in seen) == 3
        status = client.status
        assert status.state == "unavailable" and status.retry_in_s is not None
        attempts = len(client.restart_log)

        def retried() -> bool:
            client.poll_replies()
            return len(client.restart_log) > attempts

        wait_until(retried, 20, "the background retry")  # it keeps trying in the background
    finally:
        client.close()


def test_error_for_the_running_search_ends_it_without_a_restart(client: EngineClient) -> None:
    client.set_position("connect4", "1212121")  # game over: the engine answers go with an error
    search = client.go(Limit(time_ms=300), info_ms=50)
    error, _ = wait_for(client, lambda m: m["type"] == "error", timeout=10)
    assert error.get("id") == search.id
    pid = client.pid
    beats = client.heartbeats_answered
    seen: list[dict[str, Any]] = []

    def heartbeats_went_round() -> bool:  # well beyond the hang limit: the heartbeat keeps it alive
        seen.extend(poll(client))
        return client.heartbeats_answered >= beats + 3

    wait_until(heartbeats_went_round, 30, "three heartbeats answered")
    assert [m for m in seen if m["type"].startswith("engine_")] == []
    assert client.pid == pid
    client.set_position("connect4", "44")
    then = client.go(Limit(iterations=500))
    best, _ = wait_for(client, lambda m: m["type"] == "bestmove")
    assert best["id"] == then.id


def test_an_engine_that_dies_at_start_is_reported_in_one_line_with_its_last_words() -> None:
    command = [sys.executable, "-c", "raise OSError(28, 'No space left on device')"]
    client = EngineClient(command=command)
    client.start()
    try:
        restarted, _ = wait_for(client, lambda m: m["type"] == "engine_restarted", timeout=20)
    finally:
        client.close()
    message = restarted["message"]
    assert "\n" not in message and "exit code 1" in message
    assert "last words: OSError: [Errno 28] No space left on device" in message


def test_the_real_engine_reports_preparing_and_the_client_ends_ready(client: EngineClient) -> None:
    client.set_position("mnk:5x4:3", "")  # a game outside the background list: prepared on demand
    assert client.status.state == "preparing"  # nothing said about it yet
    search = client.go(Limit(iterations=300))
    best, seen = wait_for(client, lambda m: m["type"] == "bestmove")
    assert best["id"] == search.id
    steps = [m for m in seen if m["type"] == "preparing" and m["game"] == "mnk:5x4:3"]
    assert steps and steps[-1]["done"] == steps[-1]["total"]
    status = client.status  # a new name: mypy would keep client.status.state narrowed by the check above
    assert status.state == "ready" and client.threads == 1
