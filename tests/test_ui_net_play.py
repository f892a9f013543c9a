"""What players of a network game get in the app beyond the moves (headless, SDL dummy, a real server on
127.0.0.1 started by the host app): a clock chosen when hosting, both clocks shown and running down, a
fallen flag; watching a room as a spectator; a rematch with colours swapped; the result line's reason.

The clocks run on ``NetGame.match.now``: a test moves that time on instead of sleeping.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ui_fakes import make_test_app
from test_ui_net import all_in, choose_network, drop, mover, play, pump, server_db, stop_all

from game.play.actions import ChangeChoice, Command, DialogField, PlayMove, TypeText
from game.play.net_status import result_texts
from game.ui.frame import NewGameCard
from game.ui.game_app import App
from game.ui.net_game import NetGame

pytestmark = pytest.mark.timeout(90)
__all__ = ["server_db"]  # the fixture, from test_ui_net
NAMES = ("Red", "Yellow")


def host_with_clock(clock_steps: int) -> App:
    """A host through the dialog: Mode -> Network game (Host), Clock stepped ``clock_steps`` times, Start."""
    host, _ = make_test_app()
    host.apply(Command.NEW_GAME)
    while host.dialog.choice is not None and not host.dialog.choice.network:
        host.apply(ChangeChoice(DialogField.MODE, 1))
    for _ in range(clock_steps):
        host.apply(ChangeChoice(DialogField.CLOCK, 1))
    host.step([])
    assert isinstance(host.overlay, NewGameCard)
    host.apply(Command.START)
    pump([host], lambda: host.net is not None and host.net.share is not None, what="the hosted server")
    result: App = host
    return result


def seated_pair(clock_steps: int = 0) -> list[App]:
    host = host_with_clock(clock_steps)
    guest, _ = make_test_app()
    assert host.net is not None and host.net.share is not None
    choose_network(guest, host.net.share)
    apps = [host, guest]
    pump(apps, all_in(apps, "playing"), what="both seated")
    return apps


def clock_labels(app: App) -> list[str]:
    app.step([])
    net = app.snapshot().panel.network
    assert net is not None and net.clocks is not None
    return [b.label for b in app.layout.buttons if b.label in net.clocks or b.label.startswith("Flag ")]


def shift_time(app: App, seconds: float) -> None:
    assert app.net is not None
    real = app.net.match.now
    app.net.match.now = lambda: real() + seconds


def test_a_hosted_clock_is_shown_on_both_sides_and_the_movers_runs(server_db: Path) -> None:
    apps = seated_pair(clock_steps=1)  # No clock -> 1 min per player
    host, guest = apps
    try:
        assert host.net is not None and host.net.share is not None and host.net.share.endswith("/1min")
        pump(apps, lambda: all(a.net is not None and a.net.match.clocks is not None for a in apps), what="the clocks")
        for app in apps:
            panel = app.snapshot().panel.network
            assert panel is not None and panel.clocks is not None and panel.running == 0  # the first player's runs
            assert "1 min each" in app.snapshot().subtitle
        first = mover(apps)
        shift_time(first, 7.0)  # seven seconds on the first player's move
        panel = first.snapshot().panel.network
        assert panel is not None and panel.clocks is not None
        assert panel.clocks[1] == "1:00" and panel.clocks[0] in ("0:53", "0:52")
        assert panel.clocks[0] in clock_labels(first)  # drawn in the panel, beside the name
        play(apps, (3,))
        pump(apps, lambda: all(a.snapshot().panel.network.running == 1 for a in apps), what="the second clock")  # type: ignore[union-attr]
        second = mover(apps)
        shift_time(second, 30.0)
        panel = second.snapshot().panel.network
        assert panel is not None and panel.clocks is not None and panel.clocks[1] in ("0:30", "0:29")
    finally:
        stop_all(apps)


def test_a_fallen_flag_shows_at_once_and_the_game_is_lost_on_time(server_db: Path) -> None:
    host, _ = make_test_app()
    apps = [host]
    try:
        host.net = NetGame("host", "connect4", None, room="blitz", clock_ms=2000)
        pump([host], lambda: host.net is not None and host.net.share is not None, what="the hosted server")
        assert host.net.share is not None and host.net.share.endswith("/blitz")
        guest, _ = make_test_app()
        apps.append(guest)
        guest.net = NetGame("join", None, host.net.address, room="blitz", clock_ms=2000)
        pump(apps, lambda: all(a.net is not None and a.net.match.clocks is not None for a in apps), what="the clocks")
        first = mover(apps)
        shift_time(first, 5.0)  # past the 2 s: the flag shows before the server says so
        assert first.snapshot().panel.network.flagged == first.net.match.you
        assert "flag fell" in first.snapshot().status.texts[0]
        assert "Flag 0:00.0" in clock_labels(first)
        pump(apps, all_in(apps, "over"), what="the flag to fall on the server")
        loser = first.snapshot()
        assert loser.status.texts[0] == "Red lost on time (flag fell): you lose"
        other = next(a for a in apps if a is not first).snapshot()
        assert other.status.texts[0] == "Red lost on time (flag fell): you win!"
        assert other.panel.network is not None and other.panel.network.flagged == 0
        assert other.status.dot == other.board.colours[1]  # the winner's colour, not the side to move
    finally:
        stop_all(apps)


def test_a_third_app_watches_the_room_and_follows_the_rematch(server_db: Path) -> None:
    apps = seated_pair(clock_steps=0)
    host, guest = apps
    try:
        play(apps, (3, 4))
        watcher, _ = make_test_app()
        apps.append(watcher)
        watcher.apply(Command.NEW_GAME)
        while watcher.dialog.choice is not None and not watcher.dialog.choice.network:
            watcher.apply(ChangeChoice(DialogField.MODE, 1))
        watcher.apply(ChangeChoice(DialogField.NET_ROLE, -1))  # Host -> Watch a game
        assert watcher.dialog.choice is not None and watcher.dialog.choice.typing
        assert host.net is not None and host.net.share is not None
        for _ in watcher.dialog.choice.address:  # (what the dialog offers: the host's address, copied)
            watcher.apply(Command.ERASE)
        for ch in host.net.share:
            watcher.apply(TypeText(ch))
        watcher.apply(Command.START)
        pump(apps, lambda: watcher.session.line == [3, 4], what="the watcher to see the game")
        assert watcher.net is not None and watcher.net.match.role == "watch" and watcher.net.match.you is None
        frame = watcher.snapshot()
        assert frame.panel.network is not None and frame.panel.network.watching
        assert not frame.panel.network.can_resign and not frame.panel.network.can_draw
        assert frame.status.texts[0] == "Watching · Red to move"
        assert frame.status.notice is not None and frame.status.notice.text == "The game is on"  # nobody's "opponent"
        assert not watcher.human_can_play()
        watcher.apply(PlayMove(0))  # a spectator's click plays nothing
        play(apps[:2], (3,))
        pump(apps, lambda: watcher.session.line == [3, 4, 3], what="the watcher to see the move")
        mover(apps[:2]).apply(Command.RESIGN)
        pump(apps, all_in(apps, "over"), what="the resignation, seen by all three")
        assert watcher.snapshot().status.texts[0] == "Yellow resigned: Red wins"
        assert watcher.snapshot().panel.network.rematch_label is None  # not a player's
        seats = {app.net.match.you for app in apps[:2]}  # type: ignore[union-attr]
        for app in (guest, host):
            app.apply(Command.REMATCH)
        pump(apps, all_in(apps, "playing"), what="the rematch for all three")
        assert {app.net.match.you for app in apps[:2]} == seats  # type: ignore[union-attr]
        assert watcher.session.line == host.session.line == []
        play(apps[:2], (6,))
        pump(apps, lambda: watcher.session.line == [6], what="the watcher in the rematch")
    finally:
        stop_all(apps)


def test_a_rematch_offer_accepted_swaps_the_colours(server_db: Path) -> None:
    apps = seated_pair(clock_steps=2)  # 3 min per player
    host, guest = apps
    try:
        before = {id(app): app.net.match.you for app in apps}  # type: ignore[union-attr]
        play(apps, (3,))
        offerer = mover(apps)
        other = next(a for a in apps if a is not offerer)
        offerer.apply(Command.OFFER_DRAW)
        pump(apps, lambda: other.net is not None and other.net.match.draw_offered_by == "them", what="the draw offer")
        other.apply(Command.OFFER_DRAW)
        pump(apps, all_in(apps, "over"), what="the agreed draw")
        assert host.snapshot().status.texts[0] == "Draw agreed"
        assert "Rematch in the panel" in (host.snapshot().banner.hint if host.snapshot().banner else "")  # type: ignore[union-attr]
        panel = guest.snapshot().panel.network
        assert panel is not None and panel.rematch_label == "Rematch" and panel.can_rematch
        guest.apply(Command.REMATCH)
        assert guest.snapshot().panel.network.rematch_label == "Offered"  # type: ignore[union-attr]
        pump(apps, lambda: host.net is not None and host.net.match.rematch == "them", what="the offer to arrive")
        host.step([])
        assert any(b.label == "Accept" and b.enabled for b in host.layout.buttons)
        assert "offers a rematch" in host.snapshot().status.texts[0]
        host.apply(Command.REMATCH)
        pump(apps, all_in(apps, "playing"), what="the rematch to start")
        assert {id(app): app.net.match.you for app in apps} == {k: 1 - v for k, v in before.items()}  # type: ignore[union-attr, operator]
        assert host.session.line == guest.session.line == []
        assert host.notice is not None and host.notice.notice.text.startswith("Rematch, colours swapped: you play")
        pump(apps, lambda: all(a.net is not None and a.net.match.clocks is not None for a in apps), what="the clocks")
        assert (
            host.net is not None
            and host.net.match.clocks is not None
            and host.net.match.clocks.ms == (180_000, 180_000)
        )
        play(apps, (0, 1))
        assert host.settings.net_token == host.net.match.token  # the new seat is kept
    finally:
        stop_all(apps)


def test_a_rematch_offer_to_a_player_who_left_is_declined(server_db: Path) -> None:
    apps = seated_pair()
    host, guest = apps
    try:
        play(apps, (3,))
        mover(apps).apply(Command.RESIGN)
        pump(apps, all_in(apps, "over"), what="the resignation")
        host.apply(Command.REMATCH)
        pump(apps, lambda: guest.net is not None and guest.net.match.rematch == "them", what="the offer")
        assert guest.net is not None
        guest.net.close()  # the guest's app leaves instead
        pump([host], lambda: host.net is not None and host.net.match.rematch == "off", what="the refusal")
        assert host.notice is not None and "no rematch" in host.notice.notice.text
        assert not host.snapshot().panel.network.can_rematch  # type: ignore[union-attr]
    finally:
        stop_all(apps)


def test_watching_needs_a_room() -> None:
    with pytest.raises(ValueError, match="HOST:PORT/ROOM"):
        NetGame.watch("127.0.0.1:4242")
    with pytest.raises(ValueError, match="HOST:PORT or HOST:PORT/ROOM"):
        NetGame.join("nowhere")


@pytest.mark.parametrize(
    ("winners", "reason", "you", "line"),
    [
        ({"1": 1, "2": 0}, "rules", 0, "Red wins on the board: you win!"),
        ({"1": 0, "2": 1}, "resign", 0, "Red resigned: you lose"),
        ({"1": 1, "2": 0}, "time", 0, "Yellow lost on time (flag fell): you win!"),
        ({"1": 0, "2": 1}, "abandoned", 1, "Red left the game: you win!"),
        ({"1": 0.5, "2": 0.5}, "abandoned", 1, "Draw: both players left"),
        ({"1": 0.5, "2": 0.5}, "agreed", 0, "Draw agreed"),
        ({"1": 0.5, "2": 0.5}, "rules", None, "Draw by the rules (no winner)"),
        ({"1": 0, "2": 1}, "time", None, "Red lost on time (flag fell): Yellow wins"),
    ],
)
def test_the_result_line_says_why_the_game_ended(
    winners: dict[str, float], reason: str, you: int | None, line: str
) -> None:
    assert result_texts(winners, reason, NAMES, you)[0] == line


def test_a_joiner_relaunched_with_its_token_learns_its_room_and_may_rematch(server_db: Path) -> None:
    apps = seated_pair()
    host, guest = apps
    try:
        play(apps, (3,))
        settings = guest.settings
        assert guest.net is not None
        guest.net.close()
        again, _ = make_test_app()  # a relaunched app: its settings hold the server and the token, not the room
        again.settings.net_server, again.settings.net_token = settings.net_server, settings.net_token
        again.settings.net_role = "join"
        again.net = NetGame.resume(again.settings)
        apps[1] = again
        assert again.net is not None and again.net.match.room is None
        pump(apps, all_in(apps, "playing"), what="the resume")
        assert again.net.match.room == "game" and again.net.where.endswith("/game")
        mover(apps).apply(Command.RESIGN)
        pump(apps, all_in(apps, "over"), what="the resignation")
        assert again.snapshot().panel.network.rematch_label == "Rematch"
    finally:
        stop_all(apps)


def watch(apps: list[App], share: str) -> App:
    """A third app watching the room ``share`` (HOST:PORT/ROOM), added to ``apps``."""
    watcher, _ = make_test_app()
    apps.append(watcher)
    watcher.apply(Command.NEW_GAME)
    while watcher.dialog.choice is not None and not watcher.dialog.choice.network:
        watcher.apply(ChangeChoice(DialogField.MODE, 1))
    watcher.apply(ChangeChoice(DialogField.NET_ROLE, -1))  # Host -> Watch a game
    assert watcher.dialog.choice is not None
    for _ in watcher.dialog.choice.address:  # (what the dialog offers: the host's address, copied)
        watcher.apply(Command.ERASE)
    for ch in share:
        watcher.apply(TypeText(ch))
    watcher.apply(Command.START)
    result: App = watcher
    return result


def test_a_spectator_names_the_player_who_dropped(server_db: Path) -> None:
    """Issue 49, defect 3: the joiner (seat 1, Red) dies; the spectator must say Red, not the other colour."""
    apps = seated_pair()
    host, guest = apps
    try:
        if guest.net is not None and guest.net.match.you == 1:  # a rematch swaps the colours: the joiner moves first
            mover(apps).apply(Command.RESIGN)
            pump(apps, all_in(apps, "over"), what="the resignation")
            for app in apps:
                app.apply(Command.REMATCH)
            pump(apps, all_in(apps, "playing"), what="the rematch")
        assert (
            guest.net is not None and guest.net.match.you == 0 and host.net is not None and host.net.share is not None
        )
        play(apps, (3, 4))
        watcher = watch(apps, host.net.share)
        pump(apps, lambda: watcher.session.line == [3, 4], what="the watcher to see the game")

        drop(guest)  # killed: no goodbye
        pump(
            [host, watcher],
            lambda: watcher.net is not None and watcher.net.match.away_until is not None,
            what="the drop",
        )
        pump(
            [host],
            lambda: host.net is not None and host.net.match.away_until is not None,
            what="the drop, for the host",
        )
        assert watcher.snapshot().status.texts[0].startswith("Red disconnected")
        assert host.snapshot().status.texts[0].startswith("Red (opponent) disconnected")
    finally:
        stop_all(apps)
