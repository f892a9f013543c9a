"""The messages a game server sends to its clients (docs/network-protocol.md), as typed values: the
server builds them (``game.net.room``, ``lobby``, ``server``, ``rematch``) and writes their lines
(``to_json``); every client reads them.

Every text a server sends is shown with its control characters escaped (``game.net.printable``): the
decoders escape each text field, so no client writes a server's escape sequence to a terminal.

A server line is decoded ONCE, here, by ``decode_server_line``: into one of the frozen dataclasses of
``ServerMessage``, or a ``ServerLineError`` whose message is one line (a line that is not JSON, nested
too deeply, a seat other than 1 or 2, a field of the wrong type). Every client (the app's, the
terminal's, the bot) matches on these types; none of them reads a JSON object. Each message also
knows its line (``to_json``), so a decoded message encodes back to what the server sent.

What a client sends is typed too (``game.net.wire``: ``Hello``, ``Action``, ``Command``); its line is
``encode_client``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from game.net.printable import printable, printable_keys
from game.net.wire import Action, Command, Hello, encode, strict_json

SERVER_LINE_LIMIT = 1 << 20  # a Gomoku update is a few KB; no server line of ours comes near this


class ServerLineError(Exception):
    """The server sent something a client cannot follow; the message is one line."""


# -- server -> client -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Player:
    """``player``: our seat, 1 or 2 (1 moves first). A connection's first ``player`` line of our server
    also lists the extensions a ``hello`` may ask for."""

    TYPE: ClassVar[str] = "player"
    seat: int
    extensions: tuple[str, ...] | None = None

    @property
    def offers_hello(self) -> bool:
        return self.extensions is not None and "hello" in self.extensions

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "message": self.seat}
        if self.extensions is not None:
            data["extensions"] = list(self.extensions)
        return data


@dataclass(frozen=True)
class LastAction:
    player: int
    action: Any
    sequence: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "action": self.action}
        if self.sequence is not None:
            data["sequence"] = self.sequence
        return data


@dataclass(frozen=True)
class Update:
    """``update``: the board (``state``, per game: game.net.states) after a move, and at the end the
    result. The extension fields (``game``, ``moves``, ``clocks_ms``, ``reason``) come only from our
    server to an extended client."""

    TYPE: ClassVar[str] = "update"
    state: dict[str, Any]
    last_action: LastAction | None = None
    winners: dict[str, float] | None = None
    points: dict[str, float] | None = None
    game: str | None = None
    moves: str | None = None  # the whole game in the project's notation
    clocks_ms: tuple[int, int] | None = None  # ms left for seat 1 and seat 2
    reason: str | None = None  # why the game ended: rules, resign, agreed, time, abandoned

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is (None: the state names none)."""
        player = self.state.get("player")
        return player if player in (1, 2) and not isinstance(player, bool) else None

    @property
    def pieces(self) -> int:
        return len(self.state.get("pieces") or ())

    @property
    def tells_moves(self) -> bool:
        """It shows moves (which the server stores before anyone hears of them); a game's first update does not."""
        return self.pieces > 0

    def to_json(self, extended: bool = True) -> dict[str, Any]:
        """Its line; a seed client (``extended`` False) gets only the seed protocol's fields."""
        data: dict[str, Any] = {"type": self.TYPE, "board": None, "state": self.state}
        if self.last_action is not None:
            data["last_action"] = self.last_action.to_json()
        if self.winners is not None:
            data["winners"] = self.winners
            data["points"] = self.points
        if not extended:
            return data
        if self.game is not None:
            data["game"] = self.game
        if self.moves is not None:
            data["moves"] = self.moves
        if self.clocks_ms is not None:
            data["clocks_ms"] = {"1": self.clocks_ms[0], "2": self.clocks_ms[1]}
        if self.reason is not None:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True)
class Welcome:
    """``welcome``: the answer to a ``hello`` (a seat, or a spectator's place) in a game of ``game``."""

    TYPE: ClassVar[str] = "welcome"
    role: str  # "player" or "spectator"
    game: str
    room: str | None = None
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None
    grace_s: float = 0.0
    clock_ms: int | None = None

    @property
    def spectator(self) -> bool:
        return self.role == "spectator"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "message": self.role, "game": self.game, "room": self.room}
        data |= {"game_id": self.game_id, "seat": self.seat, "grace_s": self.grace_s}
        if self.token is not None:
            data["token"] = self.token
        if self.clock_ms is not None:
            data["clock_ms"] = self.clock_ms
        return data


@dataclass(frozen=True)
class Illegal:
    """``illegal``: the server refused an action (``message`` is it) or a command (its name)."""

    TYPE: ClassVar[str] = "illegal"
    message: Any

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "message": self.message}


@dataclass(frozen=True)
class Error:
    """``error``: a line the server could not take (``message``: its start); ``reason`` for extended clients."""

    TYPE: ClassVar[str] = "error"
    message: Any
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"type": self.TYPE, "message": self.message}
        return data if self.reason is None else data | {"reason": self.reason}


@dataclass(frozen=True)
class Decline:
    """``decline``: no seat (the server is full, an expired token...); the server closes the connection."""

    TYPE: ClassVar[str] = "decline"
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "message": self.message}


@dataclass(frozen=True)
class OpponentNews:
    """``opponent``: the other player ``disconnected`` (its seat kept ``grace_s``) or is ``back``."""

    TYPE: ClassVar[str] = "opponent"
    news: str
    seat: int | None = None
    grace_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "message": self.news, "seat": self.seat}
        return data if self.grace_s is None else data | {"grace_s": self.grace_s}


@dataclass(frozen=True)
class DrawOffer:
    """``draw_offer``: the player of ``seat`` offers a draw."""

    TYPE: ClassVar[str] = "draw_offer"
    seat: int | None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "message": self.seat}


@dataclass(frozen=True)
class Pong:
    TYPE: ClassVar[str] = "pong"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "message": None}


@dataclass(frozen=True)
class RematchNews:
    """``rematch``: after a game in a room, the player of ``seat`` ``offer``s one, or the other ``declined``."""

    TYPE: ClassVar[str] = "rematch"
    news: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "message": self.news}
        return data if self.seat is None else data | {"seat": self.seat}


@dataclass(frozen=True)
class Unknown:
    """A message type this client does not know (a newer server's extension): ignored."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type} | self.fields


ServerMessage = (
    Player | Update | Welcome | Illegal | Error | Decline | OpponentNews | DrawOffer | Pong | RematchNews | Unknown
)
Sent = Player | Update | Welcome | Illegal | Error | Decline | OpponentNews | DrawOffer | Pong | RematchNews
"""What our server sends."""


# -- decoding -----------------------------------------------------------------------------------------
def _bad(kind: str, key: str, want: str, value: Any) -> ServerLineError:
    return ServerLineError(f"the server sent {kind} whose {key} is not {want}: {json.dumps(value)[:40]}")


def _seat(value: Any) -> int:
    if isinstance(value, bool) or value not in (1, 2):
        raise ServerLineError(f"the server gave a seat that does not exist: {json.dumps(value)[:40]}")
    return int(value)


def _optional_seat(value: Any) -> int | None:
    return None if value is None else _seat(value)


def _text(kind: str, data: dict[str, Any], key: str, optional: bool = True) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _bad(kind, key, "text", value)
    return printable(value)


def _shown(value: Any) -> Any:
    """A field shown as it came (an echoed line or action): a text escaped, anything else as is."""
    return printable(value) if isinstance(value, str) else value


def _number(kind: str, data: dict[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad(kind, key, "a number", value)
    return float(value)


def _scores(kind: str, data: dict[str, Any], key: str) -> dict[str, float] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value.values()
    ):
        raise _bad(kind, key, "an object of numbers", value)
    return printable_keys(value)


def _last_action(value: Any) -> LastAction | None:
    if value is None:
        return None
    if not isinstance(value, dict) or "action" not in value:
        raise _bad("an update", "last_action", "an object with an action", value)
    sequence = value.get("sequence")
    if sequence is not None and (isinstance(sequence, bool) or not isinstance(sequence, int)):
        raise _bad("an update", "last_action", "numbered", value)
    return LastAction(_seat(value.get("player")), value["action"], sequence)


def _clocks(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        ms = (value["1"], value["2"])
    except (KeyError, TypeError):
        raise _bad("an update", "clocks_ms", "an object of both seats", value) from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in ms):
        raise _bad("an update", "clocks_ms", "whole milliseconds", value)
    return ms[0], ms[1]


def _player(data: dict[str, Any]) -> Player:
    extensions = data.get("extensions")
    if extensions is not None and not (isinstance(extensions, list) and all(isinstance(e, str) for e in extensions)):
        raise _bad("a player line", "extensions", "a list of names", extensions)
    return Player(_seat(data.get("message")), None if extensions is None else tuple(extensions))


def _update(data: dict[str, Any]) -> Update:
    state = data.get("state")
    if not isinstance(state, dict):
        raise _bad("an update", "state", "an object", state)
    return Update(
        state,
        _last_action(data.get("last_action")),
        _scores("an update", data, "winners"),
        _scores("an update", data, "points"),
        _text("an update", data, "game"),
        _text("an update", data, "moves"),
        _clocks(data.get("clocks_ms")),
        _text("an update", data, "reason"),
    )


def _welcome(data: dict[str, Any]) -> Welcome:
    role = data.get("message")
    if role not in ("player", "spectator"):
        raise _bad("a welcome", "message", "player or spectator", role)
    clock = data.get("clock_ms")
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int)):
        raise _bad("a welcome", "clock_ms", "whole milliseconds", clock)
    game_id = data.get("game_id")
    return Welcome(
        role,
        _text("a welcome", data, "game", optional=False) or "",
        _text("a welcome", data, "room"),
        None if game_id is None else printable(str(game_id)),
        _optional_seat(data.get("seat")) if role == "player" else None,
        _text("a welcome", data, "token"),
        _number("a welcome", data, "grace_s") or 0.0,
        clock,
    )


def _opponent(data: dict[str, Any]) -> OpponentNews:
    news = _text("an opponent line", data, "message", optional=False) or ""
    return OpponentNews(news, _optional_seat(data.get("seat")), _number("an opponent line", data, "grace_s"))


def _rematch(data: dict[str, Any]) -> RematchNews:
    news = _text("a rematch line", data, "message", optional=False) or ""
    return RematchNews(news, _optional_seat(data.get("seat")))


_DECODERS: dict[str, Callable[[dict[str, Any]], ServerMessage]] = {
    "player": _player,
    "update": _update,
    "welcome": _welcome,
    "illegal": lambda data: Illegal(_shown(data.get("message"))),
    "error": lambda data: Error(_shown(data.get("message")), _text("an error line", data, "reason")),
    "decline": lambda data: Decline(printable(str(data.get("message"))[:200])),
    "opponent": _opponent,
    "draw_offer": lambda data: DrawOffer(_optional_seat(data.get("message"))),
    "pong": lambda data: Pong(),
    "rematch": _rematch,
}


def decode_server_line(raw: str) -> ServerMessage:
    """One server line as a typed message; ServerLineError (one line, never a traceback) otherwise."""
    try:
        data = strict_json(raw)
    except RecursionError:
        raise ServerLineError("the server sent a line nested too deeply") from None
    except ValueError:
        raise ServerLineError(f"the server sent a line that is not JSON: {raw[:80]!r}") from None
    if not isinstance(data, dict):
        raise ServerLineError("the server sent a line that is not a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ServerLineError(f"the server sent a line without a type: {raw[:80]!r}")
    decoder = _DECODERS.get(kind)
    if decoder is None:
        return Unknown(printable(kind[:40]), {k: v for k, v in data.items() if k != "type"})
    return decoder(data)


# -- client -> server ---------------------------------------------------------------------------------
ClientLine = Hello | Action | Command


def client_json(message: ClientLine) -> dict[str, Any]:
    """The JSON object of a client's message (fields left at their defaults are not sent)."""
    if isinstance(message, Action):
        data: dict[str, Any] = {"type": "action", "message": message.action}
        return data if message.seat is None else data | {"seat": message.seat}
    if isinstance(message, Command):
        return {"type": message.name}
    data = {"type": "hello"}
    for key in ("game", "room", "token", "clock_ms"):
        if getattr(message, key) is not None:
            data[key] = getattr(message, key)
    if message.spectate:
        data["spectate"] = True
    if message.name:
        data["name"] = message.name
    return data


def encode_client(message: ClientLine) -> bytes:
    """One client line (``\\r\\n`` at its end)."""
    return encode(client_json(message))
