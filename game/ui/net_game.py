"""A network game in the app: host (start a server here) or join (HOST:PORT), then play on it.

``NetGame`` owns the pygame-free pieces of ``game.net`` (``HostedServer``, ``NetClient``), reads their
events once per frame (never waiting on the network) and carries them out on the app: the opponent's
moves drop with the usual animation, our moves go to the server, a dropped connection is shown and
resumed with the seat token. The board is the app's own session played as hot-seat (no bot ever moves
for the remote side); only this app's player may move, only on its turn and at the latest position.
Undo, redo and "continue from here" would fork the shared game: the panel offers resign and draw.

The unfinished game's server and seat token are kept in the settings, so a relaunched app comes back
to it (a host starts its server again on the same port; the games live in the server's SQLite file).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol

from game.net import events as ev
from game.net.client import NetClient
from game.net.host import HostedServer, ServerFailed, ServerReady
from game.net.wire import Address, parse_address
from game.play.actions import Command
from game.play.session import Session
from game.play.settings import Settings
from game.rules import GameSpec, get_game
from game.rules.errors import GameError
from game.ui.frame import Banner, Frame, NetPanel

REASONS = {"resign": "resigned", "time": "lost on time", "abandoned": "left the game"}


class NetApp(Protocol):
    """What a network game needs of the app."""

    settings: Settings
    session: Session

    def play_move(self, move: int) -> bool: ...

    def go_to(self, ply: int) -> None: ...

    def new_game(
        self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None
    ) -> None: ...

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None: ...

    def save_settings(self) -> None: ...

    def player_name(self, player: int) -> str: ...


class NetGame:
    def __init__(
        self,
        role: str,
        game: str | None,
        address: Address | None,
        *,
        lan: bool = False,
        token: str | None = None,
        port: int | None = None,
    ) -> None:
        self.role = role
        self.game = game
        self.address = address  # the server's (for a host: known once it serves)
        self.share: str | None = None  # what a host gives the opponent
        self.token = token
        self.server = HostedServer(game or "connect4", lan, port) if role == "host" else None
        if self.server is not None:
            self.server.start()
        self.client: NetClient | None = None
        self.state = "starting" if self.server is not None else "connecting"
        self.you: int | None = None  # our player (0 moves first)
        self.detail = ""  # why the state is what it is (a drop's reason, a refusal)
        self.retry_at = 0.0  # when the next reconnection try is due (time.monotonic)
        self.away_until: float | None = None  # the opponent dropped: when its seat is given up
        self.draw_offered_by: str | None = None  # "you" or "them"
        self.result: ev.GameOver | None = None
        self.server_moves = ""  # the game as the server last told it
        if address is not None:
            self._connect(address)

    @classmethod
    def host(cls, game: str, lan: bool) -> NetGame:
        return cls("host", game, None, lan=lan)

    @classmethod
    def join(cls, address_text: str) -> NetGame:
        """Raises ValueError (one line) for an address that is not HOST:PORT."""
        return cls("join", None, parse_address(address_text.strip()))

    @classmethod
    def resume(cls, settings: Settings) -> NetGame | None:
        """The unfinished network game kept in the settings, if any (its server, our seat token)."""
        if not (settings.net_server and settings.net_token):
            return None
        try:
            address = parse_address(settings.net_server)
        except ValueError:
            return None
        if settings.net_role == "host":
            return cls("host", settings.game, None, lan=settings.net_lan, token=settings.net_token, port=address.port)
        return cls("join", None, address, token=settings.net_token)

    def _connect(self, address: Address) -> None:
        self.address = address
        self.client = NetClient(address, self.game, self.token)
        self.client.start()

    # --- each frame --------------------------------------------------------------------------------------
    def update(self, app: NetApp) -> None:
        for host_event in self.server.events() if self.server is not None else []:
            if isinstance(host_event, ServerReady):
                self.share = host_event.share
                if self.client is None:
                    self._connect(Address("127.0.0.1", host_event.port))
                if host_event.restarted:
                    app.set_notice("The game server was started again: the game resumes")
            elif isinstance(host_event, ServerFailed):
                app.set_notice(host_event.message, error=True)
                if host_event.for_good or self.client is None:
                    self.state, self.detail = "gone", host_event.message
        for event in self.client.events() if self.client is not None else []:
            self._on_event(app, event)

    def _on_event(self, app: NetApp, event: ev.NetEvent) -> None:
        match event:
            case ev.Seated(seat, game, token, _):
                self.you, self.token, self.state = seat - 1, token, "waiting"
                if game != app.session.spec.name:  # a joiner learns the host's game here
                    try:
                        app.new_game(get_game(game))
                    except (GameError, ValueError):
                        self.close()
                        self.state, self.detail = "gone", f"this app cannot show the server's game {game}"
            case ev.OpponentJoined(moves):
                self.state = "playing"
                self._keep(app)  # from now on there is a game to come back to
                self._sync(app, moves)
                app.set_notice(f"Your opponent is here: you play {app.player_name(self.you or 0)}")
            case ev.Moved(moves, _):
                self.draw_offered_by = None
                self._sync(app, moves)
            case ev.Resumed(moves):
                self.state, self.detail = "playing", ""
                self._sync(app, moves)
                app.set_notice("Connection back: the game goes on")
            case ev.GameOver():
                self.state, self.result = "over", event
                self._sync(app, event.moves)
                self._forget(app)
            case ev.Opponent("draw offer"):
                self.draw_offered_by = "them"
                app.set_notice("Your opponent offers a draw: Accept draw in the panel")
            case ev.Opponent(news, grace_s):
                self.away_until = time.monotonic() + grace_s if news == "away" else None
            case ev.Refused(kind, message):
                app.set_notice(f"The server refused: {kind} {message}", error=True)
                if kind == "illegal":
                    self._sync(app, self.server_moves)  # a move it refused comes off the board
            case ev.ConnectionLost(reason, retry_in_s, attempt):
                self.state, self.detail, self.retry_at = "lost", reason, time.monotonic() + retry_in_s
                if attempt == 1:
                    app.set_notice(f"Connection lost ({reason}): reconnecting…", error=True)
            case ev.Declined(message) | ev.Gone(message):
                self.state, self.detail = "gone", message
                app.set_notice(f"Network game: {message}", error=True)
                self._forget(app)

    def _sync(self, app: NetApp, moves: str) -> None:
        """Bring the board to the server's moves: a new move drops with the animation, else a reload."""
        session = app.session
        self.server_moves = moves
        try:
            line = tuple(session.spec.parse_position(moves).history)
        except GameError:
            return
        if line == tuple(session.line):
            return
        if line[:-1] == tuple(session.line):
            if not session.at_end:
                app.go_to(len(session.line))  # a new move takes the view back to the game
            app.play_move(line[-1])
        else:
            app.new_game(session.spec, line)

    def _keep(self, app: NetApp) -> None:
        s = app.settings
        where = self.address if self.address is not None else None
        if where is None or not self.token:
            return
        s.net_server, s.net_token = f"{where.host}:{where.port}", self.token
        app.save_settings()

    def _forget(self, app: NetApp) -> None:
        app.settings.net_server = app.settings.net_token = ""
        app.save_settings()

    # --- what the player does ------------------------------------------------------------------------------
    def may_move(self, session: Session) -> bool:
        return (
            self.state == "playing"
            and session.at_end
            and self.you == session.position.to_move
            and not session.position.outcome.is_over
        )

    def command(self, app: NetApp, c: Command) -> bool:
        """Carry out a command that means something else in a network game; False: the usual meaning."""
        if c is Command.RESIGN:
            if self.resign():
                app.set_notice("You resigned")
        elif c is Command.OFFER_DRAW:
            self.offer_draw(app)
        elif c in (Command.UNDO, Command.REDO, Command.CONTINUE) and self.state != "gone":
            app.set_notice(
                "Undo, redo and continue would change the shared game: resign or offer a draw "
                "instead (the panel), or look back with the arrows",
                error=True,
            )
        elif c in (Command.LOAD, Command.PASTE) and self.state not in ("over", "gone"):
            app.set_notice("A network game is on: start a new game (N) before loading one", error=True)
        else:
            return False
        return True

    def sent_move(self, moves_before: str, move: int) -> None:
        if self.client is not None:
            self.draw_offered_by = None
            self.client.play(moves_before, move)

    def resign(self) -> bool:
        if self.client is None or self.state not in ("playing", "lost"):
            return False
        self.client.resign()
        return True

    def offer_draw(self, app: NetApp) -> None:
        if self.client is None or self.state != "playing" or self.draw_offered_by == "you":
            return
        accepting = self.draw_offered_by == "them"
        self.client.offer_draw()
        self.draw_offered_by = "you"
        app.set_notice("Draw accepted" if accepting else "Draw offered: waiting for your opponent's answer")

    def close(self) -> None:
        """Leave: the client stops (the server keeps our seat for its grace period), the hosted server stops."""
        if self.client is not None:
            self.client.close()
        if self.server is not None:
            self.server.close()

    # --- what the frame shows -------------------------------------------------------------------------------
    def decorate(self, frame: Frame, names: tuple[str, str]) -> Frame:
        live = self.state in ("playing", "lost")
        panel = replace(
            frame.panel,
            mode_label="Network",
            network=NetPanel(
                self.you,
                live,
                "Accept draw"
                if self.draw_offered_by == "them"
                else "Draw offered"
                if self.draw_offered_by == "you"
                else "Offer draw",
                self.state == "playing" and self.draw_offered_by != "you",
            ),
        )
        status = frame.status
        texts = self.status_texts(frame, names)
        if texts is not None:
            status = replace(status, texts=texts, bold=self.state in ("over", "gone"))
        return replace(
            frame, panel=panel, status=status, subtitle=self.subtitle(names), banner=self.banner(frame, names)
        )

    def subtitle(self, names: tuple[str, str]) -> str:
        side = f"you play {names[self.you]}" if self.you is not None else "seat not known yet"
        where = (
            self.share
            if self.role == "host" and self.share
            else (f"{self.address.host}:{self.address.port}" if self.address is not None else "starting the server")
        )
        return f"Network game ({'host' if self.role == 'host' else 'joined'}, {where}) · {side}"

    def status_texts(self, frame: Frame, names: tuple[str, str]) -> tuple[str, ...] | None:
        """The status bar's words for the network's state (None: the usual words fit)."""
        if self.state == "starting":
            return ("Starting the game server…", "Starting…")
        if self.state == "connecting":
            where = f"{self.address.host}:{self.address.port}" if self.address else ""
            return (f"Connecting to {where}…", "Connecting…")
        if self.state == "waiting":
            share = self.share or (f"{self.address.host}:{self.address.port}" if self.address else "")
            if self.role == "host":
                return (f"Waiting for an opponent · share {share}", f"Waiting · share {share}", share)
            return ("Seated · waiting for the opponent", "Waiting for the opponent", "Waiting…")
        if self.state == "gone":
            return (f"{self.detail} · N: new game", self.detail, "Network game ended")
        if self.state == "over":
            return self._result_texts(names)
        if self.state == "lost":
            wait = max(0.0, self.retry_at - time.monotonic())
            return (
                f"Connection lost · reconnecting (next try in {wait:.0f} s) · no move is lost",
                f"Reconnecting in {wait:.0f} s…",
                "Reconnecting…",
            )
        if not frame.panel.at_end:
            return (
                f"Viewing move {frame.cursor} of {len(frame.moves)} · End returns to the game",
                f"Viewing move {frame.cursor} of {len(frame.moves)}",
                f"Move {frame.cursor}/{len(frame.moves)}",
            )
        to_move = frame.board.position.to_move
        if frame.board.position.outcome.is_over:
            return None
        if self.away_until is not None:
            them, left = names[1 - (self.you or 0)], max(0.0, self.away_until - time.monotonic())
            return (
                f"{them} (opponent) disconnected · their seat is kept {left:.0f} s more",
                "Opponent disconnected",
                "Opponent away",
            )
        if to_move == self.you:
            how = f"click a column or press 1-{frame.caps.width}" if frame.caps.gravity else "click a cell"
            return (f"Your move ({names[to_move]}) · {how}", f"Your move ({names[to_move]})", "Your move")
        return (f"{names[to_move]} (opponent) to move", "Opponent to move", "Their move")

    def _result_texts(self, names: tuple[str, str]) -> tuple[str, ...]:
        result = self.result
        if result is None:
            return ("Game over",)
        mine = result.winners.get(str((self.you or 0) + 1), -1.0)
        verdict = {1.0: "you win!", 0.0: "you lose", 0.5: "draw"}.get(mine, "game over")
        winner = next((int(seat) - 1 for seat, share in result.winners.items() if share == 1), None)
        if result.reason == "agreed":
            return ("Draw agreed", "Draw")
        if winner is None:
            return (f"Draw ({result.reason})", "Draw")
        loser = names[1 - winner]
        why = f"{loser} {REASONS[result.reason]}: " if result.reason in REASONS else f"{names[winner]} wins: "
        return (f"{why}{verdict}", verdict.capitalize())

    def banner(self, frame: Frame, names: tuple[str, str]) -> Banner | None:
        if self.state != "over" or self.result is None:
            return None
        if frame.banner is None and self.result.reason == "rules":
            return None  # the last disc is still falling
        texts = self._result_texts(names)
        winner = next((int(seat) - 1 for seat, share in self.result.winners.items() if share == 1), None)
        colour = frame.board.colours[winner] if winner is not None else None
        return Banner(texts[0], "N: new game", colour)
