"""What a network game tells the app, as typed values (frozen dataclasses): ``NetClient`` puts them on
its queue, the app reads them once per frame.

Events that carry the same facts share a base: the game's moves (``GameMoves``: the game started, a
move was made, the game resumed after a drop) and a final word (``Stopped``: declined, or gone).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seated:
    """The server gave us a seat (1 moves first) in a game of ``game``; ``token`` brings us back to it."""

    seat: int
    game: str
    token: str | None
    grace_s: float
    room: str | None = None  # the named room of the game (None: a public game)


@dataclass(frozen=True)
class GameMoves:
    moves: str  # the whole game in the project's notation, as the server has it


class OpponentJoined(GameMoves):
    """Both seats are taken: the game starts."""


class Resumed(GameMoves):
    """Back on the server with our seat token after a drop (or a relaunch): the game as it is."""


@dataclass(frozen=True)
class Moved(GameMoves):
    player: int  # the seat that moved, 1 or 2


@dataclass(frozen=True)
class GameOver(GameMoves):
    winners: dict[str, float]
    reason: str  # rules, resign, agreed, time, abandoned


@dataclass(frozen=True)
class Opponent:
    """News of a player: ``away`` (dropped; the seat is kept ``grace_s``), ``back``, or ``draw offer``;
    ``seat`` is the player's, as the server named it (a spectator has no "other player")."""

    news: str
    grace_s: float = 0.0
    seat: int | None = None


@dataclass(frozen=True)
class Watching:
    """The server took us as a spectator of a room playing ``game`` (we never move)."""

    game: str
    room: str


@dataclass(frozen=True)
class Clocks:
    """The clocks as the server last told them (ms left for seat 1 and seat 2) and the seat whose clock
    runs (None: none runs, the game is over or not started)."""

    ms: tuple[int, int]
    running: int | None


@dataclass(frozen=True)
class Rematch:
    """After the game: ``offer`` (the opponent asks for a rematch with colours swapped), ``declined``
    (the opponent left instead), or ``closed`` (the server closed the finished game: no rematch)."""

    news: str


@dataclass(frozen=True)
class Stopped:
    message: str


class Declined(Stopped):
    """The server refused us a seat (full, an expired token, a game it does not play): the client stopped."""


class Gone(Stopped):
    """The server could not be reached, for good: the client stopped."""


@dataclass(frozen=True)
class Refused:
    """``illegal`` (a move or command the server refused) or ``error`` (a line it could not read)."""

    kind: str
    message: str


@dataclass(frozen=True)
class ConnectionLost:
    """The connection dropped; the client tries again in ``retry_in_s`` (its ``attempt``-th wait)."""

    reason: str
    retry_in_s: float
    attempt: int


NetEvent = (
    Seated
    | OpponentJoined
    | Moved
    | GameOver
    | Opponent
    | Refused
    | ConnectionLost
    | Resumed
    | Declined
    | Gone
    | Watching
    | Clocks
    | Rematch
)
