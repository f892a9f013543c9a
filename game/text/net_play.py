"""``play --text --connect HOST:PORT``: a human at the terminal in a game on a server.

An extended client (docs/network-protocol.md): it sends a ``hello`` (game, room, or a seat token to
come back), draws every update, and on its turn reads a move, ``resign``, ``draw`` or ``quit``.
"""

from __future__ import annotations

import argparse
import json
import math
import socket
import sys
from typing import Any

from rich.console import Console

from game.net.lines import ServerLineError, ServerLines, seat_of
from game.net.states import action_to_move, move_to_action
from game.net.wire import MAX_CLOCK_MS, offers_hello, parse_address
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

    def _hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        else:
            hello.update(game=self.spec.name, **({"room": self.args.room} if self.args.room else {}))
            if self.args.spectate:
                hello["spectate"] = True
            if self.args.clock_min:
                hello["clock_ms"] = int(self.args.clock_min * 60_000)
        return hello

    def _opening(self, sock: socket.socket, message: dict[str, Any]) -> bool:
        """The server's first line. Our server's first ``player`` line announces the extensions: we
        answer it with our hello (True: the line is handled). A seed-only server is never sent one."""
        if message.get("type") == "player" and offers_hello(message):
            sock.sendall(json.dumps(self._hello()).encode() + b"\r\n")
            return True
        self.extended = False
        if self.token or self.args.spectate:
            raise ServerLineError("the server speaks only the seed protocol: no seat tokens, no spectators")
        if self.args.room or self.args.clock_min:
            self.console.print("the server speaks only the seed protocol: no rooms, no clocks; playing in its game")
        return False

    def play(self, sock: socket.socket) -> int:
        first = True
        for message in ServerLines(sock):
            if first:
                first = False
                if self._opening(sock, message):
                    continue
            kind = message.get("type")
            if kind == "welcome":
                self.token = message.get("token")
                try:
                    self.spec = get_game(str(message.get("game") or self.spec.name))
                except GameError as exc:
                    raise ServerLineError(f"the server plays a game this client does not know: {exc}") from None
                self.position = self.spec.start()
                if message.get("message") == "spectator":
                    self.console.print(f"watching {self.spec.name} in room {message.get('room')}", markup=False)
                    continue
                self.console.print(
                    f"joined {self.spec.name}, room {message.get('room') or '(public)'}; "
                    f"seat token {self.token} (rejoin with --token within {message.get('grace_s')} s)",
                    markup=False,
                )
            elif kind == "player":
                self.seat = seat_of(message)
                self.console.print(f"you play {SYMBOLS[self.seat - 1]} (player {self.seat}); waiting for the game...")
            elif kind == "update":
                if self.update(message, sock):
                    return 0
            elif kind in ("illegal", "error"):
                text = json.dumps(message.get("message"))[:200]
                self.console.print(f"server: {kind} {text}", style="red", markup=False)
                if kind == "illegal" and self.position.to_move + 1 == self.seat:
                    self.my_turn(sock)
            elif kind == "decline":
                self.console.print(f"server declined: {str(message.get('message'))[:200]}", style="red", markup=False)
                return 1
            elif kind == "draw_offer":
                self.console.print("your opponent offers a draw: type draw to accept")
            elif kind == "opponent":
                self.console.print(f"opponent {str(message.get('message'))[:40]}", markup=False)
        self.console.print("the server closed the connection", style="red")
        return 1

    def update(self, message: dict[str, Any], sock: socket.socket) -> bool:
        last = message.get("last_action")
        try:
            if isinstance(message.get("moves"), str):  # our server: the whole game
                self.position = self.spec.parse_position(message["moves"])
            elif isinstance(last, dict):  # a seed server: follow the moves one by one
                self.position = self.position.play(action_to_move(self.spec, last.get("action")))
        except GameError as exc:
            raise ServerLineError(f"cannot follow the game: {exc}") from None
        state = message.get("state")
        if not isinstance(state, dict) or len(state.get("pieces") or ()) != self.position.ply:
            raise ServerLineError("cannot follow the game: the server's board does not match its moves")
        self.console.print(render(self.position))
        clocks = message.get("clocks_ms")
        if isinstance(clocks, dict):
            self.console.print(
                "clocks: " + "  ".join(f"{SYMBOLS[int(seat) - 1]} {_clock(ms)}" for seat, ms in sorted(clocks.items()))
            )
        if isinstance(last, dict) and last.get("player") != self.seat:
            move = self.position.history[-1]
            who = "opponent" if self.seat else SYMBOLS[1 - self.position.to_move]
            self.console.print(f"{who} played {self.spec.move_to_text(move)}")
        if "winners" in message and not isinstance(message["winners"], dict):
            raise ServerLineError("the server sent a result that is not an object")
        if "winners" in message and self.seat is None:
            self.console.print(f"Game over: {message['winners']} ({message.get('reason', 'rules')}).", style="bold")
            return True
        if "winners" in message:
            mine = message["winners"].get(str(self.seat))
            verdict = {1: "You win", 0: "You lose", 0.5: "Draw"}.get(mine, "Game over")
            self.console.print(f"{verdict} ({message.get('reason', 'rules')}).", style="bold")
            return True
        if state.get("player") == self.seat:
            self.my_turn(sock)
        return False

    def my_turn(self, sock: socket.socket) -> None:
        while True:
            others = "resign / draw / quit" if self.extended else "quit"
            text = self.read_line(f"{SYMBOLS[self.seat - 1 if self.seat else 0]} (you) to move, or {others}: ").strip()
            if text.lower() in ("quit", "exit", "q"):
                raise EOFError
            if text.lower() in ("resign", "draw") and self.extended:
                sock.sendall(json.dumps({"type": text.lower()}).encode() + b"\r\n")
                return
            try:
                move = self.spec.parse_move(text)
                self.position.play(move)
            except GameError as exc:
                self.console.print(str(exc), style="red", markup=False)
                continue
            action = {"type": "action", "message": move_to_action(self.spec, move)}
            sock.sendall(json.dumps(action).encode() + b"\r\n")
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
    try:
        sock = socket.create_connection((address.host, address.port), timeout=10.0)
    except OSError as exc:
        print(f"error: cannot reach {address.host}:{address.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    sock.settimeout(None)
    try:
        return game.play(sock)
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
    except (OSError, ValueError) as exc:
        console.print(f"connection lost: {str(exc)[:200]}", style="red", markup=False)
        return 1
    finally:
        sock.close()
