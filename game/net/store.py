"""Games in progress, kept in SQLite so a server killed with SIGKILL restarts with every game.

One row per game. A move is committed before any client hears of it, so a move a client saw is
never lost. WAL journal with ``synchronous=NORMAL``: a commit survives the process being killed
(only a power cut may lose the last commits). The file lives in the user's data directory
(platformdirs) unless ``--db`` or ``CONNECT4_SERVER_DB`` names another.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from game.base import GameSpec, Position
from game.registry import get_game

APP_NAME = "connect4-mcts"
DB_FILE = "server-games.sqlite3"


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
    result TEXT
)
"""


class GameStore:
    """The server's table of games (one connection, used from the event loop's thread)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.skipped: list[str] = []  # ids of unreadable rows met by unfinished()
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def create(self, game: StoredGame) -> None:
        self._db.execute(
            "INSERT INTO games (id, game, room, moves, tokens, clocks, over) VALUES (?, ?, ?, ?, ?, ?, 0)",
            (game.game_id, game.game, game.room, json.dumps(list(game.moves)), json.dumps(list(game.tokens)),
             None if game.clocks_ms is None else json.dumps(list(game.clocks_ms))),
        )

    def record_move(self, game_id: str, moves: tuple[int, ...], clocks_ms: tuple[int, int] | None) -> None:
        self._db.execute("UPDATE games SET moves = ?, clocks = ? WHERE id = ?",
                         (json.dumps(list(moves)), None if clocks_ms is None else json.dumps(list(clocks_ms)),
                          game_id))

    def finish(self, game_id: str, result: dict[str, object]) -> None:
        self._db.execute("UPDATE games SET over = 1, result = ? WHERE id = ?", (json.dumps(result), game_id))

    def unfinished(self) -> list[StoredGame]:
        rows = self._db.execute("SELECT id, game, room, moves, tokens, clocks FROM games WHERE over = 0").fetchall()
        games = []
        for game_id, game, room, moves, tokens, clocks in rows:
            try:
                seat_tokens = json.loads(tokens)
                clock_pair = None if clocks is None else tuple(int(v) for v in json.loads(clocks))
                games.append(StoredGame(game_id, game, room, tuple(int(m) for m in json.loads(moves)),
                                        (str(seat_tokens[0]), str(seat_tokens[1])), clock_pair,  # type: ignore[arg-type]
                                        False))
            except (ValueError, TypeError, IndexError, KeyError):
                self.skipped.append(str(game_id))  # a damaged row: that game is not restored
        return games

    def result(self, game_id: str) -> tuple[tuple[int, ...], dict[str, object] | None] | None:
        row = self._db.execute("SELECT moves, result FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return tuple(json.loads(row[0])), None if row[1] is None else json.loads(row[1])

    def close(self) -> None:
        self._db.close()
