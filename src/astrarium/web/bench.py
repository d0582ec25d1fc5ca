"""``make bench-server``: many concurrent games on loopback, action latency, and a kill -9 in the middle.

A benchmark, not a test. It starts a real server process, makes ``--games``
two-person games and connects both seats of each with a scripted client (all
in this process, on one event loop). Each game's player to move sends a legal
action every one to two seconds and times it from sending to the server's
``ack`` (which comes only after the commit; no computer players, so no
thinking time is measured). Part-way through, the server is killed with
SIGKILL; it is started again on the same database, and every acknowledged
action is looked for in the store.

    python -m astrarium.web.bench --games 500 --seconds 60
    python -m astrarium.web.bench --games 500 --seconds 60 --postgres   # a throwaway PostgreSQL cluster
    python -m astrarium.web.bench --games 500 --seconds 60 --processes 2  # two server processes on one port

With ``--processes N`` the server runs N processes on one port (``astrarium
serve --processes N``); the SIGKILL goes to all of them (the whole process
group), the restart uses the same N, and the server's CPU time is summed over
every process of its group.

It prints throughput, p50/p99/max latency, the CPU time per acknowledged
action of the server process and of these clients (which, unlike latency,
hardly depends on what else the machine is doing) and the number of
acknowledged actions lost (which must be 0), with the machine it ran on and
its load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import glob
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GAME = "orbital-combat"
#: The sleep the clients' loop-lag probe times (s).
LAG_TICK = 0.005


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """The server under test, in a process group of its own (its N server processes, uvicorn's parent, helpers)."""

    def __init__(self, folder: Path, db: str | None, port: int, processes: int = 1) -> None:
        self.port = port
        command = [sys.executable, "-m", "astrarium.web.serve", "--port", str(port), "--data", str(folder)]
        # Every client of the benchmark connects from one address: the limits per address are lifted.
        command += ["--creates-per-minute", "100000", "--connections-per-address", "100000", "--processes", str(processes)]
        if db:
            command += ["--db", db]
        self.log = open(folder / "server.log", "ab")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    async def ready(self, processes: int = 1) -> None:
        """Wait until ``processes`` different server processes have answered (each on a new connection), so the
        clients about to connect find all of them accepting."""
        import httpx

        deadline = time.monotonic() + 120
        seen: set[str] = set()
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit("the server process ended; see its log")
            with contextlib.suppress(httpx.HTTPError, ValueError):
                async with httpx.AsyncClient() as http:
                    answer = await http.get(f"http://127.0.0.1:{self.port}/api/health", timeout=2)
                    if answer.status_code == 200:
                        seen.add(str(answer.json().get("process")))
                        if len(seen) >= processes:
                            return
            await asyncio.sleep(0.2)
        raise SystemExit(f"the server did not start within two minutes ({len(seen)} of {processes} processes answered)")

    def cpu_by_process(self) -> dict[int, float]:
        """CPU time (user + system) used so far by each process of the server's group (its session), from /proc."""
        found: dict[int, float] = {}
        tick = os.sysconf("SC_CLK_TCK")
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            if int(fields[3]) == self.process.pid:  # its session (start_new_session: the server's pid)
                found[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / tick
        return found

    def cpu_seconds(self) -> float:
        """CPU time the server's processes have used so far, all together (NaN where /proc is missing)."""
        found = self.cpu_by_process()
        return sum(found.values()) if found else float("nan")

    def kill(self) -> None:
        """SIGKILL to every process of the server at once, as a power cut would stop them."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # any of its processes still there
        self.log.close()


#: The head of a ``state`` message as the server writes it (``protocol.dumps`` keeps the keys in the order built).
_STATE_HEAD = re.compile(r'\{"type":"state","move":(\d+),"to_move":(\d+|null),')


_LEGAL = '"legal":['
_DECODER = json.JSONDecoder()


@dataclass
class Seat:
    """One scripted client: it receives every message the server sends, and reads only what it acts on.

    A ``state`` message carries the picture (tens of kilobytes); a person's
    browser draws it, a scripted player does not need it. So the client keeps
    the newest state's text, reads its move number and seat to move from the
    head, and parses the whole message only when it is about to act on it
    (once per action, not once per message): the benchmark's own clients
    share the machine with the server and must not take CPU it needs.
    """

    ws: Any
    #: The newest state message, as received; its move number and seat to move (-1, None before the first).
    text: str = ""
    move: int = -1
    to_move: int | None = None
    _parsed: dict[str, Any] | None = None
    acks: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    moved: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for text in self.ws:
            head = _STATE_HEAD.match(text)
            if head is not None:
                self.text, self._parsed = text, None
                self.move, self.to_move = int(head[1]), None if head[2] == "null" else int(head[2])
                self.moved.set()
                continue
            message = json.loads(text)
            if message["type"] == "state":  # written some other way: read it whole
                self.text, self._parsed = text, message
                self.move, self.to_move = message["move"], message["to_move"]
                self.moved.set()
            elif message["type"] in ("ack", "error"):
                self.acks.put_nowait(message)

    def latest(self) -> dict[str, Any]:
        """The newest state, parsed (once)."""
        if self._parsed is None:
            self._parsed = json.loads(self.text) if self.text else {}
        return self._parsed

    def legal(self) -> list[str]:
        """The newest state's legal actions: its top-level ``legal`` member alone when it can be found, else from the whole.

        The member comes after the picture; a key with its quotes cannot occur inside a JSON string (quotes
        there are escaped), and nothing after ``legal`` has a key of that name, so the last one is the top level's.
        """
        if self._parsed is None:
            at = self.text.rfind(_LEGAL)
            if at > 0:
                with contextlib.suppress(ValueError):
                    found, _ = _DECODER.raw_decode(self.text, at + len(_LEGAL) - 1)
                    if isinstance(found, list) and all(isinstance(n, str) for n in found):
                        return found
        legal: list[str] = self.latest().get("legal", [])
        return legal

    async def until(self, move: int) -> None:
        """Wait until this client has seen the position after ``move`` (or a later one)."""
        while self.move < move:
            self.moved.clear()
            await self.moved.wait()


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    #: From sending an action until its player was shown the new position (the ``state`` message after the ack).
    seen: list[float] = field(default_factory=list)
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    errors: int = 0
    #: CPU seconds used while the games were played (until the kill): by the server, and by this process's clients.
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    #: The same for each server process that used any (uvicorn's parent and helpers use next to none).
    by_process: list[float] = field(default_factory=list)
    #: How late the clients' event loop woke from each short sleep (s): the share of a latency spent in this process.
    loop_lag: list[float] = field(default_factory=list)


async def play(table: str, seats: list[Seat], results: Results, stop: asyncio.Event, rng: random.Random) -> None:
    """One game's scripted players: the seat to move acts every one to two seconds."""
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(1.0, 2.0))
        if stop.is_set():
            return
        watcher = seats[0]
        if watcher.move < 0:
            continue
        move, to_move = watcher.move, watcher.to_move
        if to_move is None:  # nobody to move: the game is over
            return
        mover = seats[to_move]
        await mover.until(move)
        legal = mover.legal() if mover.move == move and mover.to_move == to_move else []
        if not legal:  # the game moved on meanwhile (or is over): look again next time
            continue
        action = rng.choice(legal)
        started = time.perf_counter()
        await mover.ws.send(json.dumps({"type": "act", "action": action, "move": move}))
        answer = await mover.acks.get()
        if answer["type"] != "ack":
            results.errors += 1
            continue
        results.latencies.append(time.perf_counter() - started)
        results.acked.append((table, answer["move"], answer["action"]))
        await mover.until(answer["move"])
        results.seen.append(time.perf_counter() - started)
        await watcher.until(answer["move"])


async def run_load(port: int, games: int, kill_at: float, server: ServerProcess, pictures: bool) -> tuple[Results, float, int]:
    import httpx
    from websockets.asyncio.client import connect

    results = Results()
    stop = asyncio.Event()
    rng = random.Random(1)
    base = f"http://127.0.0.1:{port}"
    tables: list[tuple[str, list[Seat]]] = []
    readers: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(timeout=60) as http:
        for _ in range(games):
            made = (await http.post(base + "/api/tables", json={"game": GAME, "seats": [{"kind": "person"}] * 2})).json()
            seats = []
            for seat in made["seats"]:
                ws = await connect(f"ws://127.0.0.1:{port}/ws/{made['table']}", max_size=2**22, open_timeout=60, ping_interval=None)
                await ws.send(json.dumps({"type": "hello", "token": seat["token"], "picture": pictures}))
                seats.append(Seat(ws))
            tables.append((made["table"], seats))
            readers += [asyncio.create_task(_quietly(s.read())) for s in seats]
    # Every client welcomed and shown its first position before the clock starts: what the server does for a newcomer
    # (loading the game, in a second process reading it from the store) is not counted as the cost of actions.
    deadline = time.monotonic() + 120
    while any(s.move < 0 for _, seats in tables for s in seats) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    print(f"{games} games made, {2 * games} clients connected", flush=True)
    # The clients' own cyclic garbage collector, with their thousand connections in its heap, stopped them again and
    # again (docs/performance.md, "The tail: Nagle's algorithm and the garbage collector"); every ack arriving meanwhile
    # waited, in this process, not in the server. So while the clock runs it is off, with what the clients have made so
    # far frozen out of its way.
    gc.collect()
    gc.freeze()
    gc.disable()
    players = [asyncio.create_task(play(table, seats, results, stop, random.Random(rng.random()))) for table, seats in tables]
    lag = asyncio.create_task(_loop_lag(results, stop))
    started = time.monotonic()
    server_cpu, client_cpu = server.cpu_by_process(), time.process_time()
    await asyncio.sleep(kill_at)
    server_after, results.client_cpu = server.cpu_by_process(), time.process_time() - client_cpu
    used = {pid: cpu - server_cpu.get(pid, 0.0) for pid, cpu in server_after.items()}
    results.server_cpu = sum(used.values()) if used else float("nan")
    results.by_process = sorted((cpu for cpu in used.values() if cpu >= 0.05), reverse=True)
    server.kill()  # mid-run: everything acknowledged so far must survive
    killed_after = time.monotonic() - started
    stop.set()
    for task in [*players, *readers, lag]:
        task.cancel()
    await asyncio.gather(*players, *readers, lag, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    return results, killed_after, games


async def _loop_lag(results: Results, stop: asyncio.Event) -> None:
    """How late the clients' own event loop wakes from a 5 ms sleep: time an acknowledgement waits here, not in the server."""
    while not stop.is_set():
        started = time.monotonic()
        await asyncio.sleep(LAG_TICK)
        results.loop_lag.append(time.monotonic() - started - LAG_TICK)


async def _quietly(work: Any) -> None:
    with contextlib.suppress(Exception):
        await work


async def check_stored(db_url: str, acked: list[tuple[str, int, str]]) -> int:
    """How many acknowledged actions are missing from (or different in) the store after the restart."""
    from astrarium.web.storage import Store

    store = Store(db_url)
    stored: dict[str, dict[int, str]] = {}
    try:
        for table in {t for t, _, _ in acked}:
            stored[table] = {a.n: a.notation for a in await store.actions_after(table, 0)}
    finally:
        await store.close()
    return sum(1 for table, n, action in acked if stored.get(table, {}).get(n) != action)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(ms: list[float]) -> str:
    """p50, p99 and max of some milliseconds, as the report prints them."""
    return f"p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms"


def throwaway_postgres(folder: Path) -> tuple[str, list[str]]:
    """initdb + pg_ctl in ``folder`` (as the postgres user when run as root); the URL and the stop command."""
    found = {name: shutil.which(name) or max(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), default=None) for name in ("initdb", "pg_ctl")}
    if not all(found.values()):
        raise SystemExit("--postgres needs PostgreSQL's initdb and pg_ctl (apt-get install postgresql)")
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(folder, "postgres")
    data, port = folder / "pg", free_port()
    initdb = [*as_user, str(found["initdb"]), "-D", str(data), "-U", "astrarium", "--auth=trust", "--no-sync"]
    subprocess.run(initdb, check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    start = [*as_user, str(found["pg_ctl"]), "-D", str(data), "-o", options, "-w", "-l", str(folder / "pg.log"), "start"]
    subprocess.run(start, check=True, capture_output=True)
    return f"postgresql+asyncpg://astrarium@127.0.0.1:{port}/postgres", [
        *as_user,
        str(found["pg_ctl"]),
        "-D",
        str(data),
        "-m",
        "fast",
        "stop",
    ]


def raise_file_limit() -> None:
    """Two sockets per client (here and in the server, which inherits the limit): raise the open-file limit to the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def in_process(games: int, rounds: int) -> None:
    """The server's own work per action without sockets, storage or clients: ``--in-process``.

    ``games`` two-seat tables in this process, each with both seats connected
    (connections that send nowhere); every round, each table's seat to move
    plays a random legal action through the hub, and the ack and both seats'
    ``state`` messages are written out as they would be sent. The CPU time of
    exactly that (the hub, the game and the pictures, JSON) is reported per
    action: a figure of the code alone, for comparing builds on a machine
    others share, since other processes do not run inside this one.
    """
    from astrarium.core import get_game
    from astrarium.web.catalogue import has_picture
    from astrarium.web.hub import Hub
    from astrarium.web.protocol import dumps
    from astrarium.web.settings import Settings
    from astrarium.web.tables import Connection, Seat, Table

    class NoStore:
        is_postgres = False

        async def append(self, *_args: object) -> None:
            return None

    hub = Hub(Settings())
    hub.store = NoStore()  # type: ignore[assignment]
    game = get_game(GAME)
    rng = random.Random(3)

    def new_table(number: int) -> tuple[Table, list[Connection]]:
        state = game.new_game(2, rng.randrange(1 << 40), {})
        seats = [Seat(s, "person", None, None, None, True) for s in (0, 1)]
        table = Table(f"bench{number}", game, state, seats, False, "-", [], has_picture(game))
        connections = [Connection(table, s, 0, None, True) for s in (0, 1)]
        table.connections.update(connections)
        return table, connections

    tables = [new_table(n) for n in range(games)]
    cpu, actions, sent = 0.0, 0, 0
    for _ in range(rounds):
        for number, (table, connections) in enumerate(tables):
            if table.state.is_over:
                tables[number] = table, connections = new_table(number)
            state = table.state
            seat = state.current_player
            assert seat is not None
            notation = str(rng.choice(state.legal_actions()))
            started = time.process_time()
            await hub.act_and_tell(table, seat, notation, state.move_number, connections[seat], None)
            for conn in connections:
                while conn._outbox:
                    sent += len(dumps(conn._outbox.popleft()))
                conn._want_state = False
                sent += len(conn.state_text())
            cpu += time.process_time() - started
            actions += 1
    print(f"in process: {games} games, {actions} actions; {sent / actions / 1024:.0f} KiB of messages an action")
    print(f"CPU per action (act, ack and both seats' state messages): {1000 * cpu / actions:.2f} ms")


async def main_async(args: argparse.Namespace) -> None:
    if args.in_process:
        await in_process(args.games, args.rounds)
        return
    raise_file_limit()
    folder = Path(tempfile.mkdtemp(prefix="astrarium-bench-"))
    db_url: str | None = None
    stop_pg: list[str] | None = None
    pg_folder: Path | None = None
    if args.postgres:
        pg_folder = Path(tempfile.mkdtemp(prefix="astrarium-bench-pg-"))
        db_url, stop_pg = throwaway_postgres(pg_folder)
    engine = "PostgreSQL" if db_url else "SQLite (WAL, synchronous=NORMAL)"
    system = f"{platform.system()} {platform.release()}"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}")
    drawn = not args.no_pictures
    positions = "with a picture per seat" if drawn else "without pictures"
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; storage: {engine}; positions {positions}")
    port = free_port()
    print(f"server processes: {args.processes}")
    server = ServerProcess(folder, db_url, port, args.processes)
    try:
        await server.ready(args.processes)
        results, killed_after, games = await run_load(port, args.games, args.seconds * 0.6, server, drawn)
        restarted = ServerProcess(folder, db_url, free_port(), args.processes)
        try:
            await restarted.ready(args.processes)
        finally:
            restarted.stop()
        lost = await check_stored(db_url or f"sqlite+aiosqlite:///{folder / 'astrarium.db'}", results.acked)
    finally:
        server.stop()
        if stop_pg:
            subprocess.run(stop_pg, capture_output=True)
        if pg_folder is not None:
            shutil.rmtree(pg_folder, ignore_errors=True)
    count = len(results.latencies)
    ms = [x * 1000 for x in results.latencies]
    rate = count / killed_after
    print(f"{games} concurrent games, {count} actions acknowledged in {killed_after:.1f} s before SIGKILL: {rate:.1f} actions/s")
    print(f"ack latency: {spread(ms)}")
    shown = "" if drawn else " (without a picture)"
    print(f"until its player is shown the new position{shown}: {spread([x * 1000 for x in results.seen])}")
    print(f"the clients' own event loop woke late by: {spread([x * 1000 for x in results.loop_lag])}")
    if count:
        server_ms, client_ms = 1000 * results.server_cpu / count, 1000 * results.client_cpu / count
        print(f"CPU per acknowledged action: server {server_ms:.2f} ms (all its processes), benchmark clients {client_ms:.2f} ms")
        if len(results.by_process) > 1:
            shares = ", ".join(f"{1000 * cpu / count:.2f} ms" for cpu in results.by_process)
            print(f"server CPU per acknowledged action by process: {shares}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"refused actions: {results.errors}; acknowledged actions lost after the kill and restart: {lost}")
    shutil.rmtree(folder, ignore_errors=True)
    if lost:
        raise SystemExit(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m astrarium.web.bench", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the run; the server is killed at 60 percent of it")
    parser.add_argument("--postgres", action="store_true", help="run against a throwaway PostgreSQL cluster instead of SQLite")
    parser.add_argument("--no-pictures", action="store_true", help="clients that draw nothing: positions without their SVG")
    parser.add_argument("--processes", type=int, default=1, help="server processes on the one port (astrarium serve --processes N)")
    parser.add_argument(
        "--in-process", action="store_true", help="only the server's own work per action, in this process (no sockets, storage or clients)"
    )
    parser.add_argument("--rounds", type=int, default=18, help="with --in-process: actions played per game")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
