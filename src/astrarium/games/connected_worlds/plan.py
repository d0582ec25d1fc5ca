"""Distances on a Connected Worlds map, for the evaluation and for scripted players.

Two kinds of distance, both counted in movement points (one ``step`` each):

* :func:`hops` is the map's own table, computed once per board: a step to an adjacent
  hex, from any planet hex up to the planet's hex in space, and from that space hex
  down to any hex of the planet. It ignores who holds what (territory, enemies,
  portals), so it is cheap enough for an evaluation that runs thousands of times a
  move, and it is never more than the true distance for a unit whose player may launch
  and land there.
* :func:`distances` follows the position's own rules (:meth:`ConnectedWorldsState.step_targets`): launching
  only from territory, landing on territory when the player has some on the planet,
  portals, and movement that ends on entering a hex with enemy pieces.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from astrarium.games.connected_worlds.data import Board

if TYPE_CHECKING:
    from astrarium.games.connected_worlds.state import ConnectedWorldsState

#: Tables already computed, by board identity (each entry keeps its board alive, so the id is not reused).
_HOPS: dict[int, tuple[Board, tuple[tuple[int, ...], ...]]] = {}
_MAX_TABLES = 64
#: A distance no piece reaches (larger than any real one on a map of at most 20 boards of 217 hexes).
FAR = 10_000


def hops(board: Board) -> tuple[tuple[int, ...], ...]:
    """All-pairs distances on the map's step graph without owners: ``hops(board)[a][b]`` (FAR: unreachable)."""
    entry = _HOPS.get(id(board))
    if entry is not None and entry[0] is board:
        return entry[1]
    links: list[list[int]] = [list(n) for n in board.neighbours]
    for world in board.worlds:
        for cell in world.cells:
            links[cell].append(world.space_cell)
            links[world.space_cell].append(cell)
    table = tuple(_bfs(links, start) for start in range(board.size))
    while len(_HOPS) >= _MAX_TABLES:
        del _HOPS[next(iter(_HOPS))]
    _HOPS[id(board)] = (board, table)
    return table


def _bfs(links: list[list[int]], start: int) -> tuple[int, ...]:
    dist = [FAR] * len(links)
    dist[start] = 0
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        d = dist[cell] + 1
        for nxt in links[cell]:
            if dist[nxt] > d:
                dist[nxt] = d
                queue.append(nxt)
    return tuple(dist)


def distances(state: ConnectedWorldsState, start: int, piece: int, seat: int) -> dict[int, int]:
    """Movement points from ``start`` to every hex a piece of ``seat`` can reach by the position's rules.

    ``piece`` is 0 for a base, else a unit's strength. A unit's move ends on a hex with
    enemy pieces, so such hexes are reached but never passed through; a base never
    enters them at all (:meth:`ConnectedWorldsState.step_targets` leaves them out).
    """
    enemy = state.enemy_cells(seat)
    terr = state.territory(seat)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell != start and cell in enemy:
            continue
        d = dist[cell] + 1
        for nxt in state.step_targets(cell, piece, seat, terr, enemy):
            if nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


def distances_to(state: ConnectedWorldsState, targets: list[int] | set[int], piece: int, seat: int) -> dict[int, int]:
    """Movement points from every hex to the nearest of ``targets`` for a piece of ``seat`` (hexes that cannot reach are left out).

    The same moves as :func:`distances`, searched backwards from the targets once, so a
    planner can compare every next step with one search instead of one per step. The result
    is for looking hexes up: the order of its entries means nothing.
    """
    enemy = state.enemy_cells(seat)
    before = state.step_sources(piece, seat)
    dist = {t: 0 for t in targets}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        d = dist[cell] + 1
        for prev in before.get(cell, ()):
            # A unit's move ends on a hex with enemy pieces: it never goes on from one (the start aside).
            if prev not in dist and prev not in enemy:
                dist[prev] = d
                queue.append(prev)
    return dist
