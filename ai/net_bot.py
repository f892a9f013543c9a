"""``python main.py bot --game G --connect HOST:PORT``: our engine as a network player.

It speaks the seed protocol (docs/network-protocol.md) and so plays on any server that does; on
our server its opening ``hello`` also gets it a seat token, and a dropped connection is resumed
with it. It searches through the engine process (``ai.engine_session`` over ``ai.client``, as the app
does), thinking on the opponent's time with its ``ponder`` command. It prints each move
and the result, and exits 0 when the game ends, 2 on bad arguments, 1 when the server cannot be
reached or the game cannot go on.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from typing import Any

from ai.engine_session import EngineSession, EngineUnavailable
from ai.level_table import LEVEL_NAMES, level
from ai.limits import MAX_THREADS, MAX_TIME_MS, check_range

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
        self.result: dict[str, Any] | None = None
        self.warm = False
        self.hello_pending = False  # sent a hello that neither a welcome nor an error answered yet
        self.ponder = ponder

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(text, flush=True)

    # -- connection -----------------------------------------------------------------------------------
    def play(self, address: Any) -> int:
        sock = socket.create_connection((address.host, address.port), timeout=10.0)
        while True:
            try:
                self._session(sock)
            except OSError as exc:
                if self.token is None or self.result is not None:
                    raise BotError(f"connection lost: {exc.strerror or exc}") from None
                sock = self._reconnect(address)
                continue
            if self.result is not None:
                return 0
            if self.token is None:
                raise BotError("the server closed the connection before the game ended")
            sock = self._reconnect(address)

    def _reconnect(self, address: Any) -> socket.socket:
        end = time.monotonic() + RECONNECT_FOR_S
        while time.monotonic() < end:
            try:
                sock = socket.create_connection((address.host, address.port), timeout=10.0)
            except OSError:
                time.sleep(0.5)
                continue
            self.say("reconnected; resuming with our seat token")
            return sock
        raise BotError(f"could not reconnect within {RECONNECT_FOR_S:g} s")

    def _session(self, sock: socket.socket) -> None:
        """One connection. Nothing is sent before the server's first line: our server's first ``player``
        line announces the extensions, and only then do we say ``hello`` (a seed-only server never
        gets a line it cannot parse)."""
        from game.net.lines import ServerLineError, ServerLines

        sock.settimeout(None)
        first = True
        try:
            for message in ServerLines(sock):
                if first:
                    first = False
                    if self._opening(sock, message):
                        continue
                reply = self._handle(message)
                if reply is not None:
                    self._send(sock, reply)
                if self.result is not None:
                    return
        except ServerLineError as exc:
            raise BotError(str(exc)) from None
        finally:
            sock.close()

    def _opening(self, sock: socket.socket, message: dict[str, Any]) -> bool:
        """The server's first line; True when it was only the announcement (our hello answers it)."""
        from game.net.wire import offers_hello

        announced = message.get("type") == "player" and offers_hello(message)
        if announced and (self.token is not None or not self.args.plain):
            hello = {"type": "hello", "token": self.token}
            if self.token is None:
                hello = {"type": "hello", "game": self.spec.name, "room": self.args.room}
            self._send(sock, hello)
            self.hello_pending = True
            self._warm_up()
            return True
        if message.get("type") != "player":  # e.g. decline: said as it is
            if message.get("type") != "decline":
                self._warm_up()
            return False
        if self.token is not None:
            raise BotError("the server no longer offers seat tokens: cannot resume the game")
        if not announced and self.args.room:
            self.say("the server speaks only the seed protocol: no rooms; playing in its game")
        self._warm_up()
        return False

    def _warm_up(self) -> None:
        if not self.warm:
            self.engine.start()  # the engine process says ready (the server's lines wait in the socket)
            self.warm = True

    @staticmethod
    def _send(sock: socket.socket, obj: dict[str, Any]) -> None:
        sock.sendall(json.dumps({k: v for k, v in obj.items() if v is not None}).encode() + b"\r\n")

    # -- messages -------------------------------------------------------------------------------------
    def _handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        kind = message.get("type")
        if kind == "welcome":
            self.hello_pending = False
            self.token = message.get("token") or self.token
        elif kind == "player":
            from game.net.lines import seat_of

            self.seat = seat_of(message)
            self.say(f"seated as player {self.seat} ({'first' if self.seat == 1 else 'second'} to move)")
        elif kind == "update":
            return self._update(message)
        elif kind == "illegal":
            raise BotError(f"the server refused our move {json.dumps(message.get('message'))}")
        elif kind == "error":
            if self.hello_pending:
                self.hello_pending = False
                return None  # a seed-only server does not read our hello: play on without it
            raise BotError(f"the server did not understand us: {message.get('message')}")
        elif kind == "decline":
            raise BotError(f"the server declined: {message.get('message')}")
        elif kind == "opponent":
            self.say(f"opponent {message.get('message')}")
        return None

    def _update(self, message: dict[str, Any]) -> dict[str, Any] | None:
        from game.net.states import action_to_move
        from game.rules.errors import GameError

        state = message.get("state") or {}
        try:
            last = message.get("last_action")
            if isinstance(message.get("moves"), str):  # our server: the whole game
                self.position = self.spec.parse_position(message["moves"])
            elif last:
                self.position = self.position.play(action_to_move(self.spec, last["action"]))
            if last and last.get("player") != self.seat:
                move = action_to_move(self.spec, last["action"])
                self.say(f"opponent plays {self.spec.move_to_text(move)}{self._ponder_stop(move)}")
        except (GameError, KeyError, TypeError) as exc:
            raise BotError(f"cannot follow the game: {exc}") from None
        if len(state.get("pieces", ())) != self.position.ply:
            raise BotError("cannot follow the game: the server's board does not match the moves it sent")
        if "winners" in message:
            self._ponder_stop()
            self.result = message
            self._print_result(message)
            return None
        if state.get("player") != self.seat or self.position.outcome.is_over:
            return None
        return {"type": "action", "message": self._think()}

    def _think(self) -> dict[str, int]:
        from game.net.states import move_to_action

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

    def _print_result(self, message: dict[str, Any]) -> None:
        winners = message["winners"]
        mine = winners.get(str(self.seat))
        outcome = {1: "we won", 0: "we lost", 0.5: "draw"}.get(mine, f"result {winners}")
        reason = f" ({message['reason']})" if message.get("reason") else ""
        print(
            f"game over after {self.position.ply} moves: {outcome}{reason}; moves {self.position.to_text() or '-'}",
            flush=True,
        )
        if self.engine.ponders:
            self.say(f"pondering: predicted {self.engine.hits} of {self.engine.ponders} replies")


def run(args: argparse.Namespace) -> int:
    from game.net.wire import parse_address
    from game.rules import get_game
    from game.rules.errors import GameError

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
    try:
        return bot.play(address)
    except OSError as exc:
        print(f"error: cannot reach {address.host}:{address.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except BotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except EngineUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        engine.close()
