"""Network play in the app (headless, SDL dummy): two app sessions on a real server on 127.0.0.1.

The host app starts ``main.py serve`` as its child process (its games in a temporary SQLite file); the
other app joins through the new-game dialog's address field. A whole game, a client that dies and comes
back with its seat token, and the server SIGKILLed mid-game (the host app starts it again) are played
through the app's own actions, every frame stepped as the window would.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_ui_fakes import make_test_app

from game.play.actions import ChangeChoice, Command, CycleBotLevel, DialogField, PlayMove, ToggleAutoplay, TypeText
from game.play.settings import Settings
from game.ui.app_run import shutdown
from game.ui.frame import NewGameCard
from game.ui.game_app import App
from game.ui.net_game import NetGame
from tests.waiting import WaitTimeout, wait_until

pytestmark = pytest.mark.timeout(90)
WIN_FOR_FIRST = (3, 3, 2, 2, 1, 1, 0)  # columns 4 4 3 3 2 2 1: the first player wins on the last one


@pytest.fixture
def server_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("CONNECT4_SERVER_DB", str(db))
    monkeypatch.setenv("CONNECT4_HOST_PORT", "0")  # any free port: tests never fight over 4242
    return db


def pump(apps: list[App], until: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    def done() -> bool:
        if until():
            return True
        for app in apps:
            app.step([])
        return until()

    try:
        wait_until(done, timeout, what)
    except WaitTimeout:
        states = [(a.net.match.state, a.net.match.detail) if a.net else None for a in apps]
        raise AssertionError(f"timed out waiting for {what}: {states}") from None


def choose_network(app: App, join_address: str | None) -> None:
    """Through the dialog: Mode -> Network game, Host or Join (typing the address), Start."""
    app.apply(Command.NEW_GAME)
    while app.dialog.choice is not None and not app.dialog.choice.network:
        app.apply(ChangeChoice(DialogField.MODE, 1))
    if join_address is not None:
        app.apply(ChangeChoice(DialogField.NET_ROLE, 1))
        assert app.dialog.choice is not None and app.dialog.choice.typing
        for _ in app.dialog.choice.address:  # (what the dialog offers: the clipboard's HOST:PORT/ROOM, if any)
            app.apply(Command.ERASE)
        for ch in join_address:
            app.apply(TypeText(ch))
    app.step([])
    assert isinstance(app.overlay, NewGameCard)
    app.apply(Command.START)


def host_and_join() -> tuple[App, App]:
    host, _ = make_test_app()
    choose_network(host, None)
    assert host.net is not None
    pump([host], lambda: host.net is not None and host.net.share is not None, what="the hosted server")
    assert host.net.share is not None
    guest, _ = make_test_app()
    choose_network(guest, host.net.share)
    apps = [host, guest]
    pump(apps, all_in(apps, "playing"), what="both seated")
    return host, guest


def mover(apps: list[App]) -> App:
    to_move = apps[0].session.final_position.to_move
    found = [a for a in apps if a.net is not None and a.net.match.you == to_move]
    assert len(found) == 1, (
        f"{to_move} to move; seats {[(a.net.match.you, a.net.match.state) if a.net else None for a in apps]}"
    )
    return found[0]


def play(apps: list[App], columns: tuple[int, ...]) -> None:
    """Each column played by the app whose turn it is; every app must see every move."""
    for column in columns:
        app = mover(apps)
        other = next(a for a in apps if a is not app)
        assert not other.human_can_play()  # only the side to move may play
        expected = [*app.session.line, column]
        app.apply(PlayMove(column))
        pump(
            apps,
            lambda want=expected: all(a.session.line == want for a in apps),  # type: ignore[misc]
            what=f"move {len(expected)}",
        )


def drop(app: App) -> None:
    """The app's process dies: its connection and its hosted server go, with no goodbye."""
    if app.net is not None:
        app.net.close()
        app.net = None
    app.turns.driver.close()


def stop_all(apps: list[App]) -> None:
    """The apps share one (dummy) display: drop all, then close the window once."""
    for app in apps:
        drop(app)
    shutdown(apps[0])


def all_in(apps: list[App], state: str) -> Callable[[], bool]:
    return lambda: all(a.net is not None and a.net.match.state == state for a in apps)


@pytest.fixture
def pair(server_db: Path) -> Iterator[list[App]]:
    """A host app and a guest app seated in one game (the list takes a relaunched app too)."""
    apps = list(host_and_join())
    yield apps
    stop_all(apps)


def test_two_apps_play_a_whole_game_over_loopback(pair: list[App]) -> None:
    host, guest = apps = pair
    assert {host.net.match.you, guest.net.match.you} == {0, 1}  # type: ignore[union-attr]
    assert "Waiting" not in host.snapshot().status.texts[0]
    play(apps, WIN_FOR_FIRST)
    pump(apps, all_in(apps, "over"), what="game over")
    assert host.session.line == guest.session.line == list(WIN_FOR_FIRST)
    winner = next(a for a in apps if a.net is not None and a.net.match.you == 0)  # seat 1 moved first
    loser = next(a for a in apps if a is not winner)
    pump(apps, lambda: winner.snapshot().banner is not None, what="the banner")
    assert winner.snapshot().status.texts[0].endswith("you win!")
    assert loser.snapshot().status.texts[0].endswith("you lose")
    assert not winner.human_can_play() and not loser.human_can_play()


def test_undo_is_not_a_fork_and_resign_ends_the_game(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, (3, 4))
    panel = host.snapshot().panel
    assert panel.network is not None and panel.network.can_resign
    host.apply(Command.UNDO)
    host.apply(Command.CONTINUE)
    host.apply(Command.PREV)
    host.apply(PlayMove(0))  # viewing an earlier move: no side line in a shared game
    pump(apps, lambda: True)
    assert len(host.session.line) == len(guest.session.line) == 2
    host.apply(Command.LAST)
    host.apply(Command.RESIGN)
    pump(apps, all_in(apps, "over"), what="the resignation")
    assert guest.snapshot().status.texts[0].endswith("resigned: you win!")


def test_no_side_of_a_network_game_can_be_handed_to_the_bot(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, (3,))
    assert not any(isinstance(b.action, ToggleAutoplay | CycleBotLevel) for b in host.layout.buttons)
    for action in (ToggleAutoplay(0), ToggleAutoplay(1), CycleBotLevel(1, 1)):
        host.apply(action)
    assert host.settings.mode == "hotseat" and host.notice is not None
    assert "people" in host.notice.notice.text
    play(apps, (4,))  # the game goes on between the two people
    assert host.session.moves_text == guest.session.moves_text == "45"


def test_a_client_killed_mid_game_comes_back_with_its_token(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, WIN_FOR_FIRST[:3])
    settings = guest.settings
    assert settings.net_token and settings.net_server
    drop(guest)  # the seat is kept on the server
    pump([host], lambda: host.net is not None and host.net.match.away_until is not None, what="the drop to be told")
    if host.net is not None and host.net.match.you == host.session.position.to_move:
        host.apply(PlayMove(WIN_FOR_FIRST[3]))  # the host moves while the guest is away
        pump([host], lambda: len(host.session.line) == 4)
    again, _ = make_test_app()  # a relaunched app: its settings hold the server and the token
    again.settings.net_server, again.settings.net_token = settings.net_server, settings.net_token
    again.settings.net_role = "join"
    again.net = NetGame.resume(again.settings)
    apps[1] = again  # stopped with the others at the end
    pump(
        apps,
        lambda: (
            again.net is not None and again.net.match.state == "playing" and again.session.line == host.session.line
        ),
        what="the resume",
    )
    assert again.net is not None and host.net is not None and {again.net.match.you, host.net.match.you} == {0, 1}
    play(apps, WIN_FOR_FIRST[len(host.session.line) :])
    pump(apps, all_in(apps, "over"), what="game over")
    assert host.session.line == again.session.line == list(WIN_FOR_FIRST)


def test_the_server_sigkilled_mid_game_is_restarted_and_the_game_resumes(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, WIN_FOR_FIRST[:4])
    assert host.net is not None and host.net.server is not None
    old_pid = host.net.server.pid
    assert old_pid is not None
    os.kill(old_pid, signal.SIGKILL)
    pump(apps, lambda: guest.net is not None and guest.net.match.state == "lost", what="the drop")
    assert "Reconnecting" in guest.snapshot().status.texts[1]
    pump(
        apps,
        lambda: (
            all(a.net is not None and a.net.match.state == "playing" for a in apps)
            and host.net is not None
            and host.net.server is not None
            and host.net.server.pid != old_pid
        ),
        timeout=30,
        what="the server restarted and both back",
    )
    assert host.session.line == guest.session.line == list(WIN_FOR_FIRST[:4])
    play(apps, WIN_FOR_FIRST[4:])
    pump(apps, all_in(apps, "over"), what="game over")
    assert host.session.line == guest.session.line == list(WIN_FOR_FIRST)


def test_joining_nowhere_says_so_and_a_bad_address_keeps_the_dialog(server_db: Path) -> None:
    app, _ = make_test_app()
    try:
        choose_network(app, "nonsense")
        assert isinstance(app.overlay, NewGameCard) and app.net is None  # the dialog stays, with a notice
        assert app.notice is not None and "HOST:PORT" in app.notice.notice.text
        assert app.dialog.choice is not None and app.dialog.choice.address == "nonsense"  # kept, to be corrected
        for _ in range(len("nonsense")):
            app.apply(Command.ERASE)
        for ch in "127.0.0.1:1":  # nothing listens on port 1
            app.apply(TypeText(ch))
        app.apply(Command.START)
        pump([app], lambda: app.net is not None and app.net.match.state == "gone", what="the refusal")
        assert "cannot reach 127.0.0.1:1" in app.snapshot().status.texts[0]
    finally:
        stop_all([app])


def test_a_draw_offered_and_accepted_ends_the_game_agreed(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, (3,))
    offerer = mover(apps)  # the side to move offers; the other accepts
    other = next(a for a in apps if a is not offerer)
    offerer.apply(Command.OFFER_DRAW)
    assert offerer.snapshot().panel.network is not None
    assert offerer.snapshot().panel.network.draw_label == "Draw offered"  # type: ignore[union-attr]
    pump(apps, lambda: other.net is not None and other.net.match.draw_offered_by == "them", what="the offer")
    assert other.snapshot().panel.network.draw_label == "Accept draw"  # type: ignore[union-attr]
    other.apply(Command.OFFER_DRAW)
    pump(apps, all_in(apps, "over"), what="the agreed draw")
    assert host.snapshot().status.texts[0] == guest.snapshot().status.texts[0] == "Draw agreed"


def test_the_joiner_plays_the_hosts_game(server_db: Path) -> None:
    host, _ = make_test_app()
    host.apply(Command.NEW_GAME)
    while host.dialog.choice is not None and host.dialog.choice.game != "uttt":
        host.apply(ChangeChoice(DialogField.GAME, 1))
    host.apply(Command.CLOSE)
    host.settings.game = "uttt"
    apps = [host]
    try:
        host.dialog.choice = None
        choose_network(host, None)
        assert host.session.spec.name == "uttt"
        pump([host], lambda: host.net is not None and host.net.share is not None, what="the hosted server")
        guest, _ = make_test_app()  # a Connect 4 app: it learns the game from the server
        apps.append(guest)
        choose_network(guest, host.net.share)
        pump(apps, all_in(apps, "playing"), what="both seated")
        assert guest.session.spec.name == "uttt"
        play(apps, (40,))  # the centre
        reply = guest.session.position.legal_moves()[0]
        play(apps, (reply,))
        assert guest.session.line == host.session.line == [40, reply]
    finally:
        stop_all(apps)


def test_the_network_choices_are_kept_in_the_settings(server_db: Path) -> None:
    app, _ = make_test_app()
    try:
        choose_network(app, "10.0.0.7:5000")
        assert app.settings.network and app.settings.net_role == "join" and app.settings.net_address == "10.0.0.7:5000"
        reread = Settings.from_dict(json.loads(app.settings.to_json()))
        app.settings = reread
        app.apply(Command.NEW_GAME)
        assert (
            app.dialog.choice is not None and app.dialog.choice.typing and app.dialog.choice.address == "10.0.0.7:5000"
        )
        with pytest.raises(ValueError, match="net_role"):
            Settings.from_dict({"net_role": "spy"})
    finally:
        stop_all([app])


def test_the_host_app_killed_mid_game_restarts_its_server_and_both_resume(pair: list[App]) -> None:
    host, guest = apps = pair
    play(apps, WIN_FOR_FIRST[:2])
    kept = host.settings
    assert kept.net_role == "host" and kept.net_server.startswith("127.0.0.1:") and kept.net_token
    drop(host)  # its server goes with it (the games stay in the file)
    pump([guest], lambda: guest.net is not None and guest.net.match.state == "lost", what="the guest's drop")
    again, _ = make_test_app()
    again.settings.net_server, again.settings.net_token = kept.net_server, kept.net_token
    again.settings.net_role, again.settings.game = "host", "connect4"
    again.net = NetGame.resume(again.settings)
    apps[0] = again
    assert again.net is not None and again.net.server is not None
    pump(apps, all_in(apps, "playing"), timeout=40, what="the host's server back and both seated again")
    pump(apps, lambda: again.session.line == guest.session.line == list(WIN_FOR_FIRST[:2]), what="the moves")
    play(apps, WIN_FOR_FIRST[2:])
    pump(apps, all_in(apps, "over"), what="game over")
    assert again.session.line == guest.session.line == list(WIN_FOR_FIRST)


def test_a_move_the_server_refuses_comes_off_the_board(pair: list[App]) -> None:
    apps = pair
    play(apps, (3,))
    waiting = next(a for a in apps if a is not mover(apps))
    assert waiting.net is not None
    before = waiting.session.moves_text
    waiting.session.play(0)  # out of turn, past the app's own guard (as a bug or a race would)
    waiting.net.sent_move(before, 0)
    # another line from the server (its view of the game) may take the move back before the refusal arrives
    pump(
        apps,
        lambda: waiting.session.line == [3] and waiting.notice is not None and "refused" in waiting.notice.notice.text,
        what="the refused move taken back, and said",
    )
    assert waiting.session.line == [3] and waiting.notice is not None and waiting.notice.notice.error
