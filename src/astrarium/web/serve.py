"""``astrarium serve``: run the web table with uvicorn and say where it is.

Kept here rather than in the CLI so the command line only parses its options;
everything about the server (logging, limits on the wire) lives with the server.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path

from astrarium.web.settings import Settings, default_data_dir

#: The largest WebSocket frame uvicorn accepts before closing the connection (the app refuses far smaller messages).
WS_MAX_BYTES = 64 * 1024


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    data: Path | None = None,
    db: str | None = None,
    workers: int = 0,
    creates_per_minute: int | None = None,
    compress: bool = False,
) -> None:
    """Serve until interrupted. ``data`` is the folder of the SQLite database; ``db`` a database URL instead.

    ``compress`` turns on WebSocket compression (permessage-deflate): a position with its picture
    is 10-30 KB and compresses several times over, but compressing every message is the largest
    single cost of a busy server's own work (docs/performance.md), so it is off unless the players'
    connections are slow.
    """
    import uvicorn

    from astrarium.web.app import create_app

    settings = Settings(data_dir=data or default_data_dir(), db_url=db, computer_workers=workers)
    if creates_per_minute is not None:
        settings = replace(settings, creates_per_minute=creates_per_minute)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    where = db.split("@")[-1] if db else str(settings.data_dir)
    print(f"astrarium web table on http://{shown}:{port}/ (games kept in {where}); Ctrl-C stops it", flush=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=compress,
        proxy_headers=True,
        server_header=False,
        log_level="info",
    )


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
    args = parser.parse_args(argv)
    run(args.host, args.port, args.data, args.db, args.workers, args.creates_per_minute, args.compress)


if __name__ == "__main__":
    main()
