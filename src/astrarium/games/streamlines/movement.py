"""Seed section "Movement and Streamlines": which moves a ship has, and why a path is not one.

A move is one step, then the streamlines followed as far as they go; a ship never enters a
square against one of its arrows; it stops before re-entering a square it already passed;
a black hole or a Gate ends the path (a Gate may also be jumped through to its partner).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from astrarium.games.streamlines.actions import Move
from astrarium.games.streamlines.board import ARROWS_OF, DIRECTIONS, NEIGHBOUR, OPPOSITE, SQUARES, Scenario, square_name
from astrarium.games.streamlines.cards import GATE


class Board(Protocol):
    """What movement reads of a position (``StreamlinesState`` is one): the laid cards, the Gates, the black holes.

    Declared here, so that this module needs nothing of the state module that imports it.
    """

    scenario: Scenario
    arrows: list[int]
    laid: list[int]
    gate_pos: list[int]
    carried_against: bool

    def is_black_hole(self, sq: int) -> bool: ...

    def gate_partner(self, sq: int) -> int: ...


# The board's tables as ``Final`` module values: compiled, mypyc keeps them in C variables, where a
# name imported from the (interpreted) board module is looked up in this module's dictionary on every use.
_NEIGHBOUR: Final = NEIGHBOUR
_ARROWS_OF: Final = ARROWS_OF
_OPP_BY_INDEX: Final = tuple(OPPOSITE[d] for d in DIRECTIONS)
#: Moves are shared values (one object per path), so a position's legal list allocates little;
#: the table is emptied when it grows past this many paths, so a long-running process stays small.
_MOVES_KEPT: Final = 50_000
_MOVES: Final[dict[tuple[tuple[int, ...], bool], Move]] = {}


def _move(path: tuple[int, ...], jump: bool) -> Move:
    key = (path, jump)
    m = _MOVES.get(key)
    if m is None:
        if len(_MOVES) >= _MOVES_KEPT:
            _MOVES.clear()
        m = _MOVES[key] = Move(path, jump)
    return m


def moves_from(state: Board, start: int) -> list[Move]:
    """Every move from ``start``: one per distinct end (and gate jump), first path found in n-e-s-w order."""
    arrows = state.arrows
    found: dict[tuple[int, bool], Move] = {}
    for i, nb in enumerate(_NEIGHBOUR[start]):
        if nb < 0 or arrows[nb] & _OPP_BY_INDEX[i]:
            continue
        _follow(state, nb, [nb], {start, nb}, found)
    return list(found.values())


def _exits(state: Board, cur: int, visited: set[int]) -> list[int]:
    """The squares the arrows of ``cur`` carry a ship on to (not yet passed; not against them unless carried)."""
    arrows = state.arrows
    row = _NEIGHBOUR[cur]
    if state.carried_against:
        return [nxt for i, _d, _opp in _ARROWS_OF[arrows[cur]] if (nxt := row[i]) >= 0 and nxt not in visited]
    return [nxt for i, _d, opp in _ARROWS_OF[arrows[cur]] if (nxt := row[i]) >= 0 and nxt not in visited and not arrows[nxt] & opp]


def _follow(state: Board, cur: int, path: list[int], visited: set[int], found: dict[tuple[int, bool], Move]) -> None:
    if state.is_black_hole(cur):
        found.setdefault((cur, False), _move(tuple(path), False))
        return
    if state.laid[cur] >= GATE:
        partner = state.gate_partner(cur)
        found.setdefault((cur, False), _move(tuple(path), False))
        if partner >= 0:
            found.setdefault((partner, True), _move((*path, partner), True))
        return
    exits = _exits(state, cur, visited)
    if not exits:
        found.setdefault((cur, False), _move(tuple(path), False))
        return
    for nxt in exits:
        visited.add(nxt)
        path.append(nxt)
        _follow(state, nxt, path, visited, found)
        path.pop()
        visited.discard(nxt)


def why_path_illegal(state: Board, start: int, path: tuple[int, ...], jump: bool) -> str:
    """Which movement rule the path breaks, or "" when it is a whole move (every step allowed, and it ends where
    the ship must stop). ``path`` holds squares 0 .. 80 (``actions.problem`` has refused anything else)."""
    cur = start
    visited = {start}
    steps = path[:-1] if jump else path
    arrows = state.arrows
    for k, nxt in enumerate(steps):
        if nxt not in NEIGHBOUR[cur]:
            return f"{square_name(nxt)} is not next to {square_name(cur)}"
        d = DIRECTIONS[NEIGHBOUR[cur].index(nxt)]
        if k > 0 and not arrows[cur] & d:
            return f"no streamline on {square_name(cur)} points towards {square_name(nxt)}"
        if arrows[nxt] & OPPOSITE[d] and not (k > 0 and state.carried_against):
            if state.carried_against:
                return f"a ship never steps into {square_name(nxt)} against its streamline (only an arrow may carry it in)"
            return f"a ship never enters {square_name(nxt)} moving against its streamline"
        if nxt in visited:
            return f"the ship stops before re-entering {square_name(nxt)}, which it already passed this move"
        visited.add(nxt)
        if state.is_black_hole(nxt) and k < len(steps) - 1:
            return f"the ship is lost in the black hole at {square_name(nxt)} and goes no further"
        cur = nxt
    if jump:
        if state.gate_partner(cur) != path[-1]:
            return f"there is no matching Gate for {square_name(cur)} at {square_name(path[-1])}"
        return ""
    if state.is_black_hole(cur) or state.laid[cur] >= GATE:
        return ""
    exits = _exits(state, cur, visited)
    if exits:
        onward = " or ".join(square_name(n) for n in exits)
        return f"the ship must follow the streamlines as far as they go: from {square_name(cur)} it goes on to {onward}"
    return ""


def same_move(state: Board, start: int, move: Move) -> Move | None:
    """The offered move that ``move`` is another path of (same end square, same jump), or None.

    The squares passed through have no effect of their own (a black hole or a Gate ends a
    path), so every whole path to an end square is that one move (rules.md, Decisions 5).
    """
    if why_path_illegal(state, start, move.path, move.jump):
        return None
    end = move.path[-1]
    return next((m for m in moves_from(state, start) if m.path[-1] == end and m.jump == move.jump), None)


#: Move graphs by board (reading, arrows, gates, black holes): a board changes only when a card is laid,
#: picked up or turned, or a planet collapses, so a game needs a handful. Emptied past this many.
_GRAPHS_KEPT = 2_000
_GRAPHS: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]] = {}


def _board_key(state: Board) -> tuple[Any, ...]:
    """What the moves on a board depend on: the reading, the arrows, the gates and the black holes."""
    return (
        state.carried_against,
        tuple(state.arrows),
        tuple(state.gate_pos),
        tuple(state.is_black_hole(sq) for sq in state.scenario.planets),
    )


def _predecessors(state: Board, key: tuple[Any, ...] | None = None) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares from which one move ends on it (moves into a black hole left out)."""
    if key is None:
        key = _board_key(state)
    graph = _GRAPHS.get(key)
    if graph is None:
        into: list[list[int]] = [[] for _ in range(SQUARES)]
        for sq in range(SQUARES):
            if state.is_black_hole(sq):
                continue
            for move in moves_from(state, sq):
                end = move.path[-1]
                if not state.is_black_hole(end) and end != sq:
                    into[end].append(sq)
        if len(_GRAPHS) >= _GRAPHS_KEPT:
            _GRAPHS.clear()
        graph = _GRAPHS[key] = tuple(tuple(x) for x in into)
    return graph


#: Distances by board and targets: the scripted teams and the evaluation ask for the same few many times
#: (a searching team asks thousands of times a move). Emptied past this many.
_DISTANCES_KEPT = 20_000
_DISTANCES: dict[tuple[Any, ...], tuple[int, ...]] = {}


def moves_to(state: Board, targets: list[int] | tuple[int, ...]) -> list[int]:
    """For each square, how many moves a ship needs to reach one of ``targets`` (streamlines and gates
    followed as the rules say; 99 where it cannot)."""
    board = _board_key(state)
    key = (board, tuple(targets))
    known = _DISTANCES.get(key)
    if known is not None:
        return list(known)
    into = _predecessors(state, board)
    far = [99] * SQUARES
    frontier = list(targets)
    for t in frontier:
        far[t] = 0
    for sq in frontier:
        for prev in into[sq]:
            if far[prev] == 99:
                far[prev] = far[sq] + 1
                frontier.append(prev)
    if len(_DISTANCES) >= _DISTANCES_KEPT:
        _DISTANCES.clear()
    _DISTANCES[key] = tuple(far)
    return far
