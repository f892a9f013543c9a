"""docs/network-protocol.md says what the server does: every message type it can send, the fields of
what an extended client receives (asked of a live server), the end reasons, the limits and options."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from game.net import connection, messages, room, serve_cli, server, wire
from game.net.server import GameServer, Limits
from game.net.store import GameStore

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "network-protocol.md").read_text(encoding="utf-8")
SOURCES = "".join(
    (ROOT / "game" / "net" / name).read_text(encoding="utf-8")
    for name in ("server.py", "lobby.py", "room.py", "rematch.py")
)


def _doc_row(first_cell: str) -> list[str]:
    """The cells of the doc's table row that starts with ``first_cell``."""
    row = next(line for line in DOC.splitlines() if line.startswith(f"| {first_cell} |"))
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_every_message_type_the_server_sends_is_documented() -> None:
    classes = {cls.__name__: cls.TYPE for cls in typing.get_args(messages.Sent)}
    sent = {classes[name] for name in re.findall(r"\b(" + "|".join(classes) + r")\(", SOURCES)}
    assert {"decline", "error", "illegal", "welcome", "opponent", "draw_offer", "pong", "rematch"} <= sent
    missing = sorted(kind for kind in sent if f'"type": "{kind}"' not in DOC)
    assert not missing, f"sent by the server, not in the doc: {missing}"
    assert sent >= wire.BASE_TYPES


def test_every_end_reason_is_documented() -> None:
    reasons = set(re.findall(r'_end\([^\n]*"([a-z]+)"', SOURCES))
    assert reasons == {"rules", "resign", "agreed", "time", "abandoned"}
    for reason in reasons:
        assert f"`{reason}`" in DOC


def test_the_limits_table_gives_the_servers_defaults_and_options() -> None:
    limits = Limits()
    parser = argparse.ArgumentParser()
    serve_cli.add_arguments(parser)
    options = {opt for action in parser._actions for opt in action.option_strings}
    expected = {
        "line length": (f"{wire.MAX_LINE_BYTES} bytes", "–"),
        "connections per address": (str(limits.max_per_address), "`--max-per-address`"),
        "connections at once": (str(limits.max_connections), "`--max-connections`"),
        "games at once": (str(limits.max_games), "`--max-games`"),
        "grace after a drop": (f"{room.DEFAULT_GRACE_S:g} s", "`--grace-s`"),
    }
    for name, (default, option) in expected.items():
        assert _doc_row(name)[1:] == [default, option], name
        assert option == "–" or option.strip("`") in options
    idle = next(row for row in DOC.splitlines() if row.startswith("| silence while it is your turn"))
    assert f"| {limits.idle_s:g} s | `--idle-s` |" in idle
    assert f"within {server.HELLO_WINDOW_S:g} s" in DOC
    assert f"{server.BURST_HELLO_WINDOW_S:g} s while more than {server.BURST_CONNECTIONS} connections" in DOC
    assert connection.MAX_BUFFERED_BYTES == 1 << 20 and "1 MiB" in DOC


async def _two_extended_players() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    game_server = GameServer("connect4", GameStore(":memory:"))
    _, port = await game_server.start("127.0.0.1", 0)
    streams = []
    for _ in range(2):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        announced = json.loads(await asyncio.wait_for(reader.readline(), 5))
        assert announced["type"] == "player" and "hello" in announced["extensions"]  # the documented opening
        writer.write(b'{"type": "hello", "room": "doc", "clock_ms": 60000}\r\n')
        streams.append((reader, writer))
    received: list[list[dict[str, Any]]] = [[], []]
    for i, (reader, _) in enumerate(streams):
        while not any(m["type"] == "update" for m in received[i]):
            received[i].append(json.loads(await asyncio.wait_for(reader.readline(), 5)))
    mover = next(i for i in (0, 1) if received[i][0]["seat"] == 1)
    streams[mover][1].write(b'{"type": "action", "message": {"column": 3}}\r\n')
    streams[mover][1].write(b'{"type": "ping"}\r\nnot json\r\n')
    for _ in range(3):
        received[mover].append(json.loads(await asyncio.wait_for(streams[mover][0].readline(), 5)))
    for _, writer in streams:
        writer.close()
    return received[mover], received[1 - mover]


@pytest.mark.timeout(20)
def test_what_an_extended_client_receives_has_the_documented_fields() -> None:
    mover, other = asyncio.run(_two_extended_players())
    welcome = mover[0]
    assert welcome["type"] == "welcome" and welcome["message"] == "player"
    cell = next(line for line in DOC.splitlines() if line.startswith('| `{"type": "welcome"'))
    documented = set(re.findall(r'"([a-z_]+)"', cell.split("` |")[0])) - {"welcome", "player", "spectator"}
    assert set(welcome) == documented
    assert [m["type"] for m in mover[1:3]] == ["player", "update"]
    update = mover[3]  # after the move: the extension fields the doc lists
    assert update["type"] == "update" and update["last_action"] == {"player": 1, "action": {"column": 3}, "sequence": 1}
    assert update["moves"] == "4" and set(update["clocks_ms"]) == {"1", "2"} and update["game"] == "connect4"
    assert mover[4] == {"type": "pong", "message": None}
    error = mover[5]
    assert error["type"] == "error" and error["message"] == "not json" and "reason" in error
    assert "`reason`" in DOC.split("## Extensions")[1]  # the extended error's reason field is documented
    assert [m["type"] for m in other] == ["welcome", "player", "update"]
