"""The engine protocol reader: every command shape, and hostile lines rejected in one line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.client.api import Limit
from ai.engine import protocol
from ai.engine.protocol import Go, ProtocolError, SetPosition, Solve
from ai.vocab import wire
from ai.vocab.commands import Quit, Stop


def test_position_string_and_list_agree() -> None:
    a = protocol.parse_command('{"cmd": "position", "moves": "4453"}')
    b = protocol.parse_command('{"cmd": "position", "game": "connect4", "moves": ["4", "4", "5", "3"]}')
    assert isinstance(a, SetPosition) and isinstance(b, SetPosition)
    assert a.position == b.position
    assert a.position.to_text() == "4453"
    assert a.spec.name == "connect4"


def test_position_start_and_other_game() -> None:
    cmd = protocol.parse_command('{"cmd": "position", "game": "connect4:8x7", "moves": []}')
    assert isinstance(cmd, SetPosition)
    assert cmd.position.ply == 0 and cmd.spec.width == 8


def test_go_fields() -> None:
    cmd = protocol.parse_command('{"cmd": "go", "time_ms": 250, "info_ms": 100, "id": 7}')
    assert cmd == Go(limit=Limit(time_ms=250.0), search_id=7, info_ms=100.0, exact=True)
    cmd = protocol.parse_command('{"cmd": "go", "iterations": 5000, "exact": false}')
    assert cmd == Go(limit=Limit(iterations=5000), search_id=None, exact=False)
    cmd = protocol.parse_command('{"cmd": "go", "time_ms": 50, "early_stop": false}')
    assert isinstance(cmd, Go) and cmd.early_stop is False
    with pytest.raises(ProtocolError, match="early_stop"):
        protocol.parse_command('{"cmd": "go", "time_ms": 50, "early_stop": "no"}')


def test_simple_and_solve() -> None:
    assert protocol.parse_command('{"cmd": "stop"}') == Stop()
    assert protocol.parse_command('{"cmd": "quit"}') == Quit()
    assert protocol.parse_command('{"cmd": "solve", "id": "x"}') == Solve(limit=Limit(time_ms=500.0), search_id="x")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"moves": "44"}', 'missing "cmd"'),
        ('{"cmd": "dance"}', "unknown cmd"),
        ('{"cmd": "go"}', "needs"),
        ('{"cmd": "go", "time_ms": -5}', "between"),
        ('{"cmd": "go", "time_ms": "fast"}', "must be a number"),
        ('{"cmd": "go", "time_ms": true}', "must be a number"),
        ('{"cmd": "go", "iterations": 10, "id": [1]}', '"id"'),
        ('{"cmd": "position", "moves": "4448"}', "out of range"),
        ('{"cmd": "position", "moves": "1111111"}', "full"),
        ('{"cmd": "position", "moves": "12121212"}', "over"),
        ('{"cmd": "position", "moves": 44}', '"moves"'),
        ('{"cmd": "position", "game": "chess"}', "unknown game"),
        ('{"cmd": "position", "moves": ["4", "x"]}', "'x'"),
    ],
)
def test_bad_lines_get_one_line_reasons(line: str, fragment: str) -> None:
    with pytest.raises(ProtocolError) as info:
        protocol.parse_command(line)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_fuzz_text_never_raises_anything_but_protocol_error(line: str) -> None:
    try:
        protocol.parse_command(line)
    except ProtocolError as exc:
        assert str(exc) and "\n" not in str(exc)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=2000, deadline=None)
@given(
    st.sampled_from(["position", "go", "stop", "solve", "quit", "isready", "bogus"]),
    st.dictionaries(
        st.sampled_from(["game", "moves", "time_ms", "iterations", "info_ms", "id", "exact"]), _json_values, max_size=5
    ),
)
def test_fuzz_command_objects(cmd: str, fields: dict[str, Any]) -> None:
    line = json.dumps({"cmd": cmd, **fields})
    try:
        protocol.parse_command(line)
    except ProtocolError as exc:
        assert str(exc) and "\n" not in str(exc)


def test_dumps_rejects_nan_by_clamping_values() -> None:
    assert protocol._prob(float("nan")) == 0.5
    assert protocol._prob(1.7) == 1.0
    assert json.loads(wire.dumps(protocol.error("a\nb"))) == {"type": "error", "message": "a"}


# -- replies: one definition, encoded by the engine and decoded by the client --------------------
def _samples() -> list[object]:
    from ai.vocab import results as r

    child = r.ChildLine("4", 10, 0.5, "win", 3)
    return [
        r.Ready("engine", "1", ("connect4", "gomoku"), 12.5, 3, ("connect4",)),
        r.ReadyOk(),
        r.Info(7, 100, 12.0, 0.25, 5, ("4", "4"), False, None, (child,)),
        r.BestMove("x", 100, 12.0, 1.0, 5, (), True, "win", (child,), move="4"),
        r.Info(8, 50, 3.0, 1.0, 7, ("h8", "h9"), False, "win", (), forced=r.ForcedLine(13, "VCF")),
        r.Solution(8, -2, (r.SolvedMove("1", None), r.SolvedMove("4", -2)), True, 3.5),
        r.ErrorReply("bad line"),
        r.ErrorReply("bad go", 9),
        r.Preparing("uttt", 1, 3, "uttt search", True),
        r.OptionSet("threads", 2),
        r.EngineRestarted("restarted"),
        r.EngineFailed("failed", 2.0),
        r.EngineAvailable("back"),
    ]


@pytest.mark.parametrize("reply", _samples(), ids=lambda reply: type(reply).__name__)
def test_every_reply_round_trips_through_the_wire(reply: object) -> None:
    line = wire.dumps(reply)  # type: ignore[arg-type]
    assert "\n" not in line
    assert wire.decode(json.loads(line)) == reply


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "bestmove", "id": 1},  # fields missing
        {"type": "readyok", "extra": 1, "type2": 2} | {"type": "nonsense"},
        {"type": "preparing", "game": "x", "done": "1", "total": 2, "label": "", "compiling": False},  # wrong type
        {"type": "option", "name": "threads", "value": True},  # a bool is not an int
        {
            "type": "info",
            "id": 1,
            "iterations": 1,
            "elapsed_ms": float("nan"),
            "value": 0.5,
            "max_depth": 1,
            "pv": [],
            "exact": False,
            "proven": None,
            "children": [],
        },
        ["type", "ready"],
    ],
)
def test_malformed_replies_are_refused_in_one_line(obj: object) -> None:
    with pytest.raises(ValueError) as caught:
        wire.decode(obj)
    assert "\n" not in str(caught.value) and str(caught.value)
