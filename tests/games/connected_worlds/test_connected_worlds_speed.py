"""The fast paths of the rules answer exactly as the plain rules: legal actions from tables, and copies field by field.

The legal actions are listed from tables made once per map and card table (``_Tables``) and copies of a compiled
state store their fields one by one (``_share_native_fields``, ``_copy_fields``). These tests compare both with the
plain definitions over random games with every kind of option, in the pure-Python and the compiled build alike.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng
from astrarium.games.connected_worlds import actions as A
from astrarium.games.connected_worlds.data import MAX_STRENGTH, Special
from astrarium.games.connected_worlds.state import FOUND, MOVING, PIECE_SLOTS
from helpers import examples

GAME = astrarium.get_game("connected-worlds")

#: Option sets that change which actions are legal: landing and launching rules, combat on entry, gathering only
#: with a base, deploying without moving, elimination, the victory checks and the orders of play.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"combat": "on-entry"},
    {"landing": "beachhead"},
    {"landing": "territory-or-any", "launch": "anywhere"},
    {"victory": "capture", "elimination": True, "gather": "base"},
    {"victory": "annihilation", "victory_check": "answered", "tiebreak": "own-turn", "deploy_moves": False},
    {"turn_order": "fixed"},
    {"turn_order": "rotating", "victory": "capture"},
]

#: What ``clone`` must give a copy of its own (the fields ``_apply`` changes in place).
MUTABLE = ("resources", "removed", "bought", "hands", "decks", "discards", "known", "played", "bases", "units", "portals")


def plain_territory(state: Any, p: int) -> set[int]:
    """Each of ``p``'s bases' hex and the hexes around it, straight from the map."""
    out: set[int] = set()
    for cell, (owner, _) in state.bases.items():
        if owner == p:
            out.update(state.board.territory[cell])
    return out


def plain_enemy_cells(state: Any, p: int) -> set[int]:
    cells = {c for c, (o, _) in state.bases.items() if o != p}
    cells.update(u[0] for u in state.units if u[1] != p)
    return cells


def plain_steps(state: Any, cell: int, piece: int, p: int) -> list[int]:
    """Where the moving piece may go for one movement point, as the rules book says (the map's own tables)."""
    board = state.board
    targets = list(board.neighbours[cell])
    k = board.board_of[cell]
    if k:
        if state.launch_anywhere or cell in plain_territory(state, p):
            targets.append(board.worlds[k - 1].space_cell)
    else:
        w = board.world_below[cell]
        if w:
            world_cells = board.worlds[w - 1].cells
            terr = plain_territory(state, p)
            landing = [c for c in world_cells if c in terr]
            if not landing:
                if state.landing_free:
                    landing = list(world_cells)
                elif state.beachhead:
                    enemy = plain_enemy_cells(state, p)
                    landing = [c for c in world_cells if c not in enemy]
            targets += landing
    if piece:
        base = state.bases.get(cell)
        if base is not None and base[0] == p:
            for a, b in state.portals:
                if a == cell:
                    targets.append(b)
                elif b == cell:
                    targets.append(a)
        return targets
    enemy = plain_enemy_cells(state, p)
    return [t for t in targets if t not in state.bases and t not in enemy]


def plain_legal_actions(state: Any) -> list[Any]:
    """Every legal action, each made afresh from the map and the card table, in the rules' order."""
    p = state.turn
    names = state.board.cell_names
    if state.phase == FOUND:
        return [A.Found(names[c]) for c in range(len(names)) if state.board.board_of[c] and c not in state.bases]
    if state.phase == MOVING:
        cell, piece, _ = state.moving
        out: list[Any] = []
        for t in plain_steps(state, cell, piece, p):
            if A.Step(names[t]) not in out:
                out.append(A.Step(names[t]))
        return [*out, A.STOP]
    cards = state.cards.cards
    out = []
    pieces = sorted(
        {(c, s) for c, o, s, e in state.units if o == p and not e}
        | {(c, 0) for c, (o, _) in state.bases.items() if o == p and c not in state.held_bases}
    )
    for index in sorted(set(state.hands[p])):
        card = cards[index]
        if card.is_unit:
            terr = sorted(plain_territory(state, p))
            if card.is_base:
                blocked = plain_enemy_cells(state, p)
                terr = [c for c in terr if c not in state.bases and c not in blocked]
            out += [A.Deploy(card.slug, names[c]) for c in terr]
            continue
        if card.movement:
            out += [A.Move(card.slug, names[c], s) for c, s in pieces]
        if card.special is Special.GATHER_RESOURCES:
            if not state.gather_needs_base or any(o == p for o, _ in state.bases.values()):
                out.append(A.Gather(card.slug))
        elif card.special in (Special.RESEARCH, Special.BUILD_UNITS):
            want_unit = card.special is Special.BUILD_UNITS
            cls = A.Build if want_unit else A.Research
            out += [cls(card.slug, c.slug) for c in cards if c.is_unit == want_unit and c.cost <= state.resources[p]]
        elif card.special is Special.CONNECT_BASES:
            mine = sorted(c for c, (o, _) in state.bases.items() if o == p)
            for i, a in enumerate(mine):
                out += [A.Connect(card.slug, names[a], names[b]) for b in mine[i + 1 :] if (a, b) not in state.portals]
    out.append(A.END)
    return out


def fields(state: Any) -> dict[str, Any]:
    """Every field of a state: its ``__dict__`` (pure Python) or its native fields (compiled), the core's included."""
    names = set(getattr(state, "__dict__", {}))
    names.update(getattr(type(state), "__mypyc_attrs__", ()))
    names.discard("__dict__")
    return {name: getattr(state, name) for name in names if hasattr(state, name)}


def random_game(n: int, seed: int, options: dict[str, Any], round_limit: int) -> Any:
    return GAME.new_game(n, seed, {**options, "round_limit": round_limit})


def test_a_piece_number_orders_as_its_hex_and_strength():
    """Pieces are numbered ``cell * PIECE_SLOTS + strength``: that orders as (cell, strength) for every strength."""
    assert MAX_STRENGTH < PIECE_SLOTS


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), n=st.integers(min_value=2, max_value=4), options=st.sampled_from(OPTION_SETS))
def test_property_legal_actions_are_the_plain_rules_list_in_the_same_order(seed, n, options):
    state = random_game(n, seed, options, round_limit=6)
    rng = Rng(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal == plain_legal_actions(state)
        state.apply(legal[rng.below(len(legal))])


def test_legal_actions_are_the_plain_rules_list_on_every_option_set_and_player_count():
    for n in (2, 3, 4):
        for k, options in enumerate(OPTION_SETS):
            state = random_game(n, 100 * n + k, options, round_limit=10)
            rng = Rng(k)
            while not state.is_over:
                legal = state.legal_actions()
                assert legal == plain_legal_actions(state), (n, options, state.move_number)
                state.apply(legal[rng.below(len(legal))])


def test_a_copy_has_every_field_of_the_original_and_its_own_mutable_ones():
    for n in (2, 3):
        for k, options in enumerate(OPTION_SETS):
            state = random_game(n, 7 * n + k, options, round_limit=5)
            rng = Rng(k)
            while not state.is_over:
                copy = state.clone()
                before, after = fields(state), fields(copy)
                assert after.keys() == before.keys()
                for name, value in before.items():
                    if name == "rng":
                        assert copy.rng is not state.rng and copy.rng.copy().random() == state.rng.copy().random()
                    else:
                        assert after[name] == value, name
                for name in (*MUTABLE, "_actions"):
                    assert after[name] is not before[name], name
                for name in ("hands", "decks", "discards", "known"):
                    assert all(a is not b for a, b in zip(after[name], before[name], strict=True)), name
                view = copy.full_view()
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
                assert copy.full_view() == view


def test_playing_on_a_copy_leaves_the_original_as_it_was():
    state = random_game(2, 5, {"combat": "on-entry"}, round_limit=6)
    rng = Rng(5)
    while not state.is_over:
        view, record = state.full_view(), state.to_record()
        copy = state.clone()
        while not copy.is_over and copy.move_number < state.move_number + 30:
            legal = copy.legal_actions()
            copy.apply(legal[rng.below(len(legal))])
        assert state.full_view() == view
        assert state.to_record() == record
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
