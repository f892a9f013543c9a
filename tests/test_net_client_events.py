"""One reading of the server's messages as a network game's events (``game.net.client_events``), for the app's
client and the terminal client alike."""

from __future__ import annotations

from game.net import events as ev
from game.net.client_events import event_of, update_events
from game.net.messages import Decline, DrawOffer, Illegal, LastAction, OpponentNews, Pong, RematchNews, Update


def test_an_update_is_the_start_a_move_a_return_or_the_end() -> None:
    start = Update({"player": 1, "pieces": []}, clocks_ms=(60_000, 60_000))
    assert update_events(start, "", first=True, resumed=False) == [
        ev.Clocks((60_000, 60_000), 1),
        ev.OpponentJoined(""),
    ]
    moved = Update({"player": 2, "pieces": [[0, 3]]}, LastAction(1, 3))
    assert update_events(moved, "4", first=False, resumed=False) == [ev.Moved("4", 1)]
    assert update_events(moved, "4", first=False, resumed=True) == [ev.Resumed("4")]
    assert update_events(Update({"player": 1, "pieces": []}), "", first=False, resumed=False) == []
    over = Update({"player": 2, "pieces": [[0, 3]]}, LastAction(1, 3), {"1": 1.0, "2": 0.0}, clocks_ms=(1, 2))
    assert update_events(over, "4", first=False, resumed=True) == [
        ev.Clocks((1, 2), None),  # no clock runs after the end
        ev.GameOver("4", {"1": 1.0, "2": 0.0}, "rules"),
    ]


def test_the_messages_read_without_the_game() -> None:
    assert event_of(OpponentNews("disconnected", 2, 30.0)) == ev.Opponent("away", 30.0, 2)
    assert event_of(OpponentNews("back", 2)) == ev.Opponent("back", 0.0, 2)
    assert event_of(DrawOffer(2)) == ev.Opponent("draw offer")
    assert event_of(RematchNews("offer", 2)) == ev.Rematch("offer")
    assert event_of(RematchNews("something newer")) is None
    assert event_of(Illegal({"column": 9})) == ev.Refused("illegal", '{"column": 9}')
    assert event_of(Decline("full")) == ev.Declined("full")
    assert event_of(Pong()) is None
