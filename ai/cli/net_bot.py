"""``python main.py bot --game G --connect HOST:PORT``: our engine as a network player.

It speaks the seed protocol (docs/network-protocol.md) and so plays on any server that does; on
our server its opening ``hello`` also gets it a seat token, and a dropped connection is resumed
with it. It talks to the server through the one client session (``game.net.session``) and reads
its typed messages (``game.net.messages``). It searches through the engine process
(``ai.client.session`` over ``ai.client.engine_client``, as the app does), thinking on the opponent's time with
its ``ponder`` command. It prints each move
and the result, and exits 0 when the game ends, 2 on bad arguments, 1 when the server cannot be
reached or the game cannot go on.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ai.client.session import EngineSession, EngineUnavailable
from ai.vocab.level_table import LEVEL_NAMES, level
from ai.vocab.limits import MAX_THREADS, MAX_TIME_MS, check_range
from game.net.messages import (
    Decline,
    Error,
    Illegal,
    OpponentNews,
    Player,
    ServerLineError,
    ServerMessage,
    Update,
    Welcome,
)
from game.net.session import ClientSession, Dropped, Ended, Opened, Patience, Unreachable, run_blocking
from game.net.states import action_to_move, move_to_action
from game.net.wire import Action, Hello, parse_address
from game.rules import get_game
from game.rules.errors import GameError

RECONNECT_FOR_S = 30.0


class BotError(Exception):
    """The game cannot go on; the message is one line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game the server plays (default connect4)")
    parser.add_argument("--connect", required=True, metavar="HOST:PORT", help="the server's address")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--time-ms", type=float, default=None, help="thinking time per move (default 1000)")
    budget.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        default=None,
        help="the app's playing levels: beginner, easy, medium, hard, perfect",
    )
    parser.add_argument("--room", default=None, help="our server: play in this room (created if new)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="never send hello, even to our server (not needed on a seed-only server: "
        "the bot says hello only when the server announces it)",
    )
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the search")
    parser.add_argument(
        "--ponder",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="think on the opponent's time (default: on with --time-ms and at perfect, the "
        "levels whose strength is their time)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")


class NetBot:
    def __init__(
        self,
        args: argparse.Namespace,
        spec: Any,
        engine: EngineSession,
        time_ms: float,
        exact: bool,
        ponder: bool = False,
        level_name: str | None = None,
    ) -> None:
        self.args = args
        self.spec = spec
        self.engine = engine
        self.time_ms = time_ms
        self.exact = exact
        self.level_name = level_name  # the engine chooses the move by this level's rule (None: its best move)
        self.position = spec.start()
        self.seat: int | None = None
        self.token: str | None = None
        self.result: Update | None = None
        self.warm = False
        self.hello_pending = False  # sent a hello that neither a welcome nor an error answered yet
        self.plain_first = False  # no hello said on this connection: the server's first line is still to come
        self.ponder = ponder

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(text, flush=True)

    # -- the session ----------------------------------------------------------------------------------
    def hello(self) -> Hello | None:
        """Our hello, said only when the server's first line announces it: with our seat token to come
        back; None (no hello) with ``--plain``."""
        if self.token is not None:
            return Hello(token=self.token)
        return None if self.args.plain else Hello(self.spec.name, self.args.room or None)

    async def play(self, session: ClientSession) -> int:
        async with session:
            async for event in session:
                match event:
                    case Opened(extended, resuming):
                        self.plain_first = not extended  # the server's first line comes next
                        self.hello_pending = extended
                        if resuming:
                            self.say("reconnected; resuming with our seat token")
                        if extended:
                            self._warm_up()
                    case Unreachable(reason):
                        raise BotError(reason)
                    case Ended(reason):
                        raise BotError(f"{reason} before the game ended")
                    case Dropped():
                        pass
                    case _:
                        if self.plain_first:
                            self.plain_first = False
                            self._seed_opening(event)
                        reply = self._handle(event)
                        if reply is not None:
                            session.send(reply)
                        if self.result is not None:
                            return 0
        raise BotError("the server closed the connection before the game ended")

    def _seed_opening(self, first: ServerMessage) -> None:
        """The first line of a server we said no hello to (it announced none, or ``--plain``)."""
        if not isinstance(first, Player):  # e.g. decline: said as it is
            if not isinstance(first, Decline):
                self._warm_up()
            return
        if self.token is not None:
            raise BotError("the server no longer offers seat tokens: cannot resume the game")
        if not first.offers_hello and self.args.room:
            self.say("the server speaks only the seed protocol: no rooms; playing in its game")
        self._warm_up()

    def _warm_up(self) -> None:
        if not self.warm:
            self.engine.start()  # the engine process says ready (the server's lines wait in the socket)
            self.warm = True

    # -- messages -------------------------------------------------------------------------------------
    def _handle(self, message: ServerMessage) -> Action | None:
        match message:
            case Welcome(token=token):
                self.hello_pending = False
                self.token = token or self.token
            case Player(seat):
                self.seat = seat
                self.say(f"seated as player {seat} ({'first' if seat == 1 else 'second'} to move)")
            case Update():
                return self._update(message)
            case Illegal(action):
                raise BotError(f"the server refused our move {json.dumps(action)}")
            case Error(line):
                if self.hello_pending:
                    self.hello_pending = False
                    return None  # a seed-only server does not read our hello: play on without it
                raise BotError(f"the server did not understand us: {line}")
            case Decline(text):
                raise BotError(f"the server declined: {text}")
            case OpponentNews(news):
                self.say(f"opponent {news}")
        return None

    def _update(self, update: Update) -> Action | None:
        last = update.last_action
        try:
            if update.moves is not None:  # our server: the whole game
                self.position = self.spec.parse_position(update.moves)
            elif last is not None:
                self.position = self.position.play(action_to_move(self.spec, last.action))
            if last is not None and last.player != self.seat:
                move = action_to_move(self.spec, last.action)
                self.say(f"opponent plays {self.spec.move_to_text(move)}{self._ponder_stop(move)}")
        except (GameError, KeyError, TypeError) as exc:
            raise BotError(f"cannot follow the game: {exc}") from None
        if update.pieces != self.position.ply:
            raise BotError("cannot follow the game: the server's board does not match the moves it sent")
        if update.winners is not None:
            self._ponder_stop()
            self.result = update
            self._print_result(update)
            return None
        if update.to_move != self.seat or self.position.outcome.is_over:
            return None
        return Action(self._think())

    def _think(self) -> dict[str, int]:
        self._ponder_stop()  # still pondering if the opponent's move came without last_action (a rejoin)
        try:
            result = self.engine.search(
                self.spec, self.position.to_text(), time_ms=self.time_ms, exact=self.exact, level=self.level_name
            )
        except EngineUnavailable as exc:
            raise BotError(str(exc)) from None
        self.say(
            f"we play {self.spec.move_to_text(result.best_move)} (win chance {result.value:.0%}, "
            f"{result.iterations:,} iterations in {result.elapsed_ms:.0f} ms)"
        )
        after = self.position.play(result.best_move)
        if self.ponder and not after.outcome.is_over:
            self.engine.ponder(self.spec, after.to_text(), exact=self.exact)  # think on the opponent's time
        return move_to_action(self.spec, result.best_move)

    def _ponder_stop(self, played: int | None = None) -> str:
        """End the ponder (the position changed: ``played`` is the opponent's move); words for the move line."""
        end = self.engine.end_ponder(self.spec, self.position.to_text() if played is not None else None)
        if end is None or played is None:
            return ""
        return f" (pondered {end.iterations:,} iterations; {'expected' if end.hit else 'not expected'})"

    def _print_result(self, update: Update) -> None:
        winners = update.winners or {}
        mine = winners.get(str(self.seat), -1.0)
        outcome = {1.0: "we won", 0.0: "we lost", 0.5: "draw"}.get(mine, f"result {winners}")
        reason = f" ({update.reason})" if update.reason else ""
        print(
            f"game over after {self.position.ply} moves: {outcome}{reason}; moves {self.position.to_text() or '-'}",
            flush=True,
        )
        if self.engine.ponders:
            self.say(f"pondering: predicted {self.engine.hits} of {self.engine.ponders} replies")


def run(args: argparse.Namespace) -> int:
    try:
        spec = get_game(args.game)
        address = parse_address(args.connect)
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= MAX_THREADS:
        print(f"error: --threads must be between 1 and {MAX_THREADS}", file=sys.stderr)
        return 2
    problem = None if args.time_ms is None else check_range("--time-ms", args.time_ms, 1, MAX_TIME_MS)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    time_ms = args.time_ms or level(args.level or "medium").wait_ms  # the level's rule sets the strength
    engine = EngineSession(threads=args.threads, seed=args.seed)
    uncapped = args.level is None or level(args.level).plays_by_time  # thinking ahead adds strength
    ponder = args.ponder if args.ponder is not None else (args.time_ms is not None or args.level == "perfect")
    bot = NetBot(
        args, spec, engine, time_ms, exact=args.level == "perfect", ponder=ponder and uncapped, level_name=args.level
    )
    # after a drop, the seat token brings us back: tried every 0.5 s for RECONNECT_FOR_S
    session = ClientSession(
        address,
        bot.hello,
        resumable=lambda: bot.token is not None and bot.result is None,
        patience=Patience(RECONNECT_FOR_S, (0.5,)),
        connect_timeout_s=10.0,
    )
    try:
        return run_blocking(bot.play(session))
    except (ServerLineError, BotError, EngineUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        engine.close()
