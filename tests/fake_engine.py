"""A scripted engine for client tests: a fake ``Transport`` and a fake clock, no process, no sleep."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ai.client.api import EngineClientProtocol
from ai.client.engine_client import EngineClient
from ai.client.proc_probe import ProcessSample
from ai.client.transport import Transport
from ai.vocab import wire
from ai.vocab.results import BestMove, PonderEnd, Preparing, Ready, ReadyOk, Reply


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def ready(threads: int = 1, prepared: tuple[str, ...] = ("connect4", "gomoku")) -> Ready:
    return Ready("fake", "0", ("connect4", "gomoku"), 1.0, threads, prepared)


def bestmove(search_id: Any, move: str = "4") -> BestMove:
    return BestMove(search_id, 10, 1.0, 0.5, 1, (move,), False, None, (), move=move)


class ScriptedEngine:
    """Answers ``isready`` at once unless hung; ``go`` per ``on_go``; says ``ready`` when started
    unless ``silent``. ``hang()`` is SIGSTOP, ``die(code)`` is a crash."""

    next_pid = 1000

    def __init__(
        self,
        *,
        silent: bool = False,
        prepared: tuple[str, ...] = ("connect4", "gomoku"),
        on_go: Callable[[ScriptedEngine, dict[str, Any]], None] | None = None,
        exits_with: int | None = None,
    ) -> None:
        ScriptedEngine.next_pid += 1
        self.pid = ScriptedEngine.next_pid
        self.sent: list[dict[str, Any]] = []
        self._out: list[bytes | None] = []
        self.hung = False
        self.busy_from: float | None = None
        self.cpu_share = 0.0
        self.cpu_s = 1.0
        self._held: list[bytes | None] = []
        self.code: int | None = None
        self.on_go = on_go
        self.killed = False
        self.moves = ""  # of the last position command (Connect 4 notation: one character per move)
        self.pondering: dict[str, Any] | None = None
        self.predicted = "4"  # the reply every ponder expects
        if exits_with is not None:
            self.die(exits_with)
        elif not silent:
            self.say(ready(prepared=prepared))

    def say(self, reply: Reply) -> None:
        self._out.append(wire.dumps(reply).encode() + b"\n")

    def say_raw(self, raw: bytes) -> None:
        self._out.append(raw)

    def hang(self) -> None:
        self.hung = True

    def busy(self, now: float, cpu_share: float) -> None:
        """Working without answering (numba compiling with the GIL held, or starved of CPU): ``cpu_share`` of a
        core used from ``now`` on (0: runnable, waiting for a CPU); its heartbeat answers wait until ``unbusy``."""
        self.busy_from, self.cpu_share = now, cpu_share

    def unbusy(self) -> None:
        self.busy_from = None
        self._out.extend(self._held)
        self._held = []

    def sample(self, now: float) -> ProcessSample:
        """What ``/proc`` would say (see ``ai.client.proc_probe``)."""
        if self.hung:
            return ProcessSample(self.cpu_s, True, False)
        if self.busy_from is not None:
            return ProcessSample(self.cpu_s + (now - self.busy_from) * self.cpu_share, False, self.cpu_share == 0)
        return ProcessSample(self.cpu_s, False, False)

    def die(self, code: int = -9) -> None:
        self.code = code
        self._out.append(None)

    # -- Transport ---------------------------------------------------------------------------
    def send(self, line: str) -> None:
        if self.code is not None:
            raise OSError("broken pipe")
        command = json.loads(line)
        self.sent.append(command)
        if self.hung:
            return
        if command["cmd"] == "isready":
            if self.busy_from is not None:
                self._held.append(wire.dumps(ReadyOk()).encode() + b"\n")
            else:
                self.say(ReadyOk())
            return
        if self.pondering is not None and command["cmd"] in ("position", "go", "solve", "stop", "setoption", "ponder"):
            self._end_ponder(command.get("moves") if command["cmd"] == "position" else None)
        if command["cmd"] == "position":
            self.moves = command["moves"]
        elif command["cmd"] == "ponder":
            self.pondering = command
        elif command["cmd"] == "go" and self.on_go is not None:
            self.on_go(self, command)

    def _end_ponder(self, moves: str | None) -> None:
        """As the engine: ``played`` when the new position adds one move to the pondered one."""
        assert self.pondering is not None
        pondered, ponder_id, self.pondering = self.moves, self.pondering["id"], None
        played = moves[-1] if moves is not None and len(moves) == len(pondered) + 1 and moves[:-1] == pondered else None
        hit = played == self.predicted
        self.say(PonderEnd(ponder_id, self.predicted, played, hit, 500, 100.0, 400 if hit else 0))

    def receive(self) -> list[bytes | None]:
        if self.hung or self.busy_from is not None:
            return []
        out, self._out = self._out, []
        return out

    def wait_readable(self, timeout: float) -> None:
        """A scripted engine writes when the test says so: nothing to wait for."""

    def exit_code(self) -> int | None:
        return self.code

    def wait_exit(self, timeout: float) -> int | None:
        return self.code

    def last_words(self) -> str | None:
        return "fake last words" if self.code is not None else None

    def kill(self) -> None:
        self.killed = True
        if self.code is None:
            self.code = -9

    def close(self) -> None:
        self.kill()

    def commands(self, cmd: str) -> list[dict[str, Any]]:
        return [c for c in self.sent if c["cmd"] == cmd]


class Spawner:
    """The client's ``spawn``: makes engines from ``make`` (default: a healthy ScriptedEngine) and
    keeps them; ``fail_with`` makes spawning raise OSError."""

    def __init__(self, make: Callable[[], ScriptedEngine] | None = None) -> None:
        self.make = make or ScriptedEngine
        self.engines: list[ScriptedEngine] = []
        self.fail_with: str | None = None
        self.attempts: list[float] = []
        self.clock: FakeClock | None = None

    def __call__(self) -> ScriptedEngine:
        if self.clock is not None:
            self.attempts.append(self.clock.now)
        if self.fail_with is not None:
            raise OSError(self.fail_with)
        engine = self.make()
        self.engines.append(engine)
        return engine

    @property
    def last(self) -> ScriptedEngine:
        return self.engines[-1]


def preparing(game: str, done: int, total: int, compiling: bool) -> Preparing:
    return Preparing(game, done, total, f"{game} search", compiling)


FRAME = 0.016  # one poll per frame of fake time


def probe_of(spawner: Spawner, clock: FakeClock) -> Callable[[int], ProcessSample | None]:
    """The client's ``/proc`` probe over the scripted engines."""

    def probe(pid: int) -> ProcessSample | None:
        engine = next((e for e in spawner.engines if e.pid == pid), None)
        return engine.sample(clock.now) if engine is not None else None

    return probe


def client_rig() -> tuple[EngineClient, Spawner, FakeClock]:
    """A started client on scripted engines and a fake clock."""
    clock = FakeClock()
    spawner = Spawner()
    spawner.clock = clock
    client = EngineClient(spawn=spawner, clock=clock, probe=probe_of(spawner, clock))
    client.start()
    return client, spawner, clock


def run_for(client: EngineClient, clock: FakeClock, seconds: float) -> list[Reply]:
    """Poll every frame for ``seconds`` of fake time."""
    seen: list[Reply] = []
    end = clock.now + seconds
    while clock.now < end:
        seen.extend(client.poll_replies())
        clock.now += FRAME
    return seen


if TYPE_CHECKING:  # the scripted engine is a transport, and the client it drives is the real one
    _transport_check: Transport = ScriptedEngine()
    _client_check: EngineClientProtocol = client_rig()[0]
