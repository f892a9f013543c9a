"""The engine protocol's commands as types, one class per ``cmd``, encoded and decoded by this module only.

The client (``ai.client.engine_client``) builds these and sends ``encode(command)``; the engine
(``ai.engine.protocol``) reads a line with ``decode(line)`` and then resolves names (the game, its moves, the
level) into the objects it searches with. Both ends use the same field names, the same defaults (written once,
here) and the same checks, in the style of python-chess's typed engine commands. Every rejection is a
``ProtocolError`` with a one-line message. See docs/engine-protocol.md.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ai.vocab.level_table import LEVEL_NAMES
from ai.vocab.limits import MAX_ITERATIONS, MAX_LINE, MAX_MOVES_TEXT, MAX_THREADS, MAX_TIME_MS

SOLVE_TIME_MS = 500.0  # a solve without a time limit gets this one (the client and the engine alike)
MIN_INFO_MS = 10.0  # the shortest period of info lines
OPTIONS = {"threads": (1, MAX_THREADS)}  # setoption: name -> (lowest, highest) value

SearchIdValue = int | float | str | None  # any JSON scalar, echoed on the command's replies


class ProtocolError(ValueError):
    """A line the engine cannot act on; the message is one line."""


@dataclass(frozen=True)
class Position:
    """``{"cmd": "position", "game": "connect4", "moves": "4453"}``: the position to search next. ``moves``: a
    position string, or a list of move strings (the engine reads both)."""

    CMD: ClassVar[str] = "position"
    game: str = "connect4"
    moves: str | tuple[str, ...] = ""


@dataclass(frozen=True)
class Go:
    """``{"cmd": "go", "time_ms": 1000, "iterations": 5000, ...}``: search within the budget (at least one of
    ``time_ms`` and ``iterations``, or a level that caps the iterations). ``exact`` None: not given (true, and the
    only choice beside a ``level``, which decides it)."""

    CMD: ClassVar[str] = "go"
    id: SearchIdValue = None
    time_ms: float | None = None
    iterations: int | None = None
    info_ms: float | None = None
    exact: bool | None = None
    early_stop: bool = True
    level: str | None = None


@dataclass(frozen=True)
class Solve:
    """``{"cmd": "solve", "time_ms": 500, "id": 8}``: the solver's look at every column of the position."""

    CMD: ClassVar[str] = "solve"
    id: SearchIdValue = None
    time_ms: float = SOLVE_TIME_MS


@dataclass(frozen=True)
class Ponder:
    """``{"cmd": "ponder", "id": 9}``: think on the opponent's time until the next command that changes it."""

    CMD: ClassVar[str] = "ponder"
    id: SearchIdValue = None
    exact: bool = True
    info_ms: float | None = None


@dataclass(frozen=True)
class Stop:
    """``{"cmd": "stop"}``: end the running search now (it answers its best move so far)."""

    CMD: ClassVar[str] = "stop"


@dataclass(frozen=True)
class Quit:
    """``{"cmd": "quit"}``: the engine exits."""

    CMD: ClassVar[str] = "quit"


@dataclass(frozen=True)
class IsReady:
    """``{"cmd": "isready"}``: the heartbeat; the engine answers ``readyok`` at once."""

    CMD: ClassVar[str] = "isready"


@dataclass(frozen=True)
class SetOption:
    """``{"cmd": "setoption", "name": "threads", "value": 3}``: from the next search on."""

    CMD: ClassVar[str] = "setoption"
    name: str
    value: int


@dataclass(frozen=True)
class Prepare:
    """``{"cmd": "prepare", "game": "gomoku"}``: prepare this game's compiled code next."""

    CMD: ClassVar[str] = "prepare"
    game: str = "connect4"


Command = Position | Go | Solve | Ponder | Stop | Quit | IsReady | SetOption | Prepare
COMMANDS: dict[str, type[Command]] = {
    c.CMD: c for c in (Position, Go, Ponder, Stop, Solve, IsReady, SetOption, Prepare, Quit)
}


SIMPLE: dict[str, Command] = {"stop": Stop(), "quit": Quit(), "isready": IsReady()}  # the commands with no field


def encode(command: Command) -> str:
    """The command's line (JSON, no newline): its ``cmd`` and every field that is not None."""
    data: dict[str, Any] = {"cmd": command.CMD}
    for field in fields(command):
        value = getattr(command, field.name)
        if value is not None:
            data[field.name] = list(value) if isinstance(value, tuple) else value
    return json.dumps(data, separators=(",", ":"))


def decode(line: str) -> Command:
    """The command of one input line, or ProtocolError saying what is wrong with it."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line too long ({len(line)} characters, at most {MAX_LINE})")
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {_short(exc)}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(f"expected a JSON object, got {type(obj).__name__}")
    cmd = obj.get("cmd")
    if not isinstance(cmd, str):
        raise ProtocolError('missing "cmd" (one of: ' + ", ".join(COMMANDS) + ")")
    if cmd == "position":
        return Position(_game(obj), _moves(obj))
    if cmd == "go":
        return _go(obj)
    if cmd == "solve":
        return Solve(_search_id(obj), _number(obj, "time_ms", 1, MAX_TIME_MS) or SOLVE_TIME_MS)
    if cmd == "ponder":
        return Ponder(_search_id(obj), _flag(obj, "exact"), _number(obj, "info_ms", MIN_INFO_MS, MAX_TIME_MS))
    if cmd == "setoption":
        return _option(obj)
    if cmd == "prepare":
        return Prepare(_game(obj))
    if cmd in SIMPLE:
        return SIMPLE[cmd]
    raise ProtocolError(f"unknown cmd {cmd[:40]!r} (one of: {', '.join(COMMANDS)})")


def search_id_of(line: str) -> SearchIdValue:
    """The usable ``id`` of a line (None when it has none or the line is not a JSON object), so that an error
    about a rejected go or solve reaches the command that will never be answered."""
    try:
        obj = json.loads(line)
        return _search_id(obj) if isinstance(obj, dict) else None
    except (ValueError, RecursionError):  # (ProtocolError is a ValueError)
        return None


def _go(obj: dict[str, Any]) -> Go:
    iterations = _number(obj, "iterations", 1, MAX_ITERATIONS)
    level = obj.get("level")
    if level is not None and (not isinstance(level, str) or level not in LEVEL_NAMES):
        raise ProtocolError('"level" must be one of: ' + ", ".join(LEVEL_NAMES))
    if level is not None and "exact" in obj:
        raise ProtocolError('"exact" cannot be given with "level" (the level decides)')
    return Go(
        id=_search_id(obj),
        time_ms=_number(obj, "time_ms", 1, MAX_TIME_MS),
        iterations=None if iterations is None else int(iterations),
        info_ms=_number(obj, "info_ms", MIN_INFO_MS, MAX_TIME_MS),
        exact=_flag(obj, "exact") if "exact" in obj else None,
        early_stop=_flag(obj, "early_stop"),
        level=level,
    )


def _option(obj: dict[str, Any]) -> SetOption:
    name = obj.get("name")
    if not isinstance(name, str) or name not in OPTIONS:
        raise ProtocolError('"name" must be one of: ' + ", ".join(OPTIONS))
    low, high = OPTIONS[name]
    value = obj.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f'"value" of {name} must be a whole number from {low} to {high}')
    return SetOption(name, value)


def _game(obj: dict[str, Any]) -> str:
    name = obj.get("game", "connect4")
    if not isinstance(name, str):
        raise ProtocolError('"game" must be a string such as "connect4"')
    return name[:100]


def _moves(obj: dict[str, Any]) -> str | tuple[str, ...]:
    moves = obj.get("moves", "")
    if isinstance(moves, str | list) and len(moves) > MAX_MOVES_TEXT:
        raise ProtocolError(f'"moves" is too long ({len(moves)}, at most {MAX_MOVES_TEXT})')
    if isinstance(moves, str):
        return moves
    if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
        return tuple(moves)
    raise ProtocolError('"moves" must be a position string or a list of move strings')


def _flag(obj: dict[str, Any], key: str) -> bool:
    """An optional true/false field (true when absent)."""
    value = obj.get(key, True)
    if not isinstance(value, bool):
        raise ProtocolError(f'"{key}" must be true or false')
    return value


def _number(obj: dict[str, Any], key: str, low: float, high: float) -> float | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(f'"{key}" must be a number')
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f'"{key}" must be a finite number')
    if not low <= value <= high:  # exact for ints of any size (float() of a huge int overflows)
        shown = f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else "a huge number"
        raise ProtocolError(f'"{key}" must be between {low:g} and {high:g}, got {shown}')
    return float(value)


def _search_id(obj: dict[str, Any]) -> SearchIdValue:
    value = obj.get("id")
    if value is None or isinstance(value, bool | int | float | str):
        if isinstance(value, str) and len(value) > 100:
            raise ProtocolError('"id" is too long (at most 100 characters)')
        if isinstance(value, float) and not math.isfinite(value):
            raise ProtocolError('"id" must be a finite number or a string')
        if isinstance(value, int) and abs(value) >= 10**18:
            raise ProtocolError('"id" is too large (at most 18 digits)')
        return value
    raise ProtocolError('"id" must be a number or a string')


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
