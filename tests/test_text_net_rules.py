"""The terminal client plays by the play model's rules of a network game (``game.play.net_match``): a session
stand-in gives it the server's messages in order and keeps what it sends; the player's lines come from a list.

It is asked for a move only on its turn, refuses undo in the shared game, sends a draw offer once, and says
the result the match decided."""

from __future__ import annotations

import argparse
import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
from rich.console import Console

from game.net.messages import ClientLine, DrawOffer, Illegal, LastAction, Player, ServerMessage, Update, Welcome
from game.net.session import Opened, SessionEvent
from game.net.states import move_to_action
from game.net.wire import Action, Command
from game.play.net_match import UNDO_REFUSED
from game.rules import get_game
from game.text.net_play import TerminalNetGame

pytestmark = pytest.mark.timeout(30)
SPEC = get_game("connect4")


class SessionStandIn:
    """Yields the given events, keeps what the client sends."""

    def __init__(self, events: list[SessionEvent]) -> None:
        self.events = events
        self.sent: list[ClientLine] = []

    def send(self, message: ClientLine) -> None:
        self.sent.append(message)

    async def __aenter__(self) -> SessionStandIn:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    async def _run(self) -> AsyncIterator[SessionEvent]:
        for event in self.events:
            yield event

    def __aiter__(self) -> AsyncIterator[SessionEvent]:
        return self._run()


def update(moves: list[int], to_move: int, last: int | None = None, **more: Any) -> Update:
    last_action = None if last is None else LastAction(last, move_to_action(SPEC, moves[-1]))
    state = {"player": to_move, "pieces": [[0, 0]] * len(moves)}
    return Update(state, last_action, moves=SPEC.moves_to_text(moves), **more)


def play(events: list[SessionEvent], lines: list[str]) -> tuple[int, list[ClientLine], str, list[str]]:
    out = io.StringIO()
    args = argparse.Namespace(game=None, token=None, spectate=False, room="r", clock_min=None)
    game = TerminalNetGame(Console(file=out, width=120), args, interactive=False)
    typed = list(lines)
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if not typed:
            raise AssertionError(f"asked for a move off its turn: {prompt!r}")
        return typed.pop(0)

    game.read_line = read_line  # type: ignore[method-assign]
    session = SessionStandIn(events)
    code = asyncio.run(game.play(session))  # type: ignore[arg-type]
    assert not typed, f"lines left unread: {typed}"
    return code, session.sent, out.getvalue(), prompts


def seated(seat: int) -> list[SessionEvent]:
    welcome = Welcome("player", "connect4", room="r", seat=seat, token="tok", grace_s=60.0)
    return [Opened(True, False), welcome, Player(seat)]


def test_asked_only_on_its_turn_undo_refused_a_draw_offer_sent_once() -> None:
    server: list[ServerMessage] = [
        update([], 1),  # our turn: "undo" is refused, then 4
        update([3], 2, last=1),
        DrawOffer(2),  # the opponent offers, then moves: the offer lapses
        update([3, 4], 1, last=2),  # our turn: we offer a draw
        Illegal("try again"),  # still our turn: the same offer is not sent again; we resign
        update([3, 4], 1, winners={"1": 0.0, "2": 1.0}, reason="resign"),
    ]
    code, sent, out, prompts = play([*seated(1), *server], ["undo", "4", "draw", "draw", "resign"])
    assert code == 0
    assert sent == [Action(move_to_action(SPEC, 3)), Command("draw"), Command("resign")]
    assert UNDO_REFUSED in out and "Your draw offer is open" in out
    assert "You lose (resign)." in out
    assert len(prompts) == 5 and all(p.startswith("X (you) to move") for p in prompts)


def test_the_second_seat_waits_for_the_first_move_and_a_win_is_said() -> None:
    server: list[ServerMessage] = [
        update([], 1),  # the opponent's turn: nothing asked
        update([3], 2, last=1),
        update([3, 3], 1, last=2, winners={"1": 0.0, "2": 1.0}, reason="rules"),
    ]
    code, sent, out, prompts = play([*seated(2), *server], ["4"])
    assert code == 0 and len(prompts) == 1 and prompts[0].startswith("O (you) to move")
    assert sent == [Action(move_to_action(SPEC, 3))]
    assert "You win (rules)." in out and "opponent played 4" in out
