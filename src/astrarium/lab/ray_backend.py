"""Playing an experiment's games on a Ray cluster (``--backend ray``).

Each game is one Ray task running :func:`astrarium.lab.play.play_game` on a
worker, which hands back the game's row and compressed record through Ray's
object store; the main process (the driver) writes them. Workers therefore
need astrarium (the same version) installed, and no shared disk.

A worker or node lost while a game runs: Ray runs the task again
(``max_retries``), and should that fail too the driver submits the game again
(up to :data:`RESUBMITS` times). The driver keeps one result a game (its seed
and rotation), so no game is counted twice. Ray is imported here only, so the lab works without
it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from astrarium.agents.arena import Match
from astrarium.core.errors import short
from astrarium.lab.play import GameKey, Played, match_key, play_game

#: Ray's own retries of a task whose worker died.
MAX_RETRIES = 3
#: After Ray's retries, how many more times the driver submits a game whose worker or node was lost.
RESUBMITS = 3
#: Games submitted ahead, per CPU of the cluster.
AHEAD = 2


def import_ray() -> Any:
    """The ``ray`` module; a one-line ValueError naming the extra when it is not installed."""
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray needs Ray, in the 'lab' extra: pip install 'astrarium[lab]'") from None
    return ray


def ray_played(plan: Sequence[Match], jobs: int, address: str | None) -> Iterator[Played]:
    """Every game of ``plan`` as a Ray task, yielded as each finishes.

    ``address``: the cluster to join (``ray.init(address=...)``: ``auto``, a
    ``host:port`` or ``ray://host:10001``); None starts a local Ray instance
    with ``jobs`` CPUs for this run and stops it at the end. A driver already
    connected (``ray.init`` called earlier) is used as it is.
    """
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address is None:
                ray.init(address="local", num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = "start a local Ray instance" if address is None else f"join the Ray cluster at {address}"
            raise ValueError(f"cannot {where}: {short(str(exc).splitlines()[0] if str(exc) else repr(exc), 200)}") from None
        started = True
    try:
        yield from _play(ray, plan)
    finally:
        if started:
            ray.shutdown()


def _play(ray: Any, plan: Sequence[Match]) -> Iterator[Played]:
    """Submit the games a few ahead of the cluster's CPUs and hand back each result once."""
    task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_game)
    queue = list(reversed(plan))
    running: dict[Any, Match] = {}
    lost: dict[GameKey, int] = {}
    seen: set[GameKey] = set()

    ahead = AHEAD * max(1, int(ray.cluster_resources().get("CPU", 1)))

    def fill() -> None:
        while queue and len(running) < ahead:
            match = queue.pop()
            running[task.remote(match)] = match

    try:
        fill()
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                match = running.pop(ref)
                try:
                    result: Played = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None  # a game's own error (MatchError), as the local back-end raises it
                except ray.exceptions.RayError:
                    key = match_key(match)
                    lost[key] = lost.get(key, 0) + 1
                    if lost[key] > RESUBMITS:
                        raise
                    queue.append(match)  # its worker or node was lost beyond Ray's retries: once more
                    continue
                if match_key(match) in seen:
                    continue
                seen.add(match_key(match))
                yield result
            fill()
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
