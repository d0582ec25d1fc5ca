"""Why an action is not legal, in the words of the rule book (used by ``explain_illegal``)."""

from __future__ import annotations

from typing import Any

from astrarium.core.errors import short
from astrarium.games.connected_worlds import actions as A
from astrarium.games.connected_worlds.data import Card, Special
from astrarium.games.connected_worlds.state import FOUND, MOVING, ConnectedWorldsState

_SPECIAL_OF = {
    A.Gather: Special.GATHER_RESOURCES,
    A.Research: Special.RESEARCH,
    A.Build: Special.BUILD_UNITS,
    A.Connect: Special.CONNECT_BASES,
}


_ACTIONS = (A.Found, A.Move, A.Step, A.Stop, A.Gather, A.Research, A.Build, A.Connect, A.Deploy, A.EndTurn, A.Head, A.At, A.Piece)
#: The parts of an action under ``choices = steps``, and the whole actions that option splits into them.
_PARTS = (A.Head, A.At, A.Piece)
_SPLIT = (A.Move, A.Connect, A.Deploy)


def explain(state: ConnectedWorldsState, action: Any) -> str:
    """The reason, after the action as written (cut short: its fields may be anything a caller built)."""
    if type(action) not in _ACTIONS:
        return f"{A.shown(action)} is not an action of Connected Worlds"
    return f"{short(str(action))}: {A.malformed(action) or _reason(state, action)}"


def _reason(st: ConnectedWorldsState, action: Any) -> str:
    """The first rule ``action`` breaks, checked in the order a player meets them: the map, the phase of the turn,
    then the card played and what that card's kind of action asks for."""
    cls = type(action)
    no_hex = _unknown_hex(st, action)
    if no_hex is not None:
        return no_hex
    if st.phase == FOUND:
        return _setup_reason(st, action)
    if cls is A.Found:
        return "setup is over; bases are now deployed from unit cards"
    if st.phase == MOVING:
        return _moving_reason(st, action) if cls is A.Step else "a piece is moving: 'step HEX' to move it on, or 'stop' to end its movement"
    choosing = _choices_reason(st, action)
    if choosing is not None:
        return choosing
    if cls is A.Step or cls is A.Stop:
        return "no piece is moving: play an action card as movement first (move CARD HEX PIECE)"
    if cls is A.EndTurn:
        return "you cannot end your turn now"
    card = _held_card(st, action)
    if isinstance(card, str):
        return card
    if cls is A.Deploy:
        return _deploy_reason(st, action, card)
    if card.is_unit:
        return f"Unit cards: {card.name} can only be deployed"
    if cls is A.Move:
        return _move_reason(st, action, card)
    return _special_reason(st, action, card)


def _choices_reason(st: ConnectedWorldsState, action: Any) -> str | None:
    """What the option ``choices`` asks of the action: whole actions, or the next part of one (None: it asks nothing here)."""
    cls = type(action)
    if not st.steps:
        if cls in _PARTS:
            return (
                "'move CARD', 'at HEX' and 'piece PIECE' are parts of an action under the option choices=steps; "
                "this game takes whole actions (move CARD HEX PIECE, connect CARD HEX HEX, deploy CARD HEX)"
            )
        return None
    if st.pending:
        nxt = st.pending_next()
        words = ", ".join(str(a) for a in st.legal_actions()[:6])
        more = ", ..." if len(st.legal_actions()) > 6 else ""
        return f"choosing '{' '.join(st.pending)}': the next part is {'the piece' if nxt == 'piece' else 'a hex'} ({words}{more})"
    if cls in _SPLIT:
        parts = ", then ".join(f"'{part}'" for part in A.split(action))
        return f"with the option choices=steps this action is chosen a part at a time: {parts}"
    if cls is A.At or cls is A.Piece:
        return "no action is being chosen: start with its card (move CARD, connect CARD or deploy CARD)"
    if cls is A.Head:
        return _head_reason(st, action)
    return None


def _head_reason(st: ConnectedWorldsState, action: A.Head) -> str:
    """A head under ``choices = steps`` whose card is not held, cannot be played that way, or has no legal end now."""
    if action.verb not in A.HEAD_VERBS:
        return f"an action chosen a part at a time starts with move, connect or deploy, not {A.shown(action.verb)}"
    card = _held_card(st, action)
    if isinstance(card, str):
        return card
    if card.is_unit and action.verb != "deploy":
        return f"Unit cards: {card.name} can only be deployed"
    if action.verb == "deploy" and not card.is_unit:
        return f"{card.name} is an action card; only unit cards are deployed"
    if action.verb == "move" and card.movement == 0:
        return f"{card.name} has no movement"
    if action.verb == "connect" and card.special is not Special.CONNECT_BASES:
        return f"Action cards: the special action of {card.name} is not 'connect bases'"
    what = {
        "move": "no piece of yours can move",
        "connect": "no two of your bases are left to join",
        "deploy": "no hex of your territory takes it",
    }
    return f"{card.name} cannot be played to {action.verb} now: {what[action.verb]}"


def _unknown_hex(st: ConnectedWorldsState, action: Any) -> str | None:
    """The first hex the action names that this map does not have, in words; None when the map has them all."""
    ids = st.board.cell_ids
    for name in ("cell", "a", "b"):
        value = getattr(action, name, None)
        if value is not None and value not in ids:
            return f"there is no hex {short(value, 20)} on this map"
    return None


def _setup_reason(st: ConnectedWorldsState, action: Any) -> str:
    """Setup: only ``found``, on a world, in a hex without a base."""
    if type(action) is not A.Found:
        return "setup: each player first places one base on a world of their choosing (found HEX)"
    if not st.board.board_of[st.board.cell_ids[action.cell]]:
        return "Setup: the first base goes on a world (a planet board), not in space"
    return "Bases cannot exist in the same hex"


def _moving_reason(st: ConnectedWorldsState, action: A.Step) -> str:
    """A step of the moving piece that its movement rules refuse."""
    p = st.turn
    cell, piece, _ = st.moving  # type: ignore[misc]
    target = st.board.cell_ids[action.cell]
    if piece == 0 and target in st.bases:
        return "Movement restrictions: bases cannot exist in the same hex"
    if piece == 0 and target in st._enemy_cells(p):
        return "Movement restrictions: a base cannot enter a hex with enemy pieces (you cannot capture a base by moving a base)"
    board_of = st.board.board_of
    if st.beachhead and not board_of[cell] and board_of[target] and target in st._enemy_cells(p):
        return (
            "Moving between ground and space: where you control no territory on a planet you land on a hex "
            "without enemy pieces (a beachhead; option landing), then walk to attack"
        )
    return (
        f"Movement: the piece on {st.board.cell_names[cell]} can only go to an adjacent hex, along a portal "
        "between your bases, from a planet into its hex in space, or from that hex onto your territory on the planet"
    )


def _held_card(st: ConnectedWorldsState, action: Any) -> Card | str:
    """The card the action plays, or why it cannot be played: no such card, not written by its slug, not in hand."""
    index = st.cards.by_slug.get(action.card)
    if index is None:
        return f"there is no card called {short(action.card, 40)!r}"
    card = st.cards.cards[index]
    if action.card != card.slug:
        return f"write the card by its slug: {card.slug}"
    if index not in st.hands[st.turn]:
        return f"you hold no {card.name} in your hand (Cards: you play cards from your hand)"
    return card


def _deploy_reason(st: ConnectedWorldsState, action: A.Deploy, card: Card) -> str:
    """A unit card deployed where the territory rules refuse it."""
    if not card.is_unit:
        return f"{card.name} is an action card; only unit cards are deployed"
    cell = st.board.cell_ids[action.cell]
    if cell not in st.territory(st.turn):
        return "Territory: a unit must be deployed into territory you own, i.e. on or adjacent to one of your bases"
    if card.is_base and cell in st.bases:
        return "Movement restrictions: bases cannot exist in the same hex"
    return "a base cannot be deployed onto enemy pieces"


def _move_reason(st: ConnectedWorldsState, action: A.Move, card: Card) -> str:
    """An action card played as movement for a piece that cannot move."""
    if card.movement == 0:
        return f"{card.name} has no movement"
    p = st.turn
    cell = st.board.cell_ids[action.cell]
    if action.piece == 0:
        base = st.bases.get(cell)
        if base is not None and base[0] == p and cell in st.held_bases:
            return "that base landed on a beachhead this turn: it moves again next turn"
        return "you have no base on that hex" if base is None or base[0] != p else "that base cannot move"
    mine = [u for u in st.units if u[:3] == (cell, p, action.piece)]
    if mine and all(u[3] == 2 for u in mine):
        return "that unit landed on a beachhead (or was just deployed) this turn: it moves again next turn"
    if mine:
        return "Movement restrictions: a unit that engaged in combat this turn cannot be moved"
    return f"you have no unit of strength {action.piece} on {action.cell}"


def _special_reason(st: ConnectedWorldsState, action: Any, card: Card) -> str:
    """An action card played for a special action: it must be the card's own, and that action's terms met."""
    cls = type(action)
    want = _SPECIAL_OF[cls]
    if card.special is not want:
        return f"Action cards: the special action of {card.name} is '{card.special.value if card.special else '-'}', not '{want.value}'"
    if cls is A.Gather and st.gather_needs_base and not st.has_base(st.turn):
        return "Exploit: resources are harvested from bases, and you have no base on the map (option gather)"
    if cls is A.Research or cls is A.Build:
        return _buy_reason(st, action)
    if cls is A.Connect:
        return _connect_reason(st, action)
    return "not legal now"


def _buy_reason(st: ConnectedWorldsState, action: A.Research | A.Build) -> str:
    """A card to buy that does not exist, is not written by its slug, is of the other kind, or costs too much."""
    if action.buy not in st.cards.by_slug:
        return f"there is no card called {short(action.buy, 40)!r}"
    bought = st.cards.cards[st.cards.by_slug[action.buy]]
    if action.buy != bought.slug:
        return f"write the card to buy by its slug: {bought.slug}"
    if bought.is_unit != (type(action) is A.Build):
        return "Research buys action cards; Build Units buys unit cards"
    return f"Resources: {bought.name} costs {bought.cost}, you have {st.resources[st.turn]}"


def _connect_reason(st: ConnectedWorldsState, action: A.Connect) -> str:
    """A portal that does not join two different bases of the player, is written out of map order, or exists."""
    ids = st.board.cell_ids
    a, b = ids[action.a], ids[action.b]
    own_bases = {c for c, (o, _) in st.bases.items() if o == st.turn}
    if a not in own_bases or b not in own_bases or a == b:
        return "Connect bases: a portal joins two different bases that you control"
    if a > b:
        return f"write the portal with its hexes in map order: connect {action.card} {action.b} {action.a}"
    return "these two bases are already connected"
