"""``main.py piskvork`` driven as a Gomocup manager drives a brain."""

from __future__ import annotations

import random

import pytest

from ai.benchmarks.piskvork_manager import Brain, five_in_a_row, parse_xy


@pytest.fixture
def brain():  # type: ignore[no-untyped-def]
    b = Brain()
    yield b
    if b.proc.poll() is None:
        b.proc.kill()


@pytest.mark.timeout(120)
def test_a_whole_game_against_a_random_manager_player(brain: Brain) -> None:
    assert brain.ask("START 15")[0] == "OK"
    brain.send("INFO timeout_turn 200", "INFO timeout_match 60000", "INFO time_left 60000", "INFO rule 0")
    rng = random.Random(5)
    ours: set[tuple[int, int]] = set()
    theirs: set[tuple[int, int]] = set()
    reply, _ = brain.ask("BEGIN")
    for _ in range(113):
        move = parse_xy(reply)
        assert move not in ours | theirs and all(0 <= v < 15 for v in move), reply
        ours.add(move)
        if five_in_a_row(ours, move):
            break
        free = [(x, y) for x in range(15) for y in range(15) if (x, y) not in ours | theirs]
        opponent = rng.choice(free)
        theirs.add(opponent)
        assert not five_in_a_row(theirs, opponent), "a random player beat the engine"
        reply, _ = brain.ask(f"TURN {opponent[0]},{opponent[1]}")
    assert five_in_a_row(ours, move)
    assert any("iterations" in m for m in brain.messages)
    assert brain.close() == 0


@pytest.mark.timeout(60)
def test_board_takeback_rules_and_errors(brain: Brain) -> None:
    assert brain.ask("ABOUT")[0].startswith('name="')
    assert brain.ask("TURN 1,1")[0].startswith("ERROR")  # before START
    assert brain.ask("START 25")[0].startswith("ERROR unsupported board size")
    assert brain.ask("START 15")[0] == "OK"
    brain.send("INFO timeout_turn 100")
    # four of theirs in a row on y = 3 (x 3-6), three of ours: we must block at 2,3 or 7,3
    reply, _ = brain.ask("BOARD", "3,3,2", "10,10,1", "4,3,2", "10,11,1", "5,3,2", "11,12,1", "6,3,2", "DONE")
    assert reply in ("2,3", "7,3")
    assert brain.ask("TAKEBACK 6,3")[0] == "OK"
    assert brain.ask("TAKEBACK 0,0")[0].startswith("ERROR")  # an empty cell
    assert brain.ask("TURN 20,1")[0].startswith("ERROR")  # off the board
    assert brain.ask("INFO rule 4")[0].startswith("ERROR rule 4 (renju)")
    assert brain.ask("TURN 1,1")[0].startswith("ERROR rule 4")
    brain.send("INFO rule 2")  # continuous game: fine
    assert brain.ask("RESTART")[0] == "OK"
    assert brain.ask("BOARD", "7,7,1", "DONE")[0].startswith("ERROR")  # not our turn: we have more stones
    assert brain.ask("FOO")[0] == "UNKNOWN command FOO"
    assert parse_xy(brain.ask("TURN 7,7")[0]) != (7, 7)
    assert brain.close() == 0


@pytest.mark.timeout(10)
def test_the_budget_follows_timeout_turn_and_the_match_time_left() -> None:
    from ai.cli.piskvork import MIN_BUDGET_MS
    from ai.cli.piskvork import Brain as Engine

    engine = Engine()
    engine.handle("INFO timeout_turn 1000", 0.0)
    assert engine.budget_ms() == pytest.approx(1000 * 0.95 - 25)
    engine.handle("INFO timeout_match 60000", 0.0)
    engine.handle("INFO time_left 10000", 0.0)  # 10 s left: a twentieth of it, less than the turn limit
    assert engine.budget_ms() == pytest.approx(500 * 0.95 - 25)
    engine.handle("INFO time_left 0", 0.0)
    assert engine.budget_ms() == MIN_BUDGET_MS
    engine.handle("INFO timeout_match 0", 0.0)  # no match limit: time_left no longer counts
    engine.handle("INFO timeout_turn 0", 0.0)  # as fast as possible
    assert engine.budget_ms() == MIN_BUDGET_MS


@pytest.mark.timeout(10)
def test_a_late_reply_is_kept_back_from_the_next_moves_until_it_is_forgotten() -> None:
    from ai.cli.piskvork import OVERSHOOT_MOVES
    from ai.cli.piskvork import Brain as Engine

    engine = Engine()
    engine.handle("INFO timeout_turn 1000", 0.0)
    plain = engine.budget_ms()
    engine.overshoots_ms.append(120.0)  # a move's reply came 120 ms later than aimed (a busy machine)
    assert engine.budget_ms() == pytest.approx(plain - 120)
    engine.overshoots_ms.append(5000.0)  # never more than half the budget
    assert engine.budget_ms() == pytest.approx(plain / 2)
    for _ in range(OVERSHOOT_MOVES):
        engine.overshoots_ms.append(-3.0)  # on time again
    assert engine.budget_ms() == pytest.approx(plain)
