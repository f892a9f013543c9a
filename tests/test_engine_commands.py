"""The engine's commands are typed both ways: the client encodes ``ai.vocab.commands`` and the engine decodes the
same types (one default each), a command can be waited on like a future, and decisions read typed fields, never
the text of a message. The source checks keep it so: no hand-built command dict, no polling sleep in ``ai/``,
no decision on ``.message`` / ``.reason`` text."""

from __future__ import annotations

import ast
import json
import re
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.client.commands import EngineCommand
from ai.engine import protocol
from ai.vocab import commands
from ai.vocab.commands import SOLVE_TIME_MS, Go, Ponder, Position, Prepare, SetOption, Solve, decode, encode
from ai.vocab.level_table import LEVEL_NAMES
from ai.vocab.limits import Limit
from ai.vocab.results import BestMove, EngineRestarted
from tests.fake_engine import ScriptedEngine, bestmove, client_rig, run_for

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parent.parent

ids = st.one_of(st.none(), st.integers(-(10**17), 10**17), st.text(max_size=20))
times = st.one_of(st.none(), st.integers(1, 3_600_000).map(float))
COMMANDS = st.one_of(
    st.builds(Position, st.sampled_from(["connect4", "gomoku", "tictactoe"]), st.text("1234567", max_size=20)),
    st.builds(Position, st.just("gomoku"), st.lists(st.sampled_from(["h8", "a1"]), max_size=4).map(tuple)),
    st.builds(
        Go,
        ids,
        times,
        st.one_of(st.none(), st.integers(1, 10**9)),
        st.one_of(st.none(), st.integers(10, 10_000).map(float)),
        st.one_of(st.none(), st.booleans()),
        st.booleans(),
    ),
    st.builds(Go, ids, times, level=st.sampled_from(LEVEL_NAMES)),
    st.builds(Solve, ids, st.integers(1, 3_600_000).map(float)),
    st.builds(Ponder, ids, st.booleans(), st.one_of(st.none(), st.integers(10, 10_000).map(float))),
    st.sampled_from([commands.Stop(), commands.Quit(), commands.IsReady()]),
    st.builds(SetOption, st.just("threads"), st.integers(1, 64)),
    st.builds(Prepare, st.sampled_from(["connect4", "gomoku"])),
)


@settings(max_examples=200, deadline=None)
@given(COMMANDS)
def test_a_command_decodes_to_what_was_encoded(command: commands.Command) -> None:
    assert decode(encode(command)) == command


def test_the_client_sends_lines_the_engine_reads_as_asked() -> None:
    client, spawner, _ = client_rig()
    client.set_position("connect4", "4453")
    client.go(Limit(time_ms=250), info_ms=100, exact=False)
    client.go(Limit(iterations=500), level="easy")
    client.solve(Limit())  # no time given: the one default
    client.set_threads(3)
    client.prepare("gomoku")
    lines = [json.dumps(sent) for sent in spawner.last.sent]
    read = [protocol.parse_command(line) for line in lines]
    kinds = [type(c).__name__ for c in read]
    assert kinds == ["SetPosition", "Go", "Go", "Solve", "SetOption", "Prepare"]
    position, go, level_go, solve, option, prepare = read
    assert isinstance(position, protocol.SetPosition) and position.position.to_text() == "4453"
    assert isinstance(go, protocol.Go) and go.limit == Limit(time_ms=250) and not go.exact and go.info_ms == 100
    assert isinstance(level_go, protocol.Go) and level_go.level is not None and level_go.level.name == "easy"
    assert isinstance(solve, protocol.Solve) and solve.limit.time_ms == SOLVE_TIME_MS
    assert protocol.parse_command('{"cmd": "solve"}') == protocol.Solve(
        limit=Limit(time_ms=SOLVE_TIME_MS), search_id=None
    )
    assert option == SetOption("threads", 3)
    assert isinstance(prepare, protocol.Prepare) and prepare.spec.name == "gomoku"


def test_a_command_waits_for_its_answer_like_a_future() -> None:
    client, spawner, _ = client_rig()
    spawner.last.on_go = lambda engine, command: engine.say(bestmove(command["id"], "3"))
    command = client.go(Limit(time_ms=100))
    assert command.wait(5.0)
    final = command.result()
    assert isinstance(final, BestMove) and final.move == "3"


def test_a_wait_ends_at_its_timeout_when_no_answer_comes() -> None:
    client, _, _ = client_rig()  # the scripted engine never answers a go unless told to
    command = client.go(Limit(time_ms=100))
    assert command.wait(0.05) is False
    assert command.result(0.01) is None and not command.done


def test_a_command_delivered_by_another_thread_wakes_its_waiter() -> None:
    command = EngineCommand(7, "go")  # no pump: another thread reads the lines
    started = threading.Event()

    def deliver() -> None:
        started.wait(5.0)
        command.deliver(bestmove(7, "5"))

    thread = threading.Thread(target=deliver)
    thread.start()
    started.set()
    final = command.result(timeout=5.0)
    thread.join(5.0)
    assert isinstance(final, BestMove) and final.move == "5"


@pytest.mark.parametrize("searching", [True, False])
def test_a_restart_says_in_a_typed_field_whether_the_search_was_resumed(searching: bool) -> None:
    client, spawner, clock = client_rig()
    run_for(client, clock, 0.1)
    if searching:
        client.go(Limit(time_ms=5000))
    spawner.last.die(1)
    restarts = [r for r in run_for(client, clock, 5.0) if isinstance(r, EngineRestarted)]
    assert restarts and restarts[0].resumed is searching
    sent_again = [c for c in spawner.last.sent if c["cmd"] == "go"]
    assert bool(sent_again) is searching


def _sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_no_command_dict_is_built_outside_the_command_module() -> None:
    command_module = ROOT / "ai" / "vocab" / "commands.py"
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources("ai", "game")
        if path != command_module
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"""["']cmd["']\s*:""", line)
    ]
    assert not offenders, "commands built by hand (use ai.vocab.commands):\n" + "\n".join(offenders)


def test_the_engine_side_never_polls_with_sleeps() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources("ai")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bsleep\(", line) and "# sleep-ok:" not in line
    ]
    assert not offenders, "ai/ sleeps (wait on a condition; a benchmark's modelled time says # sleep-ok:):\n" + (
        "\n".join(offenders)
    )


TEXT_FIELDS = {"message", "reason"}


def _is_text_field(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in TEXT_FIELDS


def _calls_words_of_a_name(node: ast.AST) -> bool:
    """``name.startswith(...)`` / ``name.endswith(...)``: in a match guard, the words of a captured reason."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    return node.func.attr in ("startswith", "endswith") and isinstance(node.func.value, ast.Name)


def text_decisions(source: str) -> list[int]:
    """Lines that decide on the words of a ``.message`` / ``.reason``: ``"x" in r.message``,
    ``r.reason.startswith(...)``, and pattern matching on a reason's words (a guard calling ``startswith``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
            if any(_is_text_field(right) for right in node.comparators):
                found.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            words = node.func.attr in ("startswith", "endswith", "find", "index", "count")
            if words and _is_text_field(node.func.value):
                found.append(node.lineno)
        elif isinstance(node, ast.match_case) and node.guard is not None:
            found.extend(
                call.lineno
                for call in ast.walk(node.guard)
                if isinstance(call, ast.Call) and _calls_words_of_a_name(call)
            )
    return found


def test_the_text_decision_finder_finds_each_form() -> None:
    assert text_decisions('if "resumed" not in reply.message:\n    pass\n') == [1]
    assert text_decisions("ok = event.reason.startswith('connection lost')\n") == [1]
    assert text_decisions("match e:\n    case Ended(reason) if reason.startswith('lost'):\n        pass\n") == [2]
    assert text_decisions("if reply.resumed:\n    pass\n") == []


def test_no_decision_reads_the_text_of_a_message() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in _sources("ai", "game")
        for line in text_decisions(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "decisions on message text (read a typed field instead): " + ", ".join(offenders)


def test_a_scripted_engine_is_still_a_transport() -> None:  # the fake keeps up with the Transport protocol
    engine = ScriptedEngine()
    engine.wait_readable(0.0)
    assert engine.wait_exit(0.0) is None
