"""How a client reads the server's messages (``game.net.messages``) as the events of a network game
(``game.net.events``): one reading for the app's client (``game.net.client``) and the terminal client
(``game.text.net_play``), which then both follow the game by the play model's rules
(``game.play.net_match``)."""

from __future__ import annotations

import json

from game.net.events import (
    Clocks,
    Declined,
    GameOver,
    Moved,
    NetEvent,
    Opponent,
    OpponentJoined,
    Refused,
    Rematch,
    Resumed,
)
from game.net.messages import Decline, DrawOffer, Error, Illegal, OpponentNews, RematchNews, ServerMessage, Update

SHOWN_CHARS = 120  # of a refused line, as the server echoed it


def event_of(message: ServerMessage) -> NetEvent | None:
    """The event of a message that is read without knowing the game (None: a message of another kind)."""
    match message:
        case OpponentNews(news, seat, grace_s):
            return Opponent("away" if news == "disconnected" else "back", grace_s or 0.0, seat)
        case DrawOffer():
            return Opponent("draw offer")
        case RematchNews(news) if news in ("offer", "declined"):
            return Rematch(news)
        case Illegal(said):
            return Refused("illegal", json.dumps(said)[:SHOWN_CHARS])
        case Error(said):
            return Refused("error", json.dumps(said)[:SHOWN_CHARS])
        case Decline(said):
            return Declined(said)
    return None


def update_events(update: Update, moves: str, *, first: bool, resumed: bool) -> list[NetEvent]:
    """The events of an update, the game being ``moves``: the clocks, then the result, or how the game goes on
    (its first update: the game starts; the first after coming back: it resumes; else a move was made)."""
    out: list[NetEvent] = []
    if update.clocks_ms is not None:
        out.append(Clocks(update.clocks_ms, None if update.over else update.to_move))
    if update.winners is not None:
        out.append(GameOver(moves, update.winners, update.reason or "rules"))
    elif resumed:
        out.append(Resumed(moves))
    elif first:
        out.append(OpponentJoined(moves))
    elif update.last_action is not None:
        out.append(Moved(moves, update.last_action.player))
    return out
