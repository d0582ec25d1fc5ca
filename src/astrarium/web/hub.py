"""The live side of the web table: the hub that wires its units together, the lobby, and actions in.

The :class:`Hub` is one server process's coordinator. It owns the store and
the background tasks and wires the units that do the work, each behind a small
interface:

* :class:`~astrarium.web.tables.TableCache` (``web/tables.py``): the tables in
  memory (:class:`Table`, its :class:`Seat` list and :class:`Connection` set),
  rebuilt by replay from the store;
* :class:`~astrarium.web.clocks.Clocks` (``web/clocks.py``): the chess clocks;
* :class:`~astrarium.web.computer.ComputerPlayers` (``web/computer.py``): the
  computer seats, their process pool, seats handed to a computer and back;
* :class:`~astrarium.web.chat.Chat` (``web/chat.py``): chat and feedback;
* :class:`~astrarium.web.peers.PeerNews` (``web/peers.py``): news between server
  processes on the same database.

The hub itself keeps the lobby (new games, joining, records) and the playing
of an action. An action goes through :meth:`Hub.act`: checked against the seat
to move and the move the player was looking at, applied to a *copy* of the
state through the game API, stored, and only then made the table's state,
acknowledged and broadcast. A refused action or a failed commit leaves the
table exactly as it was. What leaves the server is decided by the table
(see ``web/tables.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Coroutine, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from astrarium.agents import make_agent
from astrarium.agents.levels import table_spec
from astrarium.core import AstrariumError, Game, IllegalAction, State, get_game
from astrarium.core.data import no_file_reads
from astrarium.core.errors import UnknownGame, short
from astrarium.web.catalogue import check_web_options, has_picture
from astrarium.web.chat import Chat
from astrarium.web.clocks import Clocks
from astrarium.web.computer import ComputerPlayers
from astrarium.web.encoding import notations_of, picture_json
from astrarium.web.limits import AddressCounter
from astrarium.web.peers import PeerNews
from astrarium.web.protocol import ack
from astrarium.web.settings import Settings
from astrarium.web.storage import Conflict, Store, StoredGame, StoredSeat, private_folder
from astrarium.web.tables import (
    TABLE_ID,
    ActError,
    Connection,
    RequestError,
    Seat,
    Table,
    TableCache,
    log_failure,
    same_token,
    seat_label,
    token_hash,
)

__all__ = [
    "ActError",
    "Connection",
    "Hub",
    "RequestError",
    "Seat",
    "Table",
    "log_failure",
    "notations_of",
    "picture_json",
    "same_token",
    "seat_label",
    "token_hash",
]

log = logging.getLogger("astrarium.web")


class Hub:
    """Every table this server process holds, the store behind them, and the units that play, time, chat and talk."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.stopping = False
        self._background: set[asyncio.Task[None]] = set()
        self._creates: dict[str, deque[float]] = {}
        #: Open WebSocket connections per client address.
        self.connections = AddressCounter(settings.connections_per_address)
        #: This process's name in the news it exchanges with other server processes on the same database.
        self.process = secrets.token_hex(6)
        self.cache = TableCache(self._db, self)
        #: Unfinished games, and finished ones someone is still connected to.
        self.tables = self.cache.live
        #: Finished games read back from the store, most recently used last.
        self.finished = self.cache.finished
        #: Games that no longer replay, with the kind of problem.
        self.broken = self.cache.broken
        self.clocks = Clocks(self._later, self)
        self.computers = ComputerPlayers(settings, self._db, self, self.clocks, self.broken)
        self.chats = Chat(settings, self._db)
        self.peers = PeerNews(self.process, self._db, self.cache, self._later, self.chats, self.clocks)

    # -- life ---------------------------------------------------------------
    async def start(self) -> None:
        """Check the computer levels, open and migrate the store, rebuild the unfinished games and set them going."""
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
        await self.peers.listen()  # listening before loading
        for game in await self.store.load_unfinished():
            self.cache.rebuild(game)
        log.info("%d unfinished games rebuilt, %d could not be", len(self.tables), len(self.broken))
        await self.peers.started()
        for table in list(self.tables.values()):
            self.computers.schedule(table)
            self.clocks.arm(table)  # a clock runs again from now: time while the server was down is not counted

    async def stop(self) -> None:
        """Tell the other processes this one's players have gone, stop every task, the pool and the store."""
        self.stopping = True
        if self.store is not None:
            await self.peers.leave()
        for table in self.tables.values():
            if table.thinking is not None:
                table.thinking.cancel()
            self.clocks.cancel(table)
            for conn in table.connections:
                conn.closed.set()
        for task in list(self._background):
            task.cancel()
        self.computers.shutdown()
        if self.store is not None:
            await self.store.close()

    def _db(self) -> Store:
        """The store (the hub must be started; a test may put a stand-in in ``store``)."""
        assert self.store is not None, "the hub is not started"
        return self.store

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (kept until done, cancelled when the hub stops)."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @property
    def _pool(self) -> ProcessPoolExecutor | None:
        """The computer players' worker processes, once started."""
        return self.computers.running_pool

    # -- the tables ---------------------------------------------------------------
    async def table(self, table_id: str) -> Table | None:
        """The table with this id: in memory, or a finished game loaded (and replayed) from the store."""
        return await self.cache.get(table_id)

    async def loaded(self, table: Table) -> None:
        """An unfinished game was just loaded from the store (the table cache's watcher): news of it may have passed."""
        await self.peers.loaded(table)

    def forget_if_idle(self, table: Table) -> None:
        """Move a finished game nobody watches out of the live tables (it stays in the store, and in a small cache)."""
        self.cache.forget_if_idle(table)

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """The public facts of a game; a finished game not in memory is described from its stored row, without replaying it."""
        if not TABLE_ID.match(table_id):
            return None
        found = self.cache.cached(table_id)
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

    # -- the lobby ------------------------------------------------------------
    def _allow_create(self, client: str) -> bool:
        """Whether ``client`` may make another game now (at most ``creates_per_minute`` in any minute)."""
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
        specs, tokens = self._seat_specs(game, seats, me)
        if clock is not None and clock["at_zero"] == "computer" and clock.get("level") not in self.settings.levels:
            levels = ", ".join(self.settings.levels)
            raise RequestError(400, "bad-clock", f"the clock needs the level of the computer that takes over ({levels})")
        seed = secrets.randbits(63)
        try:
            game.check_players(len(seats))
            check_web_options(game, options)
            with no_file_reads():
                state = game.new_game(len(seats), seed, options)
        except AstrariumError as exc:
            raise RequestError(400, "bad-options", short(str(exc), 300)) from exc
        watch = secrets.token_urlsafe(24)
        stored = await self._insert(game, state, public, token_hash(watch), specs, clock)
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
        self.cache.add(table)
        log.info("game %s made: %s for %d", table.id, game.id, len(seats))
        self.computers.schedule(table)
        self.clocks.arm(table)
        return _links(table, me, tokens, watch)

    def _seat_specs(self, game: Game, seats: list[tuple[str, str | None]], me: int | None) -> tuple[list[StoredSeat], dict[int, str]]:
        """The stored seats of a new game, and each person seat's new link token (the maker's seat ``me`` is taken)."""
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
        return specs, tokens

    async def _insert(
        self, game: Game, state: State, public: bool, watch_hash: str, specs: list[StoredSeat], clock: Mapping[str, Any] | None
    ) -> StoredGame:
        """Store a new game under a new id (a few tries, should an id be taken)."""
        resolved = _json_copy(dict(state.options))
        for _ in range(5):
            stored = StoredGame(
                id=secrets.token_urlsafe(6),
                game=game.id,
                players=state.players,
                seed=state.seed,
                options=resolved,
                public=public,
                watch_hash=watch_hash,
                seats=specs,
                to_move=state.current_player,
                clock=None if clock is None else dict(clock),
            )
            if await self._db().insert_game(stored):
                return stored
        raise RequestError(503, "unavailable", "could not make a new game id; try again")

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
            used = self.clocks.used_after_move(table, seat)
            table.storing = trial.move_number
            try:
                await self._db().append(table.id, trial.move_number, seat, played, trial.current_player, result, used)
            except Conflict as exc:
                self._later(self.peers.catch_up(table))
                raise ActError("stale", "another move was stored first; look again and choose") from exc
            except Exception as exc:  # the database is down or full: the player may try again, nothing changed
                log_failure(f"storing move {trial.move_number} of game {table.id}", exc)
                raise ActError("unavailable", "the move could not be saved; nothing changed, try again") from exc
            finally:
                table.storing = 0
            if used is not None:
                table.seats[seat].clock_used = used
            table.commit(trial, seat, played)
            self.clocks.start_turn(table)
            log.debug("game %s move %d by %s", table.id, trial.move_number, seat_label(seat))
        self.clocks.arm(table)
        return trial.move_number, played

    async def act_and_tell(
        self, table: Table, seat: int | None, notation: str, move: int, by: Connection | None, ref: str | int | None
    ) -> None:
        """Play an action, acknowledge it to the one who sent it, then show everyone the new position."""
        number, played = await self.act(table, seat, notation, move)
        if by is not None:
            by.send(ack(number, played, ref))
        table.broadcast()
        self.computers.schedule(table)

    # -- the units, as the WebSocket handler asks for them ---------------------------------
    def level_spec(self, level: str, game: Game) -> str:
        """The player spec of a computer ``level`` for ``game`` (a level name in the settings: the game's own level)."""
        return self.computers.level_spec(level, game)

    async def hand_over(self, table: Table, seat: int, level: str, by: int | None = None) -> None:
        """A computer of ``level`` plays a person's seat from now on (asked by another seat, or by the clock at zero)."""
        await self.computers.hand_over(table, seat, level, by)

    async def take_back(self, table: Table, seat: int) -> None:
        """A person takes their seat back from the computer (through the seat's own link)."""
        await self.computers.take_back(table, seat)

    async def chat(self, table: Table, seat: int | None, text: str) -> None:
        """A seat's chat line (see :class:`Chat`)."""
        await self.chats.chat(table, seat, text)

    async def recent_chat(self, table: Table) -> list[dict[str, Any]]:
        """The last chat lines, for a newcomer."""
        return await self.chats.recent_chat(table)

    async def feedback(self, table: Table, seat: int | None, fun: int, text: str) -> None:
        """A player's feedback at the end of the game."""
        await self.chats.feedback(table, seat, fun, text)

    def seat_came_or_went(self, table: Table) -> None:
        """A seat's player connected or left through this process: tell this table's clients and the other processes."""
        self.peers.seat_came_or_went(table)

    async def refresh_seats(self, table: Table) -> None:
        """Read the seats again (another process may have given an open seat a new link)."""
        await self.peers.refresh_seats(table)


def _links(table: Table, me: int | None, tokens: dict[int, str], watch: str) -> dict[str, Any]:
    """The answer to the maker of a new game: its id and address, and every link (the only time they are ever shown)."""
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


def _json_copy(data: dict[str, Any]) -> dict[str, Any]:
    """A plain JSON copy of ``data`` (resolved options as they are stored)."""
    copied: dict[str, Any] = json.loads(json.dumps(data))
    return copied
