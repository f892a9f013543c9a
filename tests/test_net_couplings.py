"""Couplings between the network client and the server that nothing else checks: the client keeps trying
to come back for longer than the server keeps its seat (the default grace, and a longer one a server
announces in its ``welcome``)."""

from __future__ import annotations

import json

from game.net.client import GONE_AFTER_S, GRACE_MARGIN_S, NetClient
from game.net.messages import decode_server_line
from game.net.room import DEFAULT_GRACE_S
from game.net.wire import parse_address


def test_the_client_waits_longer_than_the_default_grace() -> None:
    assert GONE_AFTER_S > DEFAULT_GRACE_S


def test_a_longer_grace_announced_by_the_server_makes_the_client_wait_longer() -> None:
    client = NetClient(parse_address("127.0.0.1:1"))
    welcome = {"type": "welcome", "message": "player", "game": "connect4", "seat": 1, "token": "t", "grace_s": 300}
    assert client.on_event(decode_server_line(json.dumps(welcome)))
    assert client.gone_after_s == 300 + GRACE_MARGIN_S
    shorter = dict(welcome, grace_s=10)
    assert client.on_event(decode_server_line(json.dumps(shorter)))
    assert client.gone_after_s == 300 + GRACE_MARGIN_S  # never shorter than before


def test_a_patience_given_by_the_caller_is_kept() -> None:
    client = NetClient(parse_address("127.0.0.1:1"), gone_after_s=1.0)
    welcome = {"type": "welcome", "message": "player", "game": "connect4", "seat": 1, "token": "t", "grace_s": 300}
    assert client.on_event(decode_server_line(json.dumps(welcome)))
    assert client.gone_after_s == 1.0
