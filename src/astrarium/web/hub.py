"""The live side of the web table: games in memory, who is connected, actions in, views out.

Every unfinished game is held in memory as a :class:`Table` (its ``State``,
rebuilt by replay when the server starts). An action goes through
:meth:`Hub.act`: checked against the seat to move and the move the player was
looking at, applied to a *copy* of the state through the game API, stored, and
only then made the table's state, acknowledged and broadcast. A refused action
or a failed commit leaves the table exactly as it was.

What leaves the server is decided in one place, :meth:`Table._position` and
:meth:`Table._picture` (which :meth:`Table.snapshot` and its JSON both use): a
seat's ``picture_view`` (its own view), the picture drawn from that view, and
the legal actions only for the seat to move; a spectator gets the spectator's
view. The move log sent with it holds action notations, which are public (a
public record holds them too). Seeds, records and other seats' views never
leave before the end. The caches shared by all tables (notations, encoded
picture pieces, choices) hold only what their keys determine, so nothing
passes from one game to another.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

from astrarium.agents import make_agent
from astrarium.agents.levels import table_spec
from astrarium.core import AstrariumError, Game, IllegalAction, RecordError, State, get_game
from astrarium.core.data import no_file_reads
from astrarium.core.errors import UnknownGame, short
from astrarium.core.rng import Rng
from astrarium.core.svg import SEAT_MARKS
from astrarium.web.catalogue import check_web_options, has_picture
from astrarium.web.computer import ThinkJob, budget_seconds, make_pool, run_job
from astrarium.web.limits import AddressCounter, RateLimit
from astrarium.web.protocol import MAX_CHAT_CHARS, MAX_FEEDBACK_CHARS, ack, dumps
from astrarium.web.settings import Settings
from astrarium.web.storage import ChatLine, Conflict, Store, StoredAction, StoredGame, StoredSeat, private_folder

log = logging.getLogger("astrarium.web")

#: Table ids: URL-safe, short; anything else is refused before a lookup.
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
#: The most recent moves sent in one event log (a reconnecting client of a long game gets these).
MAX_EVENTS = 500
#: Messages waiting for a slow client before its connection is closed (it reconnects and catches up).
MAX_OUTBOX = 200
#: Finished games kept in memory after their last viewer left (for record downloads and late viewers).
FINISHED_CACHE = 64
#: The longest chat line and feedback text, in characters; chat lines a newcomer is shown.
CHAT_BACKLOG = 50
#: Seconds between a process's reminders to the others of who is connected through it, and how long a
#: reminder holds: a process killed without a word stops being believed after PRESENCE_TTL.
PRESENCE_EVERY = 40.0
PRESENCE_TTL = 100.0


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def seat_label(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat} ({SEAT_MARKS[seat % len(SEAT_MARKS)]})"


def log_failure(where: str, exc: BaseException) -> None:
    """Log where something failed and the code path, but not the exception's text (it may hold a position's secrets)."""
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    path = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
    log.error("%s failed: %s at %s", where, type(exc).__name__, path or "?")


class ActError(Exception):
    """An action that was not played; ``code`` for clients, ``message`` for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RequestError(Exception):
    """A lobby request the server refuses (HTTP status, code and a sentence for people)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(slots=True)
class Seat:
    seat: int
    kind: str
    level: str | None
    spec: str | None
    token_hash: str | None
    claimed: bool
    #: A computer level playing this person's seat since it was handed over (None: the person plays).
    handed: str | None = None
    #: Seconds of the chess clock this seat has used (increments already credited).
    clock_used: float = 0.0

    @classmethod
    def from_stored(cls, s: StoredSeat) -> Seat:
        return cls(s.seat, s.kind, s.level, s.spec, s.token_hash, s.claimed, s.handed, s.clock_used)

    def public(self, present: bool = False) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "mark": SEAT_MARKS[self.seat % len(SEAT_MARKS)],
            "kind": self.kind,
            "level": self.level,
            "taken": self.kind == "computer" or self.claimed,
            "handed": self.handed,
            "present": present,
        }


@dataclass(eq=False)
class Table:
    """One game in memory: its state, seats, move log and connections."""

    id: str
    game: Game
    state: State
    seats: list[Seat]
    public: bool
    watch_hash: str
    log: list[dict[str, Any]]
    picture: bool
    updated: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    thinking: asyncio.Task[None] | None = None
    #: The chess clock chosen at creation (minutes, increment, at_zero, level), or None.
    clock: dict[str, Any] | None = None
    #: When the seat to move started its turn (time.monotonic), for its clock.
    turn_started: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    chat_seen: set[int] = field(default_factory=set)
    #: Each seat's chat rate, kept with the table so that reconnecting does not reset it.
    chat_limits: dict[int, RateLimit] = field(default_factory=dict)
    #: Seats whose players are connected through other server processes on the same database, by process,
    #: with when that process last said so (time.monotonic).
    elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    _snapshots: dict[tuple[int | None, bool], dict[str, Any]] = field(default_factory=dict)
    #: The same, as JSON text (the members without braces), encoded once per move and seat for every connection of it.
    _encoded: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    #: Per seat (None: spectators), the current position's view and legal notations; and the pieces of its picture.
    _seen: dict[int | None, tuple[dict[str, Any], list[str]]] = field(default_factory=dict)
    _pictures: dict[int | None, tuple[list[str], bool]] = field(default_factory=dict)
    #: The current position's legal notations, and where each stands in ``state.legal_actions()``.
    _legal: tuple[list[str], dict[str, int]] | None = None
    #: The move this process is storing now (0: none): its NOTIFY, heard back before the commit returns here, is not news.
    storing: int = 0

    def present(self, seat: int) -> bool:
        """Whether the seat's player is connected, to this server process or to another on the same database."""
        if any(conn.seat == seat for conn in self.connections):
            return True
        fresh = time.monotonic() - PRESENCE_TTL
        return any(seat in seats and said >= fresh for seats, said in self.elsewhere.values())

    def here(self) -> str:
        """The seats connected to this process, as announced to the others (``"0,2"``; ``"-"`` for none)."""
        seats = sorted({conn.seat for conn in self.connections if conn.seat is not None})
        return ",".join(map(str, seats)) or "-"

    def seat_list(self) -> list[dict[str, Any]]:
        return [s.public(self.present(s.seat)) for s in self.seats]

    def computer_level(self, seat: int) -> str | None:
        """The level of the computer playing ``seat`` (its own, or the one it was handed to), or None for a person."""
        found = self.seats[seat]
        return found.level if found.kind == "computer" else found.handed

    def clock_limit(self) -> float:
        return 0.0 if self.clock is None else float(self.clock["minutes"]) * 60.0

    def clock_counts(self, seat: int | None) -> bool:
        """Whether ``seat``'s clock runs now: a clock was chosen, it is that person's turn, and no computer plays for it."""
        return self.clock is not None and seat is not None and not self.state.is_over and self.computer_level(seat) is None

    def clock_status(self) -> dict[str, Any] | None:
        """Seconds left per seat (now), which one is running, and what happens at zero."""
        if self.clock is None:
            return None
        mover = self.state.current_player
        limit = self.clock_limit()
        left = []
        for seat in self.seats:
            used = seat.clock_used
            if seat.seat == mover and self.clock_counts(mover):
                used += time.monotonic() - self.turn_started
            left.append(round(limit - used, 1))
        running = mover if self.clock_counts(mover) else None
        return {"left": left, "running": running, "increment": self.clock["increment"], "at_zero": self.clock["at_zero"]}

    def time_left(self, seat: int) -> float:
        used = self.seats[seat].clock_used
        if seat == self.state.current_player and self.clock_counts(seat):
            used += time.monotonic() - self.turn_started
        return self.clock_limit() - used

    def identify(self, token: str) -> tuple[bool, int | None]:
        """(found, seat) for a presented token: a seat's link gives its seat, the spectator link gives None.

        Every stored hash is compared (no early exit), so the time taken says nothing about which matched.
        """
        found_seat: int | None = None
        found = False
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found, found_seat = True, seat.seat
        if hmac.compare_digest(digest, self.watch_hash):
            found = True
        return found, found_seat

    def commit(self, state: State, seat: int | None, notation: str) -> None:
        self.state = state
        self.log.append({"n": state.move_number, "seat": seat, "text": notation})
        self.updated = time.time()
        self._snapshots.clear()
        self._encoded.clear()
        self._seen.clear()
        self._pictures.clear()
        self._legal = None

    def legal_notations(self) -> tuple[list[str], dict[str, int]]:
        """The notations of the current position's legal actions, in order, and each one's index (built once per move)."""
        found = self._legal
        if found is None:
            notations = notations_of(self.state.legal_actions())
            found = self._legal = (notations, {n: i for i, n in enumerate(notations)})
        return found

    def _position(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """What ``seat`` sees of the current position: its view, and its legal notations (when it is to move)."""
        found = self._seen.get(seat)
        if found is None:
            state = self.state
            view = state.picture_view(seat)
            legal: list[str] = []
            if seat is not None and seat == state.current_player and not state.is_over:
                legal = list(self.legal_notations()[0])
            found = self._seen[seat] = (view, legal)
        return found

    def _picture(self, seat: int | None) -> tuple[list[str], bool]:
        """The pieces of ``seat``'s picture of the current position, and whether the game drew it in (cached) pieces.

        A game that draws in one go gives one piece, the whole picture.
        """
        parts = self._pictures.get(seat)
        if parts is None:
            view = self._position(seat)[0]
            pieces = self.game.render_svg_parts(view)
            parts = self._pictures[seat] = (pieces, True) if pieces is not None else ([self.game.render_svg(view)], False)
        return parts

    def tokens(self, legal: list[str]) -> dict[str, list[str]]:
        """Each legal notation's click tokens (its words, for a game without a picture)."""
        return {n: (_tokens(self.game, n) if self.picture else n.split()) for n in legal}

    def choices_json(self, legal: list[str]) -> str:
        """The ``legal`` and ``tokens`` members of a position as JSON, encoded once for every position with the same choices.

        The allocations of Orbital Combat depend on a few facts about the ship to move
        (mass, facing, ring), so most positions offer a list of choices seen before.
        """
        if not legal:
            return '"legal":[],"tokens":{}'
        key = (self.game.id, self.picture, tuple(legal))
        found = _CHOICES.get(key)
        if found is None:
            if len(_CHOICES) >= MAX_CHOICES:
                _CHOICES.clear()
            found = _CHOICES[key] = dumps({"legal": legal, "tokens": self.tokens(legal)})[1:-1]
        return found

    def snapshot(self, seat: int | None, drawn: bool = True) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may have of the current position, built once per move and seat.

        ``drawn=False`` leaves out the picture (for clients that draw nothing).
        """
        cached = self._snapshots.get((seat, drawn))
        if cached is not None:
            return cached
        state = self.state
        view, legal = self._position(seat)
        snap = {
            "move": state.move_number,
            "to_move": state.current_player,
            "view": view,
            "picture": "".join(self._picture(seat)[0]) if self.picture and drawn else None,
            "legal": legal,
            "tokens": self.tokens(legal),
            "over": state.is_over,
            "result": self.result(),
        }
        self._snapshots[(seat, drawn)] = snap
        return snap

    def snapshot_json(self, seat: int | None, drawn: bool = True) -> str:
        """:meth:`snapshot` as JSON members (``"move":3,...``, no braces), encoded once per move and seat.

        A position's picture is tens of kilobytes of text; encoding it is, after
        drawing it, the largest part of sending a position, so every connection
        of a seat (and every spectator) shares one encoding, and the picture is
        encoded from its pieces, most of which were encoded before (see
        :func:`picture_json`). The text is exactly ``dumps(snapshot(seat, drawn))``
        without its braces.
        """
        key = (seat, drawn)
        cached = self._encoded.get(key)
        if cached is None:
            state = self.state
            view, legal = self._position(seat)
            head = dumps({"move": state.move_number, "to_move": state.current_player, "view": view})
            picture = picture_json(*self._picture(seat)) if self.picture and drawn else "null"
            tail = dumps({"over": state.is_over, "result": self.result()})
            cached = self._encoded[key] = f'{head[1:-1]},"picture":{picture},{self.choices_json(legal)},{tail[1:-1]}'
        return cached

    def result(self) -> dict[str, Any] | None:
        outcome = self.state.outcome
        if outcome is None:
            return None
        return {**outcome.to_json(), "returns": self.state.returns()}

    def summary(self) -> dict[str, Any]:
        """The public facts of the game (the lobby's and 'my games' line)."""
        state = self.state
        return {
            "table": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "players": state.players,
            "seats": self.seat_list(),
            "public": self.public,
            "move": state.move_number,
            "to_move": state.current_player,
            "over": state.is_over,
            "result": self.result(),
            "updated": self.updated,
        }

    def events_after(self, n: int) -> tuple[list[dict[str, Any]], bool]:
        """The move log after move ``n`` (at most the last MAX_EVENTS), and whether earlier ones were left out."""
        start = max(0, min(n, len(self.log)))
        events = self.log[start:]
        if len(events) > MAX_EVENTS:
            return events[-MAX_EVENTS:], True
        return events, False


class Connection:
    """One WebSocket client of a table: a seat or a spectator.

    Everything sent goes through one writer task, in order: queued messages
    (welcome, ack, error, pong) first, then the newest position. A client that
    falls behind skips positions it has not yet been sent (it gets the newest
    one, and every move in the event log), so a slow phone never holds up a
    table.
    """

    def __init__(self, hub: Hub, table: Table, seat: int | None, since: int, send_text: Any, pictures: bool = True) -> None:
        self.hub = hub
        self.table = table
        self.seat = seat
        self.pictures = pictures
        self.last_move = since
        self._send_text = send_text
        self._outbox: deque[dict[str, Any]] = deque()
        self._want_state = False
        self._wake = asyncio.Event()
        self.closed = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        if len(self._outbox) >= MAX_OUTBOX:
            self.closed.set()
            return
        self._outbox.append(message)
        self._wake.set()

    def refresh(self) -> None:
        self._want_state = True
        self._wake.set()

    def state_text(self) -> str:
        """The ``state`` message of the newest position, as sent: the seat's shared snapshot and this client's own part
        (the moves since its last position, whether a computer thinks, the clock)."""
        table = self.table
        members = table.snapshot_json(self.seat, self.pictures)
        events, earlier = table.events_after(self.last_move)
        self.last_move = table.state.move_number
        own: dict[str, Any] = {"events": events, "thinking": table.thinking is not None}
        if table.clock is not None:
            own["clock"] = table.clock_status()
        if earlier:
            own["earlier_events"] = True
        return '{"type":"state",' + members + "," + dumps(own)[1:]

    async def writer(self) -> None:
        while not self.closed.is_set():
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                await self._send_text(dumps(self._outbox.popleft()))
            if self._want_state:
                self._want_state = False
                await self._send_text(self.state_text())


class Hub:
    """Every table this server process holds, the store behind them, and the computer players' pool."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: Store | None = None
        #: Unfinished games, and finished ones someone is still connected to.
        self.tables: dict[str, Table] = {}
        #: Finished games read back from the store, most recently used last.
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self.broken: dict[str, str] = {}
        self.stopping = False
        self._background: set[asyncio.Task[None]] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._load_lock = asyncio.Lock()
        self._creates: dict[str, deque[float]] = {}
        #: Open WebSocket connections per client address.
        self.connections = AddressCounter(settings.connections_per_address)
        #: This process's name in the news it exchanges with other server processes on the same database.
        self.process = secrets.token_hex(6)

    # -- life ---------------------------------------------------------------
    async def start(self) -> None:
        settings = self.settings
        for level, spec in settings.levels.items():
            try:
                make_agent(table_spec(spec))
            except ValueError as exc:
                raise ValueError(f"computer level {level!r}: {exc}") from exc
        if not settings.db_url:
            private_folder(settings.data_dir)
        self.store = Store(settings.database_url(), settings.sqlite_synchronous)
        await self.store.migrate()
        if self.store.shares_news:
            # Listening before loading: a move another process commits meanwhile is either read by the load or heard.
            await self.store.listen(self._heard)
        stored = await self.store.load_unfinished()
        for game in stored:
            self._rebuild(game)
        log.info("%d unfinished games rebuilt, %d could not be", len(self.tables), len(self.broken))
        if self.store.shares_news:
            for table in list(self.tables.values()):
                await self.catch_up(table)  # news of a move stored while the games were read came before its table was here
                self._ask_who_is_where(table)
            self._later(self._remind_who_is_here())
        for table in list(self.tables.values()):
            self.schedule_computer(table)
            self._arm_clock(table)  # a clock runs again from now: time while the server was down is not counted

    async def stop(self) -> None:
        self.stopping = True
        if self.store is not None and self.store.shares_news:
            for table in self.tables.values():
                if any(conn.seat is not None for conn in table.connections):
                    with contextlib.suppress(Exception):  # a store already gone: the others keep a stale presence
                        await self.store.announce(table.id, f"here {self.process} -")
        for table in self.tables.values():
            if table.thinking is not None:
                table.thinking.cancel()
            if table.timer is not None:
                table.timer.cancel()
            for conn in table.connections:
                conn.closed.set()
        for task in list(self._background):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self.store is not None:
            await self.store.close()

    def _db(self) -> Store:
        assert self.store is not None, "the hub is not started"
        return self.store

    def _rebuild(self, stored: StoredGame) -> Table | None:
        """The table of a stored game, by replaying its actions; a game that no longer replays is set aside.

        An unfinished game joins the live tables; a finished one the cache of finished games.
        """
        try:
            game = get_game(stored.game)
            with no_file_reads():  # the options came from a browser
                state = game.new_game(stored.players, stored.seed, stored.options)
            for number, action in enumerate(stored.actions, start=1):
                try:
                    state.apply(action.notation)
                except IllegalAction as exc:
                    raise RecordError(f"move {number} does not replay") from exc
        except (AstrariumError, LookupError) as exc:
            # The reason may quote a hidden card; keep only the kind of problem.
            reason = str(exc) if isinstance(exc, RecordError) else type(exc).__name__
            self.broken[stored.id] = reason
            log.warning("game %s cannot be rebuilt: %s", stored.id, reason)
            return None
        table = Table(
            id=stored.id,
            game=game,
            state=state,
            seats=[Seat.from_stored(s) for s in stored.seats],
            public=stored.public,
            watch_hash=stored.watch_hash,
            log=[{"n": a.n, "seat": a.seat, "text": a.notation} for a in stored.actions],
            picture=has_picture(game),
            updated=stored.updated_at.timestamp() if stored.updated_at else time.time(),
            clock=stored.clock,
        )
        if state.is_over:
            self._keep_finished(table)
        else:
            self.tables[table.id] = table
        return table

    def _keep_finished(self, table: Table) -> None:
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    async def table(self, table_id: str) -> Table | None:
        """The table with this id: in memory, or a finished game loaded (and replayed) from the store."""
        if not TABLE_ID.match(table_id):
            return None
        found = self.tables.get(table_id) or self.finished.get(table_id)
        if found is not None or table_id in self.broken:
            return found
        async with self._load_lock:
            found = self.tables.get(table_id) or self.finished.get(table_id)
            if found is not None:
                return found
            stored = await self._db().load(table_id)
            if stored is None:
                return None
            table = self._rebuild(stored)
            if table is not None and not table.state.is_over and self._db().shares_news:
                # Another process may have stored a move while this one read the game; its news, heard before the table
                # was here, was passed over: read once more now that every later news finds the table.
                await self.catch_up(table)
                self._ask_who_is_where(table)
            return table

    def _ask_who_is_where(self, table: Table) -> None:
        """Ask the other server processes on this database which seats of a game just loaded here they have connected."""
        if self._db().shares_news:
            self._later(self._db().announce(table.id, f"ask {self.process}"))

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """The public facts of a game; a finished game not in memory is described from its stored row, without replaying it."""
        if not TABLE_ID.match(table_id):
            return None
        found = self.tables.get(table_id) or self.finished.get(table_id)
        if found is not None:
            return found.summary()
        stored = await self._db().load(table_id, with_actions=False)
        if stored is None or table_id in self.broken:
            return None
        try:
            game = get_game(stored.game)
        except UnknownGame:
            return None
        return {
            "table": stored.id,
            "game": game.id,
            "title": game.title,
            "players": stored.players,
            "seats": [Seat.from_stored(s).public() for s in stored.seats],
            "public": stored.public,
            "move": stored.moves,
            "to_move": stored.to_move,
            "over": stored.finished_at is not None,
            "result": stored.result,
            "updated": stored.updated_at.timestamp() if stored.updated_at else None,
        }

    async def claim(self, table: Table, seat: int) -> None:
        """A seat's link was opened for the first time: the seat is taken (a public game lists it no more)."""
        if not table.seats[seat].claimed:
            table.seats[seat].claimed = True
            await self._db().claim(table.id, seat)

    def forget_if_idle(self, table: Table) -> None:
        """Move a finished game nobody watches out of the live tables (it stays in the store, and in a small cache)."""
        if table.state.is_over and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._keep_finished(table)

    # -- the lobby ------------------------------------------------------------
    def _allow_create(self, client: str) -> bool:
        window = self._creates.setdefault(client, deque())
        now = time.monotonic()
        while window and window[0] < now - 60:
            window.popleft()
        if len(window) >= self.settings.creates_per_minute:
            return False
        window.append(now)
        if len(self._creates) > 10_000:  # forget quiet addresses
            for key in [k for k, v in self._creates.items() if not v]:
                del self._creates[key]
        return True

    async def create(
        self,
        game_id: str,
        seats: list[tuple[str, str | None]],
        options: Mapping[str, Any],
        public: bool,
        me: int | None,
        client: str,
        clock: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Start a game; returns its id and every link (the only time the links are ever shown)."""
        if not self._allow_create(client):
            raise RequestError(429, "too-many", f"at most {self.settings.creates_per_minute} new games a minute; wait a little")
        try:
            game = get_game(game_id)
        except UnknownGame as exc:
            raise RequestError(404, "unknown-game", str(exc)) from exc
        players = len(seats)
        specs: list[StoredSeat] = []
        tokens: dict[int, str] = {}
        for number, (kind, level) in enumerate(seats):
            if kind == "computer":
                if level is None or level not in self.settings.levels:
                    levels = ", ".join(self.settings.levels)
                    raise RequestError(400, "bad-seat", f"seat {number}: a computer player needs a level ({levels})")
                specs.append(StoredSeat(number, "computer", level, self.level_spec(level, game)))
            else:
                if level is not None:
                    raise RequestError(400, "bad-seat", f"seat {number}: a person has no level")
                tokens[number] = secrets.token_urlsafe(24)
                # The maker's own seat is theirs from now on: no one can join a public game into it.
                specs.append(StoredSeat(number, "person", token_hash=token_hash(tokens[number]), claimed=number == me))
        if me is not None and me not in tokens:
            raise RequestError(400, "bad-seat", f"'me' must be one of the person seats ({', '.join(map(str, tokens)) or 'there are none'})")
        if clock is not None and clock["at_zero"] == "computer" and clock.get("level") not in self.settings.levels:
            levels = ", ".join(self.settings.levels)
            raise RequestError(400, "bad-clock", f"the clock needs the level of the computer that takes over ({levels})")
        seed = secrets.randbits(63)
        try:
            game.check_players(players)
            check_web_options(game, options)
            with no_file_reads():
                state = game.new_game(players, seed, options)
        except AstrariumError as exc:
            raise RequestError(400, "bad-options", short(str(exc), 300)) from exc
        watch = secrets.token_urlsafe(24)
        resolved = _json_copy(dict(state.options))
        for _ in range(5):
            stored = StoredGame(
                id=secrets.token_urlsafe(6),
                game=game.id,
                players=players,
                seed=seed,
                options=resolved,
                public=public,
                watch_hash=token_hash(watch),
                seats=specs,
                to_move=state.current_player,
                clock=None if clock is None else dict(clock),
            )
            if await self._db().insert_game(stored):
                break
        else:
            raise RequestError(503, "unavailable", "could not make a new game id; try again")
        table = Table(
            id=stored.id,
            game=game,
            state=state,
            seats=[Seat.from_stored(s) for s in specs],
            public=public,
            watch_hash=stored.watch_hash,
            log=[],
            picture=has_picture(game),
            clock=stored.clock,
        )
        self.tables[table.id] = table
        log.info("game %s made: %s for %d", table.id, game.id, players)
        self.schedule_computer(table)
        self._arm_clock(table)
        return {
            "table": table.id,
            "url": f"/t/{table.id}",
            "me": me,
            "seats": [
                {**s.public(), **({"token": tokens[s.seat], "link": f"/t/{table.id}#k={tokens[s.seat]}"} if s.seat in tokens else {})}
                for s in table.seats
            ],
            "watch": {"token": watch, "link": f"/t/{table.id}#k={watch}"},
        }

    async def join(self, table_id: str) -> dict[str, Any]:
        """Take an open person seat of a public game: it gets a new link, shown once."""
        table = await self.table(table_id)
        if table is None or not table.public:
            raise RequestError(404, "unknown-game", "no public game with this id")
        if table.state.is_over:
            raise RequestError(409, "game-over", "the game is over")
        for seat in table.seats:
            if seat.kind == "person" and not seat.claimed:
                token = secrets.token_urlsafe(24)
                if await self._db().take_open_seat(table.id, seat.seat, token_hash(token)):
                    seat.token_hash, seat.claimed = token_hash(token), True
                    return {"table": table.id, "seat": seat.seat, "token": token, "link": f"/t/{table.id}#k={token}"}
                seat.claimed = True
        raise RequestError(409, "full", "every seat of this game is taken")

    async def open_games(self) -> list[dict[str, Any]]:
        """Public games with a free seat, newest activity first."""
        found = []
        for stored in await self._db().open_public(self.settings.open_list_limit):
            # A game made through another server process on the same database is loaded here the first time it is listed.
            table = self.tables.get(stored.id) or await self.table(stored.id)
            if table is not None and not table.state.is_over:
                found.append(table.summary())
        return found

    async def record(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The full record of a finished game (seed included: after the end it reveals nothing).

        A public game's is anyone's; a private game's only for a ``token`` of one of its links (a seat's or the spectator's).
        """
        table = await self.table(table_id)
        if table is None:
            raise RequestError(404, "unknown-game", "no game with this id")
        if not table.public:
            if token is None:
                raise RequestError(403, "private", "this game is private: its record is opened with one of its links")
            if not table.identify(token)[0]:
                raise RequestError(403, "bad-link", "this link does not open a seat or the spectator's view of this game")
        if not table.state.is_over:
            raise RequestError(409, "not-over", "the record can be downloaded when the game is over")
        record = table.state.to_record()
        record["seats"] = {str(s.seat): (f"computer ({s.level})" if s.kind == "computer" else "person") for s in table.seats}
        record["table"] = table.id
        record["feedback"] = await self._db().feedback_of(table.id)
        return record

    # -- playing --------------------------------------------------------------
    async def act(self, table: Table, seat: int | None, notation: str, move: int) -> tuple[int, str]:
        """Play ``notation`` for ``seat`` in the position after ``move``; (new move number, canonical notation) once stored.

        Raises ActError, with the table unchanged, for a spectator, a finished
        game, a stale move number, a seat out of turn, an illegal action, or a
        store that refused the commit.
        """
        async with table.lock:
            state = table.state
            if seat is None:
                raise ActError("spectator", "spectators cannot play; open a seat's link to play")
            if state.is_over:
                raise ActError("game-over", "the game is over; no more actions")
            if move != state.move_number:
                raise ActError("stale", f"the game has moved on (it is now after move {state.move_number}); look again and choose")
            mover = state.current_player
            if seat != mover:
                raise ActError("not-your-turn", f"it is not your turn: {seat_label(mover)} is to move")
            trial = state.clone()
            # A notation as the server wrote it is found among the legal notations and its own legal action applied
            # (no parsing, found by identity); anything else is parsed and checked by the game.
            index = table.legal_notations()[1].get(notation)
            try:
                trial.apply(notation if index is None else state.legal_actions()[index])
            except IllegalAction as exc:
                raise ActError("illegal", str(exc)) from exc
            played = str(trial.actions[-1])
            result = None
            if trial.outcome is not None:
                result = {**trial.outcome.to_json(), "returns": trial.returns()}
            used = None
            if table.clock is not None and table.clock_counts(seat):
                used = table.seats[seat].clock_used + (time.monotonic() - table.turn_started) - float(table.clock["increment"])
            table.storing = trial.move_number
            try:
                await self._db().append(table.id, trial.move_number, seat, played, trial.current_player, result, used)
            except Conflict as exc:
                self._later(self.catch_up(table))
                raise ActError("stale", "another move was stored first; look again and choose") from exc
            except Exception as exc:  # the database is down or full: the player may try again, nothing changed
                log_failure(f"storing move {trial.move_number} of game {table.id}", exc)
                raise ActError("unavailable", "the move could not be saved; nothing changed, try again") from exc
            finally:
                table.storing = 0
            if used is not None:
                table.seats[seat].clock_used = used
            table.commit(trial, seat, played)
            table.turn_started = time.monotonic()
            log.debug("game %s move %d by %s", table.id, trial.move_number, seat_label(seat))
        self._arm_clock(table)
        return trial.move_number, played

    async def act_and_tell(
        self, table: Table, seat: int | None, notation: str, move: int, by: Connection | None, ref: str | int | None
    ) -> None:
        """Play an action, acknowledge it to the one who sent it, then show everyone the new position."""
        number, played = await self.act(table, seat, notation, move)
        if by is not None:
            by.send(ack(number, played, ref))
        self.broadcast(table)
        self.schedule_computer(table)

    def broadcast(self, table: Table) -> None:
        for conn in table.connections:
            conn.refresh()

    # -- computer players -------------------------------------------------------
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = make_pool(self.settings.workers())
        return self._pool

    def schedule_computer(self, table: Table) -> None:
        """If a computer seat is to move and not already thinking, start it thinking."""
        state = table.state
        if table.thinking is not None or state.is_over:
            return
        seat = state.current_player
        if seat is None or table.computer_level(seat) is None or table.id in self.broken:
            return
        table.thinking = asyncio.create_task(self._think(table, seat, state.move_number))
        self.broadcast(table)

    def level_spec(self, level: str, game: Game) -> str:
        """The player spec of a computer ``level`` for ``game`` (a level name in the settings: the game's own level)."""
        return table_spec(self.settings.levels[level], game.hidden_information or game.chance, game.id)

    def _spec(self, table: Table, seat: int) -> str:
        found = table.seats[seat]
        if found.kind == "computer" and found.spec:
            return found.spec
        level = table.computer_level(seat) or ""
        return self.level_spec(level, table.game) if level in self.settings.levels else "random"

    async def _think(self, table: Table, seat: int, move: int) -> None:
        state = table.state
        spec = self._spec(table, seat)
        agent_seed = (state.seed * 1_000_003 + move) % (1 << 63)
        job = ThinkJob(table.id, table.game.id, state.players, state.seed, dict(state.options), tuple(state.history), spec, agent_seed)
        budget = budget_seconds(spec)
        timeout = budget + self.settings.think_margin if budget is not None else self.settings.think_timeout
        try:
            notation = await run_job(self.pool(), job, timeout)
        except TimeoutError:
            log.warning("game %s: the computer at %s took over %.0f s; it plays a random action", table.id, seat_label(seat), timeout)
            notation = self._fallback(state, agent_seed)
        except BrokenProcessPool as exc:
            log_failure(f"computer player of game {table.id}", exc)
            self._pool = None
            notation = self._fallback(state, agent_seed)
        except Exception as exc:  # a player that failed in its process: the game goes on with a random legal action
            log_failure(f"computer player of game {table.id}", exc)
            notation = self._fallback(state, agent_seed)
        finally:
            table.thinking = None
        if table.computer_level(seat) is None:  # its person took the seat back while the computer thought
            self.broadcast(table)
            return
        try:
            await self.act_and_tell(table, seat, notation, move, None, None)
        except ActError as exc:
            if exc.code != "illegal":
                log.warning("game %s: the computer's move was not played (%s)", table.id, exc.code)
                return
            log.warning("game %s: the computer chose an illegal action; it plays a random one", table.id)
            await self.act_and_tell(table, seat, self._fallback(state, agent_seed), move, None, None)

    @staticmethod
    def _fallback(state: State, seed: int) -> str:
        return str(Rng(seed).choice(state.legal_actions()))

    # -- the chess clock ------------------------------------------------------------
    def _arm_clock(self, table: Table) -> None:
        """Set the alarm for the seat to move, if its clock hands it to a computer at zero."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        mover = table.state.current_player
        if table.clock is None or table.clock["at_zero"] != "computer" or mover is None or not table.clock_counts(mover):
            return
        delay = max(0.0, table.time_left(mover))
        table.timer = asyncio.get_running_loop().call_later(delay, self._time_up, table, mover, table.state.move_number)

    def _time_up(self, table: Table, seat: int, move: int) -> None:
        table.timer = None
        if table.state.move_number != move or table.state.current_player != seat or table.computer_level(seat) is not None:
            return
        assert table.clock is not None
        log.info("game %s: %s ran out of time; a computer plays it", table.id, seat_label(seat))
        self._later(self.hand_over(table, seat, str(table.clock["level"])))

    # -- handing a seat to a computer, and taking it back ---------------------------------
    async def hand_over(self, table: Table, seat: int, level: str, by: int | None = None) -> None:
        """A computer of ``level`` plays a person's seat from now on (asked by another seat, or by the clock at zero)."""
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "person":
            raise ActError("bad-seat", "only a person's seat can be handed to a computer")
        if level not in self.settings.levels:
            raise ActError("bad-seat", f"no computer level {short(level, 30)!r}; the levels are {', '.join(self.settings.levels)}")
        if by is not None:
            if by == seat:
                raise ActError("bad-seat", "a seat is handed over by the others; to leave, just close the page")
            if table.present(seat):
                raise ActError("bad-seat", f"{seat_label(seat)} is here; only a seat whose player has gone can be handed over")
        if table.state.is_over:
            raise ActError("game-over", "the game is over")
        if table.seats[seat].handed is not None:
            raise ActError("bad-seat", f"{seat_label(seat)} is already played by a computer")
        if table.clock_counts(seat) and table.state.current_player == seat:
            table.seats[seat].clock_used += time.monotonic() - table.turn_started  # its turn so far is on its clock
        table.seats[seat].handed = level
        await self._db().hand_over(table.id, seat, level, table.seats[seat].clock_used)
        self.tell_seats(table)
        self.schedule_computer(table)

    async def take_back(self, table: Table, seat: int) -> None:
        """A person takes their seat back from the computer (through the seat's own link)."""
        if table.seats[seat].handed is None:
            raise ActError("bad-seat", "this seat is not played by a computer")
        if table.clock is not None and table.clock["at_zero"] == "computer" and table.time_left(seat) <= 0:
            raise ActError("clock", "this seat's clock has run out; the computer plays it to the end")
        table.seats[seat].handed = None
        await self._db().hand_over(table.id, seat, None, table.seats[seat].clock_used)
        if table.state.current_player == seat:
            table.turn_started = time.monotonic()
        self.tell_seats(table)
        self._arm_clock(table)

    def tell_seats(self, table: Table) -> None:
        """Tell every client who sits where now (someone came, left, or a seat was handed over)."""
        seats = table.seat_list()
        for conn in table.connections:
            conn.send({"type": "seats", "seats": seats})

    # -- chat and feedback ------------------------------------------------------------
    async def chat(self, table: Table, seat: int | None, text: str) -> None:
        if seat is None:
            raise ActError("spectator", "spectators read the chat; the players write in it")
        settings = self.settings
        limit = table.chat_limits.get(seat)
        if limit is None:
            limit = table.chat_limits[seat] = RateLimit(settings.chat_per_second, settings.chat_burst)
        if not limit.allow():
            rate, burst = settings.chat_per_second, settings.chat_burst
            raise ActError("chat-flood", f"too many chat lines: at most {burst} at once and {rate:g} a second; this one was not sent")
        cleaned = clean_text(text, MAX_CHAT_CHARS)
        if not cleaned:
            raise ActError("bad-message", "an empty chat line")
        line = await self._db().add_chat(table.id, seat, cleaned)
        self.tell_chat(table, line)

    def tell_chat(self, table: Table, line: ChatLine) -> None:
        if line.id in table.chat_seen:
            return
        table.chat_seen.add(line.id)
        message = {"type": "chat", "lines": [chat_line(line)]}
        for conn in table.connections:
            conn.send(message)

    async def recent_chat(self, table: Table) -> list[dict[str, Any]]:
        lines = await self._db().recent_chat(table.id, CHAT_BACKLOG)
        table.chat_seen.update(line.id for line in lines)
        return [chat_line(line) for line in lines]

    async def feedback(self, table: Table, seat: int | None, fun: int, text: str) -> None:
        if seat is None:
            raise ActError("spectator", "feedback comes from the players")
        if not table.state.is_over:
            raise ActError("not-over", "feedback is asked for at the end of the game")
        await self._db().put_feedback(table.id, seat, fun, clean_text(text, MAX_FEEDBACK_CHARS, lines=True))

    # -- other server processes on the same database ----------------------------
    def _later(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _heard(self, table_id: str, news: str) -> None:
        """News of a game from another server process on the same database (or from this one, which it ignores).

        A move number: an action was stored, so catch up if this process is
        behind. ``chat``: a chat line was stored. ``seats``: a link was opened or
        a seat handed over or taken back. ``here P S``: process P has the players
        of seats S connected. ``ask P``: process P has just loaded the game and asks who is where.
        """
        table = self.tables.get(table_id)
        if table is None:
            return
        if news.isdigit():
            # Its own move is heard as soon as it is committed, often before the commit has returned here: not news.
            if table.state.move_number < int(news) != table.storing:
                self._later(self.catch_up(table))
        elif news == "chat":
            self._later(self.chat_from_store(table))
        elif news == "seats":
            self._later(self.seats_from_store(table))
        else:
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
                    self.tell_seats(table)
            elif kind == "ask" and any(conn.seat is not None for conn in table.connections):
                self._later(self._db().announce(table.id, f"here {self.process} {table.here()}"))

    async def _remind_who_is_here(self) -> None:
        """Every PRESENCE_EVERY seconds, tell the other processes again which seats are connected here (and forget
        what a silent process said more than PRESENCE_TTL ago)."""
        while not self.stopping:
            await asyncio.sleep(PRESENCE_EVERY)
            stale = time.monotonic() - PRESENCE_TTL
            for table in list(self.tables.values()):
                gone = [p for p, (_, said) in table.elsewhere.items() if said < stale]
                for process in gone:
                    del table.elsewhere[process]
                if gone:
                    self.tell_seats(table)
                if any(conn.seat is not None for conn in table.connections):
                    with contextlib.suppress(Exception):  # the database is away for a moment: try again next time
                        await self._db().announce(table.id, f"here {self.process} {table.here()}")

    def seat_came_or_went(self, table: Table) -> None:
        """A seat's player connected or left through this process: tell this table's clients and the other processes."""
        self.tell_seats(table)
        if self._db().shares_news and not self.stopping:
            self._later(self._db().announce(table.id, f"here {self.process} {table.here()}"))

    async def chat_from_store(self, table: Table) -> None:
        """Show the chat lines stored through other processes that this one has not shown yet."""
        for line in await self._db().recent_chat(table.id, CHAT_BACKLOG):
            self.tell_chat(table, line)

    async def seats_from_store(self, table: Table) -> None:
        """Read the seats again after another process changed them (a link opened, a seat handed over or taken back)."""
        changed = False
        for stored in await self._db().load_seats(table.id):
            seat = table.seats[stored.seat]
            before = (seat.token_hash, seat.claimed, seat.handed)
            seat.token_hash, seat.claimed = stored.token_hash, stored.claimed
            if seat.handed != stored.handed:
                seat.handed, seat.clock_used = stored.handed, stored.clock_used
                if stored.handed is None and table.state.current_player == seat.seat:
                    table.turn_started = time.monotonic()
            changed |= before != (seat.token_hash, seat.claimed, seat.handed)
        if changed:
            self.tell_seats(table)
            self._arm_clock(table)

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
                    self.broken[table.id] = f"move {action.n} does not replay"
                    log.error("game %s: stored move %d does not replay here", table.id, action.n)
                    return
                table.commit(state, action.seat, str(state.actions[-1]))
        self.broadcast(table)

    async def refresh_seats(self, table: Table) -> None:
        """Read the seats again (another process may have given an open seat a new link)."""
        for stored in await self._db().load_seats(table.id):
            seat = table.seats[stored.seat]
            seat.token_hash, seat.claimed = stored.token_hash, stored.claimed


@functools.lru_cache(maxsize=1 << 16)
def _tokens(game: Game, notation: str) -> list[str]:
    """The picture's tokens of an action (the same for every position; a busy table asks for them on every move)."""
    return list(game.action_tokens(notation))


#: Notations of legal actions already written, by (type, action): frozen dataclasses that compare field by field, so an
#: equal action of the same type has the same notation. Only the game's own legal actions are looked up here.
_NOTATIONS: dict[tuple[type, Any], str] = {}
#: Picture pieces already encoded as JSON string content (without quotes), by piece.
_ESCAPED: dict[str, str] = {}
#: How many of each are kept before they are forgotten all at once (a server plays on with a cold cache for a moment).
MAX_NOTATIONS = 200_000
MAX_ESCAPED = 20_000
#: The ``legal`` and ``tokens`` members already encoded, by (game, drawn, notations).
_CHOICES: dict[tuple[str, bool, tuple[str, ...]], str] = {}
MAX_CHOICES = 2_048


def notations_of(actions: list[Any]) -> list[str]:
    """``[str(a) for a in actions]``, each notation written once for all positions and tables.

    Writing a notation checks the action's fields first; a position of Orbital
    Combat has some 70 legal allocations, most of them the same as in the
    position before.
    """
    known = _NOTATIONS
    notations = []
    for action in actions:
        key = (type(action), action)
        try:
            text = known.get(key)
        except TypeError:  # an action that cannot be hashed is simply written each time
            notations.append(str(action))
            continue
        if text is None:
            if len(known) >= MAX_NOTATIONS:
                known.clear()
            text = known[key] = str(action)
        notations.append(text)
    return notations


def picture_json(parts: list[str], pieces: bool) -> str:
    """The JSON string (quoted, ASCII) of ``"".join(parts)``, exactly as ``json.dumps`` writes it.

    JSON escapes character by character, so the encoding of a joined text is
    the join of its pieces' encodings. The pieces of a picture are mostly the
    same string objects from one picture to the next (the board, the legend,
    ship rows: the game's drawing caches), so each is encoded once and looked up
    after that (a string keeps its hash). ``pieces=False``: one whole picture,
    encoded and not kept.
    """
    if not pieces:
        return encode_basestring_ascii("".join(parts))
    known = _ESCAPED
    out = ['"']
    for part in parts:
        text = known.get(part)
        if text is None:
            if len(known) >= MAX_ESCAPED:
                known.clear()
            text = known[part] = encode_basestring_ascii(part)[1:-1]
        out.append(text)
    out.append('"')
    return "".join(out)


def clean_text(text: str, limit: int, lines: bool = False) -> str:
    """A person's text, kept as text: control characters become spaces (newlines kept where ``lines``), cut to ``limit``."""
    kept = []
    for ch in text[: limit * 2]:
        if ch == "\n" and lines:
            kept.append(ch)
        elif ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            kept.append(" ")
        else:
            kept.append(ch)
    return "".join(kept).strip()[:limit]


def chat_line(line: ChatLine) -> dict[str, Any]:
    return {"id": line.id, "seat": line.seat, "text": line.text, "at": line.at.isoformat(timespec="seconds")}


def _json_copy(data: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(data))
    return copied
