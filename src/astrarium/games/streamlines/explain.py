"""Why an action is not legal in Streamlines: the rule of its kind of action that it breaks (``parts.explain``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from astrarium.core.words import ship_who as who
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import Dump, Engineer, Give, Lay, Move
from astrarium.games.streamlines.board import square_name
from astrarium.games.streamlines.cards import ACTION, ENGINEERING, EXTRA_MOVE, NAMES, PICKUP, STREAMLINES
from astrarium.games.streamlines.state import BLACK_HOLE, StreamlinesState


def explain(state: StreamlinesState, action: Any) -> str:
    """Why ``action`` is not legal here, for any object at all (crafted fields included): the rule of its kind of
    action that it breaks (table ``_REFUSALS``), after what holds for every kind (an over-full hold, no actions left)."""
    problem = act.problem(action)
    if problem is not None:
        return problem
    seat = state.turn
    where = f"{who(seat, start=False)} on {square_name(state.pos[seat])}"
    left = state.powers[seat][ACTION] - state.used
    kind = type(action)
    if state.pending_dump and kind is not Dump:
        return f"{action}: the hold of {where} is over-full; first dump a cargo card (dump CARD)"
    if left <= 0 and (kind in (Give, act.DropOff) or kind is Lay and not state.free_lay):
        return f"{action}: {where} has no actions left this turn"
    refuse = _REFUSALS.get(kind)
    if refuse is None:
        return f"{action} is not a legal action now; {state._legal_hint()}"
    return refuse(state, action, where, left)


# -- why an action is refused, one function per kind of action ---------------------------------------------------------
# Each takes the position, the action, the acting ship in words (``where``) and the actions it has left this turn.


def _refuse_dump(st: StreamlinesState, action: Dump, where: str, left: int) -> str:
    if not st.pending_dump:
        return f"{action}: cards are dumped only when a drawn card over-fills the hold"
    return f"{action}: {where} carries no {NAMES[action.kind]} card"


def _refuse_move(st: StreamlinesState, action: Move, where: str, left: int) -> str:
    sq = st.pos[st.turn]
    if st.gate_stopped:
        return f"{action}: {where} jumped through a Gate this turn and must stay there until next turn"
    if left <= 0 and st.free_moves <= 0:
        return f"{action}: {where} has no actions left this turn"
    reason = st.why_path_illegal(sq, action.path, action.jump)
    if reason:
        return f"{action}: {reason}"
    same = st.same_move(action)
    if same is not None:
        return f"{action}: this path ends where {same} does and is that move; play it as {same}"
    return f"{action}: not a move from {square_name(sq)}; legal moves: " + ", ".join(str(m) for m in st.moves_from(sq))


def _refuse_draw(st: StreamlinesState, action: act.Draw, where: str, left: int) -> str:
    sq = st.pos[st.turn]
    planet = st.planet_at[sq]
    if planet < 0:
        return f"draw: cards are drawn only on a Planet square, and {where} is not on one"
    if st.stage[planet] == BLACK_HOLE:
        return f"draw: the planet at {square_name(sq)} is a black hole and no longer a source of cards"
    if left <= 0 and not st.deck:
        return (
            f"draw: {where} has no actions left this turn, and the deck is empty: "
            "a free draw needs cards left in the deck (it never reshuffles)"
        )
    if left <= 0:
        return f"draw: {where} has no actions left this turn"
    return "draw: the deck and the discard pile are both empty"


def _refuse_lay(st: StreamlinesState, action: Lay, where: str, left: int) -> str:
    sq = st.pos[st.turn]
    if action.kind not in st.cargo[st.turn]:
        return f"{action}: {where} carries no {NAMES[action.kind]} card"
    if st.laid[sq] >= 0 or st.planet_at[sq] >= 0 or st.escape[sq]:
        return f"{action}: cards are laid on the ship's own square, and {square_name(sq)} is not empty"
    return f"{action}: a {NAMES[action.kind]} card cannot point that way"


def _refuse_drop(st: StreamlinesState, action: act.DropOff, where: str, left: int) -> str:
    sq = st.pos[st.turn]
    if not st.escape[sq]:
        return f"drop: refugees are dropped off only at an Escape square, and {square_name(sq)} is not one"
    return f"drop: {where} carries no refugees"


def _refuse_give(st: StreamlinesState, action: Give, where: str, left: int) -> str:
    seat = st.turn
    if action.seat == seat:
        return f"{action}: {where} cannot give cargo to itself; give to another ship on its square"
    if not 0 <= action.seat < st.players:
        return f"{action}: no ship has the seat number {action.seat} in a game of {st.players} players"
    if st.pos[action.seat] != st.pos[seat]:
        return f"{action}: cargo is transferred only to a ship on the same square"
    if action.kind not in st.cargo[seat]:
        return f"{action}: {where} carries no {NAMES[action.kind]} card"
    return f"{action}: the hold of {who(action.seat, start=False)} is full"


def _refuse_pickup(st: StreamlinesState, action: act.UsePickup, where: str, left: int) -> str:
    if not st.powers[st.turn][PICKUP]:
        return f"pickup: {where} has no Pickup card"
    sq = st.pos[st.turn]
    if st.laid[sq] < 0:
        return f"pickup: there is no card on {square_name(sq)} to pick up"
    return f"pickup: {where} has no room in its hold"


def _refuse_extra(st: StreamlinesState, action: act.UseExtraMove, where: str, left: int) -> str:
    if not st.powers[st.turn][EXTRA_MOVE]:
        return f"extra: {where} has no Extra Move card"
    return f"extra: {where} jumped through a Gate this turn and must stay there"


def _refuse_engineer(st: StreamlinesState, action: Engineer, where: str, left: int) -> str:
    if not st.powers[st.turn][ENGINEERING]:
        return f"{action}: {where} has no Engineering card"
    if st.laid[st.pos[st.turn]] not in STREAMLINES:
        return f"{action}: there is no streamline card under {where}"
    return f"{action}: turning this card either way gives the same streamline; write engineer cw"


#: Why each kind of action is refused, by its class.
_REFUSALS: dict[type, Callable[[StreamlinesState, Any, str, int], str]] = {
    Dump: _refuse_dump,
    Move: _refuse_move,
    act.Draw: _refuse_draw,
    Lay: _refuse_lay,
    act.DropOff: _refuse_drop,
    Give: _refuse_give,
    act.UsePickup: _refuse_pickup,
    act.UseExtraMove: _refuse_extra,
    Engineer: _refuse_engineer,
}
