"""The network game's rules of play (``game.play.net_match.NetMatch``), on event sequences, without a server.

A hand-written server (``FakeServer`` in the state machine) tells a Connect 4 game as ``game.net.events``;
a board follows the match's news as the app's board does. Invariants: the board shows the moves the server
told, in order; a move is allowed only when the server waits for ours; an offer is shown once and sent once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from game.net import events as ev
from game.play.actions import Command
from game.play.net_match import (
    LOAD_REFUSED,
    UNDO_REFUSED,
    FollowMoves,
    ForgetSeat,
    KeepSeat,
    MatchNews,
    NetMatch,
    NewBoard,
    Say,
    board_step,
)
from game.rules import get_game

SPEC = get_game("connect4")
NAMES = ("Red", "Yellow")


def name(player: int) -> str:
    return NAMES[player]


def told(moves: list[int]) -> str:
    return SPEC.moves_to_text(moves)


def state_of(match: NetMatch) -> str:
    return match.state


def seated_and_playing(seat: int = 1) -> NetMatch:
    match = NetMatch("join", room="r")
    match.apply(ev.Seated(seat, "connect4", "tok", 60.0, "r"), name, "connect4")
    match.apply(ev.OpponentJoined(""), name, "connect4")
    return match


def test_the_board_steps_one_move_at_a_time_else_reloads() -> None:
    assert board_step((3,), (3, 4)).kind == "one more" and board_step((3,), (3, 4)).move == 4
    assert board_step((3, 4), (3, 4)).kind == "same"
    assert board_step((3, 5), (3, 4)) == board_step((3, 5), (3, 4)) and board_step((3, 5), (3, 4)).kind == "reload"
    assert board_step((3, 4, 5), (3,)).line == (3,)


def test_the_seat_and_the_turn_are_the_servers() -> None:
    match = NetMatch("join")
    assert not match.may_move(0, True, False)  # not seated yet
    news = match.apply(ev.Seated(2, "connect4", "tok", 60.0, None), name, "connect4")
    assert match.you == 1 and match.state == "waiting" and news == []  # the board already shows Connect 4
    news = match.apply(ev.OpponentJoined(""), name, "connect4")
    assert KeepSeat("tok") in news and Say("Your opponent is here: you play Yellow") in news
    assert not match.may_move(0, True, False) and match.may_move(1, True, False)
    assert not match.may_move(1, False, False)  # looking back at an earlier move
    assert not match.may_move(1, True, True)  # the board says the game is over


def test_a_joiner_learns_the_hosts_game_and_a_rematch_starts_a_new_board() -> None:
    match = NetMatch("join", room="r")
    assert match.apply(ev.Seated(1, "gomoku", "t", 60.0, "r"), name, "connect4") == [NewBoard("gomoku")]
    match.apply(ev.OpponentJoined(""), name, "gomoku")
    news = match.apply(ev.GameOver("h8", {"1": 0, "2": 1}, "resign"), name, "gomoku")
    assert news == [FollowMoves("h8"), ForgetSeat()] and match.verdict() == "loss" and match.winner() == 1
    assert match.apply(ev.Seated(2, "gomoku", "t2", 60.0, "r"), name, "gomoku") == [NewBoard("gomoku")]
    assert match.rematched and match.result is None and match.you == 1


def test_undo_and_loading_are_refused_while_the_shared_game_is_on() -> None:
    match = seated_and_playing()
    for c in (Command.UNDO, Command.REDO, Command.CONTINUE):
        assert match.refusal(c) == Say(UNDO_REFUSED, error=True)
    assert match.refusal(Command.LOAD) == Say(LOAD_REFUSED, error=True)
    assert match.refusal(Command.HINT) is None
    match.apply(ev.GameOver("4", {"1": 1, "2": 0}, "resign"), name, "connect4")
    assert match.refusal(Command.LOAD) is None and match.refusal(Command.UNDO) is not None
    match.apply(ev.Gone("the server is gone"), name, "connect4")
    assert match.refusal(Command.UNDO) is None  # nothing shared any more


def test_a_spectator_sends_nothing() -> None:
    match = NetMatch("watch", room="r")
    news = match.apply(ev.Watching("connect4", "r"), name, "connect4")
    assert news == [Say("Watching room r")] and match.you is None
    match.apply(ev.OpponentJoined(""), name, "connect4")
    assert not match.may_move(0, True, False) and not match.may_move(1, True, False)
    assert match.resign().send is None and match.offer_draw().send is None
    match.apply(ev.GameOver("4", {"1": 1, "2": 0}, "resign"), name, "connect4")
    assert match.ask_rematch().send is None and match.rematch_label() is None and match.verdict() is None


def test_a_draw_offer_is_sent_once_and_an_answer_accepts() -> None:
    match = seated_and_playing()
    first = match.offer_draw()
    assert first.send == "draw" and match.draw_label() == "Draw offered"
    assert match.offer_draw().send is None  # already offered: nothing goes again
    match.apply(ev.Moved("4", 1), name, "connect4")
    assert match.draw_offered_by is None  # a move lapses the offer
    match.apply(ev.Opponent("draw offer"), name, "connect4")
    assert match.draw_label() == "Accept draw"
    assert match.offer_draw().say == (Say("Draw accepted"),)


def test_a_rematch_is_offered_accepted_or_closed() -> None:
    match = seated_and_playing()
    assert match.ask_rematch().send is None  # not over yet
    match.apply(ev.GameOver("4", {"1": 1, "2": 0}, "resign"), name, "connect4")
    assert match.rematch_label() == "Rematch"
    assert match.apply(ev.Rematch("offer"), name, "connect4")[0].text.startswith("Your opponent offers a rematch")  # type: ignore[union-attr]
    assert match.rematch_label() == "Accept" and match.ask_rematch().send == "rematch"
    assert match.rematch_label() == "Offered" and match.ask_rematch().send is None
    assert match.apply(ev.Rematch("closed"), name, "connect4") == [
        Say("The server closed the game: no rematch (start a new game with N)")
    ]
    assert match.rematch == "off" and match.apply(ev.Rematch("closed"), name, "connect4") == []


def test_a_drop_and_the_return() -> None:
    clock = [100.0]
    match = NetMatch("join", token="tok", now=lambda: clock[0])
    match.apply(ev.Seated(1, "connect4", "tok", 60.0, None), name, "connect4")
    match.apply(ev.OpponentJoined(""), name, "connect4")
    news = match.apply(ev.ConnectionLost("reset", 2.0, 1), name, "connect4")
    assert state_of(match) == "lost" and match.retry_at == 102.0
    assert news[0] == Say("Connection lost (reset): reconnecting…", True)
    assert match.apply(ev.ConnectionLost("reset", 4.0, 2), name, "connect4") == []  # said once
    assert not match.may_move(0, True, False) and match.resign().send == "resign"  # a resignation waits for the line
    assert match.apply(ev.Resumed("4"), name, "connect4")[0] == FollowMoves("4") and state_of(match) == "playing"
    match.apply(ev.Opponent("away", 30.0, 2), name, "connect4")
    assert match.away_until == 130.0 and match.away_player == 1


# --- the state machine ---------------------------------------------------------------------------------------
@dataclass
class FakeServer:
    """What the server knows: the truth the match must follow."""

    seat: int | None = None  # ours, 1 or 2
    started: bool = False
    over: bool = False
    connected: bool = True
    moves: list[int] = field(default_factory=list)
    our_draw_offer: bool = False
    their_draw_offer: bool = False

    @property
    def to_move(self) -> int:
        return SPEC.parse_position(told(self.moves)).to_move

    @property
    def on(self) -> bool:
        return self.started and not self.over

    def ours(self) -> bool:
        return self.seat is not None and self.to_move == self.seat - 1


class MatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.server = FakeServer()
        self.match = NetMatch("join", room="r")
        self.board: list[int] = []
        self.game = "connect4"

    # the app's board, following the news
    def tell(self, event: ev.NetEvent) -> list[MatchNews]:
        news = self.match.apply(event, name, self.game)
        for item in news:
            if isinstance(item, NewBoard):
                self.board = []
            elif isinstance(item, FollowMoves):
                self.board = list(board_step(tuple(self.board), tuple(SPEC.parse_position(item.moves).history)).line)
        return news

    def may_move(self) -> bool:
        position = SPEC.parse_position(told(self.board))
        return self.match.may_move(position.to_move, True, position.outcome.is_over)

    @rule(seat=st.sampled_from([1, 2]))
    @precondition(lambda self: self.server.seat is None or self.server.over)
    def seated(self, seat: int) -> None:
        self.server = FakeServer(seat=seat)
        self.tell(ev.Seated(seat, "connect4", "tok", 60.0, "r"))

    @rule()
    @precondition(lambda self: self.server.seat is not None and not self.server.started)
    def opponent_joins(self) -> None:
        self.server.started = True
        self.tell(ev.OpponentJoined(""))

    def _server_plays(self, column: int, seat: int) -> None:
        s = self.server
        s.moves.append(column)
        s.our_draw_offer = s.their_draw_offer = False
        position = SPEC.parse_position(told(s.moves))
        if position.outcome.is_over:
            s.over = True
            winners = {"1": 0.5, "2": 0.5} if position.outcome.winner is None else {"1": 0.0, "2": 0.0}
            if position.outcome.winner is not None:
                winners[str(position.outcome.winner + 1)] = 1.0
            self.tell(ev.GameOver(told(s.moves), winners, "rules"))
        else:
            self.tell(ev.Moved(told(s.moves), seat))

    @rule(column=st.integers(0, 6))
    @precondition(lambda self: self.server.on and self.server.connected and not self.server.ours())
    def opponent_moves(self, column: int) -> None:
        if column in SPEC.parse_position(told(self.server.moves)).legal_moves():
            self._server_plays(column, 2 if self.server.seat == 1 else 1)

    @rule(column=st.integers(0, 6), refused=st.booleans())
    def we_try_a_move(self, column: int, refused: bool) -> None:
        if not self.may_move():
            return
        s = self.server
        assert s.on and s.connected and s.ours(), "a move allowed while the server does not wait for ours"
        if column not in SPEC.parse_position(told(self.board)).legal_moves():
            return
        self.board.append(column)  # the app plays it at once, then sends it
        assert s.seat is not None
        if refused:
            self.tell(ev.Refused("illegal", "no"))  # it comes off the board
        else:
            self._server_plays(column, s.seat)

    @rule()
    @precondition(lambda self: self.server.on and self.server.connected and not self.server.our_draw_offer)
    def they_offer_a_draw(self) -> None:
        self.server.their_draw_offer = True
        news = self.tell(ev.Opponent("draw offer"))
        assert [n for n in news if isinstance(n, Say)] == [Say("Your opponent offers a draw: Accept draw in the panel")]

    @rule()
    def we_offer_a_draw(self) -> None:
        request = self.match.offer_draw()
        if request.send is None:
            return
        s = self.server
        assert s.on and s.connected, "a draw offered outside a game under way"
        assert not s.our_draw_offer, "the same draw offer sent twice"
        if s.their_draw_offer:
            s.over = True
            self.tell(ev.GameOver(told(s.moves), {"1": 0.5, "2": 0.5}, "agreed"))
        else:
            s.our_draw_offer = True

    @rule(attempt=st.integers(1, 3))
    @precondition(lambda self: self.server.on)
    def the_line_drops(self, attempt: int) -> None:
        self.server.connected = False
        self.tell(ev.ConnectionLost("reset", 1.0, attempt))

    @rule()
    @precondition(lambda self: not self.server.connected)
    def the_line_comes_back(self) -> None:
        self.server.connected = True
        self.tell(ev.Resumed(told(self.server.moves)))

    @rule(winner=st.sampled_from(["1", "2"]))
    @precondition(lambda self: self.server.on and self.server.connected)
    def someone_resigns(self, winner: str) -> None:
        self.server.over = True
        self.tell(ev.GameOver(told(self.server.moves), {winner: 1.0, "1" if winner == "2" else "2": 0.0}, "resign"))

    @rule(news=st.sampled_from(["offer", "declined", "closed"]))
    @precondition(lambda self: self.server.over)
    def rematch_news(self, news: str) -> None:
        said = [n for n in self.tell(ev.Rematch(news)) if isinstance(n, Say)]
        assert len(said) <= 1

    @rule()
    def we_ask_for_a_rematch(self) -> None:
        if self.match.ask_rematch().send is not None:
            assert self.server.over, "a rematch asked before the game ended"

    @invariant()
    def the_board_shows_the_servers_moves(self) -> None:
        assert self.board == self.server.moves

    @invariant()
    def a_move_is_allowed_exactly_when_the_server_waits_for_ours(self) -> None:
        s = self.server
        assert self.may_move() == (s.on and s.connected and s.ours())

    @invariant()
    def the_offers_are_the_servers(self) -> None:
        m = self.match
        if self.server.on:
            assert (m.draw_offered_by == "you") == self.server.our_draw_offer
        if m.draw_offered_by == "them":
            assert self.server.their_draw_offer
        assert m.rematch is None or m.state == "over"
        assert (m.state == "over") == (self.server.over and self.server.seat is not None)


MatchMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestMatchMachine = MatchMachine.TestCase
pytestmark = pytest.mark.timeout(120)
