"""Engine protocol: read command lines and format replies (see docs/engine-protocol.md).

A line is decoded by the command types the client encodes with (``ai.vocab.commands``), then its names are
resolved: the game, its moves, the level. Pure functions, no processes and no search, so every hostile line can
be tested quickly. Every rejection is a ``ProtocolError`` with a one-line message.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ai.search.levels import Level, capped_iterations
from ai.search.levels import level as level_named
from ai.vocab import commands
from ai.vocab.commands import OPTIONS as OPTIONS
from ai.vocab.commands import ProtocolError as ProtocolError
from ai.vocab.limits import Limit
from ai.vocab.results import PROVEN_TEXT, BestMove, ChildLine, ErrorReply, Info, SearchResult
from game.rules import GameError, get_game
from game.rules.base import GameSpec, Position


@dataclass(frozen=True)
class SetPosition:
    spec: GameSpec
    position: Position


@dataclass(frozen=True, kw_only=True)
class Go:
    """A ``go`` resolved: search within ``limit`` (a level's iteration cap and exactness already applied)."""

    limit: Limit
    search_id: Any
    info_ms: float | None = None
    exact: bool = True
    early_stop: bool = True
    level: Level | None = None  # a playing level: its iteration cap and exactness are in the fields above


@dataclass(frozen=True, kw_only=True)
class Solve:
    """A ``solve`` resolved: the solver's look at the position (``limit.time_ms`` always set)."""

    limit: Limit
    search_id: Any


@dataclass(frozen=True, kw_only=True)
class Ponder:
    """A ``ponder``: think on the opponent's time about the current position until the next command that
    changes it (see docs/engine-protocol.md)."""

    search_id: Any
    exact: bool = True
    info_ms: float | None = None  # with it, ``info`` lines every info_ms (the ponder's visits), like a go's


@dataclass(frozen=True)
class Prepare:
    """A ``prepare`` resolved: prepare this game's compiled code next."""

    spec: GameSpec


Simple = commands.Stop | commands.Quit | commands.IsReady  # taken as they come
SetOption = commands.SetOption
Command = SetPosition | Go | Solve | Ponder | Simple | SetOption | Prepare


def parse_command(line: str) -> Command:
    """Turn one input line into a command the engine acts on (``ai.vocab.commands.decode``, then the game, its
    moves and the level resolved), or raise ProtocolError saying what is wrong."""
    command = commands.decode(line)
    if isinstance(command, commands.Position):
        return _parse_position(command)
    if isinstance(command, commands.Go):
        return _parse_go(command)
    if isinstance(command, commands.Solve):
        return Solve(limit=Limit(time_ms=command.time_ms), search_id=command.id)
    if isinstance(command, commands.Ponder):
        return Ponder(search_id=command.id, exact=command.exact, info_ms=command.info_ms)
    if isinstance(command, commands.Prepare):
        return Prepare(_parse_game(command.game))
    return command


def _parse_game(name: str) -> GameSpec:
    try:
        return get_game(name)
    except GameError as exc:
        raise ProtocolError(str(exc).splitlines()[0][:200]) from None


def _parse_position(command: commands.Position) -> SetPosition:
    spec = _parse_game(command.game)
    try:
        if isinstance(command.moves, str):
            position = spec.parse_position(command.moves)
        else:
            position = spec.start()
            for i, text in enumerate(command.moves):
                try:
                    position = position.play(spec.parse_move(text))
                except GameError as exc:
                    raise ProtocolError(f"move {i + 1} ({text[:20]!r}): {exc}") from None
    except GameError as exc:
        raise ProtocolError(str(exc)) from None
    return SetPosition(spec, position)


def _parse_go(command: commands.Go) -> Go:
    lv = None if command.level is None else level_named(command.level)
    its = capped_iterations(lv, command.iterations) if lv else command.iterations
    if command.time_ms is None and its is None:
        raise ProtocolError('"go" needs "time_ms" and/or "iterations"')
    exact = (command.exact is not False) if lv is None else lv.exact
    early_stop = command.early_stop
    if lv is not None and lv.iterations is not None:
        early_stop = False  # a capped level searches its whole cap: the same visits on any machine, at any load
    return Go(
        limit=Limit(time_ms=command.time_ms, iterations=its),
        search_id=command.id,
        info_ms=command.info_ms,
        exact=exact,
        early_stop=early_stop,
        level=lv,
    )


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
