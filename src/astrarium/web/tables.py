"""The tables of the web table: one game in memory each, its seats, its connections, and the cache that holds them.

Every unfinished game is held in memory as a :class:`Table` (its ``State``,
rebuilt by replay when the server starts); :class:`TableCache` holds them, a
few finished ones besides, and the ids of games that no longer replay.

What leaves the server is decided in one place, :meth:`Table._position` and
:meth:`Table._picture` (which :meth:`Table.snapshot` and its JSON both use): a
seat's ``picture_view`` (its own view), the picture drawn from that view, and
the legal actions only for the seat to move; a spectator gets the spectator's
view. The move log sent with it holds action notations, which are public (a
public record holds them too). Seeds, records and other seats' views never
leave before the end. The encodings shared by all tables (``web/encoding.py``)
hold only what their keys determine, so nothing passes from one game to another.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from astrarium.core import AstrariumError, Game, IllegalAction, RecordError, State, get_game
from astrarium.core.data import no_file_reads
from astrarium.core.svg import SEAT_MARKS
from astrarium.web.catalogue import has_picture
from astrarium.web.encoding import choices_json, notations_of, picture_json, tokens_of
from astrarium.web.limits import RateLimit
from astrarium.web.protocol import CodedError, dumps
from astrarium.web.storage import Store, StoredGame, StoredSeat

log = logging.getLogger("astrarium.web")

#: Table ids: URL-safe, short; anything else is refused before a lookup.
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
#: The most recent moves sent in one event log (a reconnecting client of a long game gets these).
MAX_EVENTS = 500
#: Messages waiting for a slow client before its connection is closed (it reconnects and catches up).
MAX_OUTBOX = 200
#: Finished games kept in memory after their last viewer left (for record downloads and late viewers).
FINISHED_CACHE = 64
#: How long a process's word of who is connected through it holds: a process killed without a word stops being
#: believed after PRESENCE_TTL seconds.
PRESENCE_TTL = 100.0

#: Work for later, in the background of the event loop (the hub keeps the task until it is done).
Later = Callable[[Coroutine[Any, Any, None]], None]
#: The store behind the tables, once the hub is started.
Db = Callable[[], Store]


def token_hash(token: str) -> str:
    """The SHA-256 of a link token, as stored (the token itself never is)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def seat_label(seat: int | None) -> str:
    """A seat in words for messages and the log: ``seat 0 (A)``, or ``nobody``."""
    return "nobody" if seat is None else f"seat {seat} ({SEAT_MARKS[seat % len(SEAT_MARKS)]})"


def log_failure(where: str, exc: BaseException) -> None:
    """Log where something failed and the code path, but not the exception's text (it may hold a position's secrets)."""
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    path = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
    log.error("%s failed: %s at %s", where, type(exc).__name__, path or "?")


class ActError(CodedError):
    """An action (or a seat's request) that was not done; ``code`` for clients, ``message`` for the player."""


class RequestError(Exception):
    """A lobby request the server refuses (HTTP status, code and a sentence for people)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(slots=True)
class Seat:
    """One seat of a table: a person or a computer of some level, its link's hash, and its clock."""

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
        """The seat as the store holds it."""
        return cls(s.seat, s.kind, s.level, s.spec, s.token_hash, s.claimed, s.handed, s.clock_used)

    def public(self, present: bool = False) -> dict[str, Any]:
        """What anyone may know of the seat (never its link)."""
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
        """Every seat's public facts, with whether its player is here."""
        return [s.public(self.present(s.seat)) for s in self.seats]

    def computer_level(self, seat: int) -> str | None:
        """The level of the computer playing ``seat`` (its own, or the one it was handed to), or None for a person."""
        found = self.seats[seat]
        return found.level if found.kind == "computer" else found.handed

    def clock_limit(self) -> float:
        """The seconds each seat's clock starts with (0 without a clock)."""
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
        """The seconds ``seat`` has left now (its running turn counted)."""
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
        """Make ``state`` (after ``seat`` played ``notation``) the table's position, and forget what was built of the last one."""
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
        return tokens_of(self.game, self.picture, legal)

    def choices_json(self, legal: list[str]) -> str:
        """The ``legal`` and ``tokens`` members of a position as JSON (see :func:`astrarium.web.encoding.choices_json`)."""
        return choices_json(self.game, self.picture, legal)

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
        """The outcome with each seat's returns, or None while the game goes on."""
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

    def broadcast(self) -> None:
        """Every client of the table gets the newest position (each as soon as its writer is free)."""
        for conn in self.connections:
            conn.refresh()

    def tell_seats(self) -> None:
        """Tell every client who sits where now (someone came, left, or a seat was handed over)."""
        seats = self.seat_list()
        for conn in self.connections:
            conn.send({"type": "seats", "seats": seats})


class Connection:
    """One WebSocket client of a table: a seat or a spectator.

    Everything sent goes through one writer task, in order: queued messages
    (welcome, ack, error, pong) first, then the newest position. A client that
    falls behind skips positions it has not yet been sent (it gets the newest
    one, and every move in the event log), so a slow phone never holds up a
    table.
    """

    def __init__(self, table: Table, seat: int | None, since: int, send_text: Any, pictures: bool = True) -> None:
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
        """Queue a message (a client that has let MAX_OUTBOX pile up is closed: it reconnects and catches up)."""
        if len(self._outbox) >= MAX_OUTBOX:
            self.closed.set()
            return
        self._outbox.append(message)
        self._wake.set()

    def refresh(self) -> None:
        """Send the newest position when the writer is next free."""
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
        """Send what is queued, then the newest position, until the connection closes."""
        while not self.closed.is_set():
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                await self._send_text(dumps(self._outbox.popleft()))
            if self._want_state:
                self._want_state = False
                await self._send_text(self.state_text())


class LoadWatcher(Protocol):
    """Told of an unfinished game just loaded from the store (news of it may have passed before it was here)."""

    async def loaded(self, table: Table) -> None: ...


class TableCache:
    """The tables of this server process: unfinished games, a few finished ones, and the games that do not replay."""

    def __init__(self, db: Db, watcher: LoadWatcher) -> None:
        self._db = db
        self._watcher = watcher
        #: Unfinished games, and finished ones someone is still connected to.
        self.live: dict[str, Table] = {}
        #: Finished games read back from the store, most recently used last.
        self.finished: OrderedDict[str, Table] = OrderedDict()
        #: Games that no longer replay, with the kind of problem.
        self.broken: dict[str, str] = {}
        self._load_lock = asyncio.Lock()

    def cached(self, table_id: str) -> Table | None:
        """The table with this id if it is in memory (live or finished)."""
        return self.live.get(table_id) or self.finished.get(table_id)

    def add(self, table: Table) -> None:
        """A new game joins the live tables."""
        self.live[table.id] = table

    def rebuild(self, stored: StoredGame) -> Table | None:
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
            self.keep_finished(table)
        else:
            self.live[table.id] = table
        return table

    def keep_finished(self, table: Table) -> None:
        """Keep a finished game among the most recently used (the oldest is forgotten past FINISHED_CACHE)."""
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    async def get(self, table_id: str) -> Table | None:
        """The table with this id: in memory, or a finished game loaded (and replayed) from the store."""
        if not TABLE_ID.match(table_id):
            return None
        found = self.cached(table_id)
        if found is not None or table_id in self.broken:
            return found
        async with self._load_lock:
            found = self.cached(table_id)
            if found is not None:
                return found
            stored = await self._db().load(table_id)
            if stored is None:
                return None
            table = self.rebuild(stored)
            if table is not None and not table.state.is_over:
                await self._watcher.loaded(table)
            return table

    def forget_if_idle(self, table: Table) -> None:
        """Move a finished game nobody watches out of the live tables (it stays in the store, and in a small cache)."""
        if table.state.is_over and not table.connections and self.live.get(table.id) is table:
            del self.live[table.id]
            self.keep_finished(table)
