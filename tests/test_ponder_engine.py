"""Thinking on the opponent's time in the engine process (issue 19, section 3): the ``ponder``
command on the wire, the client's method against the scripted engine (fake clock: heartbeat,
restart, every command that ends a ponder) and one real engine process showing that a predicted
reply makes the next search start ahead."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from engine_helpers import EngineProcess
from fake_engine import FakeClock, ScriptedEngine, Spawner, client_rig, run_for

from ai.client.engine_client import EngineClient, Limit
from ai.engine import protocol
from ai.vocab import wire
from ai.vocab.results import EngineRestarted, PonderEnd, Reply

pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def rig() -> tuple[EngineClient, Spawner, FakeClock]:
    result: tuple[EngineClient, Spawner, FakeClock] = client_rig()
    return result


def ends(replies: list[Reply]) -> list[PonderEnd]:
    return [r for r in replies if isinstance(r, PonderEnd)]


# -- the wire --------------------------------------------------------------------------------
def test_ponder_command_is_parsed_and_bad_fields_are_one_line_errors() -> None:
    assert protocol.parse_command('{"cmd": "ponder", "id": 4, "exact": false}') == protocol.Ponder(
        search_id=4, exact=False
    )
    assert protocol.parse_command('{"cmd": "ponder"}') == protocol.Ponder(search_id=None, exact=True)
    for bad in ('{"cmd": "ponder", "exact": "no"}', '{"cmd": "ponder", "id": [1]}'):
        with pytest.raises(protocol.ProtocolError) as caught:
            protocol.parse_command(bad)
        assert "\n" not in str(caught.value)


def test_ponderend_round_trips_and_a_malformed_one_is_refused() -> None:
    reply = PonderEnd(7, "4", "4", True, 1234, 850.5, 900)
    line = wire.dumps(reply)
    assert json.loads(line)["type"] == "ponderend"
    assert wire.decode(json.loads(line)) == reply
    empty = wire.decode(
        {
            "type": "ponderend",
            "id": 7,
            "predicted": None,
            "played": None,
            "hit": False,
            "iterations": 0,
            "elapsed_ms": 1,
            "kept_visits": 0,
        }
    )
    assert isinstance(empty, PonderEnd) and empty.predicted is None and empty.elapsed_ms == 1.0
    with pytest.raises(ValueError, match="hit"):
        wire.decode({**json.loads(line), "hit": "yes"})
    with pytest.raises(ValueError, match="kept_visits"):
        wire.decode({k: v for k, v in json.loads(line).items() if k != "kept_visits"})


# -- the client against the scripted engine --------------------------------------------------
@pytest.mark.parametrize(("moves", "hit"), [("12124", True), ("12123", False)])
def test_the_opponents_move_ends_the_ponder_with_a_hit_or_a_miss(rig, moves: str, hit: bool) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    client.set_position("connect4", "1212")
    ponder = client.ponder(exact=False)
    assert spawner.last.commands("ponder") == [{"cmd": "ponder", "id": ponder.id, "exact": False}]
    assert client.pondering
    assert not ends(run_for(client, clock, 0.5))  # it keeps thinking
    client.set_position("connect4", moves)
    (end,) = ends(run_for(client, clock, 0.1))
    assert (end.id, end.played, end.hit) == (ponder.id, moves[-1], hit)
    assert not client.pondering


@pytest.mark.parametrize("command", ["stop", "go", "solve", "set_threads", "new game", "ponder"])
def test_every_other_command_ends_the_ponder(rig, command: str) -> None:  # type: ignore[no-untyped-def]
    client, _spawner, clock = rig
    client.set_position("connect4", "44")
    ponder = client.ponder()
    run_for(client, clock, 0.1)
    {
        "stop": client.stop,
        "go": lambda: client.go(Limit(time_ms=100)),
        "solve": lambda: client.solve(Limit(time_ms=300)),
        "set_threads": lambda: client.set_threads(2),
        "new game": lambda: client.set_position("gomoku", ""),
        "ponder": client.ponder,
    }[command]()
    (end,) = ends(run_for(client, clock, 0.1))
    assert end.id == ponder.id and end.played is None and not end.hit
    assert client.pondering == (command == "ponder")


def test_the_heartbeat_runs_while_pondering_and_a_hang_restarts_the_ponder(rig) -> None:  # type: ignore[no-untyped-def]
    client, spawner, clock = rig
    client.set_position("connect4", "44")
    ponder = client.ponder(exact=False)
    run_for(client, clock, 5.0)
    assert len(spawner.engines) == 1 and len(spawner.last.commands("isready")) >= 5  # pinged, answered
    spawner.last.hang()
    struck = clock.now
    restarted = [r for r in run_for(client, clock, 2.0) if isinstance(r, EngineRestarted)]
    assert restarted and client.restart_log[-1].noticed_at - struck < 1.0
    fresh = spawner.last
    assert len(spawner.engines) == 2
    assert [c["cmd"] for c in fresh.sent if c["cmd"] != "isready"] == ["position", "ponder"]
    assert fresh.commands("ponder")[0]["id"] == ponder.id and client.pondering


def test_no_ponder_is_sent_while_the_engine_is_not_available() -> None:
    clock = FakeClock()
    spawner = Spawner(lambda: ScriptedEngine(exits_with=1))
    client = EngineClient(spawn=spawner, clock=clock)
    client.start()
    run_for(client, clock, 3.0)
    assert client.failed
    client.ponder()
    run_for(client, clock, 0.1)
    assert not client.pondering and not any(e.commands("ponder") for e in spawner.engines)


# -- the real engine process -----------------------------------------------------------------
def ask_isready_ms(engine: EngineProcess) -> float:
    start = time.perf_counter()
    engine.send({"cmd": "isready"})
    engine.read_until("readyok", timeout=10)
    return (time.perf_counter() - start) * 1000


def test_a_predicted_reply_makes_the_next_search_start_ahead() -> None:
    engine = EngineProcess("--seed", "3", "--threads", "1")
    try:
        assert engine.read()["type"] == "ready"
        # "12121": the second player must block column 1 (any other reply loses at once)
        engine.send({"cmd": "position", "game": "connect4", "moves": "12121"})
        engine.send({"cmd": "go", "iterations": 50, "exact": False, "id": "warm"})  # waits for the compiled code
        engine.read_until("bestmove")
        engine.send({"cmd": "ponder", "id": "p1", "exact": False, "info_ms": 50})
        searching, _ = engine.read_until("info", timeout=30)  # the ponder has searched
        assert searching["id"] == "p1" and searching["iterations"] > 0
        slowest = max(ask_isready_ms(engine) for _ in range(5))  # the heartbeat while it ponders
        assert slowest < 700, f"isready took {slowest:.0f} ms while pondering"
        engine.send({"cmd": "position", "game": "connect4", "moves": "121211"})  # the predicted block
        end, _ = engine.read_until("ponderend", timeout=10)
        assert (end["id"], end["predicted"], end["played"], end["hit"]) == ("p1", "1", "1", True)
        assert end["iterations"] > 0 and end["kept_visits"] > 0
        engine.send({"cmd": "go", "iterations": 1, "exact": False, "id": "next"})
        best, _ = engine.read_until("bestmove", timeout=30)
        assert best["iterations"] == 1
        assert sum(c["visits"] for c in best["children"]) > 0.9 * end["kept_visits"]  # it started with them
        engine.send({"cmd": "ponder", "id": "p2", "exact": False, "info_ms": 50})
        assert engine.read_until("info", timeout=30)[0]["id"] == "p2"
        engine.send({"cmd": "position", "game": "connect4", "moves": "1212113"})  # not the predicted reply
        miss: dict[str, Any] = engine.read_until("ponderend", timeout=10)[0]
        assert (miss["id"], miss["played"], miss["hit"]) == ("p2", "3", False) and miss["predicted"] != "3"
        engine.send({"cmd": "ponder", "id": "p3"})
        engine.send({"cmd": "stop"})
        stopped = engine.read_until("ponderend", timeout=10)[0]
        assert (stopped["id"], stopped["played"], stopped["hit"]) == ("p3", None, False)
        for ender in (
            {"cmd": "setoption", "name": "threads", "value": 1},
            {"cmd": "go", "iterations": 5, "id": "g"},
            {"cmd": "position", "game": "uttt", "moves": ""},
        ):
            engine.send({"cmd": "ponder", "id": "p4", "exact": False})
            engine.send(ender)
            other = engine.read_until("ponderend", timeout=10)[0]
            assert (other["id"], other["played"], other["hit"]) == ("p4", None, False), ender
    finally:
        assert engine.close() == 0
