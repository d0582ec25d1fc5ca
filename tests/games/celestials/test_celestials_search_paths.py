"""The rules' search paths (the rollout loop, the main step's action list) decide exactly as the plain rules do.

A search's rollouts run ``CelestialsState.random_playout`` and read the main
step's legal actions from ``_main_actions``, which finds each side's cards once
and offers chosen targets from those lists. Both are checked here against the
core's own rollout loop and a plain reading of the seed's rules (every location
scanned for every card), through random games.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng, State
from astrarium.games.celestials import actions as A
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind, Target
from astrarium.games.celestials.state import MAIN, CelestialsState
from helpers import examples

GAME = astrarium.get_game("celestials")


def plain_targets(state: CelestialsState, target: Target, seat: int, source: int) -> list[int]:
    """The locations a card may choose as ``target``: every location scanned, in board order."""
    cells = B.ADJACENT[source] if target is Target.CHOSEN_ADJACENT_ENEMY else range(B.SIZE)
    want = seat if target is Target.CHOSEN_FRIEND else 1 - seat
    return [t for t in cells if state.cell_card[t] >= 0 and state.rules.owner[state.cell_card[t]] == want]


def plain_activations(state: CelestialsState, c: int, at: int, seat: int) -> list[Any]:
    card = state.rules.catalog[c]
    chosen = card.chooses
    if card.on_activate is not None:
        out: list[Any] = [A.Activate(at)] if chosen is None else [A.Activate(at, t) for t in plain_targets(state, chosen, seat, at)]
    else:
        out = [A.Activate(at, t) for t in B.ADJACENT[at] if card.damage > 0 and state.cell_card[t] >= 0]
    back = B.FACE_GUARD[seat][at]
    guard = state.cell_card[back] if back >= 0 else -1
    open_lane = back >= 0 and (guard < 0 or state.rules.catalog[guard].kind is not Kind.STRUCTURE or state.rules.owner[guard] != 1 - seat)
    if card.kind is Kind.CREATURE and card.damage > 0 and open_lane:
        out.append(A.Activate(at, A.FACE))
    return out


def plain_main_actions(state: CelestialsState, seat: int) -> list[Any]:
    """The main step's actions as the rules list them: plays, then each own card's activations and manoeuvres, then
    advance and end."""
    rules, phase = state.rules, state.phase[seat]
    out: list[Any] = []
    for c in sorted(set(state.hands[seat])):
        card = rules.catalog[c]
        if card.kind is Kind.ADVANCE or (card.phases is not None and phase not in card.phases):
            continue
        if card.kind is Kind.SPELL:
            chosen = card.chooses
            out += [A.Play(card.key)] if chosen is None else [A.Play(card.key, t) for t in plain_targets(state, chosen, seat, -1)]
        else:
            spots = B.DEFENCE_CELLS[seat] if card.kind is Kind.CREATURE else B.STRUCTURE_CELLS[seat]
            out += [A.Play(card.key, at) for at in spots if state.cell_card[at] < 0]
    for at, c in enumerate(state.cell_card):
        if c < 0 or rules.owner[c] != seat or state.cell_exh[at]:
            continue
        if rules.damage_phase[seat][phase]:
            out += plain_activations(state, c, at, seat)
        if rules.catalog[c].kind is Kind.CREATURE:
            out += [A.Move(at, d) for d in B.MOVES[seat][at] if state.cell_card[d] < 0]
    if any(rules.catalog[c].kind is Kind.ADVANCE for c in state.hands[seat]):
        out.append(A.Advance())
    out.append(A.End())
    return out


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(["sun", "moon"]), hand_limit=st.integers(3, 8))
def test_the_main_step_offers_the_actions_the_rules_define_through_a_random_game(seed: int, first: str, hand_limit: int) -> None:
    state = GAME.new_game(2, seed, {"first": first, "hand_limit": hand_limit})
    rng = Rng(seed)
    while not state.is_over:
        legal = state.legal_actions()
        if state.step == MAIN and not state.votes:
            assert legal == plain_main_actions(state, state.turn), f"after {state.history[-4:]}"
        state.apply(legal[int(rng.random() * len(legal))])


def test_the_main_step_offers_chosen_targets_on_a_set_position() -> None:
    state = GAME.new_game(
        2,
        0,
        {
            "position": "sun phase Zenith; sun hand sunspear advance; sun board B1 solar-lion; sun board C2 solar-archer; "
            "moon board B4 night-wolf 2 exhausted; moon board A5 silver-tower"
        },
    )
    state.apply("draw")
    notations = [str(a) for a in state.legal_actions()]
    assert {"play sunspear A5", "play sunspear B4", "activate C2 A5", "activate C2 B4"} <= set(notations)
    assert state.legal_actions() == plain_main_actions(state, 0)


@settings(max_examples=examples(25))
@given(
    seed=st.integers(0, 2**32 - 1),
    opening=st.integers(0, 120),
    depth=st.one_of(st.none(), st.integers(0, 30)),
    draws=st.integers(0, 2**32 - 1),
)
def test_a_rollout_plays_what_the_cores_rollout_loop_plays(seed: int, opening: int, depth: int | None, draws: int) -> None:
    state = GAME.new_game(2, seed)
    rng = Rng(seed)
    for _ in range(opening):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    ours, cores = state.clone(), state.clone()
    played = ours.random_playout(random.Random(draws).random, depth)
    assert State.random_playout(cores, random.Random(draws).random, depth) == played
    assert ours.history == cores.history and ours.full_view() == cores.full_view()
    assert ours.outcome == cores.outcome and ours.rng == cores.rng
    assert ours.legal_actions() == cores.legal_actions()
