"""How fast the app's engine client notices a dead or hung engine and recovers.

    python -m ai.benchmarks.recovery [--rounds 5]

A real ``EngineClient`` and engine process, polled every 16 ms like the app's frames. Each round
strikes the engine with SIGKILL or SIGSTOP, while idle or in the middle of a search, and
measures from the strike: *noticed* (the client's restart decision) and *recovered* (the new
engine's first line). Prints the median and worst of each, per kind of fault. POSIX only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable

from ai.client.engine_client import EngineClient, Limit
from ai.vocab.results import BestMove, Info, Reply

FRAME_S = 0.016


def _poll_until(client: EngineClient, done: Callable[[list[Reply]], bool], timeout: float) -> list[Reply]:
    seen: list[Reply] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        seen.extend(client.poll_replies())
        if done(seen):
            return seen
        time.sleep(FRAME_S)  # sleep-ok: the app's frame loop polls once a frame, as measured
    raise RuntimeError(f"timed out; saw {[type(m).__name__ for m in seen][-10:]}; {client.status}")


def strike(client: EngineClient, sig: signal.Signals, searching: bool) -> tuple[float, float]:
    _poll_until(client, lambda seen: client.status.state == "ready", 120)
    if searching:
        client.set_position("connect4", "4453")
        client.go(Limit(time_ms=3000), info_ms=100)
        _poll_until(client, lambda seen: any(type(m) is Info for m in seen), 60)
    else:  # the player is thinking: only the heartbeat runs
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            client.poll_replies()
            time.sleep(FRAME_S)  # sleep-ok: the app's frame loop while the player thinks
    pid = client.pid
    assert pid is not None
    records = len(client.restart_log)
    struck = time.monotonic()
    os.kill(pid, sig)
    _poll_until(
        client, lambda seen: len(client.restart_log) > records and client.restart_log[-1].first_line_at is not None, 60
    )
    if sig == signal.SIGSTOP:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    record = client.restart_log[-1]
    assert record.first_line_at is not None
    if searching:
        _poll_until(client, lambda seen: any(isinstance(m, BestMove) for m in seen), 120)
    return record.noticed_at - struck, record.first_line_at - struck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.recovery", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="strikes per kind of fault")
    args = parser.parse_args(argv)
    if not hasattr(signal, "SIGSTOP"):
        print("error: this benchmark needs POSIX signals", file=sys.stderr)
        return 2
    client = EngineClient()
    client.start()
    try:
        for sig in (signal.SIGKILL, signal.SIGSTOP):
            for searching in (False, True):
                noticed, recovered = [], []
                for _ in range(args.rounds):
                    n, r = strike(client, sig, searching)
                    noticed.append(n)
                    recovered.append(r)
                    settle = time.monotonic() + client.policy.stable_after_s + 0.5
                    while time.monotonic() < settle:  # a healthy engine again: not a failure streak
                        client.poll_replies()
                        time.sleep(FRAME_S)  # sleep-ok: the app's frame loop while it settles
                print(
                    f"{sig.name:<7} {'mid-search' if searching else 'idle':<10}: noticed median "
                    f"{statistics.median(noticed):.2f} s (worst {max(noticed):.2f}); new engine's first line median "
                    f"{statistics.median(recovered):.2f} s (worst {max(recovered):.2f}) after the fault "
                    f"[{args.rounds} rounds]",
                    flush=True,
                )
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
