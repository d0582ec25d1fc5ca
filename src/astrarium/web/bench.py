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

It prints throughput, p50/p99/max latency and the number of acknowledged
actions lost (which must be 0), with the machine it ran on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import platform
import random
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    def __init__(self, folder: Path, db: str | None, port: int) -> None:
        self.port = port
        command = [sys.executable, "-m", "astrarium.web.serve", "--port", str(port), "--data", str(folder)]
        command += ["--creates-per-minute", "100000"]
        if db:
            command += ["--db", db]
        self.log = open(folder / "server.log", "ab")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        import httpx

        deadline = time.monotonic() + 120
        async with httpx.AsyncClient() as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise SystemExit("the server process ended; see its log")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"http://127.0.0.1:{self.port}/api/health", timeout=2)).status_code == 200:
                        return
                await asyncio.sleep(0.2)
        raise SystemExit("the server did not start within two minutes")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@dataclass
class Seat:
    ws: Any
    latest: dict[str, Any] = field(default_factory=dict)
    acks: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    moved: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "state":
                self.latest = message
                self.moved.set()
            elif message["type"] in ("ack", "error"):
                self.acks.put_nowait(message)


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    errors: int = 0


async def play(table: str, seats: list[Seat], results: Results, stop: asyncio.Event, rng: random.Random) -> None:
    """One game's scripted players: the seat to move acts every one to two seconds."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), rng.uniform(1.0, 2.0))
        if stop.is_set():
            return
        state = seats[0].latest
        if not state or state["over"]:
            return
        mover = seats[state["to_move"]]
        while mover.latest.get("move") != state["move"]:
            mover.moved.clear()
            await mover.moved.wait()
        action = rng.choice(mover.latest["legal"])
        started = time.perf_counter()
        await mover.ws.send(json.dumps({"type": "act", "action": action, "move": state["move"]}))
        answer = await mover.acks.get()
        if answer["type"] != "ack":
            results.errors += 1
            continue
        results.latencies.append(time.perf_counter() - started)
        results.acked.append((table, answer["move"], answer["action"]))
        while seats[0].latest.get("move", -1) < answer["move"]:
            seats[0].moved.clear()
            await seats[0].moved.wait()


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
    print(f"{games} games made, {2 * games} clients connected", flush=True)
    players = [asyncio.create_task(play(table, seats, results, stop, random.Random(rng.random()))) for table, seats in tables]
    started = time.monotonic()
    await asyncio.sleep(kill_at)
    server.kill()  # mid-run: everything acknowledged so far must survive
    killed_after = time.monotonic() - started
    stop.set()
    for task in players + readers:
        task.cancel()
    await asyncio.gather(*players, *readers, return_exceptions=True)
    return results, killed_after, games


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


async def main_async(args: argparse.Namespace) -> None:
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
    drawn = "without pictures" if args.no_pictures else "with a picture per seat"
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; storage: {engine}; positions {drawn}")
    port = free_port()
    server = ServerProcess(folder, db_url, port)
    try:
        await server.ready()
        results, killed_after, games = await run_load(port, args.games, args.seconds * 0.6, server, not args.no_pictures)
        restarted = ServerProcess(folder, db_url, free_port())
        try:
            await restarted.ready()
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
    print(f"ack latency: p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms")
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
    args = parser.parse_args(argv)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
