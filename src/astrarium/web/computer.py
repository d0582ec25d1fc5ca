"""Computer players of the web table: they think in other processes, within a time budget.

Searching is CPU work that would stall every game on the server if it ran in
the event loop, so each move is a job for a process pool. A job carries the
game's record (game, players, seed, options, actions so far) and the player
spec; the worker rebuilds the position (keeping recent positions per table, so
a long game is not replayed from the start on every move), builds the player
and returns its action's notation. The server then plays that notation through
the same path as a person's action, so a computer's move is checked, stored
and broadcast like anyone's.

The seed goes to the worker because the position is rebuilt from it; the
players themselves never peek (they search re-sampled worlds, see
``astrarium.agents``), and nothing the worker returns but a notation.

:class:`ComputerPlayers` is the server's side: it starts a computer seat
thinking when it is to move, plays its answer through the hub (a
:class:`Mover`), and hands a person's seat to a computer and back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from astrarium.agents import make_agent, parse_agent_spec
from astrarium.agents.levels import table_spec
from astrarium.core import Game, State, get_game, list_games
from astrarium.core.errors import short
from astrarium.core.rng import Rng
from astrarium.web.settings import Settings
from astrarium.web.tables import ActError, Connection, Db, Table, log_failure, seat_label

log = logging.getLogger("astrarium.web")

#: Positions a worker keeps, by table, so the next move of the same game only applies the new actions.
_CACHE_SIZE = 64
_positions: OrderedDict[tuple[str, str, int, int, str], State] = OrderedDict()


@dataclass(frozen=True, slots=True)
class ThinkJob:
    """One move to think about: the game's record so far and the player spec (see the module's notes)."""

    table: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    spec: str
    agent_seed: int


def _position(job: ThinkJob) -> State:
    """The job's position, from the worker's recent positions where it can (only the new actions applied)."""
    key = (job.table, job.game, job.players, job.seed, json.dumps(job.options, sort_keys=True))
    state = _positions.pop(key, None)
    if state is not None:
        done = state.history
        if len(done) > len(job.actions) or list(job.actions[: len(done)]) != done:
            state = None
    if state is None:
        state = get_game(job.game).new_game(job.players, job.seed, job.options)
    for notation in job.actions[state.move_number :]:
        state.apply(notation)
    _positions[key] = state
    while len(_positions) > _CACHE_SIZE:
        _positions.popitem(last=False)
    return state


def think(job: ThinkJob) -> str:
    """The computer's action in the job's position, as a notation (runs in a worker process)."""
    state = _position(job)
    agent = make_agent(job.spec, seed=job.agent_seed)
    return str(agent.choose(state.clone()))


def budget_seconds(spec: str) -> float | None:
    """The thinking time a player spec asks for (``mcts:seconds=2`` -> 2.0), or None when it has no time budget."""
    _, options = parse_agent_spec(spec)
    seconds = options.get("seconds")
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        return float(seconds)
    return None


def make_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of worker processes started from a clean server process (forkserver), with astrarium already imported."""
    context = multiprocessing.get_context("forkserver")
    games = sorted({type(get_game(g)).__module__ for g in list_games()})
    context.set_forkserver_preload(["astrarium.web.computer", *(m for m in games if m.startswith("astrarium.games."))])
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


async def run_job(pool: Executor, job: ThinkJob, timeout: float) -> str:
    """Run ``think(job)`` in the pool; TimeoutError after ``timeout`` seconds (the worker is left to finish on its own)."""
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(pool, think, job)
    return await asyncio.wait_for(future, timeout)


class Mover(Protocol):
    """Plays an action as a person's would be played: checked, stored, acknowledged and shown."""

    async def act_and_tell(
        self, table: Table, seat: int | None, notation: str, move: int, by: Connection | None, ref: str | int | None
    ) -> None: ...


class TurnClock(Protocol):
    """The parts of the chess clock that handing a seat over and back touches."""

    def pause(self, table: Table, seat: int) -> None: ...

    def resume(self, table: Table, seat: int) -> None: ...

    def run_out(self, table: Table, seat: int) -> bool: ...

    def arm(self, table: Table) -> None: ...


class ComputerPlayers:
    """The computer seats of every table: when to think, the pool they think in, and seats handed to them and back."""

    def __init__(self, settings: Settings, db: Db, mover: Mover, clocks: TurnClock, broken: Mapping[str, str]) -> None:
        self.settings = settings
        self._db = db
        self._mover = mover
        self._clocks = clocks
        self._broken = broken
        #: The worker processes, started when a computer first thinks.
        self.running_pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        """The pool of worker processes (started now if it is not running)."""
        if self.running_pool is None:
            self.running_pool = make_pool(self.settings.workers())
        return self.running_pool

    def shutdown(self) -> None:
        """Stop the worker processes (the server is stopping)."""
        if self.running_pool is not None:
            self.running_pool.shutdown(wait=False, cancel_futures=True)
            self.running_pool = None

    def schedule(self, table: Table) -> None:
        """If a computer seat is to move and not already thinking, start it thinking."""
        state = table.state
        if table.thinking is not None or state.is_over:
            return
        seat = state.current_player
        if seat is None or table.computer_level(seat) is None or table.id in self._broken:
            return
        table.thinking = asyncio.create_task(self._think(table, seat, state.move_number))
        table.broadcast()

    def level_spec(self, level: str, game: Game) -> str:
        """The player spec of a computer ``level`` for ``game`` (a level name in the settings: the game's own level)."""
        return table_spec(self.settings.levels[level], game.hidden_information or game.chance, game.id)

    def _spec(self, table: Table, seat: int) -> str:
        """The player spec of the computer at ``seat`` (its own, or its level's for a handed seat; random without one)."""
        found = table.seats[seat]
        if found.kind == "computer" and found.spec:
            return found.spec
        level = table.computer_level(seat) or ""
        return self.level_spec(level, table.game) if level in self.settings.levels else "random"

    async def _think(self, table: Table, seat: int, move: int) -> None:
        """Think in the pool and play the answer; a timeout, a broken pool or a failing player plays a random legal action."""
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
            self.running_pool = None
            notation = self._fallback(state, agent_seed)
        except Exception as exc:  # a player that failed in its process: the game goes on with a random legal action
            log_failure(f"computer player of game {table.id}", exc)
            notation = self._fallback(state, agent_seed)
        finally:
            table.thinking = None
        if table.computer_level(seat) is None:  # its person took the seat back while the computer thought
            table.broadcast()
            return
        try:
            await self._mover.act_and_tell(table, seat, notation, move, None, None)
        except ActError as exc:
            if exc.code != "illegal":
                log.warning("game %s: the computer's move was not played (%s)", table.id, exc.code)
                return
            log.warning("game %s: the computer chose an illegal action; it plays a random one", table.id)
            await self._mover.act_and_tell(table, seat, self._fallback(state, agent_seed), move, None, None)

    @staticmethod
    def _fallback(state: State, seed: int) -> str:
        """A random legal action, seeded (the game goes on when a computer player fails)."""
        return str(Rng(seed).choice(state.legal_actions()))

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
        self._clocks.pause(table, seat)  # its turn so far is on its clock
        table.seats[seat].handed = level
        await self._db().hand_over(table.id, seat, level, table.seats[seat].clock_used)
        table.tell_seats()
        self.schedule(table)

    async def take_back(self, table: Table, seat: int) -> None:
        """A person takes their seat back from the computer (through the seat's own link)."""
        if table.seats[seat].handed is None:
            raise ActError("bad-seat", "this seat is not played by a computer")
        if self._clocks.run_out(table, seat):
            raise ActError("clock", "this seat's clock has run out; the computer plays it to the end")
        table.seats[seat].handed = None
        await self._db().hand_over(table.id, seat, None, table.seats[seat].clock_used)
        self._clocks.resume(table, seat)
        table.tell_seats()
        self._clocks.arm(table)
