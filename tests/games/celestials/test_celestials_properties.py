"""Invariants: cards are conserved, no location holds two cards, random play always ends."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, Rng, State
from astrarium.games.celestials import board as B
from helpers import examples

GAME = astrarium.get_game("celestials")


def deck_size(state: State, seat: int) -> int:
    return len(state.rules.decks[seat].cards_list())


def check_invariants(state: State) -> None:
    full = state.full_view()
    cells = [c["at"] for c in full["board"]]
    assert len(cells) == len(set(cells)), "a location holds two cards"
    for c in full["board"]:
        at = B.parse_location(c["at"])
        kind = state.rules.catalog[state.rules.index[c["owner"]][c["card"]]].kind.value
        assert kind != "structure" or B.is_structure_slot(at), f"{c}: a structure away from the back of a lane"
        assert c["health"] > 0
    for seat, p in enumerate(full["players"]):
        on_board = sum(1 for c in full["board"] if c["owner"] == seat)
        total = len(p["hand"]) + len(p["draw_order"]) + len(p["discard"]) + len(p["graveyard"]) + on_board
        assert total == deck_size(state, seat), f"seat {seat} has {total} cards, not {deck_size(state, seat)}"
        assert p["hand_size"] <= state.options["hand_limit"]
        assert all(p["known_hand"].count(k) <= p["hand"].count(k) for k in p["known_hand"]), "a card known in a hand is not there"


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(["sun", "moon"]))
def test_cards_are_conserved_and_no_location_holds_two_cards(seed: int, first: str) -> None:
    state = GAME.new_game(2, seed, {"first": first})
    rng = Rng(seed)
    check_invariants(state)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        check_invariants(state)


def test_random_play_from_200_seeds_ends_without_error() -> None:
    for seed in range(200):
        state = GAME.new_game(2, seed)
        rng = Rng(seed + 1)
        bound = GAME.max_moves(2, state.options)
        while not state.is_over:
            assert state.move_number < bound
            state.apply(rng.choice(state.legal_actions()))
        assert state.outcome.reason and state.current_player is None


@settings(max_examples=examples(15))
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200))
def test_illegal_actions_give_a_reason_and_change_nothing(seed: int, steps: int) -> None:
    state = GAME.new_game(2, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    before = json.dumps(state.full_view(), sort_keys=True)
    legal = set(map(str, state.legal_actions()))
    tries = [
        "draw",
        "nodraw",
        "advance",
        "end",
        "keep",
        "reshuffle yes",
        "play solar-lion A1",
        "play moonbeam B2",
        "activate A1 A2",
        "activate B4 face",
        "move A1 A2",
        "discard eclipse",
        "play nothing",
        "move A9 B1",
    ]
    for text in tries:
        if text in legal:
            continue
        try:
            state.apply(text)
        except IllegalAction as err:
            assert text.split()[0] in str(err) and len(str(err)) > len(text) + 5
        else:
            raise AssertionError(f"{text!r} was accepted though not legal")
    assert json.dumps(state.full_view(), sort_keys=True) == before


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 600))
def test_determinize_never_samples_a_world_the_seat_can_rule_out(seed: int, steps: int) -> None:
    state = GAME.new_game(2, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    real = state.full_view()["players"]
    for seat in (0, 1):
        for k in range(4):
            world = state.determinize(seat, Rng(k))
            assert world.view(seat) == state.view(seat)
            other = world.full_view()["players"][1 - seat]
            assert all(other["hand"].count(c) >= real[1 - seat]["known_hand"].count(c) for c in real[1 - seat]["known_hand"])
            assert sorted(other["hand"] + other["draw_order"]) == sorted(real[1 - seat]["hand"] + real[1 - seat]["draw_order"])
