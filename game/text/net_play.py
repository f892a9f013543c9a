"""``play --text --connect HOST:PORT``: a human at the terminal in a game on a server.

An extended client (docs/network-protocol.md) on the one client session (``game.net.session``): it
sends a ``hello`` (game, room, or a seat token to come back), draws every update, and on its turn reads
a move, ``resign``, ``draw`` or ``quit`` (the session's event loop waits while the player types: the
server's lines wait in the socket).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from rich.console import Console

from game.net.messages import (
    Decline,
    DrawOffer,
    Error,
    Illegal,
    OpponentNews,
    Player,
    ServerLineError,
    Update,
    Welcome,
)
from game.net.session import ClientSession, EndCause, Ended, Opened, Unreachable, run_blocking
from game.net.states import action_to_move, move_to_action
from game.net.wire import MAX_CLOCK_MS, Action, Command, Hello, parse_address
from game.rules.errors import GameError
from game.rules.registry import get_game
from game.text.render import SYMBOLS, render

MAX_INPUT = 200  # characters of a typed line kept and echoed


class NetGame:
    def __init__(self, console: Console, args: argparse.Namespace, interactive: bool) -> None:
        self.console = console
        self.args = args
        self.interactive = interactive
        self.spec = get_game(args.game or "connect4")
        self.position = self.spec.start()
        self.seat: int | None = None
        self.token: str | None = args.token
        self.extended = True  # False on a seed-only server: no resign, draw, moves text

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
        if self.token:
            return Hello(token=self.token)
        clock_ms = int(self.args.clock_min * 60_000) if self.args.clock_min else None
        return Hello(self.spec.name, self.args.room or None, spectate=bool(self.args.spectate), clock_ms=clock_ms)

    def _opened(self, extended: bool) -> None:
        """Greeted: our server announced the extensions and heard our hello, or it speaks only the seed protocol."""
        self.extended = extended
        if extended:
            return
        if self.token or self.args.spectate:
            raise ServerLineError("the server speaks only the seed protocol: no seat tokens, no spectators")
        if self.args.room or self.args.clock_min:
            self.console.print("the server speaks only the seed protocol: no rooms, no clocks; playing in its game")

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
                    case Player(seat):
                        self.seat = seat
                        self.console.print(f"you play {SYMBOLS[seat - 1]} (player {seat}); waiting for the game...")
                    case Update():
                        if self.update(event, session):
                            return 0
                    case Illegal(message) | Error(message):
                        kind = "illegal" if isinstance(event, Illegal) else "error"
                        self.console.print(f"server: {kind} {json.dumps(message)[:200]}", style="red", markup=False)
                        if kind == "illegal" and self.position.to_move + 1 == self.seat:
                            self.my_turn(session)
                    case Decline(message):
                        self.console.print(f"server declined: {message[:200]}", style="red", markup=False)
                        return 1
                    case DrawOffer():
                        self.console.print("your opponent offers a draw: type draw to accept")
                    case OpponentNews(news):
                        self.console.print(f"opponent {news[:40]}", markup=False)
        self.console.print("the server closed the connection", style="red")
        return 1

    def welcome(self, welcome: Welcome) -> None:
        self.token = welcome.token
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
            f"seat token {self.token} (rejoin with --token within {welcome.grace_s:g} s)",
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
        self.console.print(render(self.position))
        if update.clocks_ms is not None:
            self.console.print(
                "clocks: " + "  ".join(f"{SYMBOLS[seat]} {_clock(ms)}" for seat, ms in enumerate(update.clocks_ms))
            )
        if last is not None and last.player != self.seat:
            move = self.position.history[-1]
            who = "opponent" if self.seat else SYMBOLS[1 - self.position.to_move]
            self.console.print(f"{who} played {self.spec.move_to_text(move)}")
        if update.winners is not None and self.seat is None:
            self.console.print(f"Game over: {update.winners} ({update.reason or 'rules'}).", style="bold")
            return True
        if update.winners is not None:
            mine = update.winners.get(str(self.seat), -1.0)
            verdict = {1.0: "You win", 0.0: "You lose", 0.5: "Draw"}.get(mine, "Game over")
            self.console.print(f"{verdict} ({update.reason or 'rules'}).", style="bold")
            return True
        if update.to_move == self.seat:
            self.my_turn(session)
        return False

    def my_turn(self, session: ClientSession) -> None:
        while True:
            others = "resign / draw / quit" if self.extended else "quit"
            text = self.read_line(f"{SYMBOLS[self.seat - 1 if self.seat else 0]} (you) to move, or {others}: ").strip()
            if text.lower() in ("quit", "exit", "q"):
                raise EOFError
            if text.lower() in ("resign", "draw") and self.extended:
                session.send(Command(text.lower()))
                return
            try:
                move = self.spec.parse_move(text)
                self.position.play(move)
            except GameError as exc:
                self.console.print(str(exc), style="red", markup=False)
                continue
            session.send(Action(move_to_action(self.spec, move)))
            return


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
        game = NetGame(console, args, interactive)
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
