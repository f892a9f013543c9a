"""The game store's group commit: nothing waiting on ``after_write`` runs before the writes queued
ahead of it are committed (readable from another connection), one transaction per loop iteration,
and a failed commit tells nobody until a retry succeeds."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from game.net import store as store_module
from game.net.connection import Connection
from game.net.store import GameStore, StoredGame
from tests.waiting import wait_until_async


def _game(game_id: str) -> StoredGame:
    return StoredGame(game_id, "connect4", None, (), ("t1", "t2"), None, False)


def _committed_moves(db: Path, game_id: str) -> str | None:
    """The moves another process would read now."""
    other = sqlite3.connect(db)
    try:
        row = other.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        other.close()
    return None if row is None else str(row[0])


@pytest.mark.timeout(20)
def test_callbacks_run_only_after_the_commit_and_one_commit_per_iteration(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = GameStore(db)

    async def scenario() -> tuple[list[str | None], list[str | None], int]:
        store.create(_game("g1"))
        seen: list[str | None] = []
        store.after_write(lambda: seen.append(_committed_moves(db, "g1")))
        before_commit = list(seen)
        for ply in range(1, 31):  # thirty moves in one loop iteration
            store.record_move("g1", tuple(range(ply)), None)
        store.after_write(lambda: seen.append(_committed_moves(db, "g1")))
        await asyncio.sleep(0)  # sleep-ok: yields the loop once (no time passes)
        await asyncio.sleep(0)  # sleep-ok: and once more, for the commit's callbacks
        return before_commit, seen, store.commits

    try:
        before_commit, seen, commits = asyncio.run(scenario())
    finally:
        store.close()
    assert before_commit == []  # queued: nobody told yet
    assert seen[0] is not None  # the game row was committed before the first callback ran
    assert seen[-1] == str(list(range(30)))  # the last move was readable when its callback ran
    assert commits == 1


@pytest.mark.timeout(20)
def test_a_failed_commit_tells_nobody_until_the_retry_succeeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "RETRY_AFTER_S", 0.2)
    db = tmp_path / "games.db"
    store = GameStore(db)
    store.create(_game("g1"))  # no loop running: committed at once
    locker = sqlite3.connect(db, isolation_level=None)

    async def scenario() -> tuple[list[str], list[str]]:
        told: list[str] = []
        locker.execute("BEGIN IMMEDIATE")  # another writer holds the database
        store.record_move("g1", (3, 3), None)
        store.after_write(lambda: told.append("update"))
        await wait_until_async(lambda: store.failures >= 2, 10, "the commit to fail and be retried")
        while_locked = list(told)  # the commit failed (busy) and was retried: still locked
        locker.execute("ROLLBACK")
        await wait_until_async(lambda: told, 10, "the update once the file is free")
        return while_locked, told

    try:
        while_locked, told = asyncio.run(scenario())
    finally:
        locker.close()
        store.close()
    assert while_locked == []
    assert told == ["update"]
    assert _committed_moves(db, "g1") == "[3, 3]"


@pytest.mark.timeout(30)
def test_the_server_writes_no_update_before_its_move_is_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.net import server as server_module

    events: list[tuple[str, int]] = []  # ("committed", moves stored) / ("update", its move number)

    class WatchedStore(GameStore):
        """Logs each COMMIT with the longest game it stored (the callbacks run right after it)."""

        def flush(self) -> bool:
            self.plies = [
                len(json.loads(params[0])) for sql, params in self._writes if sql.startswith("UPDATE games SET moves")
            ] + [len(json.loads(params[3])) for sql, params in self._writes if sql.startswith("INSERT")]
            return super().flush()

    class LoggedConnection:
        def __init__(self, db: sqlite3.Connection, store: WatchedStore) -> None:
            self.db, self.store = db, store

        def execute(self, sql: str, *params: Any) -> sqlite3.Cursor:
            cursor = self.db.execute(sql, *params)
            if sql == "COMMIT" and self.store.plies:
                events.append(("committed", max(self.store.plies)))
            return cursor

        def __getattr__(self, name: str) -> object:
            return getattr(self.db, name)

    real_write = Connection._write

    def watched_write(self: Connection, message: object) -> None:
        last = getattr(message, "last_action", None)
        if last is not None:
            events.append(("update", last.sequence))
        real_write(self, message)  # type: ignore[arg-type]

    monkeypatch.setattr(Connection, "_write", watched_write)

    async def game() -> None:
        store = WatchedStore(tmp_path / "games.db")
        store._db = LoggedConnection(store._db, store)  # type: ignore[assignment]
        game_server = server_module.GameServer("connect4", store)
        _, port = await game_server.start("127.0.0.1", 0)
        players = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        for _, writer in players:
            writer.write(b'{"type": "hello", "room": "order"}\r\n')
        seats = {}
        for reader, writer in players:
            while True:
                message = json.loads(await asyncio.wait_for(reader.readline(), 5))
                if message["type"] == "welcome":
                    seats[message["seat"]] = (reader, writer)
                    break
        for number, column in enumerate((3, 3, 4, 4, 5, 5, 6), start=1):  # seat 1 wins on the seventh move
            _, writer = seats[1 if number % 2 else 2]
            writer.write(json.dumps({"type": "action", "message": {"column": column}}).encode() + b"\r\n")

            def both_written(number: int = number) -> bool:  # both players' updates of this move
                return events.count(("update", number)) == 2

            await wait_until_async(both_written, 10, f"the updates of move {number}")
        game_server.store.close()

    asyncio.run(game())
    updates = [ply for kind, ply in events if kind == "update"]
    assert updates, events
    for index, (kind, ply) in enumerate(events):
        if kind == "update":
            committed = [n for k, n in events[:index] if k == "committed"]
            assert committed and max(committed) >= ply, f"update of move {ply} written before its commit: {events}"
