"""Two server processes on one database: an action taken through one reaches clients of the other.

Real processes (``python -m astrarium.web.serve``) on loopback ports, real
WebSocket clients, on each storage engine: the processes hear of each other's
actions through PostgreSQL's LISTEN/NOTIFY, or through the news sockets beside
an SQLite file, and catch up from the stored actions. Also ``--processes 2``:
two processes on one port, and a process killed without a word, whose socket
must not trouble the others.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import Cluster, free_port
from webclient import make_settings, stored_actions
from websockets.sync.client import ClientConnection, connect


class Server:
    """A server process on ``db`` (None: the SQLite file in ``folder``)."""

    def __init__(self, db: str | None, folder: Path, *options: str) -> None:
        self.port = free_port()
        self.log = open(folder / f"server-{self.port}.log", "wb")  # noqa: SIM115 (closed in stop)
        command = [sys.executable, "-m", "astrarium.web.serve", "--port", str(self.port), "--data", str(folder), "--workers", "1"]
        self.process = subprocess.Popen(
            command + (["--db", db] if db else []) + list(options),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the server process ended"
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("the server did not start within a minute")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # anything of its own it left behind
        self.log.close()

    def kill(self) -> None:
        """SIGKILL to the server and every process it started: nothing is cleaned up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


class Client:
    def __init__(self, stack: contextlib.ExitStack, server: Server, table: str, token: str) -> None:
        self.ws: ClientConnection = stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=20))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.latest: dict[str, Any] = {}

    def until(self, wanted: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if message["type"] == "state":
                self.latest = message
            if wanted(message):
                return message

    def position(self, move: int) -> dict[str, Any]:
        if self.latest and self.latest["move"] >= move:
            return self.latest
        return self.until(lambda m: m["type"] == "state" and m["move"] >= move)

    def act(self, action: str, move: int) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "act", "action": action, "move": move}))
        return self.until(lambda m: m["type"] in ("ack", "error"))


@pytest.fixture(params=["postgresql", "sqlite"])
def two_servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server, str | None]]:
    """Two server processes on one database: a fresh PostgreSQL database, then one SQLite file."""
    db: str | None = None
    if request.param == "postgresql":
        cluster: Cluster = request.getfixturevalue("postgres")
        db = cluster.new_database()
    servers = [Server(db, tmp_path), Server(db, tmp_path)]
    try:
        for server in servers:
            server.wait_ready()
        yield servers[0], servers[1], db
    finally:
        for server in servers:
            server.stop()


def test_an_action_through_one_process_reaches_the_clients_of_the_other(
    two_servers: tuple[Server, Server, str | None], tmp_path: Path
) -> None:
    a, b, db = two_servers
    with contextlib.ExitStack() as stack:
        play_across_processes(stack, a, b, db, tmp_path)


def play_across_processes(stack: contextlib.ExitStack, a: Server, b: Server, db: str | None, tmp_path: Path) -> None:
    made = httpx.post(a.base + "/api/tables", json={"game": "orbital-combat", "seats": [{"kind": "person"}] * 2}, timeout=20).json()
    table = made["table"]
    tokens = [s["token"] for s in made["seats"]]
    on_a = Client(stack, a, table, tokens[0])  # seat 0 plays through process A
    on_b = Client(stack, b, table, tokens[1])  # seat 1 plays through process B
    watcher = Client(stack, b, table, made["watch"]["token"])
    seats = {0: on_a, 1: on_b}
    for move in range(6):
        mover = on_a.position(move)["to_move"]
        player = seats[mover]
        answer = player.act(player.position(move)["legal"][0], move)
        assert answer["type"] == "ack", answer
        for client in (on_a, on_b, watcher):
            assert client.position(move + 1)["move"] == move + 1
        assert watcher.latest["events"][-1]["text"] == answer["action"]
    # The same move sent through both processes at once: exactly one is stored, the other is told it is stale.
    move = on_a.position(6)["move"]
    mover = on_a.latest["to_move"]
    twin = Client(stack, b if mover == 0 else a, table, tokens[mover])
    legal = seats[mover].position(move)["legal"]
    twin.position(move)
    seats[mover].ws.send(json.dumps({"type": "act", "action": legal[0], "move": move}))
    twin.ws.send(json.dumps({"type": "act", "action": legal[-1], "move": move}))
    answers = [seats[mover].until(lambda m: m["type"] in ("ack", "error")), twin.until(lambda m: m["type"] in ("ack", "error"))]
    assert sorted(m["type"] for m in answers) == ["ack", "error"]
    assert [m["code"] for m in answers if m["type"] == "error"] == ["stale"]
    rows = stored_actions(make_settings(tmp_path, db_url=db), table)
    assert [n for n, _, _ in rows] == list(range(1, move + 2))


def seats_where(client: Client, wanted: Any) -> list[dict[str, Any]]:
    """The first seat list (from a welcome or a seats message) that ``wanted`` accepts."""
    message = client.until(lambda m: m["type"] in ("welcome", "seats") and wanted(m["seats"]))
    seats: list[dict[str, Any]] = message["seats"]
    return seats


#: Chat, presence and hand-over on SQLite in the quick suite, on PostgreSQL in the slow one (the action between processes
#: is checked on both engines in each).
@pytest.mark.parametrize("two_servers", [pytest.param("postgresql", marks=pytest.mark.slow), "sqlite"], indirect=True)
def test_chat_presence_and_hand_over_reach_the_other_process(two_servers: tuple[Server, Server, str | None]) -> None:
    a, b, _ = two_servers
    made = httpx.post(a.base + "/api/tables", json={"game": "orbital-combat", "seats": [{"kind": "person"}] * 2}, timeout=20).json()
    table = made["table"]
    tokens = [s["token"] for s in made["seats"]]
    with contextlib.ExitStack() as stack:
        first = contextlib.ExitStack()
        on_a = Client(first, a, table, tokens[0])  # seat 0 through process A
        seats_where(on_a, lambda seats: seats[0]["present"])
        on_b = Client(stack, b, table, tokens[1])  # seat 1 through process B, which loads the game and asks who is where
        # Presence: B learns that seat 0's player is connected through A, and A that seat 1's is through B.
        seats_where(on_b, lambda seats: seats[0]["present"] and seats[1]["present"])
        seats_where(on_a, lambda seats: seats[0]["present"] and seats[1]["present"])
        # Chat: a line written through A reaches the player on B, once.
        on_a.ws.send(json.dumps({"type": "chat", "text": "good luck from A"}))
        heard = on_b.until(lambda m: m["type"] == "chat")
        assert [line["text"] for line in heard["lines"]] == ["good luck from A"]
        assert heard["lines"][0]["seat"] == 0
        # Seat 0's player leaves A: B sees them gone, and seat 1 hands their seat to a computer through B.
        first.close()
        seats_where(on_b, lambda seats: not seats[0]["present"])
        on_b.ws.send(json.dumps({"type": "handover", "seat": 0, "level": "easy"}))
        seats_where(on_b, lambda seats: seats[0]["handed"] == "easy")
        # Process A heard of it: seat 0's player, back through A, finds the computer in their seat and takes it back.
        back = Client(stack, a, table, tokens[0])
        seats_where(back, lambda seats: seats[0]["handed"] == "easy")
        back.ws.send(json.dumps({"type": "takeback"}))
        seats_where(on_b, lambda seats: seats[0]["handed"] is None and seats[0]["present"])


def news_sockets(folder: Path) -> set[str]:
    """The news sockets of the server processes on the SQLite file in ``folder``."""
    return {p.name for p in (folder / "astrarium.db-news").glob("*.sock")}


def test_a_killed_process_leaves_a_socket_that_troubles_nobody(tmp_path: Path) -> None:
    a, b, c = Server(None, tmp_path), Server(None, tmp_path), Server(None, tmp_path)
    try:
        for server in (a, b, c):
            server.wait_ready()
        killed = {name for name in news_sockets(tmp_path) if name.startswith(f"{c.process.pid}-")}
        assert len(killed) == 1
        c.kill()
        assert killed <= news_sockets(tmp_path)  # killed without a word: its socket is still there
        with contextlib.ExitStack() as stack:
            play_across_processes(stack, a, b, None, tmp_path)
        assert not killed & news_sockets(tmp_path)  # the first process to send news to it found nobody there and removed it
        assert len(news_sockets(tmp_path)) == 2
    finally:
        for server in (a, b, c):
            server.stop()
    assert news_sockets(tmp_path) == set()  # a process stopped in order removes its own


def worker_pids(parent: int) -> set[int]:
    """The server processes uvicorn started under ``parent`` (its direct children that are Python, not its helpers)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent and "spawn_main" in Path(stat.parent / "cmdline").read_text():
                found.add(int(stat.parent.name))
    return found


def test_processes_2_serves_one_port_from_two_processes_on_one_sqlite_file(tmp_path: Path) -> None:
    server = Server(None, tmp_path, "--processes", "2")
    try:
        server.wait_ready()
        deadline = time.monotonic() + 60
        while len(news_sockets(tmp_path)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = worker_pids(server.process.pid)
        assert len(workers) == 2
        assert {int(name.split("-")[0]) for name in news_sockets(tmp_path)} == workers
        wanted = {"game": "orbital-combat", "seats": [{"kind": "person"}] * 2}
        made = httpx.post(server.base + "/api/tables", json=wanted, timeout=20).json()
        tokens = [s["token"] for s in made["seats"]]
        with contextlib.ExitStack() as stack:
            # Whichever process each connection reached, every client sees every move.
            clients = [Client(stack, server, made["table"], tokens[n % 2]) for n in range(6)]
            for move in range(4):
                mover = clients[0].position(move)["to_move"]
                player = clients[move % 3 * 2 + mover]
                answer = player.act(player.position(move)["legal"][0], move)
                assert answer["type"] == "ack", answer
                for client in clients:
                    assert client.position(move + 1)["move"] == move + 1
        assert len(stored_actions(make_settings(tmp_path), made["table"])) == 4
    finally:
        server.stop()
    assert news_sockets(tmp_path) == set()
