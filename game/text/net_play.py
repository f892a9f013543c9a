"""``play --text --connect HOST:PORT``: a human at the terminal in a game on a server.

An extended client (docs/network-protocol.md): it sends a ``hello`` (game, room, or a seat token to
come back), draws every update, and on its turn reads a move, ``resign``, ``draw`` or ``quit``.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from typing import Any

from rich.console import Console

from game.net.states import action_to_move, move_to_action
from game.net.wire import parse_address
from game.rules.errors import GameError
from game.rules.registry import get_game
from game.text.render import SYMBOLS, render


class NetGame:
    def __init__(self, console: Console, args: argparse.Namespace, interactive: bool) -> None:
        self.console = console
        self.args = args
        self.interactive = interactive
        self.spec = get_game(args.game or "connect4")
        self.position = self.spec.start()
        self.seat: int | None = None
        self.token: str | None = args.token

    def read_line(self, prompt: str) -> str:
        if self.interactive:
            return self.console.input(prompt.replace("[", r"\["))
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        self.console.print(prompt + line.strip(), markup=False)
        return line.strip()

    def play(self, sock: socket.socket) -> int:
        hello: dict[str, Any] = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        else:
            hello.update(game=self.spec.name, **({"room": self.args.room} if self.args.room else {}))
            if self.args.spectate:
                hello["spectate"] = True
            if self.args.clock_min:
                hello["clock_ms"] = int(self.args.clock_min * 60_000)
        sock.sendall(json.dumps(hello).encode() + b"\r\n")
        reader = sock.makefile("rb")
        for raw in reader:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "welcome":
                self.token = message.get("token")
                self.spec = get_game(message.get("game") or self.spec.name)
                if message.get("message") == "spectator":
                    self.console.print(f"watching {self.spec.name} in room {message.get('room')}", markup=False)
                    continue
                self.console.print(
                    f"joined {self.spec.name}, room {message.get('room') or '(public)'}; "
                    f"seat token {self.token} (rejoin with --token within {message.get('grace_s')} s)",
                    markup=False,
                )
            elif kind == "player":
                self.seat = message["message"]
                self.console.print(f"you play {SYMBOLS[self.seat - 1]} (player {self.seat}); waiting for the game...")
            elif kind == "update":
                if self.update(message, sock):
                    return 0
            elif kind in ("illegal", "error"):
                self.console.print(f"server: {kind} {json.dumps(message.get('message'))}", style="red", markup=False)
                if kind == "illegal" and self.position.to_move + 1 == self.seat:
                    self.my_turn(sock)
            elif kind == "decline":
                self.console.print(f"server declined: {message.get('message')}", style="red", markup=False)
                return 1
            elif kind == "draw_offer":
                self.console.print("your opponent offers a draw: type draw to accept")
            elif kind == "opponent":
                self.console.print(f"opponent {message.get('message')}")
        self.console.print("the server closed the connection", style="red")
        return 1

    def update(self, message: dict[str, Any], sock: socket.socket) -> bool:
        self.position = self.spec.parse_position(message.get("moves", ""))
        self.console.print(render(self.position))
        clocks = message.get("clocks_ms")
        if isinstance(clocks, dict):
            self.console.print(
                "clocks: " + "  ".join(f"{SYMBOLS[int(seat) - 1]} {_clock(ms)}" for seat, ms in sorted(clocks.items()))
            )
        last = message.get("last_action")
        if last and last.get("player") != self.seat:
            move = action_to_move(self.spec, last["action"])
            who = "opponent" if self.seat else SYMBOLS[int(last["player"]) - 1]
            self.console.print(f"{who} played {self.spec.move_to_text(move)}")
        if "winners" in message and self.seat is None:
            self.console.print(f"Game over: {message['winners']} ({message.get('reason', 'rules')}).", style="bold")
            return True
        if "winners" in message:
            mine = message["winners"].get(str(self.seat))
            verdict = {1: "You win", 0: "You lose", 0.5: "Draw"}.get(mine, "Game over")
            self.console.print(f"{verdict} ({message.get('reason', 'rules')}).", style="bold")
            return True
        if message["state"]["player"] == self.seat:
            self.my_turn(sock)
        return False

    def my_turn(self, sock: socket.socket) -> None:
        while True:
            text = self.read_line(
                f"{SYMBOLS[self.seat - 1 if self.seat else 0]} (you) to move, or resign / draw / quit: "
            ).strip()
            if text.lower() in ("quit", "exit", "q"):
                raise EOFError
            if text.lower() in ("resign", "draw"):
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
    except (OSError, ValueError) as exc:
        console.print(f"connection lost: {exc}", style="red", markup=False)
        return 1
    finally:
        sock.close()
