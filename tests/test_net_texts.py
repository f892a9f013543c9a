"""What a network game says (``game.play.net_texts``), from the rules' state after a sequence of the server's
events, without pygame or a server."""

from __future__ import annotations

from game.net import events as ev
from game.play.net_match import NetMatch, Role
from game.play.net_texts import Shown, banner_texts, status_texts, subtitle

NAMES = ("Red", "Yellow")
WHERE = "127.0.0.1:4242/game"


def at_end(to_move: int, moves: int = 0) -> Shown:
    return Shown(True, moves, moves, to_move, False, 7, True)


def told(role: Role, events: list[ev.NetEvent], clock: list[float] | None = None) -> NetMatch:
    now = clock if clock is not None else [0.0]
    match = NetMatch(role, room="game", now=lambda: now[0])
    for event in events:
        match.apply(event, lambda p: NAMES[p], "connect4")
    return match


def test_a_spectator_and_a_player_name_the_player_who_dropped() -> None:
    away = ev.Opponent("away", 30.0, 1)  # seat 1: Red
    watcher = told("watch", [ev.Watching("connect4", "game"), ev.OpponentJoined("4"), away])
    assert status_texts(watcher, WHERE, at_end(1, 1), NAMES)[0].startswith("Red disconnected")  # type: ignore[index]
    host = told("host", [ev.Seated(2, "connect4", "t", 30.0, "game"), ev.OpponentJoined("4"), away])
    texts = status_texts(host, WHERE, at_end(1, 1), NAMES)
    assert texts is not None and texts[0] == "Red (opponent) disconnected · their seat is kept 30 s more"


def test_whose_move_it_is_and_looking_back() -> None:
    match = told("join", [ev.Seated(1, "connect4", "t", 30.0, "game"), ev.OpponentJoined("")])
    assert status_texts(match, WHERE, at_end(0), NAMES) == (
        "Your move (Red) · click a column or press 1-7",
        "Your move (Red)",
        "Your move",
    )
    assert status_texts(match, WHERE, at_end(1, 1), NAMES) == (
        "Yellow (opponent) to move",
        "Opponent to move",
        "Their move",
    )
    back = Shown(False, 1, 3, 1, False, 7, True)
    assert status_texts(match, WHERE, back, NAMES)[0] == "Viewing move 1 of 3 · End returns to the game"  # type: ignore[index]
    assert subtitle(match, WHERE, NAMES) == f"Network game (joined, {WHERE}) · you play Red"


def test_a_drop_counts_down_to_the_next_try() -> None:
    clock = [100.0]
    match = told("join", [ev.Seated(1, "connect4", "t", 30.0, "game"), ev.OpponentJoined("")], clock)
    match.apply(ev.ConnectionLost("reset", 5.0, 1), lambda p: NAMES[p], "connect4")
    assert status_texts(match, WHERE, at_end(0), NAMES)[1] == "Reconnecting in 5 s…"  # type: ignore[index]
    clock[0] = 102.0
    assert status_texts(match, WHERE, at_end(0), NAMES)[1] == "Reconnecting in 3 s…"  # type: ignore[index]


def test_the_end_and_the_rematch_in_words() -> None:
    match = told(
        "join",
        [
            ev.Seated(1, "connect4", "t", 30.0, "game"),
            ev.OpponentJoined(""),
            ev.GameOver("4", {"1": 0.0, "2": 1.0}, "resign"),
        ],
    )
    assert banner_texts(match, NAMES) == ("Red resigned: you lose", "N: new game · Rematch in the panel")
    match.apply(ev.Rematch("offer"), lambda p: NAMES[p], "connect4")
    texts = status_texts(match, WHERE, at_end(1, 1), NAMES)
    assert (
        texts is not None
        and texts[0] == "Red resigned: you lose · your opponent offers a rematch (Accept in the panel)"
    )
    match.apply(ev.Rematch("declined"), lambda p: NAMES[p], "connect4")
    assert banner_texts(match, NAMES) == ("Red resigned: you lose", "N: new game")
