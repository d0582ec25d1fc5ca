"""A web table's database read by the lab, strictly read-only: its finished games, who held each seat, their feedback.

The tables are the web table's own (:mod:`astrarium.web.storage`: ``games``,
``seats``, ``actions``, ``feedback``), read through SQLAlchemy with the same
drivers the server uses. Nothing here can write: an SQLite file is opened
through a ``mode=ro`` URI (SQLite refuses every write on such a connection;
on a database in WAL mode it may make the ``-wal`` and ``-shm`` side files
the server makes, never touching the database file), a PostgreSQL session
starts with ``default_transaction_read_only`` on and reads in one
``REPEATABLE READ`` snapshot. A file that is missing or no database, a URL of
another kind, a database the web table did not make or made at another schema
version: each is one DataError naming the database.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import urllib.parse
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from astrarium.core.data import check_path
from astrarium.core.errors import DataError, short
from astrarium.web.storage import MIGRATIONS, StoredSeat, actions, feedback, games, seats

#: How many games' seats, actions and feedback are read in one query.
CHUNK = 500
#: Seconds to wait for a PostgreSQL server to answer before giving up.
CONNECT_TIMEOUT = 10


@dataclass(frozen=True, slots=True)
class Move:
    """One stored action: the seat that played it (None for a move of nobody's), its notation and when it was stored."""

    seat: int | None
    notation: str
    at: datetime


@dataclass(slots=True)
class TableGame:
    """A finished game of the web table as stored: what it was, who sat where, every action, each seat's feedback."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    created_at: datetime
    finished_at: datetime
    result: dict[str, Any]
    seats: list[StoredSeat] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    feedback: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Seat -> (fun 1-5, the player's words)."""


@dataclass(slots=True)
class Finished:
    """What a read found: the game and player count read, their finished games not yet known, and what was left out."""

    shown: str
    """The database as it may be shown and recorded (a URL without its password, a file's absolute path)."""
    game: str
    players: int
    games: list[TableGame]
    known: int
    """Finished games of this game and player count that the caller already had (not read again)."""
    unfinished: int
    other_players: int
    """Finished games of this game with another player count."""


@dataclass(frozen=True, slots=True)
class Database:
    """Where a database is and how to reach it read-only."""

    shown: str
    url: sa.URL
    file: Path | None = None


def locate(db: str | Path) -> Database:
    """The database a ``--db`` names: an SQLite file's path, ``sqlite:///FILE`` or ``postgresql://...`` (a DataError if neither)."""
    text = str(check_path(db, "--db")) if isinstance(db, Path) or "://" not in str(db) else str(db)
    if "://" not in text:
        return _sqlite_file(Path(text))
    try:
        url = sa.make_url(text)
    except sa.exc.ArgumentError:
        raise DataError(short(text), "--db", "not a database URL (sqlite:///FILE or postgresql://USER@HOST/NAME)") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise DataError(short(text), "--db", "an SQLite URL names a file: sqlite:///FILE")
        return _sqlite_file(Path(url.database))
    if backend in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
        shown = sa.URL.create("postgresql", url.username, None, url.host, url.port, url.database, url.query).render_as_string()
        return Database(shown, url)
    raise DataError(short(text), "--db", f"the web table keeps games in SQLite or PostgreSQL, not {short(backend, 20)!r}")


def _sqlite_file(path: Path) -> Database:
    path = check_path(path, "--db").expanduser().resolve()
    shown = short(str(path), 200)
    if not path.exists():
        raise DataError(shown, "--db", "no such file")
    if not path.is_file():
        raise DataError(shown, "--db", "not a file (an SQLite database is one file)")
    return Database(shown, sa.make_url("sqlite+aiosqlite://"), path)


def engine_for(database: Database) -> AsyncEngine:
    """An engine whose every connection is read-only (no pool: each connection is closed when given back)."""
    if database.file is None:
        settings = {"default_transaction_read_only": "on", "application_name": "astrarium lab import"}
        return create_async_engine(database.url, poolclass=NullPool, connect_args={"server_settings": settings, "timeout": CONNECT_TIMEOUT})
    import aiosqlite

    uri = "file:" + urllib.parse.quote(str(database.file)) + "?mode=ro"
    return create_async_engine(database.url, poolclass=NullPool, async_creator=lambda: aiosqlite.connect(uri, uri=True))


@contextlib.asynccontextmanager
async def connect(database: Database) -> AsyncIterator[AsyncConnection]:
    """A read-only connection to the database (on PostgreSQL in one REPEATABLE READ snapshot); failures are DataErrors."""
    engine = engine_for(database)
    try:
        async with engine.connect() as conn:
            if database.file is None:
                conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            yield conn
    except (TimeoutError, sa.exc.SQLAlchemyError, OSError) as exc:
        raise DataError(database.shown, "--db", f"cannot read it: {_first_line(exc)}") from None
    finally:
        await engine.dispose()


def _first_line(exc: BaseException) -> str:
    origin = getattr(exc, "orig", None) or exc
    lines = str(origin).strip().splitlines()
    return short(lines[0] if lines else type(origin).__name__, 200)


async def check_schema(conn: AsyncConnection, shown: str) -> None:
    """Refuse a database the web table did not make, or made at a schema version this astrarium does not read."""
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    try:
        version = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar()
    except sa.exc.DBAPIError as exc:
        if "alembic_version" not in str(exc.orig):  # (the SQL is in the wrapper's text, not the driver's)
            raise
        raise DataError(shown, "--db", "not a database of the web table (it has no schema version)") from None
    if version != head:
        raise DataError(
            shown,
            "--db",
            f"the web table's schema is at version {short(str(version), 20)}; this astrarium reads {head} "
            "(serve it once with this astrarium's 'astrarium serve' to bring it up to date, or import with the astrarium that made it)",
        )


def _aware(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _only(wanted: Any, found: Iterable[Any], what: str, flag: str, shown: str) -> Any:
    """``wanted`` if ``found`` holds it, or the one value ``found`` holds when it is None; a DataError naming the choices else."""
    choices = sorted(set(found))
    listed = short(", ".join(map(str, choices)), 120)
    if wanted is None and len(choices) == 1 or wanted in choices:
        return choices[0] if wanted is None else wanted
    if wanted is not None:
        missing = f"no finished games here for {flag} {short(str(wanted), 40)}"
        raise DataError(shown, flag, f"{missing}; the finished games are of {what} {listed or 'none'}")
    if not choices:
        raise DataError(shown, "--db", "no finished games here")
    raise DataError(shown, flag, f"the finished games are of several {what}s ({listed}): give {flag}")


async def read(conn: AsyncConnection, shown: str, game: str | None, players: int | None, known: frozenset[str]) -> Finished:
    """The finished games of ``game`` at ``players`` (each the only one there is, when None) whose ids are not ``known``."""
    await check_schema(conn, shown)
    columns = [games.c.id, games.c.game, games.c.players, games.c.finished_at]
    rows = (await conn.execute(sa.select(*columns))).all()
    game = _only(game, (r.game for r in rows if r.finished_at is not None), "game", "--game", shown)
    of_game = [r for r in rows if r.game == game]
    players = _only(players, (r.players for r in of_game if r.finished_at is not None), "player count", "--players", shown)
    finished = [r.id for r in of_game if r.finished_at is not None and r.players == players]
    wanted = [i for i in finished if i not in known]
    found = Finished(
        shown=shown,
        game=game,
        players=players,
        games=await _games(conn, wanted),
        known=len(finished) - len(wanted),
        unfinished=sum(r.finished_at is None for r in of_game),
        other_players=sum(r.finished_at is not None and r.players != players for r in of_game),
    )
    return found


async def _games(conn: AsyncConnection, ids: Sequence[str]) -> list[TableGame]:
    """The games with these ids, with their seats, actions and feedback, in the order they ended."""
    by_id: dict[str, TableGame] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        for r in await conn.execute(sa.select(games).where(games.c.id.in_(chunk))):
            by_id[r.id] = TableGame(
                id=r.id,
                game=r.game,
                players=r.players,
                seed=r.seed,
                options=json.loads(r.options),
                created_at=_aware(r.created_at),
                finished_at=_aware(r.finished_at),
                result=json.loads(r.result) if r.result else {},
            )
        for s in await conn.execute(sa.select(seats).where(seats.c.game_id.in_(chunk)).order_by(seats.c.game_id, seats.c.seat)):
            by_id[s.game_id].seats.append(StoredSeat(s.seat, s.kind, s.level, s.spec, None, bool(s.claimed), s.handed, float(s.clock_used)))
        played = sa.select(actions).where(actions.c.game_id.in_(chunk)).order_by(actions.c.game_id, actions.c.n)
        for a in await conn.execute(played):
            by_id[a.game_id].moves.append(Move(a.seat, a.notation, _aware(a.at)))
        for f in await conn.execute(sa.select(feedback).where(feedback.c.game_id.in_(chunk))):
            by_id[f.game_id].feedback[int(f.seat)] = (int(f.fun), str(f.text))
    return sorted(by_id.values(), key=lambda g: (g.finished_at, g.id))


def read_finished(db: str | Path, game: str | None = None, players: int | None = None, known: Iterable[str] = ()) -> Finished:
    """Read the finished games of a web table's database (see :func:`read`); a DataError names what is wrong."""
    database = locate(db)

    async def reading() -> Finished:
        async with connect(database) as conn:
            return await read(conn, database.shown, game, players, frozenset(known))

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: no event loop is running in this thread
        return asyncio.run(reading())
    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # called from a running loop (a notebook): read in a thread
        return thread.submit(asyncio.run, reading()).result()
