"""One command object per request (``ai.client.commands``): a caller gets the replies of ITS go / solve / ponder
without matching ids, and nothing waits (the client's ``poll_replies()`` hands the lines over), against the
scripted engine and a fake clock."""

from __future__ import annotations

import pytest
from fake_engine import FakeClock, ScriptedEngine, Spawner, bestmove, client_rig, run_for

from ai.client.commands import CommandRouter, EngineCommand
from ai.client.engine_client import EngineClient, Limit, RestartPolicy
from ai.vocab.results import BestMove, EngineFailed, ErrorReply, Info, PonderEnd, Solution, SolvedMove

pytestmark = pytest.mark.timeout(20)


def info(search_id: int, iterations: int) -> Info:
    return Info(search_id, iterations, 1.0, 0.5, 1, ("4",), False, None, ())


def test_each_search_gets_its_own_lines_and_a_late_line_stays_with_its_search() -> None:
    client, spawner, clock = client_rig()
    old = client.go(Limit(time_ms=5000))
    client.stop()
    new = client.go(Limit(time_ms=5000))
    engine = spawner.last
    engine.say(info(new.id, 10))
    engine.say(bestmove(old.id, "1"))  # the stopped search answers late
    run_for(client, clock, 0.1)
    assert not new.done and new.result() is None  # nothing waits: the search still runs
    assert [type(r) for r in new.replies()] == [Info] and new.replies() == []  # handed over once
    engine.say(info(new.id, 20))
    engine.say(bestmove(new.id, "5"))
    run_for(client, clock, 0.1)
    assert [type(r) for r in new.replies()] == [Info, BestMove]
    result = new.result()
    assert isinstance(result, BestMove) and result.move == "5" and new.latest == result
    late = old.result()
    assert isinstance(late, BestMove) and late.move == "1"  # the old search's answer went to the old command


def test_a_solve_ends_with_its_solution_and_a_ponder_with_its_ponderend() -> None:
    client, spawner, clock = client_rig()
    client.set_position("connect4", "44")
    ponder = client.ponder()
    solve = client.solve(Limit(time_ms=300))  # ends the ponder (the engine answers a ponderend)
    spawner.last.say(Solution(solve.id, 2, (SolvedMove("4", 2),), True, 3.0))
    run_for(client, clock, 0.1)
    assert isinstance(ponder.result(), PonderEnd) and ponder.kind == "ponder"
    assert isinstance(solve.result(), Solution) and solve.latest == solve.result()


def test_a_resumed_search_keeps_its_command_across_a_restart() -> None:
    client, spawner, clock = client_rig()
    search = client.go(Limit(time_ms=5000))
    run_for(client, clock, 0.2)
    spawner.last.hang()
    run_for(client, clock, 1.5)
    assert len(spawner.engines) == 2 and not search.done
    spawner.last.say(bestmove(search.id, "3"))
    run_for(client, clock, 0.1)
    result = search.result()
    assert isinstance(result, BestMove) and result.move == "3"


def test_commands_end_with_an_error_when_the_engine_is_not_available() -> None:
    clock = FakeClock()
    policy = RestartPolicy(quick_restarts=1, first_backoff_s=0.1)
    spawner = Spawner(lambda: ScriptedEngine(exits_with=3))
    spawner.clock = clock
    client = EngineClient(spawn=spawner, clock=clock, policy=policy)
    client.start()
    running = client.go(Limit(time_ms=5000))
    seen = run_for(client, clock, 2.0)
    assert any(isinstance(r, EngineFailed) for r in seen)
    ended = running.result()  # the failure ended the running search: a caller never waits for it
    assert isinstance(ended, ErrorReply) and "not available" in ended.message
    later = client.go(Limit(time_ms=100))
    run_for(client, clock, 0.05)
    assert isinstance(later.result(), ErrorReply)
    ponder = client.ponder()
    assert isinstance(ponder.result(), ErrorReply)  # nothing was sent: it ends at once
    assert client._commands.live == 0  # and no command is left waiting
    client.close()


def test_the_router_gives_up_the_oldest_unanswered_commands_and_ignores_other_ids() -> None:
    router = CommandRouter(max_live=2)
    first, second, third = (router.open(n, "go") for n in (1, 2, 3))
    given_up = first.result()
    assert isinstance(given_up, ErrorReply) and "never answered" in given_up.message
    assert router.live == 2 and not second.done
    router.route(bestmove(99))  # no such command
    router.route(ErrorReply("a refused line"))  # no id: nobody's
    router.route(bestmove(3, "2"))
    assert third.done and router.live == 1
    router.route(bestmove(3, "7"))  # nothing after the final line
    assert [r.move for r in third.replies() if isinstance(r, BestMove)] == ["2"]
    router.end_all("closed")
    assert isinstance(second.result(), ErrorReply) and router.live == 0


def test_an_info_does_not_end_a_go_and_a_bestmove_does_not_end_a_ponder() -> None:
    go, ponder = EngineCommand(1, "go"), EngineCommand(2, "ponder")
    go.deliver(info(1, 5))
    ponder.deliver(bestmove(2))
    assert not go.done and not ponder.done and isinstance(go.latest, Info)
    assert "running" in repr(go)


def test_the_play_models_driver_reads_its_search_through_its_command() -> None:
    from test_ui_fakes import FakeEngineClient

    from game.play.engine_driver import EngineDriver

    fake = FakeEngineClient(polls_to_finish=2)
    driver = EngineDriver(lambda *args: fake)
    old = driver.begin("bot", "connect4", "44", 2, 1000)
    assert old is not None and old.command is not None and old.command.id == old.id
    driver.cancel()  # the fake, like the engine, still answers the stopped search on the next poll
    new = driver.begin("bot", "connect4", "445", 3, 1000)
    assert new is not None
    events = driver.poll() + driver.poll()
    assert {e.search.id for e in events if e.search is not None} == {new.id}  # the late line stayed with ``old``
    assert [e.kind for e in events] == ["info", "bestmove"] and new.finished
    assert isinstance(old.command.result(), BestMove)  # (delivered to the cancelled search's own command)
