"""Issue 51, item 3: what a server holds for clients that do not read is bounded: a spectator that falls
behind skips updates (its next one shows the board as it is then) and is dropped if it stays behind;
every connection's unsent bytes together stay under a cap. The transport here never sends anything
(a client that reads nothing), so what it holds is exactly what the server would hold."""

from __future__ import annotations

import asyncio
from typing import Any

from game.net.connection import (
    SPECTATOR_BEHIND_BYTES,
    SPECTATOR_BEHIND_S,
    Connection,
    SendQueues,
)
from game.net.messages import Update
from game.net.room import Room
from game.net.store import GameStore
from game.rules.registry import get_game

_LOOP = asyncio.new_event_loop()  # a reader needs a loop; whatever an earlier test left as the current one


class StuckTransport:
    """A transport whose peer reads nothing: every byte written stays unsent."""

    def __init__(self) -> None:
        self.unsent = 0
        self.aborted = False

    def is_closing(self) -> bool:
        return self.aborted

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def abort(self) -> None:
        self.aborted = True


class StuckWriter:
    def __init__(self) -> None:
        self.transport = StuckTransport()
        self.lines: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.lines.append(data)
        self.transport.unsent += len(data)


def _connection(store: GameStore, queues: SendQueues | None = None) -> tuple[Connection, StuckWriter]:
    writer = StuckWriter()
    reader = asyncio.StreamReader(loop=_LOOP)  # never read: the tests only write
    conn = Connection(reader, writer, 1 << 16, store)  # type: ignore[arg-type]
    conn.extended = True
    if queues is not None:
        conn.queues = queues
        queues.connections.add(conn)
    return conn, writer


def _update(n: int) -> Update:
    """An update of about 2 KB (a Gomoku board half full), each one a new object."""
    pieces: list[dict[str, Any]] = [{"row": i // 19, "column": i % 19, "player": 1 + i % 2} for i in range(n % 60)]
    return Update({"pieces": pieces, "player": 1, "filler": "x" * 1500}, game="gomoku", moves=str(n))


def test_a_spectator_that_never_reads_holds_a_bounded_backlog_and_gets_the_board_once_it_reads() -> None:
    store = GameStore(":memory:")
    room = Room(get_game("connect4"), store)
    conn, writer = _connection(store)
    conn.room = room
    room.spectators.add(conn)
    for n in range(600):  # about 1.2 MB of updates
        conn.send(_update(n))
    assert not writer.transport.aborted
    assert writer.transport.unsent <= SPECTATOR_BEHIND_BYTES + 4096, writer.transport.unsent
    writer.transport.unsent = 0  # it read everything at last
    conn.send(_update(600))
    assert b'"moves": "600"' in writer.lines[-1]  # the board as it is now
    store.close()


def test_a_spectator_behind_for_too_long_is_dropped() -> None:
    store = GameStore(":memory:")
    room = Room(get_game("connect4"), store)
    conn, writer = _connection(store)
    conn.room = room
    room.spectators.add(conn)
    for _ in range(100):  # about 200 KB: behind
        conn.send(_update(1))
    assert conn.behind_since is not None
    conn.behind_since -= SPECTATOR_BEHIND_S + 1  # as if that long ago
    conn.send(_update(2))
    assert writer.transport.aborted
    store.close()


def test_a_player_gets_every_update_it_is_sent() -> None:
    store = GameStore(":memory:")
    conn, writer = _connection(store)  # not a spectator
    for n in range(100):
        conn.send(_update(n))
    assert len(writer.lines) == 100 and not writer.transport.aborted
    store.close()


def test_the_unsent_bytes_of_all_connections_stay_under_the_cap() -> None:
    store = GameStore(":memory:")
    queues = SendQueues(cap=200_000)
    writers = [_connection(store, queues) for _ in range(20)]
    for n in range(200):  # 20 players that read nothing, 200 updates each: 8 MB without a cap
        for conn, _ in writers:
            conn.send(_update(n))
        # a connection with nothing unsent writes its line (the kernel takes it): one line each over the cap
        assert queues.total() <= queues.cap + len(writers) * 4096
    assert any(writer.transport.aborted for _, writer in writers)
    store.close()
