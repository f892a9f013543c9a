"""The app's side of the engine process: spawn, talk JSON lines, notice death or hangs, recover.

Nothing here blocks the caller: ``poll_replies()`` (typed, see ``ai.vocab.results``) is called once per frame
and hands over what arrived; commands take typed limits (``ai.client.api.Limit``). ``go``, ``solve`` and
``ponder`` return an ``EngineCommand`` (``ai.client.commands``) that collects the replies of that request, so no
caller matches ids. The process's health rules are in ``ai.client.process``. The client
* sends ``isready`` whenever the engine has been silent for ``ping_after_s`` and counts the engine
  as hung when that heartbeat is not answered within ``hang_after_s`` (under 1 s in all), at any
  time: idle, searching or preparing; before its first line a start-up deadline applies, based on
  the start-up times measured in this session;
* on a death or a hang restarts the engine (the first time at once, then backing off), sends the
  options and the position again and resumes the running search under the same id
  (``EngineRestarted``);
* after ``quick_restarts`` failures in a row reports ``EngineFailed`` (state "unavailable": no
  search runs; a ``go`` is answered by an ``error`` with its id) and keeps trying in the
  background; ``EngineAvailable`` when an engine starts again.
An ``error`` carrying the running search's id ends that search (it will never answer).
The process, the clock and the policy can be replaced (tests drive a scripted fake).
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ai.client import proc_probe
from ai.client.api import EngineClientProtocol, Limit
from ai.client.commands import CommandKind, CommandRouter, EngineCommand
from ai.client.proc_probe import ProcessSample
from ai.client.process import (
    ActiveSearch,
    EngineProcess,
    backoff,
    checked_threads,
    decode_line,
    reply_id,
    startup_deadline,
    status_of,
)
from ai.client.status import EngineStatus, RestartPolicy, RestartRecord
from ai.client.transport import ProcessTransport, Transport, default_command
from ai.vocab.commands import (
    SOLVE_TIME_MS,
    Command,
    Go,
    IsReady,
    Ponder,
    Position,
    Prepare,
    SetOption,
    Solve,
    Stop,
    encode,
)
from ai.vocab.limits import MAX_THREADS, default_threads
from ai.vocab.results import (
    BestMove,
    EngineAvailable,
    EngineFailed,
    EngineRestarted,
    ErrorReply,
    KernelsBuild,
    Preparing,
    Ready,
    ReadyOk,
    Reply,
    Solution,
)

WAIT_SLICE_S = 0.05  # the longest wait_for_reply blocks before it polls again (heartbeats, restarts)
EXIT_WAIT_S = 0.1  # after the engine's output ended, how long its exit status may take to follow

__all__ = [
    "MAX_THREADS",
    "EngineClient",
    "EngineCommand",
    "Limit",
    "EngineStatus",
    "RestartPolicy",
    "RestartRecord",
    "decode_line",
    "default_command",
    "default_threads",
]


class EngineClient:
    """One engine process, restarted on failure. Call ``poll_replies()`` each frame. Satisfies
    ``ai.client.api.EngineClientProtocol`` (checked by mypy below)."""

    def __init__(
        self,
        command: list[str] | None = None,
        *,
        threads: int | None = None,
        spawn: Callable[[], Transport] | None = None,
        clock: Callable[[], float] = time.monotonic,
        policy: RestartPolicy | None = None,
        expected_startup_s: float | None = None,
        probe: Callable[[int], ProcessSample | None] = proc_probe.sample,
    ) -> None:
        self.command = command or default_command()
        self._spawn_transport = spawn or (lambda: ProcessTransport(self.command))
        self._clock = clock
        self._probe = probe  # the engine process's CPU time and state (a hang is not a busy machine)
        self.policy = policy or RestartPolicy()
        self._threads = None if threads is None else checked_threads(threads)
        self._proc: EngineProcess | None = None
        self._outbox: list[Reply] = []
        self._position: tuple[str, str] | None = None
        self._prepare_game: str | None = None
        self._active: ActiveSearch | None = None
        self._commands = CommandRouter(pump=self.wait_for_reply)  # go / solve / ponder still waiting for an answer
        self._restart_timer = threading.Event()  # a wait with no engine running blocks on it (close() sets it)
        self._ponder: Ponder | None = None  # the ponder command in force (sent again after a restart)
        self._next_id = 0
        self.heartbeats_answered = 0  # isready heartbeats the engine answered (any process of this client)
        self._streak = 0  # failures in a row
        self._startup_timeouts = 0  # of them, start-ups that missed the deadline
        self._next_spawn_at: float | None = None
        self._pending_problem = ""
        self._unavailable = False
        self._closed = False
        self._startup_samples: collections.deque[float] = collections.deque(maxlen=5)
        if expected_startup_s is not None and expected_startup_s > 0:  # e.g. measured in an earlier session
            self._startup_samples.append(float(expected_startup_s))
        self.restart_log: list[RestartRecord] = []

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> None:
        if self._proc is None and not self._closed:
            self._spawn()

    def close(self) -> None:
        self._closed = True
        self._restart_timer.set()
        self._next_spawn_at = None
        self._commands.end_all("the engine is closed")
        if self._proc is not None:
            with contextlib.suppress(OSError):
                self._proc.transport.close()
            self._proc = None

    @property
    def is_ready(self) -> bool:
        return self._proc is not None and self._proc.ready is not None and not self._unavailable

    @property
    def failed(self) -> bool:
        """True while the engine is not available (it is still retried in the background)."""
        return self._unavailable

    @property
    def pid(self) -> int | None:
        return self._proc.transport.pid if self._proc is not None else None

    @property
    def threads(self) -> int | None:
        """The search threads in force: as set, else the engine's default once it said ready."""
        if self._threads is not None:
            return self._threads
        return self._proc.ready.threads if self._proc is not None and self._proc.ready is not None else None

    @property
    def status(self) -> EngineStatus:
        now = self._clock()
        retry = None if self._next_spawn_at is None else max(0.0, self._next_spawn_at - now)
        if self._closed:
            return EngineStatus("closed", "the engine is closed")
        problem, unavailable = self._pending_problem, self._unavailable
        return status_of(self._proc, self._current_game(), unavailable, problem, retry, self.threads)

    @property
    def preparing(self) -> Preparing | None:
        """The current game's preparation progress while it is not finished, else None."""
        return self.status.preparing

    # -- commands ---------------------------------------------------------------------------
    def set_position(self, game: str, moves: str) -> None:
        self._position = (game, moves)
        self._ponder = None  # the engine ends it with a ponderend (a hit when ``moves`` adds its predicted reply)
        self._prepare_game = None  # the position's game comes first now
        self._send(Position(game, moves))

    def set_threads(self, threads: int) -> None:
        """Search threads from the next search on (kept across restarts); 1..MAX_THREADS, else ValueError."""
        self._threads = checked_threads(threads)
        self._ponder = None
        self._send(SetOption("threads", self._threads))

    def prepare(self, game: str) -> None:
        """Ask the engine to prepare ``game``'s compiled code next (e.g. when the player picks it);
        also the game shown as ``preparing`` until a position is set, and asked for again after a restart."""
        self._prepare_game = game
        self._send(Prepare(game))

    def go(self, limit: Limit, *, info_ms: int = 100, exact: bool = True, level: str | None = None) -> EngineCommand:
        """Start a search within ``limit``; a ``level`` (ai/search/levels.py) decides the exactness and how the move
        is chosen (then ``exact`` is not sent). The command collects its ``Info`` lines and its ``BestMove``."""
        exact_field = exact if level is None else None  # a level decides the exactness
        go = Go(self._new_id(), limit.time_ms, limit.iterations, info_ms, exact_field, level=level)
        return self._begin(go, "go")

    def solve(self, limit: Limit) -> EngineCommand:
        """Start the exact solver's look at the position for ``limit.time_ms`` (``SOLVE_TIME_MS`` when not given);
        the command ends with its ``Solution``."""
        return self._begin(Solve(self._new_id(), limit.time_ms or SOLVE_TIME_MS), "solve")

    def ponder(self, *, exact: bool = True) -> EngineCommand:
        """Think on the opponent's time about the current position (the opponent to move) until the next
        ``set_position``, ``go``, ``solve``, ``stop``, ``set_threads`` or ``ponder``; the engine then answers a
        ``PonderEnd`` (the command's result). Ends a running search. Nothing is sent while the engine is not
        available (the command ends at once with an ``ErrorReply``)."""
        command = self._commands.open(self._new_id(), "ponder")
        self._active = None
        if self._unavailable or self._closed:
            self._commands.route(ErrorReply(f"the engine is not available ({self._pending_problem})", command.id))
        else:
            self._ponder = Ponder(command.id, exact)
            self._send(self._ponder)
        return command

    @property
    def pondering(self) -> bool:
        """A ponder was asked for and no command has ended it yet."""
        return self._ponder is not None

    def stop(self) -> None:
        self._active = None
        self._ponder = None
        self._send(Stop())

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _current_game(self) -> str:
        if self._active is not None:
            return self._active.game
        if self._position is not None:
            return self._position[0]
        return self._prepare_game or "connect4"

    def _begin(self, command: Go | Solve, kind: CommandKind) -> EngineCommand:
        assert isinstance(command.id, int)
        handle = self._commands.open(command.id, kind)
        if self._unavailable or self._closed:  # (the command gets it with the next poll, like an engine's error)
            self._outbox.append(ErrorReply(f"the engine is not available ({self._pending_problem})", handle.id))
            return handle
        game = self._position[0] if self._position is not None else "connect4"
        self._ponder = None
        self._active = ActiveSearch(command, game, self._clock())
        self._send(command)
        return handle

    def _send(self, command: Command) -> None:
        if self._proc is None and self._next_spawn_at is None and not self._closed and not self._unavailable:
            self._spawn()
        if self._proc is not None:
            with contextlib.suppress(OSError):  # the engine is gone; poll() notices and restarts it
                self._proc.transport.send(encode(command))

    # -- polling ----------------------------------------------------------------------------
    def poll_replies(self) -> list[Reply]:
        """Everything since the last call (also handed to the commands they answer); restarts a dead or hung
        engine, sends heartbeats."""
        replies = self._poll()
        for reply in replies:
            self._commands.route(reply)
        return replies

    def wait_for_reply(self, timeout: float) -> list[Reply]:
        """``poll_replies()`` after blocking until the engine writes a line, at most ``timeout`` and ``WAIT_SLICE_S``
        seconds (heartbeats, restarts): for programs without a frame loop (``EngineCommand.wait``, the session)."""
        replies = self.poll_replies()
        if replies or timeout <= 0:
            return replies
        slice_s = min(timeout, WAIT_SLICE_S)
        proc = self._proc
        if proc is not None:
            proc.transport.wait_readable(slice_s)
        elif not self._closed:  # no engine until the restart's back-off ends: nothing to read meanwhile
            self._restart_timer.wait(slice_s)
        return self.poll_replies()

    def _poll(self) -> list[Reply]:
        now = self._clock()
        if self._next_spawn_at is not None and now >= self._next_spawn_at and not self._closed:
            self._next_spawn_at = None
            self._spawn()
        replies, self._outbox = self._outbox, []
        proc = self._proc
        if proc is None or self._closed:
            return replies
        ended = False
        for raw in proc.transport.receive():
            if raw is None:
                ended = True
                continue
            reply = self._take(proc, decode_line(raw), now)
            if reply is not None:
                replies.append(reply)
        replies.extend(self._outbox)  # an EngineAvailable from _take
        self._outbox = []
        problem = self._problem(proc, ended, now)
        if problem:
            self._fail(problem, now)
            replies.extend(self._outbox)
            self._outbox = []
        elif proc.first_line_at is not None and proc.ping_sent_at is None and proc.silent(self.policy, now):
            proc.ping_sent_at = now
            taken = self._sample(proc)
            proc.ping_cpu_s = taken.cpu_s if taken is not None else None
            self._send(IsReady())
        return replies

    def _take(self, proc: EngineProcess, reply: Reply, now: float) -> Reply | None:
        """Update the state from one engine reply; None for the client's own heartbeat answers."""
        proc.last_heard = now
        if proc.first_line_at is None:
            proc.first_line_at = now
            if self.restart_log and self.restart_log[-1].first_line_at is None:
                last = self.restart_log[-1]
                self.restart_log[-1] = RestartRecord(last.problem, last.noticed_at, last.spawned_at, now)
        if isinstance(reply, ReadyOk):
            proc.ping_sent_at = None
            self.heartbeats_answered += 1
            return None
        if isinstance(reply, Ready):
            proc.ready = reply
            proc.prepared.update(reply.prepared)
            self._startup_samples.append(now - proc.spawned_at)
            self._startup_timeouts = 0
            if self._unavailable:
                self._unavailable = False
                self._outbox.append(EngineAvailable("the engine is available again"))
        elif isinstance(reply, Preparing):
            proc.progress[reply.game] = reply
            if reply.finished:
                proc.prepared.add(reply.game)
        elif isinstance(reply, KernelsBuild):
            proc.kernels = reply
        active = self._active
        ended = isinstance(reply, BestMove | Solution | ErrorReply)
        if active is not None and ended and reply_id(reply) is not None and reply_id(reply) == active.command.id:
            self._active = None
            if not isinstance(reply, ErrorReply):
                self._streak = 0  # it answered a search: healthy
        return reply

    def _problem(self, proc: EngineProcess, ended: bool, now: float) -> str | None:
        code = proc.transport.exit_code()
        if ended or code is not None:
            if code is None:  # the pipe closed; the exit status follows in a moment
                code = proc.transport.wait_exit(EXIT_WAIT_S)
            return f"the engine process stopped (exit code {code})"
        if proc.first_line_at is None:
            limit = startup_deadline(self.policy, self._startup_samples, self._startup_timeouts)
            if now - proc.spawned_at > limit:
                self._startup_timeouts += 1
                return f"the engine did not start within {limit:.1f} s"
            return None
        if proc.ping_sent_at is not None and now - proc.ping_sent_at > self.policy.hang_after_s:
            waited = now - proc.ping_sent_at
            if proc.is_busy(self._sample(proc)) and waited <= proc.busy_limit(self.policy):
                return None  # compiling or starved of CPU: slow, not hung
            return f"the engine stopped answering for {now - proc.last_heard:.1f} s"
        if proc.ready is not None and self._streak and now - proc.spawned_at > self.policy.stable_after_s:
            self._streak = 0
        return None

    def _sample(self, proc: EngineProcess) -> ProcessSample | None:
        pid = proc.transport.pid
        if pid is None:
            return None
        try:
            return self._probe(pid)
        except (OSError, ValueError):  # no facts (a probe that cannot read the system): the plain deadline applies
            return None

    # -- failures ---------------------------------------------------------------------------
    def _fail(self, problem: str, now: float) -> None:
        proc = self._proc
        tail = ""
        if proc is not None:
            words = proc.transport.last_words()
            tail = f" (last words: {words[:120]})" if words else ""
            proc.transport.kill()
        self._proc = None
        self._streak += 1
        self._pending_problem = f"{problem}{tail}"
        self.restart_log.append(RestartRecord(self._pending_problem, now))
        delay = backoff(self.policy, self._streak)
        if self._streak > self.policy.quick_restarts and not self._unavailable:
            self._unavailable = True
            self._active = None
            self._ponder = None
            self._commands.end_all(f"the engine is not available ({self._pending_problem})")
            self._outbox.append(
                EngineFailed(
                    f"{self._pending_problem}; the bot is not available (retrying every {delay:.0f} s or so)", delay
                )
            )
        self._next_spawn_at = now + delay
        if delay == 0:
            self._next_spawn_at = None
            self._spawn()

    def _spawn(self) -> None:
        now = self._clock()
        try:
            transport = self._spawn_transport()
        except OSError as exc:
            self._proc = None
            self._fail(f"cannot start the engine: {str(exc)[:200]}", now)
            return
        self._proc = EngineProcess(transport, spawned_at=now, last_heard=now)
        if self.restart_log and self.restart_log[-1].spawned_at is None:
            last = self.restart_log[-1]
            self.restart_log[-1] = RestartRecord(last.problem, last.noticed_at, now)
        if self._threads is not None:
            self._send(SetOption("threads", self._threads))
        if self._prepare_game is not None:
            self._send(Prepare(self._prepare_game))
        if self._position is not None:
            game, moves = self._position
            self._send(Position(game, moves))
        if self._ponder is not None:
            self._send(self._ponder)  # a fresh tree, but the engine thinks on the opponent's time again
        if not self.restart_log or self._unavailable:
            return
        resumed = self._active is not None
        if self._active is not None:
            self._active.sent_at = now
            self._send(self._active.command)
        words = " and resumed the search" if resumed else ""
        self._outbox.append(EngineRestarted(f"{self._pending_problem}; restarted it{words}", resumed))


if TYPE_CHECKING:  # the real client is held to the interface the play model uses
    _client_check: EngineClientProtocol = EngineClient()
