"""The app's network pieces without the app: ``NetClient`` (a thread, typed events, reconnection with the
seat token) and ``HostedServer`` (``main.py serve`` as a child process), on real sockets on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from game.net.client import NetClient
from game.net.events import ConnectionLost, GameOver, Gone, Moved, NetEvent, OpponentJoined, Resumed, Seated
from game.net.messages import LastAction, Update, Welcome
from game.net.wire import Action, Address
from tests.net_helpers import start_server
from tests.waiting import WaitTimeout, wait_until

pytestmark = pytest.mark.timeout(60)


class Seen:
    """Every event a client reported so far."""

    def __init__(self, client: NetClient) -> None:
        self.client, self.events = client, []  # type: ignore[var-annotated]

    def wait(self, check: Callable[[list[NetEvent]], bool], what: str, timeout: float = 20.0) -> None:
        def seen() -> bool:
            if check(self.events):
                return True
            self.events += self.client.events()
            return check(self.events)

        try:
            wait_until(seen, timeout, what)
        except WaitTimeout:
            raise AssertionError(f"timed out waiting for {what}: {self.events}") from None


def moves_seen(events: list[NetEvent]) -> str:
    return next((e.moves for e in reversed(events) if isinstance(e, Moved | Resumed | OpponentJoined | GameOver)), "")


def test_a_move_made_while_the_server_is_down_is_played_when_it_is_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server, port = start_server(db)
    clients = [NetClient(Address("127.0.0.1", port), "connect4", backoff=(0.2,)) for _ in range(2)]
    seen = [Seen(c) for c in clients]
    try:
        for c in clients:
            c.start()
        for s in seen:
            s.wait(lambda ev: any(isinstance(e, OpponentJoined) for e in ev), "the start")
        first = next(s for s in seen if s.client.seat == 1)
        second = next(s for s in seen if s is not first)
        first.client.play("", 3)
        second.wait(lambda ev: moves_seen(ev) == "4", "the first move")
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        second.wait(lambda ev: any(isinstance(e, ConnectionLost) for e in ev), "the drop")
        second.client.play("4", 3)  # while nobody listens: kept, sent once the seat is back
        server, _ = start_server(db, port=port)
        for s in seen:
            s.wait(lambda ev: moves_seen(ev) == "44", "the move made during the outage")
        assert any(isinstance(e, Resumed) for e in first.events)
    finally:
        for c in clients:
            c.close()
        server.kill()
        server.wait(10)


def test_a_server_gone_for_good_is_reported_once_and_the_client_stops(tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "games.sqlite3")
    clients = [NetClient(Address("127.0.0.1", port), backoff=(0.1, 0.2), gone_after_s=1.0) for _ in range(2)]
    seen = [Seen(c) for c in clients]
    try:
        for c in clients:
            c.start()
        seen[0].wait(lambda ev: any(isinstance(e, OpponentJoined) for e in ev), "the start")
        server.kill()
        server.wait(10)
        seen[0].wait(lambda ev: any(isinstance(e, Gone) for e in ev), "the verdict", timeout=15)
        gone = [e for e in seen[0].events if isinstance(e, Gone)]
        assert len(gone) == 1 and "gone" in gone[0].message and f"127.0.0.1:{port}" in gone[0].message
        clients[0].join(5)
        assert not clients[0].running
    finally:
        for c in clients:
            c.close()


def test_joining_an_address_where_nothing_listens_fails_at_once() -> None:
    client = NetClient(Address("127.0.0.1", 1))
    seen = Seen(client)
    client.start()
    seen.wait(lambda ev: bool(ev), "an answer", timeout=10)
    assert isinstance(seen.events[0], Gone) and "cannot reach 127.0.0.1:1" in seen.events[0].message
    assert not any(isinstance(e, Seated) for e in seen.events)


HOLDER = """
import sys, time
sys.path.insert(0, {root!r})
from game.net.host import HostedServer, ServerReady
h = HostedServer("connect4", port=0, db=__import__("pathlib").Path({db!r}))
h.start()
while True:
    ready = [e for e in h.events() if isinstance(e, ServerReady)]
    if ready:
        print(h.pid, ready[0].port, flush=True)
        break
    time.sleep(0.05)  # sleep-ok: the child (the app) polls its server's events
time.sleep(60)  # sleep-ok: the app stays up until the test kills it
"""


def test_the_hosted_server_ends_with_the_app_even_when_the_app_is_killed(tmp_path: Path) -> None:
    code = HOLDER.format(root=str(Path(__file__).resolve().parents[1]), db=str(tmp_path / "g.sqlite3"))
    app = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        pid, port = (int(v) for v in app.stdout.readline().split())
        os.kill(pid, 0)  # it serves
        app.send_signal(signal.SIGKILL)
        app.wait(10)

        def server_gone() -> bool:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            try:
                os.waitpid(pid, os.WNOHANG)  # not our child: fails; a zombie would be reaped by init
            except ChildProcessError:
                pass
            return False

        try:
            wait_until(server_gone, 10, "the hosted server to end")
        except WaitTimeout:
            os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"the server on port {port} outlived the app that started it") from None
    finally:
        app.kill()


def test_a_move_the_server_never_answered_is_sent_again_after_a_resume() -> None:
    client = NetClient(Address("127.0.0.1", 1), "connect4")  # never started: its reading code alone
    assert client.on_event(Welcome("player", "connect4", seat=2, token="t"))
    client.play("4", 3)
    assert client.session._outbox.get_nowait() == Action({"column": 3})
    assert client.on_event(Update({"player": 2}, moves="4"))  # the server still waits for it
    assert client.session._outbox.get_nowait() == Action({"column": 3})
    assert client.on_event(Update({"player": 1}, LastAction(2, {"column": 3}), moves="44"))
    assert client._pending is None  # it arrived: nothing more to send
