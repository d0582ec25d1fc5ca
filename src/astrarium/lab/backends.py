"""Where an experiment's games are played: local processes, or a Ray cluster (:mod:`astrarium.lab.ray_backend`).

Both back-ends take the games still to play and yield each finished game as
its worker handed it back (:data:`~astrarium.lab.play.Played`: the row and
the compressed record), in the order they finish. The main process saves
every row (:func:`astrarium.lab.runner.run`) and, from Ray, the record, so
Ray's workers need no shared disk; local worker processes write their games'
records into the results folder themselves before handing back the row
(:func:`~astrarium.lab.play.play_into`). A worker lost part-way loses no game
and counts none twice: its games are played again and a game's result (by
its seed and rotation) is kept once.

The local back-end schedules on its own :class:`~concurrent.futures.ProcessPoolExecutor`
rather than the arena's :func:`~astrarium.agents.arena.played` (a
``multiprocessing.Pool``, which waits forever for a game whose worker process
died): when a worker dies the pool breaks, and a new pool is started with only
the games not yet handed back. Its workers are forked (where the system can),
so they start at once, with everything the main process imported, rather
than importing the package again.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path
from typing import Literal

from astrarium.agents.arena import Match
from astrarium.lab.play import GameKey, Played, match_key, play_game, play_into

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")
#: How many times in a row a pool may break without a game finishing before the run gives up.
RESTARTS = 3
#: Games handed to the workers ahead of time, per worker (enough to keep every worker busy).
AHEAD = 2


class LostWorkers(RuntimeError):
    """The workers kept dying without finishing a game: something kills them (memory, a crash in a game)."""


def check_backend(backend: str, address: str | None) -> Backend:
    """``backend`` checked against :data:`BACKENDS`; an address is only for Ray. A ValueError says what is wrong."""
    if backend not in BACKENDS:
        raise ValueError(f"backend {backend!r} is not one of: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError("--address is the address of a Ray cluster: give it with --backend ray")
    return "ray" if backend == "ray" else "local"


def play_games(
    plan: Sequence[Match],
    *,
    jobs: int,
    backend: Backend = "local",
    address: str | None = None,
    records: tuple[Path, bool] | None = None,
) -> Iterator[Played]:
    """Every game of ``plan`` played on ``backend``, as each finishes (see the module's docstring).

    ``records``: the results folder and whether it is paired; local workers
    then write each game's record there and hand back the row alone.
    """
    if backend == "ray":
        from astrarium.lab.ray_backend import import_ray, ray_played

        import_ray()  # fails now, with the extra to install, rather than at the first game
        return ray_played(plan, jobs, address)
    return local_played(plan, jobs, play_game if records is None else partial(play_into, *records))


def local_played(plan: Sequence[Match], jobs: int, play: Callable[[Match], Played] = play_game) -> Iterator[Played]:
    """``play(match)`` for every match on ``jobs`` local processes (1: in this process), as the games finish.

    A worker process that dies breaks the pool: the games it and the others
    were playing are started again on a new pool, the games already handed
    back are not. :class:`LostWorkers` is raised when the pool breaks
    :data:`RESTARTS` times in a row with no game finished in between.
    """
    if jobs <= 1 or len(plan) <= 1:
        for match in plan:
            yield play(match)
        return
    waiting = {match_key(match): match for match in plan}
    broken = 0
    while waiting:
        executor = ProcessPoolExecutor(min(jobs, len(waiting)), mp_context=_context())
        finished = False
        try:
            for result in _drain(executor, waiting, jobs, play):
                broken = 0
                yield result
            finished = True
        except BrokenProcessPool:
            broken += 1
            if broken > RESTARTS:
                raise LostWorkers(f"the worker processes died {broken} times in a row without finishing a game") from None
        finally:
            _stop(executor, finished)


def _context() -> multiprocessing.context.BaseContext:
    """fork where there is one: it keeps games registered at run time (plug-ins, tests), as the arena does."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)


def _drain(executor: ProcessPoolExecutor, waiting: dict[GameKey, Match], jobs: int, play: Callable[[Match], Played]) -> Iterator[Played]:
    """Play the ``waiting`` games on ``executor``, a few ahead; each game handed back leaves ``waiting``.

    A finished game is handed back before a broken pool is reported, so no
    finished game is played again.
    """
    queue = iter(list(waiting.values()))
    running: dict[Future[Played], Match] = {}

    def fill() -> None:
        while len(running) < jobs * AHEAD:
            match = next(queue, None)
            if match is None:
                return
            running[executor.submit(play, match)] = match

    fill()
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        lost = False
        for future in done:
            match = running.pop(future)
            error = future.exception()
            if isinstance(error, BrokenProcessPool):
                lost = True
                continue
            result = future.result()  # a game's own error (MatchError) is raised here, as the arena does
            del waiting[match_key(match)]
            yield result
        if lost:
            raise BrokenProcessPool("a worker process died")
        fill()


def _stop(executor: ProcessPoolExecutor, finished: bool) -> None:
    """Shut the pool down; one stopped early (Ctrl-C, a stopping rule, a lost worker) ends its workers now."""
    if not finished:
        processes = getattr(executor, "_processes", None) or {}
        for process in list(processes.values()):
            if process.is_alive():
                process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)
