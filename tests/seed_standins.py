"""Stand-ins for the seed protocol's published server and UCT client, as they behave (not friendly ones).

Written from the description of those programs (issue 36 and ``../shared/seed-protocol/README.md``),
with no code of theirs:

* ``SeedServer``: pairs the first two connections (seats drawn at random; later ones are declined),
  sends each seat ``player`` then the updates it queues for it; it reads a seat's socket **only when
  that seat is to move**, with ``recv(4096)`` until what it read ends with ``\\r\\n``, parses **only the
  first line** of it, and when that line is not an ``action`` it queues an ``error`` for that seat and
  **never reads that socket again** (it waits on the seat's queue, which nothing fills any more).
* ``seed_client``: reads with ``recv(4096)`` until the buffer ends with ``\\r\\n``, handles every line of
  it, stops on a message type it does not know, and sends every action with an ``extras`` object
  holding one statistics entry per legal move, as the UCT player does.

Both play Connect 4 (``connect4``) and Ultimate TTT (``uttt``) with our rules and STATE format (which
is the seed's).
"""

from __future__ import annotations

import json
import queue
import random
import socket
import threading
from typing import Any

from game.net.states import action_to_move, move_to_action, points_of, state_of, winners_of
from game.rules.errors import GameError
from game.rules.registry import get_game

SEED_CLIENT_TYPES = ("player", "decline", "error", "illegal", "update")


def _send(sock: socket.socket, obj: dict[str, Any]) -> None:
    sock.sendall((json.dumps(obj) + "\r\n").encode("utf-8"))


def _read_until_crlf(sock: socket.socket) -> str:
    """What both seed programs do: recv(4096) until the text read so far ends with CRLF."""
    text = ""
    while not text.endswith("\r\n"):
        data = sock.recv(4096)
        if not data:
            raise ConnectionError("closed")
        text += data.decode("utf-8")
    return text


class SeedServer:
    """The seed's game server for one game of ``game``, on 127.0.0.1 (a free port)."""

    def __init__(self, game: str = "connect4") -> None:
        self.spec = get_game(game)
        self.position = self.spec.start()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.queues: dict[int, queue.Queue[dict[str, Any]]] = {1: queue.Queue(), 2: queue.Queue()}
        self.free = random.sample([1, 2], 2)
        self.lock = threading.Lock()
        self.errors: list[str] = []  # the lines answered with error (each seat then never read again)
        self.first_lines: list[str] = []  # the first line of every read
        self.result: dict[str, Any] | None = None
        self.done = threading.Event()
        start = {"type": "update", "board": None, "state": state_of(self.position)}
        for seat in (1, 2):
            self.queues[seat].put(start)
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            if not self.free:
                _send(conn, {"type": "decline", "message": "Game in progress."})
                conn.close()
                continue
            seat = self.free.pop()
            threading.Thread(target=self._seat, args=(conn, seat), daemon=True).start()

    def _seat(self, conn: socket.socket, seat: int) -> None:
        try:
            _send(conn, {"type": "player", "message": seat})
            while True:
                data = self.queues[seat].get()
                _send(conn, data)
                if data.get("winners") is not None:
                    return
                if (data.get("state") or {}).get("player") == seat:
                    self._parse(seat, _read_until_crlf(conn).rstrip().split("\r\n")[0])
        except OSError:
            pass
        finally:
            conn.close()

    def _parse(self, seat: int, line: str) -> None:
        self.first_lines.append(line)
        try:
            data = json.loads(line)
            if data.get("type") != "action":
                raise ValueError(line)
        except Exception:  # anything it cannot take: error, and the seat is never read again
            self.errors.append(line)
            self.queues[seat].put({"type": "error", "message": line})
            return
        with self.lock:
            try:
                move = action_to_move(self.spec, data["message"])
                position = self.position.play(move)
            except (GameError, KeyError):
                self.queues[seat].put({"type": "illegal", "message": data.get("message")})
                return
            self.position = position
            update: dict[str, Any] = {
                "type": "update",
                "board": None,
                "state": state_of(position),
                "last_action": {"player": seat, "action": data["message"], "sequence": position.ply + 1},
            }
            winners = winners_of(position)
            if winners is not None:
                update.update(winners=winners, points=points_of(self.spec, winners))
                self.result = winners
                self.done.set()
            for other in (1, 2):
                self.queues[other].put(update)


def _uct_extras(spec: Any, legal: list[int], rng: random.Random) -> dict[str, Any]:
    actions = []
    for move in legal:
        plays = rng.randint(1, 400)
        wins = rng.randint(0, plays * 2) / 2
        actions.append(
            {"action": move_to_action(spec, move), "percent": 100 * wins / plays, "wins": wins, "plays": plays}
        )
    return {
        "C": 1.4,
        "max_actions": 1000,
        "name": "jrb.mcts.uct",
        "games": rng.randint(100, 5000),
        "max_depth": rng.randint(2, 40),
        "time": str(rng.random()),
        "actions": actions,
    }


def seed_client(port: int, game: str, seed: int, result: dict[str, Any]) -> None:
    """Play one game as the seed's UCT client (random moves, full ``extras``); fills ``result``:
    seat, types seen, longest line sent, winners, errors/illegal heard."""
    rng = random.Random(seed)
    spec = get_game(game)
    position = spec.start()
    result.update(types=[], longest=0, errors=[], illegal=0, seat=None)
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        while True:
            for line in _read_until_crlf(sock).rstrip().split("\r\n"):
                data = json.loads(line)
                kind = data["type"]
                if kind not in SEED_CLIENT_TYPES:
                    raise ValueError(f"Unexpected message from server: {line!r}")
                result["types"].append(kind)
                if kind == "player":
                    result["seat"] = data["message"]
                elif kind == "decline":
                    result["declined"] = data["message"]
                    return
                elif kind == "error":
                    result["errors"].append(data["message"])
                elif kind == "illegal":
                    result["illegal"] += 1
                elif kind == "update":
                    last = data.get("last_action")
                    if last:
                        position = position.play(action_to_move(spec, last["action"]))
                    if data.get("winners") is not None:
                        result["winners"] = data["winners"]
                        result["plies"] = position.ply
                        return
                    if data["state"]["player"] == result["seat"]:
                        legal = list(position.legal_moves())
                        move = rng.choice(legal)
                        action = {
                            "type": "action",
                            "message": move_to_action(spec, move),
                            "extras": _uct_extras(spec, legal, rng),
                        }
                        line_out = json.dumps(action) + "\r\n"
                        result["longest"] = max(result["longest"], len(line_out))
                        sock.sendall(line_out.encode("utf-8"))
    except OSError as exc:  # the server went away (the real client would die of it too)
        result["closed"] = str(exc)
    finally:
        sock.close()
