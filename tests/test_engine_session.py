"""The blocking engine session (the terminal client's and the network bot's way to the engine
process) against the scripted engine: a search with its info lines, a refused search, a ponder
ended by the opponent's move (hit or miss) or by a stop, and an engine that never starts."""

from __future__ import annotations

from typing import Any

import pytest
from fake_engine import FakeClock, ScriptedEngine, Spawner, bestmove

from ai.client.engine_client import EngineClient
from ai.client.session import EngineSession, EngineUnavailable
from ai.vocab.results import ChildLine, ErrorReply, Info
from game.rules import get_game

pytestmark = pytest.mark.timeout(30)
C4 = get_game("connect4")


def answer(engine: ScriptedEngine, command: dict[str, Any]) -> None:
    children = (ChildLine("3", 30, 0.4, None, None), ChildLine("4", 70, 0.6, "win", 3))
    engine.say(Info(command["id"], 50, 50.0, 0.55, 4, ("4",), False, None, children))
    engine.say(bestmove(command["id"], "4"))


def session(on_go: Any = answer, **kw: Any) -> tuple[EngineSession, Spawner]:
    spawner = Spawner(lambda: ScriptedEngine(on_go=on_go, **kw))
    return EngineSession(client=EngineClient(spawn=spawner, clock=FakeClock())), spawner


def test_a_search_gives_its_info_lines_and_the_move_as_search_results() -> None:
    engine, spawner = session()
    engine.start()
    seen: list[Any] = []
    result = engine.search(C4, "44", time_ms=200, exact=True, on_info=seen.append)
    assert result.best_move == 3 and result.iterations == 10  # column 4 is move 3
    assert [(c.move, c.visits, c.proven) for c in seen[0].children] == [(2, 30, None), (3, 70, 1)]
    go = spawner.last.commands("go")[0]
    assert (go["time_ms"], go["exact"]) == (200, True)
    assert spawner.last.commands("position")[-1] == {"cmd": "position", "game": "connect4", "moves": "44"}


def test_a_refused_search_is_a_one_line_error() -> None:
    engine, _ = session(on_go=lambda e, c: e.say(ErrorReply("no kernel for this game", c["id"])))
    engine.start()
    with pytest.raises(EngineUnavailable, match="no kernel"):
        engine.search(C4, "", time_ms=100)


@pytest.mark.parametrize(("moves", "hit"), [("12124", True), ("12123", False), (None, False)])
def test_the_opponents_move_ends_the_ponder_with_a_hit_or_a_miss(moves: str | None, hit: bool) -> None:
    engine, spawner = session()
    engine.start()
    engine.ponder(C4, "1212", exact=False)
    assert spawner.last.commands("ponder")[0]["exact"] is False
    end = engine.end_ponder(C4, moves)
    assert end is not None and end.hit == hit and end.played == (moves[-1] if moves else None)
    assert (engine.hits, engine.ponders) == (int(hit), 0 if moves is None else 1)
    assert engine.end_ponder(C4, "121244") is None  # nothing left to end


def test_an_engine_that_never_starts_is_reported() -> None:
    engine, _ = session(silent=True)
    with pytest.raises(EngineUnavailable, match="did not start"):
        engine.start(timeout_s=0.2)
