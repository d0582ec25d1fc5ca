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
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from astrarium.agents import make_agent, parse_agent_spec
from astrarium.core import State, get_game, list_games

#: Positions a worker keeps, by table, so the next move of the same game only applies the new actions.
_CACHE_SIZE = 64
_positions: OrderedDict[tuple[str, str, int, int, str], State] = OrderedDict()


@dataclass(frozen=True, slots=True)
class ThinkJob:
    table: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    spec: str
    agent_seed: int


def _position(job: ThinkJob) -> State:
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
