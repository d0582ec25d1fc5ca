"""News between server processes on the same database, as the hub hears and tells it.

Several server processes may share one database (``astrarium serve
--processes N``, or several machines on one PostgreSQL). The store carries
short news between them (PostgreSQL ``NOTIFY``; on SQLite the datagram
sockets of :mod:`astrarium.web.news`); :class:`PeerNews` is what this process
makes of it and what it tells:

* a move number: an action was stored, so a table that is behind catches up
  by reading the stored actions (:meth:`PeerNews.catch_up`);
* ``chat``: a chat line was stored; ``seats``: a link was opened, or a seat
  handed to a computer or taken back: both are read again from the store;
* ``here P S``: process P has the players of seats S connected (repeated every
  PRESENCE_EVERY seconds, believed for PRESENCE_TTL); ``ask P``: process P
  has just loaded the game and asks who is where.

News is a hint to read the store, never the data itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from astrarium.core import IllegalAction
from astrarium.web.storage import StoredAction
from astrarium.web.tables import PRESENCE_TTL, Db, Later, Table, TableCache

log = logging.getLogger("astrarium.web")

#: Seconds between a process's reminders to the others of who is connected through it.
PRESENCE_EVERY = 40.0


class ChatReader(Protocol):
    """Shows the chat lines stored through other processes."""

    async def from_store(self, table: Table) -> None: ...


class AlarmClock(Protocol):
    """Sets a table's clock alarm again, and resumes a seat's clock, after its seats changed."""

    def arm(self, table: Table) -> None: ...

    def resume(self, table: Table, seat: int) -> None: ...


class PeerNews:
    """What this process hears from the others on the same database, and what it tells them."""

    def __init__(self, process: str, db: Db, tables: TableCache, later: Later, chat: ChatReader, clocks: AlarmClock) -> None:
        #: This process's name in the news.
        self.process = process
        self._db = db
        self._tables = tables
        self._later = later
        self._chat = chat
        self._clocks = clocks
        #: Set when the server stops: no more news of who comes and goes.
        self.closing = False

    async def listen(self) -> None:
        """Hear the other processes (before any game is loaded: a move committed meanwhile is either read or heard)."""
        if self._db().shares_news:
            await self._db().listen(self.heard)

    async def started(self) -> None:
        """After the unfinished games are loaded: catch them up, ask who is where, and keep telling who is here."""
        if not self._db().shares_news:
            return
        for table in list(self._tables.live.values()):
            await self.catch_up(table)  # news of a move stored while the games were read came before its table was here
            self.ask_who_is_where(table)
        self._later(self._remind_who_is_here())

    async def loaded(self, table: Table) -> None:
        """An unfinished game was just loaded from the store: another process may have stored a move while this one read
        it, and its news, heard before the table was here, was passed over: read once more now that every later news
        finds the table."""
        if self._db().shares_news:
            await self.catch_up(table)
            self.ask_who_is_where(table)

    async def leave(self) -> None:
        """The server stops: tell the others that nobody is connected through it any more."""
        self.closing = True
        if not self._db().shares_news:
            return
        for table in self._tables.live.values():
            if any(conn.seat is not None for conn in table.connections):
                with contextlib.suppress(Exception):  # a store already gone: the others keep a stale presence
                    await self._db().announce(table.id, f"here {self.process} -")

    def heard(self, table_id: str, news: str) -> None:
        """News of a game from another server process on the same database (or from this one, which it ignores).

        A move number: an action was stored, so catch up if this process is
        behind. ``chat``: a chat line was stored. ``seats``: a link was opened or
        a seat handed over or taken back. ``here P S``: process P has the players
        of seats S connected. ``ask P``: process P has just loaded the game and asks who is where.
        """
        table = self._tables.live.get(table_id)
        if table is None:
            return
        if news.isdigit():
            # Its own move is heard as soon as it is committed, often before the commit has returned here: not news.
            if table.state.move_number < int(news) != table.storing:
                self._later(self.catch_up(table))
        elif news == "chat":
            self._later(self._chat.from_store(table))
        elif news == "seats":
            self._later(self.seats_from_store(table))
        else:
            self._presence(table, news)

    def _presence(self, table: Table, news: str) -> None:
        """``here P S`` or ``ask P`` from another process (this process's own is ignored)."""
        kind, _, rest = news.partition(" ")
        process, _, seats = rest.partition(" ")
        if not process or process == self.process:
            return
        if kind == "here":
            present = frozenset(int(s) for s in seats.split(",") if s.isdigit() and int(s) < len(table.seats))
            before = table.elsewhere.get(process, (frozenset(), 0.0))[0]
            if present:
                table.elsewhere[process] = (present, time.monotonic())
            else:
                table.elsewhere.pop(process, None)
            if present != before:
                table.tell_seats()
        elif kind == "ask" and any(conn.seat is not None for conn in table.connections):
            self._later(self._db().announce(table.id, f"here {self.process} {table.here()}"))

    async def _remind_who_is_here(self) -> None:
        """Every PRESENCE_EVERY seconds, tell the other processes again which seats are connected here (and forget
        what a silent process said more than PRESENCE_TTL ago)."""
        while not self.closing:
            await asyncio.sleep(PRESENCE_EVERY)
            stale = time.monotonic() - PRESENCE_TTL
            for table in list(self._tables.live.values()):
                gone = [p for p, (_, said) in table.elsewhere.items() if said < stale]
                for process in gone:
                    del table.elsewhere[process]
                if gone:
                    table.tell_seats()
                if any(conn.seat is not None for conn in table.connections):
                    with contextlib.suppress(Exception):  # the database is away for a moment: try again next time
                        await self._db().announce(table.id, f"here {self.process} {table.here()}")

    def seat_came_or_went(self, table: Table) -> None:
        """A seat's player connected or left through this process: tell this table's clients and the other processes."""
        table.tell_seats()
        if self._db().shares_news and not self.closing:
            self._later(self._db().announce(table.id, f"here {self.process} {table.here()}"))

    def ask_who_is_where(self, table: Table) -> None:
        """Ask the other server processes on this database which seats of a game just loaded here they have connected."""
        if self._db().shares_news:
            self._later(self._db().announce(table.id, f"ask {self.process}"))

    async def seats_from_store(self, table: Table) -> None:
        """Read the seats again after another process changed them (a link opened, a seat handed over or taken back)."""
        changed = False
        for stored in await self._db().load_seats(table.id):
            seat = table.seats[stored.seat]
            before = (seat.token_hash, seat.claimed, seat.handed)
            seat.token_hash, seat.claimed = stored.token_hash, stored.claimed
            if seat.handed != stored.handed:
                seat.handed, seat.clock_used = stored.handed, stored.clock_used
                if stored.handed is None:
                    self._clocks.resume(table, seat.seat)
            changed |= before != (seat.token_hash, seat.claimed, seat.handed)
        if changed:
            table.tell_seats()
            self._clocks.arm(table)

    async def catch_up(self, table: Table) -> None:
        """Apply the actions another server process stored for this table, and show them.

        The process that stored a move is the one that starts the next computer
        player thinking, so a computer seat never thinks twice.
        """
        async with table.lock:
            newer: list[StoredAction] = await self._db().actions_after(table.id, table.state.move_number)
            if not newer:
                return
            for action in newer:
                state = table.state.clone()
                try:
                    state.apply(action.notation)
                except IllegalAction:
                    self._tables.broken[table.id] = f"move {action.n} does not replay"
                    log.error("game %s: stored move %d does not replay here", table.id, action.n)
                    return
                table.commit(state, action.seat, str(state.actions[-1]))
        table.broadcast()

    async def refresh_seats(self, table: Table) -> None:
        """Read the seats again (another process may have given an open seat a new link)."""
        for stored in await self._db().load_seats(table.id):
            seat = table.seats[stored.seat]
            seat.token_hash, seat.claimed = stored.token_hash, stored.claimed
