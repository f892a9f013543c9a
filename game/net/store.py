"""Games in progress, kept in SQLite so a server killed with SIGKILL restarts with every game.

One row per game. A move is committed before any client hears of it, so a move a client saw is
never lost: writes (``create``, ``record_move``, ``finish``) are queued, and ``after_write`` runs a
callback (the server sends every message through it) only once everything queued before it is
committed. Inside an asyncio loop the writes of one loop iteration go into one transaction at
the start of the next (group commit); outside a loop each write commits at once.

WAL journal with ``synchronous=NORMAL``: a commit is one ``write`` into the WAL (no fsync), so it
survives the process being killed; only a power cut may lose the last commits. The fsync happens
when the WAL is copied back into the database (checkpoint): that runs in a background thread on
its own connection (``PRAGMA wal_checkpoint(PASSIVE)``, about once a second while there are
writes), never on the event loop. The file lives in the user's data directory (platformdirs)
unless ``--db`` or ``CONNECT4_SERVER_DB`` names another.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.rules.base import GameSpec, Position
from game.rules.registry import get_game

APP_NAME = "connect4-mcts"
DB_FILE = "server-games.sqlite3"
CHECKPOINT_EVERY_S = 1.0
RETRY_AFTER_S = 0.5  # a failed commit (disk full, locked file) is retried; nobody is told meanwhile
REPORT_EVERY_S = 10.0  # a failing database is reported at most this often
BUSY_TIMEOUT_S = 0.05  # how long a commit waits for a lock another program holds (it blocks the loop)


def default_db_path() -> Path:
    override = os.environ.get("CONNECT4_SERVER_DB")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / DB_FILE


@dataclass(frozen=True)
class StoredGame:
    game_id: str
    game: str
    room: str | None
    moves: tuple[int, ...]
    tokens: tuple[str, str]  # seat 1, seat 2
    clocks_ms: tuple[int, int] | None  # time left per seat when the last move was made
    over: bool

    def position(self) -> Position:
        spec: GameSpec = get_game(self.game)
        pos = spec.start()
        for move in self.moves:
            pos = pos.play(move)
        return pos


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    room TEXT,
    moves TEXT NOT NULL,
    tokens TEXT NOT NULL,
    clocks TEXT,
    over INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    finished_at REAL
)
"""


class GameStore:
    """The server's table of games (one connection, used from the event loop's thread)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        in_memory = str(path) == ":memory:"
        if not in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.damaged: list[tuple[str, str]] = []  # (id, reason) of the rows unfinished() set aside
        self.commits = 0  # transactions committed (each holds the writes of one loop iteration)
        self.failures = 0  # commits that failed (retried)
        self._said_at = -REPORT_EVERY_S
        self._db = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_S)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "finished_at" not in columns:  # a file written before finished games could be pruned
            self._db.execute("ALTER TABLE games ADD COLUMN finished_at REAL")
        self._writes: list[tuple[str, tuple[Any, ...]]] = []
        self._waiting: collections.deque[Callable[[], None]] = collections.deque()  # run once the writes are in
        self._flush_scheduled = False
        self._checkpointer = None if in_memory else _Checkpointer(str(path))
        if self._checkpointer is not None:
            self._db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it, off the loop

    # -- writes ---------------------------------------------------------------------------------------
    def create(self, game: StoredGame) -> None:
        self._queue(
            "INSERT INTO games (id, game, room, moves, tokens, clocks, over) VALUES (?, ?, ?, ?, ?, ?, 0)",
            (
                game.game_id,
                game.game,
                game.room,
                json.dumps(list(game.moves)),
                json.dumps(list(game.tokens)),
                None if game.clocks_ms is None else json.dumps(list(game.clocks_ms)),
            ),
        )

    def record_move(self, game_id: str, moves: tuple[int, ...], clocks_ms: tuple[int, int] | None) -> None:
        self._queue(
            "UPDATE games SET moves = ?, clocks = ? WHERE id = ?",
            (json.dumps(list(moves)), None if clocks_ms is None else json.dumps(list(clocks_ms)), game_id),
        )

    def finish(self, game_id: str, result: dict[str, object]) -> None:
        self._queue(
            "UPDATE games SET over = 1, result = ?, finished_at = ? WHERE id = ?",
            (json.dumps(result), time.time(), game_id),
        )

    def prune(self, days: float) -> int:
        """Delete the games that finished more than ``days`` ago; how many. Unfinished games, damaged
        ones (set aside) and games finished before this column existed are kept."""
        self.flush()
        cursor = self._db.execute(
            "DELETE FROM games WHERE over = 1 AND finished_at IS NOT NULL AND finished_at < ?",
            (time.time() - days * 86400,),
        )
        return cursor.rowcount

    @property
    def pending(self) -> bool:
        """Writes not committed yet (or callbacks waiting for them)."""
        return bool(self._writes or self._waiting)

    def after_write(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once every write queued so far is committed: at once if none is pending."""
        if not self.pending:
            callback()
            return
        self._waiting.append(callback)

    def _queue(self, sql: str, params: tuple[Any, ...]) -> None:
        self._writes.append((sql, params))
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (tools, tests): commit now
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self.flush)

    def flush(self) -> bool:
        """Commit the queued writes in one transaction, then run the callbacks waiting for them.
        On a database error nothing is told: the writes stay queued and are retried."""
        self._flush_scheduled = False
        writes, self._writes = self._writes, []
        if writes:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for sql, params in writes:
                    self._db.execute(sql, params)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                self._writes = writes + self._writes
                self.failures += 1
                now = time.monotonic()
                if now - self._said_at >= REPORT_EVERY_S:  # one line per interval, not per retry
                    self._said_at = now
                    print(
                        f"server: cannot write the games database ({exc}); retrying every {RETRY_AFTER_S:g} s "
                        f"({self.failures} failed commits so far)",
                        file=sys.stderr,
                        flush=True,
                    )
                self._retry_later()
                return False
            self.commits += 1
            if self._checkpointer is not None:
                self._checkpointer.dirty.set()
        waiting, self._waiting = self._waiting, collections.deque()
        for callback in waiting:
            callback()
        return True

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _retry_later(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._flush_scheduled = True
        loop.call_later(RETRY_AFTER_S, self.flush)

    # -- reads ----------------------------------------------------------------------------------------
    def unfinished(self) -> list[StoredGame]:
        """Every unfinished game that reads back whole. Each row is checked (its game, moves replayed,
        tokens, clocks); a damaged one is counted in ``damaged`` with its reason and set aside
        (``over = -1``, the reason in ``result``): kept in the file, never restored, never deleted."""
        self.flush()
        rows = self._db.execute("SELECT id, game, room, moves, tokens, clocks FROM games WHERE over = 0").fetchall()
        games = []
        for row in rows:
            try:
                game = _checked_row(*row)
            except Exception as exc:  # noqa: BLE001 - whatever is wrong with a row, it only costs that game
                self.set_aside(str(row[0]), str(exc) or type(exc).__name__)
                continue
            games.append(game)
        return games

    def set_aside(self, game_id: str, reason: str) -> None:
        """Mark a damaged game so it is neither restored nor pruned; its row stays as it was otherwise."""
        self.damaged.append((game_id, reason[:120]))
        self._queue("UPDATE games SET over = -1, result = ? WHERE id = ?", (json.dumps({"damaged": reason}), game_id))

    @property
    def skipped(self) -> list[str]:
        return [game_id for game_id, _ in self.damaged]

    def result(self, game_id: str) -> tuple[tuple[int, ...], dict[str, object] | None] | None:
        self.flush()
        row = self._db.execute("SELECT moves, result FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return tuple(json.loads(row[0])), None if row[1] is None else json.loads(row[1])

    def close(self) -> None:
        self.flush()
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self._db.close()


def _int_list(text: Any, what: str, size: int | None = None) -> list[int]:
    values = json.loads(text)
    if not isinstance(values, list) or (size is not None and len(values) != size):
        raise ValueError(f"{what} is not a list" + (f" of {size}" if size else ""))
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 40:
            raise ValueError(f"{what} holds {json.dumps(value)[:20]}, not a small integer")
    return values


def _checked_row(game_id: Any, game: Any, room: Any, moves: Any, tokens: Any, clocks: Any) -> StoredGame:
    """A stored row as a game, every field checked (the moves replayed); ValueError/GameError if damaged."""
    if not isinstance(game_id, str) or not isinstance(game, str) or not (room is None or isinstance(room, str)):
        raise ValueError("id, game or room is not text")
    seat_tokens = json.loads(tokens)
    if not (
        isinstance(seat_tokens, list) and len(seat_tokens) == 2 and all(isinstance(t, str) and t for t in seat_tokens)
    ):
        raise ValueError("tokens are not two strings")
    clock_pair = None if clocks is None else _int_list(clocks, "clocks", 2)
    stored = StoredGame(
        game_id,
        game,
        room,
        tuple(_int_list(moves, "moves")),
        (seat_tokens[0], seat_tokens[1]),
        None if clock_pair is None else (clock_pair[0], clock_pair[1]),
        False,
    )
    if stored.position().outcome.is_over:
        raise ValueError("the moves end the game, but it is not marked over")
    return stored


class _Checkpointer(threading.Thread):
    """Copies the WAL back into the database file (and fsyncs it) on its own connection, off the
    event loop; a PASSIVE checkpoint never blocks the loop's commits."""

    def __init__(self, path: str) -> None:
        super().__init__(name="sqlite-checkpoint", daemon=True)
        self.path = path
        self.dirty = threading.Event()
        self._stopping = threading.Event()
        self.start()

    def run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stopping.is_set():
                self.dirty.wait()
                self._stopping.wait(CHECKPOINT_EVERY_S)  # at most one checkpoint a second
                self.dirty.clear()
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    pass  # busy or failing disk: the WAL keeps the commits; next time
        finally:
            db.close()

    def stop(self) -> None:
        self._stopping.set()
        self.dirty.set()
        self.join(timeout=10)
