"""The typed messages of the network protocol (``game.net.messages``): every server message type
round-trips through its line, a malformed line is one line of error, the server's own lines decode to
the values it meant (a field renamed on either side fails here), and client messages reach the
server's parser as they were built."""

from __future__ import annotations

import asyncio
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from game.net.messages import (
    Decline,
    DrawOffer,
    Error,
    Illegal,
    LastAction,
    OpponentNews,
    Player,
    Pong,
    RematchNews,
    Sent,
    ServerLineError,
    ServerMessage,
    Unknown,
    Update,
    Welcome,
    client_json,
    decode_server_line,
    encode_client,
)
from game.net.room import Room
from game.net.store import GameStore
from game.net.wire import EXTENSIONS, Action, Command, Hello, parse_client_line
from game.rules.registry import get_game

pytestmark = pytest.mark.timeout(60)

C4_STATE = {"pieces": [{"type": "disc", "player": 1, "row": 0, "column": 3}], "player": 2, "previous_player": 1}
EXAMPLES: list[ServerMessage] = [
    Player(2),
    Player(1, EXTENSIONS),
    Update({"pieces": [], "player": 1, "previous_player": 2}),
    Update(C4_STATE, LastAction(1, {"column": 3}, 1), game="connect4", moves="4", clocks_ms=(59_000, 60_000)),
    Update(C4_STATE, LastAction(2, {"column": 3}), {"1": 0.0, "2": 1.0}, {"1": -1.0, "2": 1.0}, reason="resign"),
    Welcome("player", "uttt", "friday", "g1", 1, "tok", 60.0, 300_000),
    Welcome("spectator", "connect4", "friday", "g1", None, None, 60.0),
    Illegal({"column": 9}),
    Illegal("draw"),
    Error('{"type": "dance"}', "unknown message type 'dance'"),
    Error("line longer than 65536 bytes"),
    Decline("the server is full: too many connections, try again later"),
    OpponentNews("disconnected", 2, 60.0),
    OpponentNews("back", 2),
    DrawOffer(1),
    Pong(),
    RematchNews("offer", 1),
    RematchNews("declined"),
    Unknown("chat", {"message": "hi"}),
]


def _line(message: ServerMessage) -> str:
    return json.dumps(message.to_json())


def test_the_examples_cover_every_server_message_type() -> None:
    assert {type(m) for m in EXAMPLES} == set(typing.get_args(ServerMessage))


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_server_message_round_trips_through_its_line(message: ServerMessage) -> None:
    assert decode_server_line(_line(message)) == message


MALFORMED = {
    "not json": "{nope",
    "deep nesting": "[" * 100_000 + "]" * 100_000,
    "a list": "[1, 2]",
    "no type": '{"message": 1}',
    "seat 3": '{"type": "player", "message": 3}',
    "seat true": '{"type": "player", "message": true}',
    "extensions not a list": '{"type": "player", "message": 1, "extensions": "hello"}',
    "state not an object": '{"type": "update", "state": [1]}',
    "winners not an object": '{"type": "update", "state": {}, "winners": "1"}',
    "last action without action": '{"type": "update", "state": {}, "last_action": {"player": 1}}',
    "moves not text": '{"type": "update", "state": {}, "moves": 44}',
    "clock of one seat": '{"type": "update", "state": {}, "clocks_ms": {"1": 5}}',
    "welcome as what": '{"type": "welcome", "message": "king", "game": "connect4"}',
    "welcome without game": '{"type": "welcome", "message": "player"}',
    "grace not a number": '{"type": "welcome", "message": "player", "game": "connect4", "grace_s": "long"}',
    "opponent seat 0": '{"type": "opponent", "message": "back", "seat": 0}',
}


@pytest.mark.parametrize("line", MALFORMED.values(), ids=list(MALFORMED))
def test_a_malformed_line_is_one_line_of_error(line: str) -> None:
    with pytest.raises(ServerLineError) as caught:
        decode_server_line(line)
    text = str(caught.value)
    assert text.startswith("the server ") and "\n" not in text and len(text) < 200, text


# -- the server's own lines, decoded: a field renamed on either side changes a value here --------------------
class FakeClient:
    def __init__(self) -> None:
        self.extended = True
        self.lines: list[str] = []

    def send(self, message: Sent) -> None:
        self.lines.append(json.dumps(message.to_json()))

    def close_soon(self) -> None:
        pass

    def decoded(self) -> list[ServerMessage]:
        return [decode_server_line(line) for line in self.lines]


def _play_a_room(tmp_path: Path) -> tuple[Room, FakeClient, FakeClient, FakeClient]:
    async def scenario() -> tuple[Room, FakeClient, FakeClient, FakeClient]:
        store = GameStore(tmp_path / "games.db")
        room = Room(get_game("connect4"), store, room="friday", clock_ms=300_000, grace_s=45.0)
        ann, bob, eve = FakeClient(), FakeClient(), FakeClient()
        room.take_seat(ann, 1)
        room.take_seat(bob, 2)
        room.watch(eve)
        room.act(ann, {"column": 3})
        room.offer_draw(bob)
        room.resign(ann)
        store.close()
        return room, ann, bob, eve

    return asyncio.run(scenario())


def test_the_servers_lines_decode_to_what_the_server_meant(tmp_path: Path) -> None:
    room, ann, bob, eve = _play_a_room(tmp_path)
    welcome = ann.decoded()[0]
    assert welcome == Welcome("player", "connect4", "friday", room.game_id, 1, room.tokens[0], 45.0, 300_000)
    assert bob.decoded()[1] == Player(2)
    watching = eve.decoded()[0]
    assert isinstance(watching, Welcome) and watching.spectator
    updates = [m for m in ann.decoded() if isinstance(m, Update)]
    first, moved, last = updates[0], updates[1], updates[-1]
    assert (first.moves, first.game, first.to_move, first.clocks_ms) == ("", "connect4", 1, (300_000, 300_000))
    assert moved.last_action is not None and moved.last_action.player == 1
    assert moved.last_action.action == {"column": 3} and moved.last_action.sequence == 1
    assert (moved.moves, moved.to_move, moved.pieces) == ("4", 2, 1)
    assert last.winners == {"1": 0, "2": 1} and last.reason == "resign" and last.over
    assert DrawOffer(2) in ann.decoded()


def test_a_public_games_first_line_announces_the_extensions() -> None:
    line = json.dumps(Player(2, EXTENSIONS).to_json())
    assert line == '{"type": "player", "message": 2, "extensions": ' + json.dumps(list(EXTENSIONS)) + "}"
    message = decode_server_line(line)
    assert isinstance(message, Player) and message.offers_hello
    assert not Player(2).offers_hello


def test_a_seed_client_hears_only_the_seed_fields_of_an_update() -> None:
    update = Update(C4_STATE, LastAction(1, {"column": 3}, 1), game="connect4", moves="4", clocks_ms=(5, 6), reason="x")
    assert update.to_json(extended=False) == {
        "type": "update",
        "board": None,
        "state": C4_STATE,
        "last_action": {"player": 1, "action": {"column": 3}, "sequence": 1},
    }


# -- client -> server -----------------------------------------------------------------------------------
CLIENT_EXAMPLES = [
    Hello("uttt", "friday", clock_ms=300_000, name="ann"),
    Hello(token="SEAT-TOKEN"),
    Hello(room="friday", spectate=True),
    Hello(),
    Action({"column": 3}),
    Action({"row": 1, "column": 2}, seat=2),
    Command("resign"),
    Command("draw"),
    Command("ping"),
    Command("rematch"),
]


@pytest.mark.parametrize("message", CLIENT_EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_client_message_reaches_the_servers_parser_as_built(message: Hello | Action | Command) -> None:
    line = encode_client(message)
    assert line.endswith(b"\r\n") and line.count(b"\n") == 1
    assert parse_client_line(line.decode()) == message


def test_client_lines_are_the_seed_protocols_bytes() -> None:
    assert encode_client(Action({"column": 3})) == b'{"type": "action", "message": {"column": 3}}\r\n'
    assert encode_client(Hello(token="t")) == b'{"type": "hello", "token": "t"}\r\n'
    assert encode_client(Command("resign")) == b'{"type": "resign"}\r\n'


def test_a_hello_sends_only_what_it_asks_for() -> None:
    data: dict[str, Any] = client_json(Hello("connect4", "r"))
    assert data == {"type": "hello", "game": "connect4", "room": "r"}
