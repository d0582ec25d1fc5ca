"""Where the web table keeps its games: SQLAlchemy 2 (async) over SQLite or PostgreSQL.

A game is stored as its record: the game id, player count, options and seed,
then one row per action in order. Nothing derived from a position is stored,
so a game is rebuilt by replaying its actions, and a change of rendering or
of the server never needs a data migration.

Appending an action is one transaction that also moves the game's move count
on, and only if that count is still the one the caller saw (``moves = n - 1``):
two server processes that share a database can never both write move ``n``.
The server tells a player an action happened only after this commit returns.

Several server processes may share one database. On PostgreSQL each appended
action is announced with ``NOTIFY astrarium, '<game> <move>'`` in the same
transaction (so it is heard only once committed), and every process listens,
catching its copy of the game up from the stored actions. On SQLite the same
news goes, after the commit, through Unix datagram sockets in a folder beside
the database file (:mod:`astrarium.web.news`). A chat line
(``'<game> chat'``) and a change of seats (``'<game> seats'``: a link opened,
a seat handed to a computer or taken back) are announced the same way, and
who is connected through which process with :meth:`Store.announce` (the hub's
``here``/``ask`` news).

Seat links are never stored: only the SHA-256 of each token, so a copy of the
database does not hand out seats. The database does hold the seeds of
unfinished games, so on SQLite only the server's user may read it: a data
folder the server makes is 0700 and the database file 0600 (SQLite gives its
-wal, -shm and -journal files the database file's mode); see :func:`private_folder`
and :func:`private_database`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from astrarium.web.news import NewsSocket, news_folder

log = logging.getLogger("astrarium.web")
metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("watch_hash", sa.String(64), nullable=False),
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("to_move", sa.Integer, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("clock", sa.Text, nullable=True),
)
sa.Index("ix_games_open", games.c.finished_at, games.c.public)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("spec", sa.String(200), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("claimed", sa.Boolean, nullable=False),
    sa.Column("handed", sa.String(32), nullable=True),
    sa.Column("clock_used", sa.Float, nullable=False, server_default="0"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("notation", sa.Text, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

feedback = sa.Table(
    "feedback",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("fun", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The PostgreSQL channel on which server processes hear of each other's actions.
CHANNEL = "astrarium"
_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
#: SQLite settings under which a commit writes to the WAL without waiting for the disk (no fsync), so it is
#: cheap enough to make on the event loop itself; FULL and EXTRA sync every commit, which is done in a thread.
_NO_SYNC_ON_COMMIT = ("OFF", "NORMAL")
#: Seconds between passive WAL checkpoints of the SQLite writer (which makes none of its own while committing).
CHECKPOINT_EVERY = 2.0
#: Waiting for another process's write lock on SQLite: the first pause between tries, the longest, and the most in all (s).
BUSY_FIRST_PAUSE = 0.0002
BUSY_MOST_PAUSE = 0.002
BUSY_PATIENCE = 30.0


class Conflict(Exception):
    """Another writer stored an action first: the caller's position is out of date."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    kind: str  # "person" or "computer"
    level: str | None = None
    spec: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    #: The computer level now playing this person's seat (handed over), or None.
    handed: str | None = None
    #: Seconds of this seat's chess clock used so far.
    clock_used: float = 0.0


@dataclass(frozen=True, slots=True)
class StoredAction:
    n: int
    seat: int | None
    notation: str


@dataclass(slots=True)
class StoredGame:
    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    public: bool
    watch_hash: str
    seats: list[StoredSeat]
    moves: int = 0
    to_move: int | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    actions: list[StoredAction] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Append:
    game_id: str
    n: int
    seat: int | None
    notation: str
    to_move: int | None
    result: Mapping[str, Any] | None
    clock_used: float | None
    done: asyncio.Future[None]


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    seat: int | None
    text: str
    at: datetime


#: The files of an SQLite database beside the database file itself (their names end the database's name).
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_folder(folder: Path) -> None:
    """Make the data folder if it is missing, readable by the server's user alone (0700).

    A folder that already exists is left as its owner set it (it may be shared on
    purpose); the database files in it are private all the same.
    """
    if folder.is_dir():
        return
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # whatever the umask


def private_database(path: Path) -> None:
    """Make the SQLite database file (empty: SQLite fills it) readable and writable by the server's user alone (0600).

    The file is made before SQLite opens it, so it is never readable by others
    even for a moment, and SQLite makes its -wal, -shm and -journal files with the
    database file's mode. A database (or a side file) left by an older server
    with a wider mode is narrowed to 0600.
    """
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.fstat(handle).st_mode & 0o077:
            os.fchmod(handle, 0o600)
    finally:
        os.close(handle)
    for suffix in SQLITE_SIDE_FILES:
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            if side.stat().st_mode & 0o077:
                os.chmod(side, 0o600)


def now() -> datetime:
    return datetime.now(UTC)


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


#: The PostgreSQL advisory lock that lets one server process at a time migrate a shared database.
MIGRATION_LOCK = 0x61737472


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Several processes may start at once on a new database: they migrate one after the other (held to commit).
        connection.execute(sa.text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
    config = _alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Store:
    """The database behind one server process."""

    def __init__(self, url: str, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.is_postgres = url.startswith("postgresql")
        self._listener: Any = None
        if self.is_sqlite:
            synchronous = sqlite_synchronous.upper()
            if synchronous not in _SYNCHRONOUS:
                raise ValueError(f"sqlite_synchronous must be one of {', '.join(_SYNCHRONOUS)}")
            self.engine: AsyncEngine = create_async_engine(url, connect_args={"timeout": 30})
            _sqlite_pragmas(self.engine, synchronous)
        else:
            self.engine = create_async_engine(url, pool_pre_ping=True)
        # SQLite has one writer at a time; taking turns here is cheaper than waiting on its file lock.
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._pending: list[_Append] = []
        self._flusher: asyncio.Task[None] | None = None
        #: SQLite: the moves are written by a plain sqlite3 connection of this process (see :class:`_MoveWriter`).
        self._moves: _MoveWriter | None = None
        #: SQLite: the news channel to the other server processes on the same file (bound when first used).
        self._news: NewsSocket | None = None
        if self.is_sqlite and self.engine.url.database not in (None, "", ":memory:"):
            private_database(Path(str(self.engine.url.database)))
            self._moves = _MoveWriter(str(self.engine.url.database), synchronous, self.engine.dialect)
            self._news = NewsSocket(news_folder(Path(str(self.engine.url.database)).resolve()))
        #: PostgreSQL: the moves are written by one asyncpg connection of their own (see :class:`_PgMoveWriter`).
        self._pg_moves: _PgMoveWriter | None = None
        if self.is_postgres and self.engine.url.drivername == "postgresql+asyncpg":
            self._pg_moves = _PgMoveWriter(self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False))

    @property
    def shares_news(self) -> bool:
        """Whether other server processes on this database can hear this one (PostgreSQL, or an SQLite file)."""
        return self.is_postgres or self._news is not None

    def _tell(self, game_id: str, news: str) -> None:
        """SQLite: tell the other server processes, once the change is committed (PostgreSQL's NOTIFY is in the transaction)."""
        if self._news is not None:
            try:
                self._news.tell(game_id, news)
            except OSError as exc:
                self._no_news(exc)

    def _no_news(self, exc: OSError) -> None:
        """The news socket cannot be made (a folder that holds no sockets): one process serves on, alone."""
        assert self._news is not None
        log.warning(
            "no news socket in %s (%s): other server processes on this database will not see this one's moves",
            self._news.folder,
            type(exc).__name__,
        )
        self._news.close()
        self._news = None

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        lock = self._write_lock
        if lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with lock, self.engine.begin() as conn:
            yield conn

    async def migrate(self) -> None:
        """Bring the schema up to date (Alembic migrations shipped in the package).

        Several processes starting at once on a new SQLite file would each find no
        tables and make them: they take turns through a lock file in the news folder
        (PostgreSQL's turns are an advisory lock, in :func:`_upgrade`).
        """
        if self._news is None:
            async with self._writing() as conn:
                await conn.run_sync(_upgrade)
            return
        self._news.folder.mkdir(mode=0o700, exist_ok=True)
        handle = os.open(self._news.folder / "migrate.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            await asyncio.to_thread(fcntl.flock, handle, fcntl.LOCK_EX)
            async with self._writing() as conn:
                await conn.run_sync(_upgrade)
        finally:
            os.close(handle)  # closing the file lets the lock go

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher}, timeout=10)  # let the moves being committed finish
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        if self._moves is not None:
            await self._moves.close()
        if self._pg_moves is not None:
            await self._pg_moves.close()
        if self._news is not None:
            self._news.close()
        await self.engine.dispose()

    async def listen(self, heard: Callable[[str, str], None]) -> None:
        """Call ``heard(game_id, news)`` for everything any other process announces (PostgreSQL, or an SQLite file).

        ``news`` is a move number (an action was stored), ``chat``, ``seats``, or what
        :meth:`announce` was given. Everything committed after this returns is heard.
        """
        if self._news is not None:
            try:
                self._news.listen(heard)
            except OSError as exc:
                self._no_news(exc)
            return
        if not self.is_postgres:
            return
        import asyncpg  # type: ignore[import-untyped]  # (no type information published)

        def on_notify(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            game_id, _, news = payload.partition(" ")
            if game_id and news:
                heard(game_id, news)

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._listener = await asyncpg.connect(dsn)
        await self._listener.add_listener(CHANNEL, on_notify)
        self._listener.add_termination_listener(lambda _conn: log.warning("the connection that hears other server processes closed"))

    # -- writing ------------------------------------------------------------
    async def insert_game(self, game: StoredGame) -> bool:
        """Store a new game and its seats; False when the id is taken (the caller picks another)."""
        stamp = now()
        try:
            async with self._writing() as conn:
                await conn.execute(
                    games.insert().values(
                        id=game.id,
                        game=game.game,
                        players=game.players,
                        seed=game.seed,
                        options=json.dumps(game.options),
                        public=game.public,
                        watch_hash=game.watch_hash,
                        moves=0,
                        to_move=game.to_move,
                        created_at=stamp,
                        updated_at=stamp,
                        clock=None if game.clock is None else json.dumps(game.clock),
                    )
                )
                await conn.execute(seats.insert(), [_seat_row(game.id, s) for s in game.seats])
        except IntegrityError:
            return False
        game.created_at = game.updated_at = stamp
        return True

    async def append(
        self,
        game_id: str,
        n: int,
        seat: int | None,
        notation: str,
        to_move: int | None,
        result: Mapping[str, Any] | None,
        clock_used: float | None = None,
    ) -> None:
        """Store action ``n`` (1-based) of a game (and the mover's clock); raises Conflict if move ``n`` is already stored.

        Appends that arrive while a commit is under way are stored together in
        the next transaction (a group commit): one commit for many tables'
        moves instead of one each (on PostgreSQL, one wait for the disk), and
        each caller still returns only once its own action is committed.
        """
        item = _Append(game_id, n, seat, notation, to_move, result, clock_used, asyncio.get_running_loop().create_future())
        self._pending.append(item)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await item.done

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                if self._moves is not None:
                    assert self._write_lock is not None
                    async with self._write_lock:
                        stored = await self._moves.write(batch)
                    for item, ok in zip(batch, stored, strict=True):  # committed: now the other processes may hear of it
                        if ok:
                            self._tell(item.game_id, str(item.n))
                else:
                    # In one order (game, move) whatever the arrival, so two processes' batches on a shared
                    # PostgreSQL database never wait for each other's rows crosswise (a deadlock).
                    ordered = sorted(range(len(batch)), key=lambda i: (batch[i].game_id, batch[i].n))
                    done: dict[int, bool] = {}
                    if self._pg_moves is not None:
                        for i, ok in zip(ordered, await self._pg_moves.write([batch[i] for i in ordered]), strict=True):
                            done[i] = ok
                    else:
                        async with self._writing() as conn:
                            for i in ordered:
                                done[i] = await self._append_one(conn, batch[i])
                    stored = [done[i] for i in range(len(batch))]
            except Exception as exc:  # the whole transaction failed: every caller hears so, nothing of it is stored
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(exc)
                continue
            for item, ok in zip(batch, stored, strict=True):
                if item.done.done():
                    continue
                if ok:
                    item.done.set_result(None)
                else:
                    item.done.set_exception(Conflict(f"move {item.n} of game {item.game_id} is already stored"))

    async def _append_one(self, conn: AsyncConnection, item: _Append) -> bool:
        """The statements of one append, inside the caller's transaction; False when move ``n`` is already stored."""
        stamp = now()
        values: dict[str, Any] = {"moves": item.n, "to_move": item.to_move, "updated_at": stamp}
        if item.result is not None:
            values["finished_at"] = stamp
            values["result"] = json.dumps(item.result)
        moved = await conn.execute(games.update().where(games.c.id == item.game_id, games.c.moves == item.n - 1).values(**values))
        if moved.rowcount != 1:
            return False
        await conn.execute(actions.insert().values(game_id=item.game_id, n=item.n, seat=item.seat, notation=item.notation, at=stamp))
        if item.clock_used is not None and item.seat is not None:
            condition = (seats.c.game_id == item.game_id, seats.c.seat == item.seat)
            await conn.execute(seats.update().where(*condition).values(clock_used=item.clock_used))
        await self._notify(conn, item.game_id, str(item.n))
        return True

    async def _notify(self, conn: AsyncConnection, game_id: str, news: str) -> None:
        """Tell the other server processes on this database (heard once the caller's transaction commits)."""
        if self.is_postgres:
            await conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{game_id} {news}")))

    async def announce(self, game_id: str, news: str) -> None:
        """Tell the other server processes something that is not stored (who is connected here)."""
        self._tell(game_id, news)
        if self.is_postgres:
            async with self.engine.begin() as conn:
                await self._notify(conn, game_id, news)

    async def claim(self, game_id: str, seat: int) -> None:
        """Mark a seat as taken (its link has been opened)."""
        async with self._writing() as conn:
            await conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(claimed=True))
            await self._notify(conn, game_id, "seats")
        self._tell(game_id, "seats")

    async def take_open_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give an untaken person seat a new link (joining a public game); False if someone took it first."""
        async with self._writing() as conn:
            done = await conn.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kind == "person", seats.c.claimed.is_(False))
                .values(token_hash=token_hash, claimed=True)
            )
            if done.rowcount == 1:
                await self._notify(conn, game_id, "seats")
        if done.rowcount == 1:
            self._tell(game_id, "seats")
        return done.rowcount == 1

    async def hand_over(self, game_id: str, seat: int, level: str | None, clock_used: float) -> None:
        """A computer level plays this person's seat from now on (None: its person has taken it back); the clock so far."""
        async with self._writing() as conn:
            await conn.execute(
                seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(handed=level, clock_used=clock_used)
            )
            await self._notify(conn, game_id, "seats")
        self._tell(game_id, "seats")

    async def add_chat(self, game_id: str, seat: int | None, text: str) -> ChatLine:
        stamp = now()
        async with self._writing() as conn:
            done = await conn.execute(chat.insert().values(game_id=game_id, seat=seat, text=text, at=stamp))
            key = done.inserted_primary_key
            assert key is not None
            await self._notify(conn, game_id, "chat")
        self._tell(game_id, "chat")
        return ChatLine(int(key[0]), seat, text, stamp)

    async def put_feedback(self, game_id: str, seat: int, fun: int, text: str) -> None:
        """Store (or replace) one seat's feedback on a finished game."""
        stamp = now()
        async with self._writing() as conn:
            await conn.execute(feedback.delete().where(feedback.c.game_id == game_id, feedback.c.seat == seat))
            await conn.execute(feedback.insert().values(game_id=game_id, seat=seat, fun=fun, text=text, at=stamp))

    # -- reading ------------------------------------------------------------
    async def recent_chat(self, game_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of a game, oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(chat).where(chat.c.game_id == game_id).order_by(chat.c.id.desc()).limit(limit))
            return [ChatLine(r.id, r.seat, r.text, r.at) for r in reversed(rows.all())]

    async def feedback_of(self, game_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(feedback).where(feedback.c.game_id == game_id).order_by(feedback.c.seat))
            return [{"seat": r.seat, "fun": r.fun, "text": r.text} for r in rows]

    async def load(self, game_id: str, with_actions: bool = True) -> StoredGame | None:
        found = await self._load_where(games.c.id == game_id, with_actions)
        return found[0] if found else None

    async def load_unfinished(self) -> list[StoredGame]:
        return await self._load_where(games.c.finished_at.is_(None))

    async def load_seats(self, game_id: str) -> list[StoredSeat]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))
            return [_seat_from_row(s) for s in rows]

    async def actions_after(self, game_id: str, n: int) -> list[StoredAction]:
        """The actions of a game after move ``n``, in order.

        On an SQLite file they are read by the move writer's own plain connection
        (a process catches up with another's moves this way, at every move of a
        game whose players are on two processes).
        """
        if self._moves is not None:
            return await self._moves.actions_after(game_id, n)
        if self._pg_moves is not None:
            return await self._pg_moves.actions_after(game_id, n)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(actions.c.n, actions.c.seat, actions.c.notation)
                .where(actions.c.game_id == game_id, actions.c.n > n)
                .order_by(actions.c.n)
            )
            return [StoredAction(r.n, r.seat, r.notation) for r in rows]

    async def open_public(self, limit: int) -> list[StoredGame]:
        """Unfinished public games with a person seat nobody has taken, most recently active first."""
        open_seat = sa.exists().where(seats.c.game_id == games.c.id, seats.c.kind == "person", seats.c.claimed.is_(False))
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(games.c.id)
                    .where(games.c.finished_at.is_(None), games.c.public.is_(True), open_seat)
                    .order_by(games.c.updated_at.desc())
                    .limit(limit)
                )
            ).all()
        ids = [r.id for r in rows]
        if not ids:
            return []
        found = {g.id: g for g in await self._load_where(games.c.id.in_(ids), with_actions=False)}
        return [found[i] for i in ids if i in found]

    async def _load_where(self, condition: Any, with_actions: bool = True) -> list[StoredGame]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(games).where(condition).order_by(games.c.created_at))).all()
            if not rows:
                return []
            ids = [r.id for r in rows]
            by_id = {r.id: _game_from_row(r) for r in rows}
            for chunk in _chunks(ids, 500):
                seat_rows = await conn.execute(sa.select(seats).where(seats.c.game_id.in_(chunk)).order_by(seats.c.game_id, seats.c.seat))
                for s in seat_rows:
                    by_id[s.game_id].seats.append(_seat_from_row(s))
                if with_actions:
                    action_rows = await conn.execute(
                        sa.select(actions.c.game_id, actions.c.n, actions.c.seat, actions.c.notation)
                        .where(actions.c.game_id.in_(chunk))
                        .order_by(actions.c.game_id, actions.c.n)
                    )
                    for a in action_rows:
                        by_id[a.game_id].actions.append(StoredAction(a.n, a.seat, a.notation))
            return [by_id[i] for i in ids]


def _chunks(items: Sequence[str], size: int) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _seat_row(game_id: str, seat: StoredSeat) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": seat.seat,
        "kind": seat.kind,
        "level": seat.level,
        "spec": seat.spec,
        "token_hash": seat.token_hash,
        "claimed": seat.claimed,
        "handed": seat.handed,
        "clock_used": seat.clock_used,
    }


def _seat_from_row(row: Any) -> StoredSeat:
    return StoredSeat(row.seat, row.kind, row.level, row.spec, row.token_hash, bool(row.claimed), row.handed, float(row.clock_used))


def _game_from_row(row: Any) -> StoredGame:
    return StoredGame(
        id=row.id,
        game=row.game,
        players=row.players,
        seed=row.seed,
        options=json.loads(row.options),
        public=bool(row.public),
        watch_hash=row.watch_hash,
        seats=[],
        moves=row.moves,
        to_move=row.to_move,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        result=None if row.result is None else json.loads(row.result),
        clock=None if row.clock is None else json.loads(row.clock),
    )


class _MoveWriter:
    """SQLite's group commits of moves, through one plain ``sqlite3`` connection, on the event loop.

    Storing moves is the server's busiest write. Through SQLAlchemy and
    aiosqlite each statement was built anew and handed to aiosqlite's thread
    and back, and that hand-over, fighting the event loop for the interpreter
    lock, cost more than the writing itself (docs/performance.md, "The web
    table under load"). Here the three statements are fixed SQL, and with
    ``synchronous`` OFF or NORMAL in WAL mode a commit only appends to the WAL
    file without waiting for the disk, so the whole transaction takes a
    fraction of a millisecond and is made on the event loop. FULL and EXTRA
    wait for the disk on every commit; then it is made in a thread.

    The connection makes no WAL checkpoints while committing (a checkpoint
    waits for the disk); a passive checkpoint, which never holds up a writer,
    is made in a thread at most every CHECKPOINT_EVERY seconds instead.
    Another process writing the same file (another server process, when
    several share it) is waited for in a thread too, never on the event loop.
    """

    def __init__(self, path: str, synchronous: str, dialect: Any) -> None:
        self.path = path
        self.synchronous = synchronous
        self.inline = synchronous in _NO_SYNC_ON_COMMIT
        # The timestamps and booleans exactly as SQLAlchemy stores them, so either path reads both alike.
        self._stamp = sa.DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self._conn: sqlite3.Connection | None = None
        #: A connection of its own for reading moves (the writer's may be in a transaction in a thread).
        self._reader: sqlite3.Connection | None = None
        self._checkpointed = time.monotonic()
        self._checkpoint: asyncio.Task[None] | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            # check_same_thread=False: FULL/EXTRA commits and waits for another process happen in a worker thread
            # (one at a time, under the store's write lock).
            conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._conn = conn
        return self._conn

    async def write(self, batch: Sequence[_Append]) -> list[bool]:
        """Store a batch in one transaction; per item, whether it was stored (False: its move number was taken)."""
        if self.inline:
            try:
                stored = self._write(batch, patient=False)
            except sqlite3.OperationalError as exc:
                if not _busy(exc):
                    raise
                stored = await asyncio.to_thread(self._write, batch, True)  # another process writes: wait off the loop
        else:
            stored = await asyncio.to_thread(self._write, batch, True)
        if time.monotonic() - self._checkpointed >= CHECKPOINT_EVERY and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpointed = time.monotonic()
            self._checkpoint = asyncio.create_task(asyncio.to_thread(self._make_checkpoint))
        return stored

    def _write(self, batch: Sequence[_Append], patient: bool) -> list[bool]:
        conn = self._connection()
        if patient:
            _begin_when_free(conn)
            conn.execute("PRAGMA busy_timeout=30000")
        else:
            conn.execute("BEGIN IMMEDIATE")
        try:
            try:
                stored = [self._append_one(conn, item) for item in batch]
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        finally:
            if patient:
                conn.execute("PRAGMA busy_timeout=0")
        return stored

    def _append_one(self, conn: sqlite3.Connection, item: _Append) -> bool:
        stamp = self._stamp(now()) if self._stamp is not None else now().isoformat()
        if item.result is None:
            moved = conn.execute(
                "UPDATE games SET moves = ?, to_move = ?, updated_at = ? WHERE id = ? AND moves = ?",
                (item.n, item.to_move, stamp, item.game_id, item.n - 1),
            )
        else:
            moved = conn.execute(
                "UPDATE games SET moves = ?, to_move = ?, updated_at = ?, finished_at = ?, result = ? WHERE id = ? AND moves = ?",
                (item.n, item.to_move, stamp, stamp, json.dumps(item.result), item.game_id, item.n - 1),
            )
        if moved.rowcount != 1:
            return False
        conn.execute(
            "INSERT INTO actions (game_id, n, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
            (item.game_id, item.n, item.seat, item.notation, stamp),
        )
        if item.clock_used is not None and item.seat is not None:
            conn.execute("UPDATE seats SET clock_used = ? WHERE game_id = ? AND seat = ?", (item.clock_used, item.game_id, item.seat))
        return True

    async def actions_after(self, game_id: str, n: int) -> list[StoredAction]:
        """The stored actions of a game after move ``n``: one indexed read in WAL mode, which waits for no writer, so it
        is made on the event loop; should the file be busy all the same (a checkpoint restarting the log), in a thread."""
        try:
            return self._read_after(game_id, n, patient=False)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            return await asyncio.to_thread(self._read_after, game_id, n, True)

    def _read_after(self, game_id: str, n: int, patient: bool) -> list[StoredAction]:
        """The read itself: on the loop's own connection, or (``patient``, in a thread) on one made for it and closed."""
        query = "SELECT n, seat, notation FROM actions WHERE game_id = ? AND n > ? ORDER BY n"
        if patient:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            try:
                rows = conn.execute(query, (game_id, n)).fetchall()
            finally:
                conn.close()
        else:
            if self._reader is None:
                self._reader = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            rows = self._reader.execute(query, (game_id, n)).fetchall()
        return [StoredAction(int(r[0]), None if r[1] is None else int(r[1]), str(r[2])) for r in rows]

    def _make_checkpoint(self) -> None:
        """A passive checkpoint on a connection of its own: copies what it can of the WAL into the database, waiting for nobody."""
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.OperationalError:
            pass  # busy: the next checkpoint will do it
        finally:
            conn.close()

    async def close(self) -> None:
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()
        if self._reader is not None:
            reader, self._reader = self._reader, None
            reader.close()


#: One move stored on PostgreSQL: $1 move number, $2 seat to move next, $3 time, $4 result (JSON, NULL while the game
#: goes on), $5 game, $6 seat that moved, $7 notation, $8 its clock (NULL: none), $9 the NOTIFY channel.
_PG_APPEND = """
WITH moved AS (
    UPDATE games SET moves = $1, to_move = $2, updated_at = $3,
        finished_at = CASE WHEN $4::text IS NULL THEN finished_at ELSE $3 END, result = COALESCE($4::text, result)
    WHERE id = $5 AND moves = $1 - 1
    RETURNING id
), stored AS (
    INSERT INTO actions (game_id, n, seat, notation, at) SELECT id, $1, $6, $7, $3 FROM moved RETURNING game_id
), clocked AS (
    UPDATE seats SET clock_used = $8 WHERE $8::float8 IS NOT NULL AND seat = $6 AND game_id IN (SELECT game_id FROM stored)
)
SELECT pg_notify($9, $5 || ' ' || $1::text) FROM stored
"""


class _PgMoveWriter:
    """PostgreSQL's group commits of moves, through one asyncpg connection kept for them.

    The same statements as :meth:`Store._append_one`, but written once as SQL
    (asyncpg prepares each once per connection) instead of being built by
    SQLAlchemy on every move, and without a pool's check-out and ping per
    transaction. A lost connection is dropped and made again on the next batch.
    """

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._conn: Any = None
        #: A connection of its own for reading moves another process stored (a catch-up, at every move of a game whose
        #: players are on two processes), one read at a time: through SQLAlchemy's pool each read cost a check-out, a ping
        #: and a rollback, several times the read itself.
        self._reader: Any = None
        self._reading = asyncio.Lock()

    async def write(self, batch: Sequence[_Append]) -> list[bool]:
        """Store a batch in one transaction; per item, whether it was stored (False: its move number was taken)."""
        import asyncpg

        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.dsn)
        conn = self._conn
        try:
            async with conn.transaction():
                return [await self._append_one(conn, item) for item in batch]
        except (OSError, asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.InterfaceError):
            self._conn = None  # made again on the next batch
            with contextlib.suppress(Exception):
                conn.terminate()
            raise

    @staticmethod
    async def _append_one(conn: Any, item: _Append) -> bool:
        """One append as one statement (one round trip instead of four): the move count moved on only from ``n - 1``,
        the action row, the mover's clock and the NOTIFY, each only if the count moved."""
        result = None if item.result is None else json.dumps(item.result)
        rows = await conn.fetch(
            _PG_APPEND, item.n, item.to_move, now(), result, item.game_id, item.seat, item.notation, item.clock_used, CHANNEL
        )
        return len(rows) == 1

    async def actions_after(self, game_id: str, n: int) -> list[StoredAction]:
        """The stored actions of a game after move ``n``, in order."""
        import asyncpg

        async with self._reading:
            if self._reader is None or self._reader.is_closed():
                self._reader = await asyncpg.connect(self.dsn)
            reader = self._reader
            try:
                rows = await reader.fetch("SELECT n, seat, notation FROM actions WHERE game_id = $1 AND n > $2 ORDER BY n", game_id, n)
            except (OSError, asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.InterfaceError):
                self._reader = None  # made again on the next read
                with contextlib.suppress(Exception):
                    reader.terminate()
                raise
        return [StoredAction(int(r["n"]), r["seat"], str(r["notation"])) for r in rows]

    async def close(self) -> None:
        if self._reader is not None:
            reader, self._reader = self._reader, None
            with contextlib.suppress(Exception):
                await reader.close(timeout=5)
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)


def _begin_when_free(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` as soon as no other process holds the write lock (waiting at most BUSY_PATIENCE seconds).

    SQLite's own wait (``busy_timeout``) sleeps 1, 2, 5, 10, 15, 20, 25 ... ms
    between tries, so a writer that finds the lock taken twice or three times in
    a row waits 8 to 18 ms, and more, for a lock that another server process's
    group commit holds for well under a millisecond. Trying again every
    BUSY_FIRST_PAUSE seconds at first (doubling up to BUSY_MOST_PAUSE) takes the
    lock within a fraction of a millisecond of its release.
    """
    deadline = time.monotonic() + BUSY_PATIENCE
    pause = BUSY_FIRST_PAUSE
    conn.execute("PRAGMA busy_timeout=0")
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, BUSY_MOST_PAUSE)


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the write lock (rather than a real fault)."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _sqlite_pragmas(engine: AsyncEngine, synchronous: str) -> None:
    """WAL (readers never wait for the writer), the chosen durability, and foreign keys, on every new connection."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
