"""``astrarium serve``: run the web table with uvicorn and say where it is.

Kept here rather than in the CLI so the command line only parses its options;
everything about the server (logging, limits on the wire) lives with the server.

``processes > 1`` runs that many server processes on one port (uvicorn's
workers: one listening socket, each process taking the connections it accepts).
They share the database: PostgreSQL's LISTEN/NOTIFY, or on SQLite the news
sockets beside the file (:mod:`astrarium.web.news`), bring every move, chat
line and seat change made through one to the clients of the others. Uvicorn
starts each process by importing the app factory, so the settings go to them
through the environment.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import socket
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from astrarium.web.settings import SETTINGS_ENV, Settings, default_data_dir, settings_from_environment, settings_to_environment

if TYPE_CHECKING:
    from fastapi import FastAPI

#: The largest WebSocket frame uvicorn accepts before closing the connection (the app refuses far smaller messages).
WS_MAX_BYTES = 64 * 1024
#: Seconds a server process of several may take to answer uvicorn's health check (at start, and later) before it is replaced.
WORKER_HEALTHCHECK = 60
#: The cyclic garbage collector's thresholds in a server process (CPython's defaults are 700, 10, 10); see tune_collector.
COLLECTOR_THRESHOLDS = (50_000, 20, 100)


def tune_collector() -> None:
    """Collect cyclic garbage in a server process less often, in larger steps.

    Every move replaces its game's state, so the objects a server holds keep
    being replaced; with CPython's default thresholds these mid-lived objects
    were promoted to the older generations, and the oldest was examined whole
    time and again, each time a pause during which a process answered nobody.
    With a young generation of 50,000 objects most of them die before they are
    examined, a full collection is rare, and the collector costs less CPU in
    all; a smaller or a larger young generation gave a longer tail. Garbage is
    still collected, later. The pauses and the tail before and after are in
    docs/performance.md, "The tail: Nagle's algorithm and the garbage
    collector".
    """
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    data: Path | None = None,
    db: str | None = None,
    workers: int = 0,
    creates_per_minute: int | None = None,
    compress: bool = False,
    processes: int = 1,
    connections_per_address: int | None = None,
) -> None:
    """Serve until interrupted. ``data`` is the folder of the SQLite database; ``db`` a database URL instead.

    ``processes``: server processes sharing the port and the database (each with its own
    computer players' pool of ``workers`` processes).

    ``compress`` turns on WebSocket compression (permessage-deflate): a position with its picture
    is 10-30 KB and compresses several times over, but compressing every message is the largest
    single cost of a busy server's own work (docs/performance.md), so it is off unless the players'
    connections are slow.
    """
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    from astrarium.web.app import create_app

    if processes < 1:
        raise ValueError("processes must be at least 1")
    settings = Settings(data_dir=data or default_data_dir(), db_url=db, computer_workers=workers)
    if creates_per_minute is not None:
        settings = replace(settings, creates_per_minute=creates_per_minute)
    if connections_per_address is not None:
        settings = replace(settings, connections_per_address=connections_per_address)
    _log_to_terminal()
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    where = db.split("@")[-1] if db else str(settings.data_dir)
    several = f", {processes} server processes" if processes > 1 else ""
    print(f"astrarium web table on http://{shown}:{port}/ (games kept in {where}{several}); Ctrl-C stops it", flush=True)
    app: FastAPI | str
    if processes == 1:
        app = create_app(settings)
    else:
        if not settings.db_url:
            from astrarium.web.storage import private_folder

            private_folder(settings.data_dir)
        os.environ[SETTINGS_ENV] = settings_to_environment(settings)
        app = "astrarium.web.serve:app_from_environment"  # each process imports it and calls it
    config = uvicorn.Config(
        app,
        factory=processes > 1,
        workers=processes,
        # A process that does not answer uvicorn's health check in time is killed and started again; a new process on a
        # busy machine can take longer than uvicorn's 5 s just to start Python, and would then never get going.
        timeout_worker_healthcheck=WORKER_HEALTHCHECK,
        host=host,
        port=port,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=compress,
        proxy_headers=True,
        server_header=False,
        log_level="info",
    )
    if processes == 1:
        tune_collector()
        server = uvicorn.Server(config)
        with contextlib.suppress(KeyboardInterrupt):
            server.run()  # asyncio opens the port itself, and sets TCP_NODELAY on every connection
        if not server.started:
            raise SystemExit(STARTUP_FAILURE)  # uvicorn has said why (the port is taken, the database cannot be reached, ...)
    else:
        with contextlib.suppress(KeyboardInterrupt):
            Multiprocess(config, sockets=[listening_socket(host, port)]).run()


def listening_socket(host: str, port: int) -> socket.socket:
    """The port several server processes share, made so that every connection accepted on it sends without delay.

    asyncio turns off Nagle's algorithm (sets ``TCP_NODELAY``) only on a
    connection whose socket says it speaks TCP, and an accepted socket says
    what the listening one says. Uvicorn makes the shared listening socket
    without naming the protocol, so with several processes each connection
    kept Nagle's algorithm: a message written right after another (a
    position after its ack) waited for the client's delayed acknowledgement
    of the first (40 ms on Linux); how many positions waited is in
    docs/performance.md, "The tail: Nagle's algorithm and the garbage
    collector".
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def _log_to_terminal() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def app_from_environment() -> FastAPI:
    """The app of one of several server processes (``--processes N``): uvicorn imports and calls this in each."""
    from astrarium.web.app import create_app

    _log_to_terminal()
    tune_collector()
    text = os.environ.get(SETTINGS_ENV)
    if text is None:
        raise RuntimeError(f"{SETTINGS_ENV} is not set: start several server processes with astrarium serve --processes N")
    return create_app(settings_from_environment(text))


def main(argv: list[str] | None = None) -> None:
    """``python -m astrarium.web.serve``: the same server as ``astrarium serve``, without the rest of the command line."""
    parser = argparse.ArgumentParser(prog="python -m astrarium.web.serve", description="Run the astrarium web table.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every network)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=None, help="folder of the SQLite database")
    parser.add_argument("--db", default=None, help="a database URL instead, e.g. postgresql://user@host/astrarium")
    parser.add_argument("--workers", type=int, default=0, help="processes for computer players (0: cores - 1)")
    parser.add_argument("--compress", action="store_true", help="compress WebSocket messages (for slow connections)")
    parser.add_argument("--creates-per-minute", type=int, default=None, help="new games one address may make a minute (default 30)")
    parser.add_argument("--processes", type=_at_least_one, default=1, help="server processes sharing the port and the database (default 1)")
    parser.add_argument(
        "--connections-per-address", type=_at_least_one, default=None, help="WebSocket connections one address may hold open (default 32)"
    )
    args = parser.parse_args(argv)
    run(
        args.host,
        args.port,
        args.data,
        args.db,
        args.workers,
        args.creates_per_minute,
        args.compress,
        args.processes,
        args.connections_per_address,
    )


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return value


if __name__ == "__main__":
    main()
