"""One player's network game for the desktop app: the socket lives in a background thread.

``NetClient`` speaks the extended protocol (docs/network-protocol.md): it opens with a ``hello`` (the
game, or its seat token to come back), turns every server line into a typed event (frozen dataclasses)
put on a queue, and reconnects with backoff after a drop, with the seat token, until the game goes
on or the server stays away too long. The caller (the app's frame loop) only calls ``events()``,
``play``, ``resign``, ``offer_draw``, ``rematch`` and ``close``: none of them waits on the network.

It can also watch a room (``spectate``), ask for a clock when it creates a room (``clock_ms``), and
after a game in a room it stays connected while the server offers a rematch (colours swapped): the
new game comes as a new ``welcome`` on the same connection.

A move sent just before a drop is not lost: the client remembers it until the server's moves show
it, and sends it again after resuming when the server still waits for it.
"""

from __future__ import annotations

import json
import math
import queue
import socket
import time
from typing import Any

from game.net.events import (
    Clocks,
    ConnectionLost,
    Declined,
    GameOver,
    Gone,
    Moved,
    NetEvent,
    Opponent,
    OpponentJoined,
    Refused,
    Rematch,
    Resumed,
    Seated,
    Watching,
)
from game.net.lines import ServerLineError, seat_of
from game.net.states import move_to_action
from game.net.wire import Address, LineBuffer, LineTooLong, encode, offers_hello
from game.net.worker import Worker
from game.rules.base import GameSpec
from game.rules.errors import GameError
from game.rules.registry import get_game

BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
GONE_AFTER_S = 90.0  # longer than the server's default grace (game.net.room.DEFAULT_GRACE_S): then the game is decided
GRACE_MARGIN_S = 30.0  # a server with a longer grace (serve --grace-s) is waited for that long plus this
PING_EVERY_S = 10.0
SILENT_LIMIT_S = 35.0  # nothing heard this long (pings unanswered): the connection is dead
READ_LIMIT = 1 << 20  # server lines can be long (a Gomoku board); the client's own limit


class NetClient(Worker[NetEvent]):
    """A player on a game server. ``game``: the game to ask for (None: the server's); ``token``: a seat to resume."""

    def __init__(
        self,
        address: Address,
        game: str | None = None,
        token: str | None = None,
        *,
        gone_after_s: float | None = None,
        backoff: tuple[float, ...] = BACKOFF_S,
        connect_timeout_s: float = 5.0,
        room: str | None = None,
        clock_ms: int | None = None,
        spectate: bool = False,
    ) -> None:
        super().__init__("net-client")
        self.address = address
        self.game = game
        self.token = token
        self.room = room
        self.clock_ms = clock_ms
        self.spectate = spectate
        self.seat: int | None = None
        # how long to keep trying to come back: as given, else the server's grace plus a margin (at least
        # GONE_AFTER_S), learnt from its welcome
        self.gone_after_s = GONE_AFTER_S if gone_after_s is None else gone_after_s
        self._gone_after_given = gone_after_s is not None
        self.backoff = backoff
        self.connect_timeout_s = connect_timeout_s
        self._outbox: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._spec: GameSpec | None = None
        self._started = token is not None  # a token: the game is under way
        self._over = False
        self._resuming = False  # welcomed back with our token: the next update is the whole picture
        self._pending: tuple[str, dict[str, Any]] | None = None  # (moves before, action) not yet seen in an update

    # -- the caller's side (never blocks) ---------------------------------------------------------------
    def play(self, moves_before: str, move: int) -> None:
        """Send our move, played at the position ``moves_before``."""
        if self._spec is None:
            return
        action = {"type": "action", "message": move_to_action(self._spec, move)}
        self._outbox.put(action | {"_before": moves_before})

    def resign(self) -> None:
        self._outbox.put({"type": "resign"})

    def offer_draw(self) -> None:
        """Offer a draw, or accept the opponent's offer."""
        self._outbox.put({"type": "draw"})

    def rematch(self) -> None:
        """After the game: offer a rematch (colours swapped), or accept the opponent's offer."""
        self._outbox.put({"type": "rematch"})

    def close(self) -> None:
        self._stop.set()

    # -- the thread -------------------------------------------------------------------------------------
    def _run(self) -> None:
        attempt, first_failure, resuming = 0, 0.0, self._started  # a token given: come back to the seat
        while not self._stop.is_set() and not self._over:
            try:
                sock = socket.create_connection((self.address.host, self.address.port), self.connect_timeout_s)
            except OSError as exc:
                reason = f"cannot reach {self.address.host}:{self.address.port}: {exc.strerror or exc}"
                first_failure = first_failure or time.monotonic()
                if not self._started and attempt == 0 and self.seat is None:
                    self._events.put(Gone(reason))  # a join to a wrong address: said at once
                    return
                if time.monotonic() - first_failure > self.gone_after_s:
                    self._events.put(Gone(f"the server is gone ({reason}, for {self.gone_after_s:.0f} s)"))
                    return
                attempt = self._wait(reason, attempt)
                resuming = True
                continue
            try:
                ended = self._serve(sock, resuming)
            finally:
                sock.close()
            if self._over or self._stop.is_set() or ended is None:
                return
            first_failure, resuming = time.monotonic(), True
            attempt = self._wait(ended, 0)

    def _wait(self, reason: str, attempt: int) -> int:
        delay = self.backoff[min(attempt, len(self.backoff) - 1)]
        self._events.put(ConnectionLost(reason, delay, attempt + 1))
        self._stop.wait(delay)
        return attempt + 1

    def _hello(self) -> dict[str, Any]:
        if self.token and self._started:
            return {"type": "hello", "token": self.token}
        hello: dict[str, Any] = {"type": "hello", "name": "app"}
        for key, value in (("game", self.game), ("room", self.room), ("clock_ms", self.clock_ms)):
            if value:
                hello[key] = value
        if self.spectate:
            hello["spectate"] = True
        return hello

    def _serve(self, sock: socket.socket, resuming: bool) -> str | None:
        """Talk on one connection; the reason it ended (None: stop for good)."""
        sock.settimeout(0.1)
        lines = LineBuffer(READ_LIMIT)
        greeted = False  # our hello goes out once the server's first line announced the extensions
        try:
            heard = last_ping = time.monotonic()
            while not self._stop.is_set():
                if greeted:
                    self._flush(sock)
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    now = time.monotonic()
                    if now - heard > SILENT_LIMIT_S:
                        return "the server stopped answering"
                    if now - last_ping > PING_EVERY_S and self.seat is not None:
                        sock.sendall(encode({"type": "ping"}))
                        last_ping = now
                    continue
                if not data:
                    if self._over:  # the finished game is closed: no rematch now
                        self._events.put(Rematch("closed"))
                        return None
                    return "the server closed the connection"
                heard = time.monotonic()
                for line in lines.feed(data):
                    if isinstance(line, LineTooLong) or not line.strip():
                        continue
                    if not greeted:
                        greeted = True
                        if not self._greet(sock, line):
                            return None
                        continue
                    if not self._on_line(line, resuming):
                        return None
            if greeted:
                self._flush(sock)  # closing: what was asked last (a resignation) still goes out
        except OSError as exc:
            if self._over:
                self._events.put(Rematch("closed"))
                return None
            return f"connection lost: {exc.strerror or exc}"
        return None

    def _greet(self, sock: socket.socket, line: str) -> bool:
        """The server's first line: our server's announces the extensions (that provisional seat is
        not ours to keep), and we say hello. A seed-only server is never sent a line it cannot parse."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if isinstance(message, dict) and message.get("type") == "player" and offers_hello(message):
            sock.sendall(encode(self._hello()))
            return True
        if isinstance(message, dict) and message.get("type") == "decline":
            self._events.put(Declined(str(message.get("message"))[:200]))
            return False
        self._events.put(
            Declined(
                "the server speaks only the seed protocol (no rooms, no reconnection): play there with main.py bot"
            )
        )
        return False

    def _flush(self, sock: socket.socket) -> None:
        while True:
            try:
                message = self._outbox.get_nowait()
            except queue.Empty:
                return
            before = message.pop("_before", None)
            if before is not None:
                self._pending = (before, message)
            sock.sendall(encode(message))

    def _on_line(self, line: str, resuming: bool) -> bool:
        """One server line; False when the client must stop."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return True
        if not isinstance(message, dict):
            return True
        kind = message.get("type")
        if kind == "welcome":
            return self._welcome(message, resuming)
        if kind == "player":
            try:
                self.seat = seat_of(message)
            except ServerLineError as exc:
                self._events.put(Declined(str(exc)))
                return False
        elif kind == "update":
            self._update(message)
        elif kind == "opponent":
            news = "away" if message.get("message") == "disconnected" else "back"
            self._events.put(Opponent(news, float(message.get("grace_s") or 0)))
        elif kind == "draw_offer":
            self._events.put(Opponent("draw offer"))
        elif kind == "rematch" and message.get("message") in ("offer", "declined"):
            self._events.put(Rematch(str(message["message"])))
        elif kind in ("illegal", "error"):
            if kind == "illegal":
                self._pending = None
            self._events.put(Refused(kind, json.dumps(message.get("message"))[:120]))
        elif kind == "decline":
            self._events.put(Declined(str(message.get("message"))))
            return False
        return True

    def _welcome(self, message: dict[str, Any], resuming: bool) -> bool:
        if message.get("message") not in ("player", "spectator"):
            return True
        try:
            self._spec = get_game(str(message.get("game")))
        except GameError as exc:
            self._events.put(Declined(f"the server plays a game this app does not know: {exc}"))
            return False
        if self._over:  # a rematch: a new game on this connection
            self._over = self._started = False
            self._pending = None
        if message.get("message") == "spectator":
            self._resuming = resuming and self._started
            self._events.put(Watching(self._spec.name, str(message.get("room") or "")))
            return True
        self.token = message.get("token") or self.token
        seat = message.get("seat")
        self.seat = seat if seat in (1, 2) and not isinstance(seat, bool) else None
        self._resuming = resuming and self._started  # the update that follows says where the game is
        room = message.get("room")
        grace = float(message.get("grace_s") or 0)
        if not self._gone_after_given and math.isfinite(grace) and grace > 0:  # as long as our seat is kept, and more
            self.gone_after_s = max(self.gone_after_s, grace + GRACE_MARGIN_S)
        self._events.put(
            Seated(self.seat or 0, self._spec.name, self.token, grace, room if isinstance(room, str) else None)
        )
        return True

    def _update(self, message: dict[str, Any]) -> None:
        moves = str(message.get("moves", ""))
        last = message.get("last_action")
        first, resumed = not self._started, self._resuming
        self._started, self._resuming = True, False
        clocks = message.get("clocks_ms")
        if isinstance(clocks, dict):
            try:
                ms = (int(clocks["1"]), int(clocks["2"]))
            except (KeyError, TypeError, ValueError):
                pass
            else:
                state = message.get("state") or {}
                running = None if "winners" in message else state.get("player")
                self._events.put(Clocks(ms, running if running in (1, 2) else None))
        if "winners" in message:
            self._over = True
            self._events.put(GameOver(moves, dict(message["winners"]), str(message.get("reason", "rules"))))
            return
        if resumed:
            self._events.put(Resumed(moves))
        elif first:
            self._events.put(OpponentJoined(moves))
        elif isinstance(last, dict):
            self._events.put(Moved(moves, int(last.get("player") or 0)))
        self._resend_if_lost(moves, message)

    def _resend_if_lost(self, moves: str, message: dict[str, Any]) -> None:
        pending = self._pending
        if pending is None:
            return
        before, action = pending
        state = message.get("state") or {}
        if moves == before and state.get("player") == self.seat:
            self._outbox.put(action | {"_before": before})  # it never reached the server: send it again
        elif moves != before:
            self._pending = None
