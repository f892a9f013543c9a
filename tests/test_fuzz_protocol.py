"""Fuzz both ends of the engine protocol in-process (no search runs):

* the engine's reader: ``protocol.parse_command`` and ``Engine.handle`` (parse + dispatch) on
  hostile lines: only ``ProtocolError``s from the parser, and the engine answers every bad
  line with exactly one JSON ``error`` line (carrying the go/solve ``id`` when it has one);
* the app's reader: ``ProcessTransport._read_stdout`` and ``client.decode_line`` on hostile engine
  output: only typed replies reach ``poll_replies()``, lines are bounded, and the reader thread
  never dies before the end-of-stream marker.
"""

from __future__ import annotations

import io
import json
import queue
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.client.engine_client import decode_line
from ai.client.transport import MAX_REPLY_BYTES, ProcessTransport
from ai.engine import protocol
from ai.engine.process import Engine
from ai.engine.protocol import ProtocolError
from ai.vocab.commands import Quit
from ai.vocab.results import REPLY_TYPES

FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HUGE = "9" * 400
HOSTILE_LINES = [
    '{"cmd": "go", "time_ms": ' + HUGE + "}",
    '{"cmd": "go", "iterations": ' + HUGE + "}",
    '{"cmd": "go", "iterations": -' + HUGE + "}",
    '{"cmd": "go", "info_ms": ' + HUGE + ', "iterations": 5}',
    '{"cmd": "solve", "time_ms": ' + HUGE + "}",
    '{"cmd": "go", "iterations": 5, "id": ' + HUGE + "}",
    '{"cmd": "go", "iterations": 5, "id": NaN}',
    '{"cmd": "go", "iterations": 5, "id": Infinity}',
    '{"cmd": "go", "time_ms": NaN}',
    '{"cmd": "go", "time_ms": -Infinity}',
    '{"cmd": "go", "time_ms": 1e999}',
    '{"cmd": "go", "iterations": 1' + "0" * 5000 + "}",  # beyond Python's int-parsing limit
    '{"cmd": "position", "moves": ' + "[" * 50_000 + "]" * 50_000 + "}",
    '{"cmd": "position", "moves": "' + "4" * 70_000 + '"}',
    '{"cmd": "position", "moves": "' + "1234567" * 7 + '"}',
    '{"cmd": "position", "moves": ["4", 4]}',
    '{"cmd": "position", "moves": [' + '"4",' * 43 + '"4"]}',
    '{"cmd": "position", "game": "uttt", "moves": "e5 e5"}',
    '{"cmd": "position", "game": "mnk:99x99:9"}',
    '{"cmd": "position", "game": null}',
    '{"cmd": "position", "game": "connect4", "moves": "\\ud800"}',
    '{"cmd": "position", "moves": "4\\u0000"}',
    '{"cmd": ' + "1" * 10 + "}",
    '{"cmd": "go", "cmd": "quit"}',
    '{"cmd": "GO", "iterations": 1}',
    '{"cmd": "go", "exact": "yes", "iterations": 1}',
    "\x00",
    "\ufeff{}",
    "{" * 100_000,
]


def _rejection_is_clean(line: str) -> protocol.Command | None:
    try:
        return protocol.parse_command(line)
    except ProtocolError as exc:
        message = str(exc)
        assert message.strip() and "\n" not in message and len(message) < 400, repr(message[:200])
        return None


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=range(len(HOSTILE_LINES)))
def test_hostile_lines(line: str) -> None:
    command = _rejection_is_clean(line)
    if isinstance(command, protocol.Go | protocol.Solve):
        json.dumps(command.search_id, allow_nan=False)  # an id the engine can echo
    if line.startswith('{"cmd": "go"') and ("NaN" in line or "Infinity" in line or "1e999" in line or HUGE in line):
        assert command is None  # none of these is a usable budget or id


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**40), 10**40)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["connect4", "uttt", "gomoku", "mnk:6x6:4", "4453", "a1 b2", "e5 e5"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
_command_objects = st.builds(
    lambda cmd, fields: {"cmd": cmd, **fields},
    st.sampled_from(["position", "go", "stop", "solve", "quit", "isready", "setoption", "prepare", "bogus", ""]),
    st.dictionaries(
        st.sampled_from(["game", "moves", "time_ms", "iterations", "info_ms", "id", "exact", "cmd", "name", "value"]),
        _json_values,
        max_size=5,
    ),
)
protocol_lines = st.one_of(
    _command_objects.map(json.dumps),
    _json_values.map(json.dumps),
    st.text(max_size=100),
    st.binary(max_size=100).map(lambda b: b.decode("utf-8", errors="replace")),
)


@FUZZ
@given(protocol_lines)
def test_fuzz_parse_command(line: str) -> None:
    command = _rejection_is_clean(line)
    if isinstance(command, protocol.Go | protocol.Solve):
        json.dumps(command.search_id, allow_nan=False)


# -- the engine's dispatch, with searches replaced by a recorder ---------------------------------
class RecordingEngine(Engine):
    """The real Engine.handle/_dispatch; starting a search only records it."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        super().__init__(self.out)
        self.started: list[object] = []

    def _start(self, target, command) -> None:  # type: ignore[no-untyped-def]
        self.started.append(command)

    def lines(self) -> list[dict[str, Any]]:
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def engine() -> RecordingEngine:
    return RecordingEngine()


def _check_handled(engine: RecordingEngine, line: str) -> None:
    engine.started.clear()
    keep_going = engine.handle(line)
    replies = engine.lines()
    for reply in replies:
        assert reply["type"] in ("error", "readyok", "option"), reply
        if reply["type"] == "error":
            assert reply["message"] and "\n" not in reply["message"]
            assert "internal error" not in reply["message"], reply["message"]
    try:
        command = protocol.parse_command(line)
    except ProtocolError:
        assert len(replies) == 1 and replies[0]["type"] == "error"
        return
    if isinstance(command, Quit):
        assert keep_going is False
        return
    assert keep_going is True
    if isinstance(command, protocol.Go | protocol.Solve):
        # either the search started, or exactly one error tells the client (by id) it never will
        if engine.started:
            assert replies == []
        else:
            assert len(replies) == 1 and replies[0]["type"] == "error" and replies[0].get("id") == command.search_id


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=range(len(HOSTILE_LINES)))
def test_engine_answers_hostile_lines(engine: RecordingEngine, line: str) -> None:
    _check_handled(engine, line)


@FUZZ
@given(protocol_lines)
def test_fuzz_engine_handle(engine: RecordingEngine, line: str) -> None:
    _check_handled(engine, line)


def test_rejected_go_echoes_its_id(engine: RecordingEngine) -> None:
    engine.handle('{"cmd": "go", "time_ms": -1, "id": 42}')
    assert engine.lines() == [{"type": "error", "message": '"time_ms" must be between 1 and 3.6e+06, got -1', "id": 42}]
    engine.handle('{"cmd": "position", "moves": "1212121"}')
    engine.handle('{"cmd": "go", "iterations": 10, "id": "x"}')
    (reply,) = engine.lines()
    assert reply["type"] == "error" and reply["id"] == "x" and "over" in reply["message"]


# -- the app's reader of engine output -----------------------------------------------------------
engine_output = st.lists(
    st.one_of(
        st.binary(max_size=60),
        _json_values.map(lambda v: json.dumps(v).encode()),
        _command_objects.map(lambda v: json.dumps(v).encode()),
        st.sampled_from([b"[" * 100_000, b'{"type": "info", "value": NaN}', b"\xff\xfe", b"", b"\n" * 5]),
    ),
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(engine_output)
def test_fuzz_client_reader(chunks: list[bytes]) -> None:
    transport = ProcessTransport.__new__(ProcessTransport)  # only its reader, no process
    transport._inbox = queue.Queue()
    transport._early = []
    transport._read_stdout(io.BytesIO(b"\n".join(chunks)))  # runs to the end of the stream
    items = transport.receive()
    assert items and items[-1] is None, "the end-of-stream marker must always arrive"
    for raw in items[:-1]:
        assert raw is not None and len(raw) <= MAX_REPLY_BYTES + 1
        assert isinstance(decode_line(raw), REPLY_TYPES)


def test_client_reader_drops_an_endless_line() -> None:
    transport = ProcessTransport.__new__(ProcessTransport)
    transport._inbox = queue.Queue()
    transport._early = []
    transport._read_stdout(io.BytesIO(b"x" * (5 * MAX_REPLY_BYTES) + b"\n" + b'{"type": "readyok"}\n'))
    first, second, end = transport.receive()
    assert first is not None and len(first) < 100 and "non-protocol" in decode_line(first).message  # type: ignore[union-attr]
    assert second is not None and decode_line(second).TYPE == "readyok" and end is None
