"""``play --text --connect HOST:PORT``: a human at the terminal in a game on a server.

An extended client (docs/network-protocol.md) on the one client session (``game.net.session``): it
sends a ``hello`` (game, room, or a seat token to come back), draws every update, and on its turn reads
a move, ``resign``, ``draw`` or ``quit`` (the session's event loop waits while the player types: the
server's lines wait in the socket). It reads the server's messages as the app does
(``game.net.client_events``) and plays by the same rules (``game.play.net_match``): whose turn it is,
the draw offers, undo refused in the shared game, the result.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from rich.console import Console

from game.net import events as ev
from game.net.client_events import event_of, update_events
from game.net.messages import (
    Decline,
    DrawOffer,
    Error,
    Illegal,
    OpponentNews,
    Player,
    ServerLineError,
    ServerMessage,
    Update,
    Welcome,
)
from game.net.session import ClientSession, EndCause, Ended, Opened, Unreachable, run_blocking
from game.net.states import action_to_move, move_to_action
from game.net.wire import MAX_CLOCK_MS, Action, Command, Hello, parse_address
from game.play.actions import Command as Asked
from game.play.net_match import NetMatch, Request
from game.rules.errors import GameError
from game.rules.registry import get_game
from game.text.render import SYMBOLS, render

MAX_INPUT = 200  # characters of a typed line kept and echoed
VERDICTS = {"win": "You win", "loss": "You lose", "draw": "Draw"}
FORKING_WORDS = ("undo", "u", "redo", "takeback")  # a local game's words: refused in a shared one


class TerminalNetGame:
    """The terminal's side of a network game: reads and prints; the rules of play are ``match``'s
    (``game.play.net_match``, shared with the desktop app)."""

    def __init__(self, console: Console, args: argparse.Namespace, interactive: bool) -> None:
        self.console = console
        self.args = args
        self.interactive = interactive
        self.spec = get_game(args.game or "connect4")
        self.position = self.spec.start()
        self.match = NetMatch("watch" if args.spectate else "join", room=args.room or None, token=args.token)
        self.welcomed: Welcome | None = None
        self.extended = True  # False on a seed-only server: no resign, draw, moves text

    @property
    def token(self) -> str | None:
        return self.match.token

    @property
    def seat(self) -> int | None:
        """Our seat as the protocol numbers it (1 moves first); None: a spectator, or not seated yet."""
        return None if self.match.you is None else self.match.you + 1

    def read_line(self, prompt: str) -> str:
        if self.interactive:
            return self.console.input(prompt.replace("[", r"\["))[:MAX_INPUT]
        line = sys.stdin.readline(MAX_INPUT + 1)
        if not line:
            raise EOFError
        if len(line) > MAX_INPUT:  # a huge line: neither echoed nor kept; the rest of it is skipped
            while line and not line.endswith("\n"):
                line = sys.stdin.readline(1 << 16)
            self.console.print(prompt + f"(a line over {MAX_INPUT} characters, ignored)", markup=False)
            return ""
        self.console.print(prompt + line.strip(), markup=False)
        return line.strip()

    def hello(self) -> Hello:
        if self.match.token:
            return Hello(token=self.match.token)
        clock_ms = int(self.args.clock_min * 60_000) if self.args.clock_min else None
        return Hello(self.spec.name, self.args.room or None, spectate=bool(self.args.spectate), clock_ms=clock_ms)

    def _opened(self, extended: bool) -> None:
        """Greeted: our server announced the extensions and heard our hello, or it speaks only the seed protocol."""
        self.extended = extended
        if extended:
            return
        if self.match.token or self.args.spectate:
            raise ServerLineError("the server speaks only the seed protocol: no seat tokens, no spectators")
        if self.args.room or self.args.clock_min:
            self.console.print("the server speaks only the seed protocol: no rooms, no clocks; playing in its game")

    def tell(self, message: ServerMessage) -> None:
        """What the server said, told to the match as the events of a network game (``game.net.events``)."""
        for event in self.events_of(message):
            self.match.apply(event, lambda player: SYMBOLS[player], self.spec.name)

    def events_of(self, message: ServerMessage) -> list[ev.NetEvent]:
        welcomed = self.welcomed or Welcome("player", self.spec.name)  # a seed server welcomes nobody
        match message:
            case Welcome() if message.spectator:
                return [ev.Watching(self.spec.name, message.room or "")]
            case Player(seat):  # after our server's welcome, or a seed server's only word
                token, grace, room = (
                    (welcomed.token, welcomed.grace_s, welcomed.room) if welcomed else (None, 0.0, None)
                )
                return [ev.Seated(seat, self.spec.name, token, grace, room)]
            case Update():  # (a seed server tells no moves: the ones followed are the record)
                moves = message.moves if message.moves is not None else self.spec.moves_to_text(self.position.history)
                return update_events(message, moves, first=self.match.state != "playing", resumed=False)
        told = event_of(message)
        return [] if told is None else [told]

    def our_turn(self) -> bool:
        return self.match.may_move(self.position.to_move, True, self.position.outcome.is_over)

    async def play(self, session: ClientSession) -> int:
        async with session:
            async for event in session:
                match event:
                    case Opened(extended):
                        self._opened(extended)
                    case Unreachable(reason):
                        print(f"error: {reason}", file=sys.stderr)
                        return 1
                    case Ended(reason, EndCause.LOST):
                        self.console.print(reason[:200], style="red", markup=False)
                        return 1
                    case Welcome():
                        self.welcome(event)
                        self.tell(event)
                    case Player(seat):
                        self.tell(event)
                        self.console.print(f"you play {SYMBOLS[seat - 1]} (player {seat}); waiting for the game...")
                    case Update():
                        if self.update(event, session):
                            return 0
                    case Illegal(message) | Error(message):
                        self.tell(event)
                        kind = "illegal" if isinstance(event, Illegal) else "error"
                        self.console.print(f"server: {kind} {json.dumps(message)[:200]}", style="red", markup=False)
                        if kind == "illegal" and self.our_turn():
                            self.my_turn(session)
                    case Decline(message):
                        self.tell(event)
                        self.console.print(f"server declined: {message[:200]}", style="red", markup=False)
                        return 1
                    case DrawOffer():
                        self.tell(event)
                        self.console.print("your opponent offers a draw: type draw to accept")
                    case OpponentNews(news):
                        self.tell(event)
                        self.console.print(f"opponent {news[:40]}", markup=False)
        self.console.print("the server closed the connection", style="red")
        return 1

    def welcome(self, welcome: Welcome) -> None:
        self.welcomed = welcome
        try:
            self.spec = get_game(welcome.game or self.spec.name)
        except GameError as exc:
            raise ServerLineError(f"the server plays a game this client does not know: {exc}") from None
        self.position = self.spec.start()
        if welcome.spectator:
            self.console.print(f"watching {self.spec.name} in room {welcome.room}", markup=False)
            return
        self.console.print(
            f"joined {self.spec.name}, room {welcome.room or '(public)'}; "
            f"seat token {welcome.token} (rejoin with --token within {welcome.grace_s:g} s)",
            markup=False,
        )

    def update(self, update: Update, session: ClientSession) -> bool:
        last = update.last_action
        try:
            if update.moves is not None:  # our server: the whole game
                self.position = self.spec.parse_position(update.moves)
            elif last is not None:  # a seed server: follow the moves one by one
                self.position = self.position.play(action_to_move(self.spec, last.action))
        except GameError as exc:
            raise ServerLineError(f"cannot follow the game: {exc}") from None
        if update.pieces != self.position.ply:
            raise ServerLineError("cannot follow the game: the server's board does not match its moves")
        self.tell(update)
        self.console.print(render(self.position))
        if update.clocks_ms is not None:
            self.console.print(
                "clocks: " + "  ".join(f"{SYMBOLS[seat]} {_clock(ms)}" for seat, ms in enumerate(update.clocks_ms))
            )
        if last is not None and last.player != self.seat:
            move = self.position.history[-1]
            who = "opponent" if self.seat else SYMBOLS[1 - self.position.to_move]
            self.console.print(f"{who} played {self.spec.move_to_text(move)}")
        result = self.match.result
        if result is not None:
            verdict = self.match.verdict()
            if self.seat is None:
                self.console.print(f"Game over: {result.winners} ({result.reason}).", style="bold")
            else:
                self.console.print(f"{VERDICTS.get(verdict or '', 'Game over')} ({result.reason}).", style="bold")
            return True
        if self.our_turn():
            self.my_turn(session)
        return False

    def my_turn(self, session: ClientSession) -> None:
        while True:
            others = "resign / draw / quit" if self.extended else "quit"
            text = self.read_line(f"{SYMBOLS[self.match.you or 0]} (you) to move, or {others}: ").strip()
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise EOFError
            if word in FORKING_WORDS and (refused := self.match.refusal(Asked.UNDO)) is not None:
                self.console.print(refused.text, style="red", markup=False)
                continue
            if word in ("resign", "draw") and self.extended:
                if self._send(self.match.resign() if word == "resign" else self.match.offer_draw(), session):
                    return
                continue
            try:
                move = self.spec.parse_move(text)
                self.position.play(move)
            except GameError as exc:
                self.console.print(str(exc), style="red", markup=False)
                continue
            session.send(Action(move_to_action(self.spec, move)))
            return

    def _send(self, request: Request, session: ClientSession) -> bool:
        """Send what the match says a request sends (True), or say why nothing goes (False)."""
        if request.send is None:
            for say in request.say:
                self.console.print(say.text, style="red" if say.error else None, markup=False)
            return False
        session.send(Command(request.send))
        return True


def _clock(ms: int) -> str:
    seconds = max(0, int(ms)) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def rejoin_arguments(connect: str, token: str) -> str:
    """The ``play`` arguments that take the seat back: ``--token=T``, since a token may start with "-"."""
    return f"--connect {connect} --token={token}"


def play_network(console: Console, args: argparse.Namespace, interactive: bool) -> int:
    clock = args.clock_min
    if clock is not None and not (math.isfinite(clock) and 0 < clock * 60_000 <= MAX_CLOCK_MS):
        print(f"error: --clock-min must be above 0 and at most {MAX_CLOCK_MS // 60_000}", file=sys.stderr)
        return 2
    try:
        address = parse_address(args.connect)
        game = TerminalNetGame(console, args, interactive)
    except (ValueError, GameError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    session = ClientSession(address, game.hello, connect_timeout_s=10.0)
    try:
        return run_blocking(game.play(session))
    except (EOFError, KeyboardInterrupt):
        if game.token is None:  # left before the server gave a seat
            console.print("\nleft the game", markup=False)
        else:
            console.print(
                f"\nleft the game; your seat is kept for a while: rejoin with "
                f"{rejoin_arguments(args.connect, game.token)}",
                markup=False,
            )
        return 0
    except ServerLineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
