"""Scripted team play: the courier, and the builder, a courier that lays streamline lanes.

Both read only what every player sees (the board, the ships, their holds; never the
deck's order). They are the yardsticks of rules.md ("Design notes"): the scenarios are
winnable by purposeful play, and laying streamlines pays when the builder beats the
courier. ``astrarium.agents.scripted_streamlines`` ships them as named players
(``sl-courier``, ``sl-builder``), and the lab's experiments
(``experiments/streamlines/``) play this same policy.

The courier draws on planets while its hold has room, carries refugees to the escape,
and flies by the move that leaves it the fewest moves from its errand, counted on the
board as it is (so a lane that would carry it the wrong way is flown round); it dumps
streamlines before refugees and never lays one. The builder does the same and builds one
lane per planet, from beside the planet to the nearest escape (across the board first,
then up or down, so that the way back stays free): carrying a streamline card on an empty
lane square, it lays the card pointing on along the lane, a one-way current that later
trips ride in one action.
"""

from __future__ import annotations

from typing import Any, cast

from astrarium.core import get_game
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import Lay, Move
from astrarium.games.streamlines.board import DIRECTIONS, EAST, NEIGHBOUR, NORTH, OPPOSITE, SIZE, SOUTH, WEST
from astrarium.games.streamlines.cards import CARGO, CORNER, LINE, REFUGEE, STRAIGHT, STREAMLINES, TEE
from astrarium.games.streamlines.movement import moves_to
from astrarium.games.streamlines.state import BLACK_HOLE, COLLAPSING, StreamlinesState

#: The builder dumps the streamline cards that cannot make a one-way lane first (lines, then tees).
_DUMP_ORDER = (LINE, TEE, CORNER, STRAIGHT)


def distance(a: int, b: int) -> int:
    """Grid distance between two squares (steps up, down, left, right)."""
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def _nearest(sq: int, targets: list[int] | tuple[int, ...]) -> int:
    return min(targets, key=lambda t: distance(sq, t))


def _step(sq: int, d: int) -> int:
    return NEIGHBOUR[sq][DIRECTIONS.index(d)]


def lane(planet: int, escape: int) -> list[tuple[int, int]]:
    """The lane from a planet to an escape: (square, direction on) for each square between them,
    across the board first, then up or down, so that the way back (up or down first) stays free."""
    out: list[tuple[int, int]] = []
    sq = planet
    while sq != escape:
        dc = escape % SIZE - sq % SIZE
        d = (EAST if dc > 0 else WEST) if dc else (NORTH if escape > sq else SOUTH)
        if sq != planet:
            out.append((sq, d))
        sq = _step(sq, d)
    return out


def _lanes(state: StreamlinesState) -> dict[int, int]:
    """Square -> the direction its lane card should point, for every lane from a planet that is not collapsing."""
    scn = state.scenario
    wanted: dict[int, int] = {}
    for i, planet in enumerate(scn.planets):
        if state.stage[i] < COLLAPSING:
            for sq, d in lane(planet, _nearest(planet, scn.escapes)):
                if state.planet_at[sq] < 0 and not state.escape[sq]:
                    wanted.setdefault(sq, d)
    return wanted


def lane_lay(state: StreamlinesState) -> Lay | None:
    """The lay that builds a lane here, or None: the ship's square is on a lane, still empty, and a card in
    the hold can point on along it without pointing back (an extra arrow sideways gives the player a choice)."""
    if state.actions_left() <= 0 and not state.free_lay:
        return None
    sq = state.pos[state.turn]
    d = _lanes(state).get(sq)
    if d is None or state.laid[sq] >= 0:
        return None
    fits = [a for a in state.legal_actions() if type(a) is Lay and a.kind in STREAMLINES and a.mask & d and not a.mask & OPPOSITE[d]]
    # the fewest arrows: a straight card makes the plainest lane, and each extra arrow blocks a way in
    return min(fits, key=lambda a: bin(a.mask).count("1"), default=None)


def _unbuilt(state: StreamlinesState) -> set[int]:
    return {sq for sq in _lanes(state) if state.laid[sq] < 0}


def courier(state: StreamlinesState, lay: bool = False) -> Any:
    """The courier's action (the builder's with ``lay``); it reads only what every player sees."""
    legal = state.legal_actions()
    if state.pending_dump:
        return _dump(legal, lay)
    if act.DROP in legal:
        return act.DROP
    seat = state.turn
    cargo = state.cargo[seat]
    room = len(cargo) < state.powers[seat][CARGO]
    refugees = cargo.count(REFUGEE)
    if lay:
        here = lane_lay(state)
        if here is not None:
            return here
    if act.DRAW in legal and (room or state.bonus_draw or not refugees):
        return act.DRAW
    return _fly(state, legal, lay, _targets(state, room, refugees))


def _dump(legal: list[Any], lay: bool) -> Any:
    """What to dump from a full hold: never a refugee if the hold has anything else (the builder dumps the streamline
    cards that cannot make a one-way lane first)."""
    if lay:
        for kind in _DUMP_ORDER:
            dump = act.DUMPS[kind]
            if dump in legal:
                return dump
    return next((a for a in legal if a.kind != REFUGEE), legal[0])


def _targets(state: StreamlinesState, room: bool, refugees: int) -> list[int]:
    """Where the ship's errand lies: an escape when it carries refugees and the hold is full (or no planet is left),
    else the planets not collapsing (else those not yet black holes)."""
    scn = state.scenario
    alive = [sq for p, sq in enumerate(scn.planets) if state.stage[p] != BLACK_HOLE]
    if refugees and (not room or not alive):
        return list(scn.escapes)
    return [sq for p, sq in enumerate(scn.planets) if state.stage[p] < COLLAPSING] or alive


def _fly(state: StreamlinesState, legal: list[Any], lay: bool, targets: list[int]) -> Any:
    """The move that leaves the ship the fewest moves from ``targets``, if it brings the ship nearer (an extra action
    first when the turn's actions are spent); else the end of the turn."""
    moves = [a for a in legal if type(a) is Move and not state.is_black_hole(a.path[-1])]
    if act.EXTRA_ACTION in legal and moves and state.actions_left() <= 0:
        return act.EXTRA_ACTION
    if moves and targets:
        # moves counted on the board as it is, so a lane that would carry the ship the wrong way is flown round
        far = moves_to(state, targets)
        # the builder, carrying a card, breaks ties towards a lane square it can still build on
        todo = _unbuilt(state) if lay and any(k in STREAMLINES for k in state.cargo[state.turn]) else set()
        best = min(moves, key=lambda m: (far[m.path[-1]], m.path[-1] not in todo))
        if far[best.path[-1]] < far[state.pos[state.turn]]:
            return best
    return act.END


def won(scenario: str, players: int, seed: int, lay: bool, options: dict[str, Any]) -> bool:
    """Whether the courier (the builder with ``lay``) wins the game of this seed."""
    state = cast(StreamlinesState, get_game("streamlines").new_game(players, seed, {"scenario": scenario, **options}))
    while state.outcome is None:
        state.apply(courier(state, lay=lay))
    return bool(state.outcome.winners)
