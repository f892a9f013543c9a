"""A network game in the app: host (start a server here) or join (HOST:PORT), then play on it.

``NetGame`` owns the pygame-free pieces of ``game.net`` (``HostedServer``, ``NetClient``), reads their
events once per frame (never waiting on the network) and answers each with effects (``game.ui.effects``,
the one way the app's handlers talk back) that the app carries out: the opponent's
moves drop with the usual animation, our moves go to the server, a dropped connection is shown and
resumed with the seat token. The board is the app's own session played as hot-seat (no bot ever moves
for the remote side); only this app's player may move, only on its turn and at the latest position.
Undo, redo and "continue from here" would fork the shared game: the panel offers resign and draw.

A hosted game is played in a named room (``game.play.net_setup``), with the clock the host chose:
both clocks are shown in the panel and the mover's runs down between the server's updates; a fallen
flag shows at once. Someone may watch a room (a spectator: nothing to play). After a game in a room
the panel offers a rematch with colours swapped; the server starts it when both ask.

The unfinished game's server and seat token are kept in the settings, so a relaunched app comes back
to it (a host starts its server again on the same port; the games live in the server's SQLite file).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from game.net import events as ev
from game.net.client import NetClient
from game.net.host import HostedServer, ServerFailed, ServerReady
from game.net.wire import Address, parse_address
from game.play.actions import Command
from game.play.net_setup import Where, clock_ms_of_room, parse_where, room_for
from game.play.net_status import DrawOffer, GameClocks, NetState, RematchOffer
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.ui import files, net_view
from game.ui.effects import Effects, Notice, PlayOnBoard, RememberSeat, ShowPly, StartGame
from game.ui.frame import Frame


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
        room: str | None = None,
        clock_ms: int | None = None,
    ) -> None:
        self.role = role  # "host", "join" or "watch"
        self.game = game
        self.room = room
        self.clock_ms = clock_ms  # asked of the server (a host's choice, or read from the room's name)
        self.address = address  # the server's (for a host: known once it serves)
        self.share: str | None = None  # what a host gives the opponent (HOST:PORT/ROOM)
        self.token = token
        self.server = HostedServer(game or "connect4", lan, port) if role == "host" else None
        if self.server is not None:
            self.server.start()
        self.client: NetClient | None = None
        self.state: NetState = "starting" if self.server is not None else "connecting"
        self.you: int | None = None  # our player (0 moves first)
        self.detail = ""  # why the state is what it is (a drop's reason, a refusal)
        self.retry_at = 0.0  # when the next reconnection try is due (time.monotonic)
        self.away_until: float | None = None  # the opponent dropped: when its seat is given up
        self.away_player: int | None = None  # who dropped (0 moves first), as the server said
        self.draw_offered_by: DrawOffer | None = None
        self.result: ev.GameOver | None = None
        self.server_moves = ""  # the game as the server last told it
        self.clocks: GameClocks | None = None
        self.rematch: RematchOffer | None = None
        self.rematched = False  # this game is a rematch
        self.now: Callable[[], float] = time.monotonic  # the clocks' time (tests step it)
        if address is not None:
            self._connect(address)

    @classmethod
    def host(cls, game: str, lan: bool, clock_min: int = 0) -> NetGame:
        room = room_for(clock_min)
        return cls("host", game, None, lan=lan, room=room, clock_ms=clock_ms_of_room(room))

    @classmethod
    def join(cls, address_text: str) -> NetGame:
        """Raises ValueError (one line) for an address that is not HOST:PORT or HOST:PORT/ROOM."""
        where = parse_where(address_text)
        return cls("join", None, where.address, room=where.room, clock_ms=clock_ms_of_room(where.room))

    @classmethod
    def watch(cls, address_text: str) -> NetGame:
        """A spectator of a room; ValueError (one line) for an address without one."""
        where = parse_where(address_text)
        if where.room is None:
            raise ValueError(f"To watch, give the room too: HOST:PORT/ROOM (e.g. {where}/game)")
        return cls("watch", None, where.address, room=where.room)

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
            room = room_for(settings.net_clock_min)
            return cls(
                "host",
                settings.game,
                None,
                lan=settings.net_lan,
                token=settings.net_token,
                port=address.port,
                room=room,
                clock_ms=clock_ms_of_room(room),
            )
        return cls("join", None, address, token=settings.net_token)

    def _connect(self, address: Address) -> None:
        self.address = address
        self.client = NetClient(
            address, self.game, self.token, room=self.room, clock_ms=self.clock_ms, spectate=self.role == "watch"
        )
        self.client.start()

    @property
    def where(self) -> str:
        """The server (and room) as a player types it to join or watch this game."""
        if self.role == "host" and self.share:
            return self.share
        return str(Where(self.address, self.room)) if self.address is not None else ""

    # --- each frame --------------------------------------------------------------------------------------
    def update(self, session: Session, player_name: Callable[[int], str]) -> Iterator[Effects]:
        """Each frame: the effects of each event of the hosted server and the client, in order (the app carries
        out each event's effects before the next is read: a new game's board is there for the next move)."""
        for host_event in self.server.events() if self.server is not None else []:
            if isinstance(host_event, ServerReady):
                self.share = str(Where(parse_address(host_event.share), self.room))  # HOST:PORT/ROOM
                copied = files.copy_text(self.share)  # the joiner's dialog offers it (game/play/net_setup.py)
                yield [Notice(f"Your opponent joins {self.share}" + (" (copied)" if copied else ""))]
                if self.client is None:
                    self._connect(Address("127.0.0.1", host_event.port))
                if host_event.restarted:
                    yield [Notice("The game server was started again: the game resumes")]
            elif isinstance(host_event, ServerFailed):
                if host_event.for_good or self.client is None:
                    self.state, self.detail = "gone", host_event.message
                yield [Notice(host_event.message, error=True)]
        for event in self.client.events() if self.client is not None else []:
            yield self._on_event(session, player_name, event)

    def _on_event(self, session: Session, player_name: Callable[[int], str], event: ev.NetEvent) -> Effects:
        out: Effects = []
        match event:
            case ev.Seated(seat, game, token, _, room):
                rematch = self.state == "over"  # a new game on this connection
                self.rematched = self.rematched or rematch
                self.you, self.token, self.state = seat - 1, token, "waiting"
                self.room = room or self.room  # a joiner relaunched with its token learns its room here
                out += self._seated(session, game, rematch)
            case ev.Watching(game, room):
                rematch = self.state == "over"  # a new game on this connection
                self.rematched = self.rematched or rematch
                self.you, self.state = None, "waiting"
                out += self._seated(session, game, rematch)
                out.append(Notice(f"Watching room {room}" + (": the rematch" if rematch else "")))
            case ev.Clocks(ms, running):
                self.clocks = GameClocks(ms, self.now(), None if running is None else running - 1)
            case ev.Rematch(news):
                out += self._rematch_news(news)
            case ev.OpponentJoined(moves):
                self.state = "playing"
                out += self._keep()  # from now on there is a game to come back to
                out += self._sync(session, moves)
                if self.role == "watch":
                    out.append(Notice("The rematch is on" if self.rematched else "The game is on"))
                elif self.rematched:
                    out.append(Notice(f"Rematch, colours swapped: you play {player_name(self.you or 0)}"))
                else:
                    out.append(Notice(f"Your opponent is here: you play {player_name(self.you or 0)}"))
            case ev.Moved(moves, _):
                self.draw_offered_by = None
                out += self._sync(session, moves)
            case ev.Resumed(moves):
                self.state, self.detail = "playing", ""
                out += self._sync(session, moves)
                out.append(Notice("Connection back: the game goes on"))
            case ev.GameOver():
                self.state, self.result, self.rematch = "over", event, None
                if self.clocks is not None:
                    self.clocks = replace(self.clocks, running=None)
                out += self._sync(session, event.moves)
                out += self._forget()
            case ev.Opponent("draw offer"):
                self.draw_offered_by = "them"
                out.append(Notice("Your opponent offers a draw: Accept draw in the panel"))
            case ev.Opponent(news, grace_s, seat):
                self.away_until = time.monotonic() + grace_s if news == "away" else None
                self.away_player = None if seat is None else seat - 1
            case ev.Refused(kind, message):
                out.append(Notice(f"The server refused: {kind} {message}", error=True))
                if kind == "illegal":
                    out += self._sync(session, self.server_moves)  # a move it refused comes off the board
            case ev.ConnectionLost(reason, retry_in_s, attempt):
                self.state, self.detail, self.retry_at = "lost", reason, time.monotonic() + retry_in_s
                if attempt == 1:
                    out.append(Notice(f"Connection lost ({reason}): reconnecting…", error=True))
            case ev.Declined(message) | ev.Gone(message):
                self.state, self.detail = "gone", message
                out.append(Notice(f"Network game: {message}", error=True))
                out += self._forget()
        return out

    def _seated(self, session: Session, game: str, fresh: bool) -> Effects:
        """A seat (or a spectator's place) in a game of ``game``: a joiner learns the host's game here, and a
        rematch starts on a new board."""
        self.result, self.clocks, self.rematch, self.draw_offered_by, self.away_until = None, None, None, None, None
        self.server_moves = ""
        if game == session.spec.name and not fresh:
            return []
        try:
            spec = get_game(game)
            capabilities(spec)  # ValueError: a game this app cannot show
        except (GameError, ValueError):
            self.close()
            self.state, self.detail = "gone", f"this app cannot show the server's game {game}"
            return []
        return [StartGame(spec)]

    def _rematch_news(self, news: str) -> Effects:
        if self.state != "over" or self.role == "watch":
            return []
        if news == "offer":
            self.rematch = "them"
            return [Notice("Your opponent offers a rematch, colours swapped: Accept in the panel")]
        if news == "declined":
            self.rematch = "off"
            return [Notice("Your opponent left: no rematch")]
        if self.rematch != "off":
            self.rematch = "off"
            if self.rematch_possible_label() is not None:
                return [Notice("The server closed the game: no rematch (start a new game with N)")]
        return []

    def _sync(self, session: Session, moves: str) -> Effects:
        """Bring the board to the server's moves: a new move drops with the animation, else a reload."""
        self.server_moves = moves
        try:
            line = tuple(session.spec.parse_position(moves).history)
        except GameError:
            return []
        if line == tuple(session.line):
            return []
        if line[:-1] == tuple(session.line):
            back = [] if session.at_end else [ShowPly(len(session.line))]  # a new move takes the view back to the game
            return [*back, PlayOnBoard(line[-1])]
        return [StartGame(session.spec, line)]

    def _keep(self) -> Effects:
        """From now on there is a game to come back to: its server and our seat token are kept in the settings."""
        where = self.address if self.address is not None else None
        if where is None or not self.token:
            return []
        return [RememberSeat(f"{where.host}:{where.port}", self.token)]

    def _forget(self) -> Effects:
        return [RememberSeat("", "")]

    # --- what the player does ------------------------------------------------------------------------------
    def may_move(self, session: Session) -> bool:
        return (
            self.state == "playing"
            and session.at_end
            and self.you == session.position.to_move
            and not session.position.outcome.is_over
        )

    def take(self, c: Command) -> Effects | None:
        """The effects of a command that means something else in a network game; None: the usual meaning."""
        if c is Command.RESIGN:
            return [Notice("You resigned")] if self.resign() else []
        if c is Command.OFFER_DRAW:
            return self.offer_draw()
        if c is Command.REMATCH:
            return self.ask_rematch()
        if c in (Command.UNDO, Command.REDO, Command.CONTINUE) and self.state != "gone":
            return [
                Notice(
                    "Undo, redo and continue would change the shared game: resign or offer a draw "
                    "instead (the panel), or look back with the arrows",
                    error=True,
                )
            ]
        if c in (Command.LOAD, Command.PASTE) and self.state not in ("over", "gone"):
            return [Notice("A network game is on: start a new game (N) before loading one", error=True)]
        return None

    def sent_move(self, moves_before: str, move: int) -> None:
        if self.client is not None:
            self.draw_offered_by = None
            self.client.play(moves_before, move)

    def ask_rematch(self) -> Effects:
        if self.client is None or self.state != "over" or self.rematch in ("you", "off") or self.role == "watch":
            return []
        accepting = self.rematch == "them"
        self.client.rematch()
        self.rematch = "you"
        return [
            Notice("Rematch accepted" if accepting else "Rematch offered (colours swapped): waiting for your opponent")
        ]

    def rematch_possible_label(self) -> str | None:
        """The panel's rematch button (None: no rematch here: not over, a spectator, or no room)."""
        if self.state != "over" or self.role == "watch" or self.room is None or self.you is None:
            return None
        return {"you": "Offered", "them": "Accept"}.get(self.rematch or "", "Rematch")

    def resign(self) -> bool:
        if self.client is None or self.state not in ("playing", "lost") or self.role == "watch":
            return False
        self.client.resign()
        return True

    def offer_draw(self) -> Effects:
        if self.client is None or self.state != "playing" or self.draw_offered_by == "you":
            return []
        accepting = self.draw_offered_by == "them"
        self.client.offer_draw()
        self.draw_offered_by = "you"
        return [Notice("Draw accepted" if accepting else "Draw offered: waiting for your opponent's answer")]

    def leave(self) -> Effects:
        """This app starts another game: a network game under way is resigned (said at once), the seat forgotten
        (the server keeps it for its grace period)."""
        resigned = self.resign()
        self.close()
        return [*([Notice("You resigned the network game you left")] if resigned else []), RememberSeat("", "")]

    def close(self) -> None:
        """Leave: the client stops (the server keeps our seat for its grace period), the hosted server stops."""
        if self.client is not None:
            self.client.close()
        if self.server is not None:
            self.server.close()

    # --- what the frame shows (game.ui.net_view) --------------------------------------------------------------
    def decorate(self, frame: Frame, names: tuple[str, str]) -> Frame:
        return net_view.decorate(self, frame, names)
