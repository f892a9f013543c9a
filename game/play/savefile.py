"""Saved games: a small JSON file with the game name and the moves in the project's notation.

``{"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": "4453"}``, optionally with
``"cursor"`` (the shown move), ``"evals"`` (see ``game.play.game_files``) and ``"variations"`` (the move tree
beside the main line, see ``game.play.variations``; readers that do not know it load the main line).
Loading also accepts a bare position string (``4453``) or ``game: moves`` (colon and space) on one line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from game.play.safe_read import MAX_FILE_BYTES, excerpt, read_regular_text
from game.rules import GameSpec, get_game
from game.rules.errors import GameError

FORMAT = "connect4-mcts-game"
SUFFIX = ".c4game.json"
MESSAGE_CHARS = 160  # error messages quote at most this much of the user's text


class SaveFileError(ValueError):
    """A saved game that cannot be read; the message is one line."""


def game_to_json(
    spec: GameSpec,
    moves: tuple[int, ...] | list[int],
    cursor: int | None = None,
    variations: list[dict[str, object]] | None = None,
) -> str:
    data: dict[str, object] = {"format": FORMAT, "version": 1, "game": spec.name, "moves": spec.moves_to_text(moves)}
    if cursor is not None and cursor != len(moves):
        data["cursor"] = cursor
    if variations:
        data["variations"] = variations
    return json.dumps(data, indent=2) + "\n"


def read_field(text: str, name: str) -> object:
    """The raw value of a top-level field of a saved game's JSON text (None when absent or not JSON)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data.get(name) if isinstance(data, dict) else None


def read_evals(text: str, moves: int) -> dict[int, tuple[float, bool]]:
    """The ``evals`` of a saved game's text (empty when there are none or the text is not JSON)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    raw = data.get("evals") if isinstance(data, dict) else None
    out: dict[int, tuple[float, bool]] = {}
    for key, item in raw.items() if isinstance(raw, dict) else ():
        if not (isinstance(key, str) and key.isdigit() and isinstance(item, list) and len(item) == 2):
            continue
        value, exact = item
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and 0 <= value <= 1
            and isinstance(exact, bool)
            and int(key) <= moves
        ):
            out[int(key)] = (float(value), exact)
    return out


def split_game_text(text: str, default_game: str = "connect4") -> tuple[str, str, int | None]:
    """The game name, the moves text and the cursor of a saved game or position string, unchecked
    against the rules; SaveFileError (one line) when the text has no such shape."""
    stripped = text.strip().lstrip("\ufeff")
    cursor = None
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise SaveFileError(f"not a valid game file: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise SaveFileError("not a valid game file: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer longer than Python converts
            raise SaveFileError(f"not a valid game file: {excerpt(str(exc), 80)}") from None
        if not isinstance(data, dict) or not isinstance(data.get("moves", ""), str):
            raise SaveFileError('not a game file: expected an object with "game" and "moves"')
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
        raise SaveFileError('not a game file: "game" must be a string')
    return game, moves_text, cursor


def parse_game_text(text: str, default_game: str = "connect4") -> tuple[GameSpec, tuple[int, ...], int | None]:
    """Parse a saved game or a position string; raise SaveFileError with one bounded line."""
    game, moves_text, cursor = split_game_text(text, default_game)
    try:
        spec = get_game(game)
        pos = spec.parse_position(moves_text)
    except GameError as exc:
        raise SaveFileError(excerpt(str(exc), MESSAGE_CHARS)) from None
    moves = tuple(pos.history)
    if cursor is not None and not (0 <= cursor <= len(moves)):
        cursor = None
    return spec, moves, cursor


def legal_prefix(spec: GameSpec, moves_text: str) -> tuple[int, ...]:
    """The moves of ``moves_text`` up to the first one that is malformed or illegal."""
    spaced = " " in spec.moves_to_text(spec.start().legal_moves()[:2])
    tokens = moves_text.split() if spaced else list(moves_text.strip())
    pos = spec.start()
    for token in tokens:
        try:
            pos = pos.play(spec.parse_move(token))
        except GameError:
            break
    return tuple(pos.history)


GameTuple = tuple[GameSpec, tuple[int, ...], int | None]


def read_small_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text (a BOM is accepted) of a small regular file: never blocks on a FIFO, never reads
    more than ``limit`` bytes. ValueError for anything else than a small regular UTF-8 file; OSError."""
    return read_regular_text(path, limit)


def load_game(path: str | os.PathLike[str], default_game: str = "connect4") -> GameTuple:
    try:
        text = read_small_text(path)
    except UnicodeDecodeError:
        raise SaveFileError(f"cannot read {_shown(path)}: not UTF-8 text") from None
    except OSError as exc:
        raise SaveFileError(f"cannot read {_shown(path)}: {getattr(exc, 'strerror', None) or exc}") from None
    except ValueError as exc:
        raise SaveFileError(f"{excerpt(str(exc), MESSAGE_CHARS)}: not a saved game") from None
    return parse_game_text(text, default_game)


def _shown(path: str | os.PathLike[str]) -> str:
    return excerpt(os.fsdecode(path), MESSAGE_CHARS)


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
