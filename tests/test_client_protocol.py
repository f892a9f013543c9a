"""The client's protocol behaviour against a scripted engine and a fake clock (issue 17 items 1
and 2, issue 14's preparing state): heartbeats, start-up deadline, restarts with back-off, the
"not available" state and its recovery, resumed searches, stale ids, threads."""

from __future__ import annotations

from typing import Any

import pytest
from fake_engine import FRAME, FakeClock, ScriptedEngine, Spawner, bestmove, client_rig, preparing, probe_of, run_for

from ai.client.engine_client import EngineClient, Limit, RestartPolicy
from ai.vocab.results import (
    BestMove,
    EngineAvailable,
    EngineFailed,
    EngineRestarted,
    ErrorReply,
    KernelsBuild,
    Reply,
)

pytestmark = pytest.mark.timeout(20)


@pytest.fixture()
def rig() -> tuple[EngineClient, Spawner, FakeClock]:
    result: tuple[EngineClient, Spawner, FakeClock] = client_rig()
    return result


def first(replies: list[Reply], kind: type) -> Any:
    return next(r for r in replies if isinstance(r, kind))


def test_an_idle_engine_that_hangs_is_noticed_within_a_second(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    assert run_for(client, clock, 5.0) and client.status.state == "ready"
    assert len(spawner.engines) == 1  # the heartbeat answered: no false alarm in 5 s
    spawner.last.hang()
    struck = clock.now
    seen = run_for(client, clock, 2.0)
    restarted = first(seen, EngineRestarted)
    noticed = client.restart_log[-1].noticed_at - struck
    assert noticed < 1.0, f"noticed after {noticed:.2f} s"
    assert "stopped answering" in restarted.message
    assert spawner.engines[0].killed and len(spawner.engines) == 2


def test_a_hang_mid_search_restarts_and_resumes_the_same_search(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    client.set_threads(3)
    client.set_position("connect4", "4453")
    search = client.go(Limit(time_ms=5000), info_ms=100)
    run_for(client, clock, 0.5)
    spawner.last.hang()
    seen = run_for(client, clock, 1.5)
    assert "resumed the search" in first(seen, EngineRestarted).message
    new = spawner.last
    assert [c["cmd"] for c in new.sent[:3]] == ["setoption", "position", "go"]
    assert new.commands("setoption")[0]["value"] == 3 and new.commands("position")[0]["moves"] == "4453"
    assert new.commands("go")[0]["id"] == search.id
    new.say(bestmove(search.id))
    assert first(client.poll_replies(), BestMove).id == search.id


def test_start_up_deadline_follows_the_measured_start_up_time() -> None:
    clock = FakeClock()
    silent_next = [False, True]
    spawner = Spawner(lambda: ScriptedEngine(silent=silent_next.pop(0) if silent_next else False))
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    clock.now += 1.0  # this start took 1 s (a loaded machine)
    run_for(client, clock, 1.0)
    spawner.last.die(1)
    run_for(client, clock, 0.1)  # restarted at once; this one never says a word
    struck = clock.now
    seen = run_for(client, clock, 5.0)
    assert "did not start within 4.0 s" in first(seen, EngineRestarted).message  # max(3, 4 x 1.0), not 120 s
    assert client.restart_log[-1].noticed_at - struck < 4.1


def test_first_start_up_deadline_is_not_two_minutes() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(silent=True))
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    seen = run_for(client, clock, 16.0)
    assert "did not start within 15.0 s" in first(seen, EngineRestarted).message


def test_restarts_back_off_then_report_unavailable_and_keep_trying() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(exits_with=3))
    spawner.clock = clock
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    seen = run_for(client, clock, 2.0)
    gaps = [round(b - a, 2) for a, b in zip(spawner.attempts, spawner.attempts[1:], strict=False)]
    assert gaps[:4] == pytest.approx([0.0, 0.25, 0.5, 1.0], abs=FRAME + 0.01), gaps  # not four restarts in 0.06 s
    failed = [r for r in seen if isinstance(r, EngineFailed)]
    assert len(failed) == 1 and "exit code 3" in failed[0].message and "not available" in failed[0].message
    assert client.failed and client.status.state == "unavailable"
    search = client.go(Limit(time_ms=100))  # never a silent random move: the search fails, saying why
    error = first(client.poll_replies(), ErrorReply)
    assert error.id == search.id and "not available" in error.message
    attempts = len(spawner.attempts)
    run_for(client, clock, 60.0)
    assert len(spawner.attempts) > attempts + 4, "it must keep trying in the background"
    assert max(b - a for a, b in zip(spawner.attempts, spawner.attempts[1:], strict=False)) <= 10.0 + FRAME
    spawner.make = ScriptedEngine  # the engine can start again
    seen = run_for(client, clock, 11.0)
    assert isinstance(first(seen, EngineAvailable), EngineAvailable)
    status = client.status  # a new name: mypy would keep client.status.state narrowed by the check above
    assert status.state == "ready" and not client.failed and client.is_ready


def test_an_engine_that_cannot_be_launched_is_retried() -> None:
    clock = FakeClock()
    spawner = Spawner()
    spawner.clock = clock
    spawner.fail_with = "No such file or directory"
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    seen = run_for(client, clock, 3.0)
    assert "No such file" in first(seen, EngineFailed).message
    spawner.fail_with = None
    seen = run_for(client, clock, 11.0)
    assert first(seen, EngineAvailable) and client.is_ready


def test_preparing_state_with_a_real_fraction_and_no_false_hang() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(prepared=()))
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    engine = spawner.last
    run_for(client, clock, 0.1)
    assert client.status.state == "preparing" and client.status.preparing is None  # nothing reported yet
    engine.say(preparing("connect4", 0, 4, False))
    run_for(client, clock, 0.1)
    assert client.status.state == "preparing" and client.status.preparing is not None
    assert client.status.message == "preparing the engine"
    search = client.go(Limit(time_ms=500))  # waits in the engine while it compiles
    engine.say(preparing("connect4", 1, 4, True))
    run_for(client, clock, 30.0)  # a long compile: the heartbeat keeps it alive
    status = client.status
    assert len(spawner.engines) == 1 and status.state == "preparing"
    assert status.preparing is not None and status.preparing.fraction == 0.25
    assert status.message == "preparing the engine, first launch only"
    engine.say(preparing("connect4", 4, 4, True))
    engine.say(bestmove(search.id))
    seen = run_for(client, clock, 0.1)
    assert client.status.state == "ready" and first(seen, BestMove).id == search.id
    client.set_position("gomoku", "")  # another game not prepared yet
    assert client.status.state == "preparing"


def test_the_status_carries_the_background_build_of_the_kernels(rig) -> None:  # type: ignore[no-untyped-def]
    """The engine's ``kernels`` lines: running while "building", and how it ended after (a source checkout's
    first launch compiles its kernels once in the background; the app shows it meanwhile)."""
    client, spawner, clock = rig
    assert client.status.kernels is None
    spawner.last.say(KernelsBuild("building", "into build/kernels-local"))
    run_for(client, clock, 0.1)
    status = client.status
    assert status.state == "ready" and status.kernels is not None and status.kernels.running
    spawner.last.say(KernelsBuild("built", "compiled 94 entries (61 s)"))
    run_for(client, clock, 0.1)
    status = client.status
    assert status.kernels is not None and not status.kernels.running and status.kernels.state == "built"


def test_an_error_for_another_id_does_not_end_the_search(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    search = client.go(Limit(time_ms=10_000), info_ms=100)
    spawner.last.say(ErrorReply("late error of an old search", search.id - 1))
    run_for(client, clock, 0.2)
    spawner.last.die(-9)
    seen = run_for(client, clock, 0.2)
    assert "resumed the search" in first(seen, EngineRestarted).message


def test_non_protocol_lines_become_one_line_errors(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    spawner.last.say_raw(b'{"type": "info", "id": 1}\n')  # a known type with fields missing
    spawner.last.say_raw(b"\xff\xfe garbage\n")
    errors = [r for r in client.poll_replies() if isinstance(r, ErrorReply)]
    assert len(errors) == 2 and all("non-protocol" in e.message and "\n" not in e.message for e in errors)


def test_threads_setting_is_sent_and_reported(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    run_for(client, clock, 0.1)
    assert client.threads == 1  # the engine's default, from its ready line
    client.set_threads(5)
    assert spawner.last.commands("setoption") == [{"cmd": "setoption", "name": "threads", "value": 5}]
    assert client.status.threads == 5
    for bad in (0, 65, 2.5, True):
        with pytest.raises(ValueError, match="threads"):
            client.set_threads(bad)
    assert client.threads == 5


def test_poll_replies_gives_typed_replies(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    search = client.go(Limit(time_ms=100))
    spawner.last.say(bestmove(search.id, "3"))
    reply = client.poll_replies()[-1]
    assert isinstance(reply, BestMove) and reply.id == search.id and reply.move == "3"


def test_a_policy_can_be_given() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(exits_with=1))
    client = EngineClient(spawn=spawner, clock=clock, policy=RestartPolicy(quick_restarts=1))
    client.start()
    assert first(run_for(client, clock, 1.0), EngineFailed)


def test_lines_of_a_replaced_engine_never_arrive(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    search = client.go(Limit(time_ms=5000), info_ms=100)
    run_for(client, clock, 0.1)
    old = spawner.last
    old.hang()
    run_for(client, clock, 1.5)
    assert len(spawner.engines) == 2
    old.hung = False
    old.say(bestmove(search.id, "1"))  # the stopped engine wakes up and answers late
    spawner.last.say(bestmove(search.id, "5"))
    moves = [r.move for r in run_for(client, clock, 0.2) if isinstance(r, BestMove)]
    assert moves == ["5"]


def test_an_expected_start_up_time_sets_the_first_deadline() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(silent=True))
    client = EngineClient(spawn=spawner, clock=clock, expected_startup_s=1.25)
    client.start()
    seen = run_for(client, clock, 6.0)
    assert "did not start within 5.0 s" in first(seen, EngineRestarted).message


def test_the_game_to_prepare_is_shown_and_asked_for_again_after_a_restart() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(prepared=("connect4",)))
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    client.prepare("gomoku")  # the player picked Gomoku; hot-seat, no search yet
    run_for(client, clock, 0.1)
    assert client.status.state == "preparing"
    spawner.last.die(-9)
    run_for(client, clock, 0.2)
    assert spawner.last.commands("prepare") == [{"cmd": "prepare", "game": "gomoku"}]
    spawner.last.say(preparing("gomoku", 1, 1, False))
    run_for(client, clock, 0.1)
    status = client.status  # a new name: mypy would keep client.status.state narrowed by the check above
    assert status.state == "ready"


# issue 37 #3: a hang is a hang, not a busy machine ------------------------------------------------------
def _preparing_rig() -> tuple[EngineClient, Spawner, FakeClock]:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(prepared=()))
    spawner.clock = clock
    client = EngineClient(spawn=spawner, clock=clock, probe=probe_of(spawner, clock))
    client.start()
    run_for(client, clock, 0.1)
    spawner.last.say(preparing("connect4", 1, 4, True))
    run_for(client, clock, 0.1)
    return client, spawner, clock


@pytest.mark.parametrize("cpu_share", [1.0, 0.25, 0.0])  # compiling with the GIL held; starved; waiting for a CPU
def test_a_compiling_or_starved_engine_is_not_taken_for_a_hang(cpu_share) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = _preparing_rig()
    spawner.last.busy(clock.now, cpu_share)
    seen = run_for(client, clock, 8.0)  # its heartbeat answers come 8 s late
    assert not any(isinstance(r, EngineRestarted) for r in seen) and len(spawner.engines) == 1
    spawner.last.unbusy()
    run_for(client, clock, 1.0)
    assert len(spawner.engines) == 1 and client.status.state == "preparing"


def test_a_starved_engine_once_ready_gets_seconds_but_a_sigstop_is_caught_within_a_second(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    run_for(client, clock, 1.0)
    spawner.last.busy(clock.now, 0.3)
    seen = run_for(client, clock, 3.0)
    assert not any(isinstance(r, EngineRestarted) for r in seen)
    spawner.last.unbusy()
    run_for(client, clock, 0.5)
    spawner.last.hang()  # SIGSTOP: no CPU, state T
    struck = clock.now
    seen = run_for(client, clock, 2.0)
    assert "stopped answering" in first(seen, EngineRestarted).message
    assert client.restart_log[-1].noticed_at - struck < 1.0


def test_a_stopped_engine_is_a_hang_also_while_it_prepares() -> None:
    client, spawner, clock = _preparing_rig()
    spawner.last.hang()
    struck = clock.now
    seen = run_for(client, clock, 2.0)
    assert isinstance(first(seen, EngineRestarted), EngineRestarted)
    assert client.restart_log[-1].noticed_at - struck < 1.0
