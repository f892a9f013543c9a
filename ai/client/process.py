"""The engine client's view of one engine process and its health rules (``ai.client.engine_client`` drives them).

What the client knows of a process (``EngineProcess``: when it spawned, spoke, was pinged, what it prepared),
how a silent process is judged (hung, or busy on a loaded machine: ``is_busy``), the start-up deadline and the
restart back-off of a ``RestartPolicy``, and the decoding of one output line. No process is spawned here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.client.proc_probe import ProcessSample
from ai.client.status import EngineStatus, RestartPolicy
from ai.client.transport import Transport
from ai.vocab import wire
from ai.vocab.commands import Go, Solve
from ai.vocab.limits import MAX_THREADS
from ai.vocab.results import ErrorReply, Info, KernelsBuild, PonderEnd, Preparing, Ready, Reply, Solution

BUSY_CPU_S = 0.02  # CPU seconds used since the heartbeat that show a silent engine at work


@dataclass
class ActiveSearch:
    """The search the engine is running for the client (sent again, same id, after a restart)."""

    command: Go | Solve
    game: str
    sent_at: float = 0.0


@dataclass
class EngineProcess:
    transport: Transport
    spawned_at: float
    first_line_at: float | None = None
    ready: Ready | None = None
    last_heard: float = 0.0
    ping_sent_at: float | None = None
    ping_cpu_s: float | None = None  # the engine's CPU time when the heartbeat was sent
    prepared: set[str] = field(default_factory=set)
    progress: dict[str, Preparing] = field(default_factory=dict)
    kernels: KernelsBuild | None = None  # the latest word on the background build of the compiled kernels

    def silent(self, policy: RestartPolicy, now: float) -> bool:
        return now - self.last_heard >= policy.ping_after_s

    @property
    def preparing(self) -> bool:
        return self.ready is None or any(not p.finished for p in self.progress.values())

    def is_busy(self, sample: ProcessSample | None) -> bool:
        """Whether the silent engine is working (it used CPU since the heartbeat, or waits for a CPU) rather than
        stopped or stuck. Without facts from the system (``sample`` None): busy while it prepares, else not."""
        if sample is None or self.ping_cpu_s is None:
            return self.preparing
        if sample.stopped:
            return False
        return sample.runnable or sample.cpu_s - self.ping_cpu_s >= BUSY_CPU_S

    def busy_limit(self, policy: RestartPolicy) -> float:
        """How long a busy engine may stay silent."""
        return policy.busy_preparing_s if self.preparing else policy.busy_ready_s


def startup_deadline(policy: RestartPolicy, samples: Sequence[float], timeouts: int) -> float:
    """Seconds a new process may take to say its first line: from the start-ups measured in this session
    (``samples``), doubling with each start-up that missed it in a row (``timeouts``), capped."""
    limit = max(policy.min_startup_s, policy.startup_factor * max(samples)) if samples else policy.first_startup_s
    return min(limit * 2.0**timeouts, 4 * policy.first_startup_s)


def backoff(policy: RestartPolicy, streak: int) -> float:
    """The wait before the next restart after ``streak`` failures in a row (the first restart at once)."""
    if streak <= 1:
        return 0.0
    return min(policy.max_backoff_s, policy.first_backoff_s * 2.0 ** (streak - 2))


def checked_threads(threads: int) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    return threads


def decode_line(raw: bytes) -> Reply:
    """One engine output line as a reply; anything else becomes an ``ErrorReply`` saying so."""
    try:
        return wire.decode(json.loads(raw.decode("utf-8", errors="replace")))
    except (ValueError, RecursionError) as exc:
        return ErrorReply(f"engine wrote a non-protocol line ({str(exc)[:80]}): {raw[:80]!r}")


def status_of(
    proc: EngineProcess | None, game: str, unavailable: bool, problem: str, retry: float | None, threads: int | None
) -> EngineStatus:
    """What a client with this process (None: none running) shows for ``game``: unavailable, restarting,
    starting, preparing (with the game's progress) or ready."""
    if unavailable:
        return EngineStatus("unavailable", f"the bot is not available: {problem}", threads=threads, retry_in_s=retry)
    if proc is None:
        return EngineStatus("restarting", f"restarting the engine ({problem})", threads=threads, retry_in_s=retry)
    if proc.ready is None:
        return EngineStatus("starting", "starting the engine", threads=threads)
    if game not in proc.prepared:
        progress = proc.progress.get(game)
        first = progress is not None and progress.compiling
        words = "preparing the engine, first launch only" if first else "preparing the engine"
        return EngineStatus("preparing", words, progress, threads, kernels=proc.kernels)
    return EngineStatus("ready", "ready", threads=threads, kernels=proc.kernels)


def reply_id(reply: Reply) -> object:
    """The search id a reply carries (None for the replies that carry none)."""
    return reply.id if isinstance(reply, Info | Solution | ErrorReply | PonderEnd) else None
