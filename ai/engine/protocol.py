"""Engine protocol: parse command lines and format replies (see docs/engine-protocol.md).

Pure functions over JSON, no processes and no search, so every hostile line can be tested
quickly. Every rejection is a ``ProtocolError`` with a one-line message.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ai.search.levels import LEVEL_NAMES, Level, capped_iterations
from ai.search.levels import level as level_named
from ai.vocab.limits import MAX_ITERATIONS, MAX_LINE, MAX_MOVES_TEXT, MAX_THREADS, MAX_TIME_MS, Limit
from ai.vocab.results import PROVEN_TEXT, BestMove, ChildLine, ErrorReply, Info, SearchResult
from game.rules import GameError, get_game
from game.rules.base import GameSpec, Position


class ProtocolError(ValueError):
    """A line the engine cannot act on; the message is one line."""


@dataclass(frozen=True)
class SetPosition:
    spec: GameSpec
    position: Position


@dataclass(frozen=True, kw_only=True)
class Go:
    """``{"cmd": "go", "time_ms": 1000, "iterations": 5000, ...}``: search within ``limit``."""

    limit: Limit
    search_id: Any
    info_ms: float | None = None
    exact: bool = True
    early_stop: bool = True
    level: Level | None = None  # a playing level: its iteration cap and exactness are in the fields above


@dataclass(frozen=True, kw_only=True)
class Solve:
    """``{"cmd": "solve", "time_ms": 500}``: the solver's look at the position (``limit.time_ms`` always set)."""

    limit: Limit
    search_id: Any


@dataclass(frozen=True, kw_only=True)
class Ponder:
    """``{"cmd": "ponder", "id": 9}``: think on the opponent's time about the current position until
    the next command that changes it (see docs/engine-protocol.md)."""

    search_id: Any
    exact: bool = True
    info_ms: float | None = None  # with it, ``info`` lines every info_ms (the ponder's visits), like a go's


@dataclass(frozen=True)
class Simple:
    """``stop``, ``quit`` or ``isready``."""

    cmd: str


@dataclass(frozen=True)
class SetOption:
    """``{"cmd": "setoption", "name": "threads", "value": 3}``: from the next search on."""

    name: str
    value: int


@dataclass(frozen=True)
class Prepare:
    """``{"cmd": "prepare", "game": "gomoku"}``: prepare this game's compiled code next."""

    spec: GameSpec


Command = SetPosition | Go | Solve | Ponder | Simple | SetOption | Prepare

_KNOWN = ("position", "go", "ponder", "stop", "solve", "isready", "setoption", "prepare", "quit")
OPTIONS = {"threads": (1, MAX_THREADS)}


def parse_command(line: str) -> Command:
    """Turn one input line into a command, or raise ProtocolError saying what is wrong."""
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
        raise ProtocolError('missing "cmd" (one of: ' + ", ".join(_KNOWN) + ")")
    if cmd == "position":
        return _parse_position(obj)
    if cmd == "go":
        return _parse_go(obj)
    if cmd == "solve":
        solve_ms = _number(obj, "time_ms", 1, MAX_TIME_MS, default=500.0) or 500.0
        return Solve(limit=Limit(time_ms=solve_ms), search_id=_search_id(obj))
    if cmd == "ponder":
        info_ms = _number(obj, "info_ms", 10, MAX_TIME_MS)
        return Ponder(search_id=_search_id(obj), exact=_flag(obj, "exact"), info_ms=info_ms)
    if cmd in ("stop", "quit", "isready"):
        return Simple(cmd)
    if cmd == "setoption":
        return _parse_option(obj)
    if cmd == "prepare":
        return Prepare(_parse_game(obj))
    raise ProtocolError(f"unknown cmd {cmd[:40]!r} (one of: {', '.join(_KNOWN)})")


def _parse_option(obj: dict[str, Any]) -> SetOption:
    name = obj.get("name")
    if not isinstance(name, str) or name not in OPTIONS:
        raise ProtocolError('"name" must be one of: ' + ", ".join(OPTIONS))
    low, high = OPTIONS[name]
    value = obj.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f'"value" of {name} must be a whole number from {low} to {high}')
    return SetOption(name, value)


def _parse_game(obj: dict[str, Any]) -> GameSpec:
    name = obj.get("game", "connect4")
    if not isinstance(name, str):
        raise ProtocolError('"game" must be a string such as "connect4"')
    try:
        return get_game(name[:100])
    except GameError as exc:
        raise ProtocolError(str(exc).splitlines()[0][:200]) from None


def _parse_position(obj: dict[str, Any]) -> SetPosition:
    spec = _parse_game(obj)
    moves = obj.get("moves", "")
    if isinstance(moves, str | list) and len(moves) > MAX_MOVES_TEXT:
        raise ProtocolError(f'"moves" is too long ({len(moves)}, at most {MAX_MOVES_TEXT})')
    try:
        if isinstance(moves, str):
            position = spec.parse_position(moves)
        elif isinstance(moves, list) and all(isinstance(m, str) for m in moves):
            position = spec.start()
            for i, text in enumerate(moves):
                try:
                    position = position.play(spec.parse_move(text))
                except GameError as exc:
                    raise ProtocolError(f"move {i + 1} ({text[:20]!r}): {exc}") from None
        else:
            raise ProtocolError('"moves" must be a position string or a list of move strings')
    except GameError as exc:
        raise ProtocolError(str(exc)) from None
    return SetPosition(spec, position)


def _parse_go(obj: dict[str, Any]) -> Go:
    time_ms = _number(obj, "time_ms", 1, MAX_TIME_MS)
    iterations = _number(obj, "iterations", 1, MAX_ITERATIONS)
    lv = _parse_level(obj)
    its = capped_iterations(lv, None if iterations is None else int(iterations)) if lv else iterations
    if time_ms is None and its is None:
        raise ProtocolError('"go" needs "time_ms" and/or "iterations"')
    info_ms = _number(obj, "info_ms", 10, MAX_TIME_MS)
    exact = _flag(obj, "exact")
    if lv is not None:
        if "exact" in obj:
            raise ProtocolError('"exact" cannot be given with "level" (the level decides)')
        exact = lv.exact
    early_stop = _flag(obj, "early_stop")
    if lv is not None and lv.iterations is not None:
        early_stop = False  # a capped level searches its whole cap: the same visits on any machine, at any load
    return Go(
        limit=Limit(time_ms=time_ms, iterations=None if its is None else int(its)),
        search_id=_search_id(obj),
        info_ms=info_ms,
        exact=exact,
        early_stop=early_stop,
        level=lv,
    )


def _parse_level(obj: dict[str, Any]) -> Level | None:
    name = obj.get("level")
    if name is None:
        return None
    if not isinstance(name, str) or name not in LEVEL_NAMES:
        raise ProtocolError('"level" must be one of: ' + ", ".join(LEVEL_NAMES))
    return level_named(name)


def _flag(obj: dict[str, Any], key: str) -> bool:
    """An optional true/false field (true when absent)."""
    value = obj.get(key, True)
    if not isinstance(value, bool):
        raise ProtocolError(f'"{key}" must be true or false')
    return value


def _number(obj: dict[str, Any], key: str, low: float, high: float, default: float | None = None) -> float | None:
    value = obj.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(f'"{key}" must be a number')
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f'"{key}" must be a finite number')
    if not low <= value <= high:  # exact for ints of any size (float() of a huge int overflows)
        shown = f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else "a huge number"
        raise ProtocolError(f'"{key}" must be between {low:g} and {high:g}, got {shown}')
    return float(value)


def _search_id(obj: dict[str, Any]) -> Any:
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


def error(message: str, search_id: Any = None) -> ErrorReply:
    return ErrorReply(message.splitlines()[0][:300] if message else "error", search_id)


def result_message(
    kind: str,
    spec: GameSpec,
    result: SearchResult,
    search_id: Any,
    *,
    move: int | None = None,
    level: str | None = None,
    choice: str | None = None,
) -> Info:
    """An ``info`` or ``bestmove`` reply from a search result; a level's bestmove gives the ``move`` its rule
    chose (else the search's best move), the level's name and how the move was chosen."""
    children = tuple(
        ChildLine(spec.move_to_text(c.move), int(c.visits), _prob(c.value), PROVEN_TEXT.get(c.proven), c.score)
        for c in result.children
    )
    fields = dict(
        id=search_id,
        iterations=int(result.iterations),
        elapsed_ms=round(float(result.elapsed_ms), 1),
        value=_prob(result.value),
        max_depth=int(result.max_depth),
        pv=tuple(spec.move_to_text(m) for m in result.pv),
        exact=bool(getattr(result, "exact", False)),
        proven=PROVEN_TEXT.get(getattr(result, "proven", None)),
        children=children,
        forced=result.forced if result.proven in (1, -1) else None,
    )
    if kind == "bestmove":
        played = result.best_move if move is None else move
        return BestMove(**fields, move=spec.move_to_text(played), level=level, choice=choice)
    return Info(**fields)


def _prob(value: float) -> float:
    value = float(value)
    return 0.5 if not math.isfinite(value) else round(min(1.0, max(0.0, value)), 4)
