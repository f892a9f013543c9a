"""Saved games: a small JSON file with the game name and the moves in the project's notation.

``{"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": "4453"}``.
Loading also accepts a bare position string (``4453``) or ``game: moves`` (colon and space) on one line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from game import GameSpec, get_game
from game.errors import GameError

FORMAT = "connect4-mcts-game"
SUFFIX = ".c4game.json"


class SaveFileError(ValueError):
    """A saved game that cannot be read; the message is one line."""


def game_to_json(spec: GameSpec, moves: tuple[int, ...] | list[int], cursor: int | None = None) -> str:
    data: dict[str, object] = {"format": FORMAT, "version": 1, "game": spec.name, "moves": spec.moves_to_text(moves)}
    if cursor is not None and cursor != len(moves):
        data["cursor"] = cursor
    return json.dumps(data, indent=2) + "\n"


def parse_game_text(text: str, default_game: str = "connect4") -> tuple[GameSpec, tuple[int, ...], int | None]:
    """Parse a saved game or a position string; raise SaveFileError with one line."""
    stripped = text.strip()
    cursor = None
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise SaveFileError(f"not a valid game file: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise SaveFileError("not a valid game file: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer longer than Python converts
            raise SaveFileError(f"not a valid game file: {str(exc).splitlines()[0][:80]}") from None
        if not isinstance(data, dict) or not isinstance(data.get("moves", ""), str):
            raise SaveFileError("not a game file: expected an object with \"game\" and \"moves\"")
        game = data.get("game", default_game)
        moves_text = data.get("moves", "")
        raw_cursor = data.get("cursor")
        if isinstance(raw_cursor, int) and not isinstance(raw_cursor, bool):
            cursor = raw_cursor
    elif ": " in stripped.split("\n", 1)[0]:
        game, _, moves_text = stripped.partition(": ")
    else:
        game, moves_text = default_game, stripped
    if not isinstance(game, str):
        raise SaveFileError("not a game file: \"game\" must be a string")
    try:
        spec = get_game(game)
        pos = spec.parse_position(moves_text)
    except GameError as exc:
        raise SaveFileError(str(exc)) from None
    moves = tuple(pos.history)
    if cursor is not None and not (0 <= cursor <= len(moves)):
        cursor = None
    return spec, moves, cursor


GameTuple = tuple[GameSpec, tuple[int, ...], int | None]


MAX_FILE_BYTES = 1_000_000


def read_small_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a small file; ValueError if it is larger than ``limit`` bytes (never reads
    more than that, so /dev/zero or a huge file cannot exhaust memory). OSError as usual."""
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path} is too large (over {limit // 1000} kB)")
    return data.decode("utf-8")


def load_game(path: str | os.PathLike[str], default_game: str = "connect4") -> GameTuple:
    try:
        text = read_small_text(path)
    except UnicodeDecodeError:
        raise SaveFileError(f"cannot read {path}: not UTF-8 text") from None
    except OSError as exc:
        raise SaveFileError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    except ValueError as exc:
        raise SaveFileError(f"{exc}: not a saved game") from None
    return parse_game_text(text, default_game)


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
