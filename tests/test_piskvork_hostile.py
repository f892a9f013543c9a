"""``main.py piskvork`` against a hostile manager (issue 51, items 6 and 7, and BEGIN twice)."""

from __future__ import annotations

import pytest

from ai.benchmarks.piskvork_manager import Brain, parse_xy
from ai.cli.piskvork import machine_nodes, node_budget


@pytest.fixture
def brain():  # type: ignore[no-untyped-def]
    b = Brain()
    yield b
    if b.proc.poll() is None:
        b.proc.kill()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("memory", ["1000000000000000", str(2**63 - 1)])
def test_a_huge_max_memory_is_capped_and_start_answers_ok(brain: Brain, memory: str) -> None:
    brain.send(f"INFO max_memory {memory}", "INFO timeout_turn 100")
    assert brain.ask("START 15")[0] == "OK"
    assert all(0 <= v < 15 for v in parse_xy(brain.ask("BEGIN")[0]))
    assert brain.close() == 0


def test_the_node_budget_never_exceeds_the_machine() -> None:
    assert node_budget(0) is None
    assert node_budget(10**15) == node_budget(2**63 - 1) == max(100_000, machine_nodes())
    assert node_budget(29 * 1_000_000) == 600_000  # within the machine: 60 % of max_memory


@pytest.mark.timeout(60)
def test_a_line_without_end_is_refused_with_one_error_and_the_brain_goes_on(brain: Brain) -> None:
    assert brain.proc.stdin is not None
    brain.proc.stdin.write("A" * 3_000_000)  # no newline yet: a bounded brain holds none of it whole
    brain.proc.stdin.flush()
    reply, _ = brain.ask("")
    assert reply == "ERROR line too long (more than 65536 characters)"
    assert brain.ask("ABOUT")[0].startswith('name="')
    assert brain.close() == 0


@pytest.mark.timeout(60)
def test_begin_twice_is_an_error_not_a_second_stone(brain: Brain) -> None:
    brain.send("INFO timeout_turn 100")
    assert brain.ask("START 15")[0] == "OK"
    parse_xy(brain.ask("BEGIN")[0])
    assert brain.ask("BEGIN")[0].startswith("ERROR BEGIN")
    assert brain.ask("RESTART")[0] == "OK"
    parse_xy(brain.ask("BEGIN")[0])  # on an empty board again: fine
    assert brain.close() == 0
