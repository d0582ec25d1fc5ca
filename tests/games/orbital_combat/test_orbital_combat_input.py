"""Bad input: illegal allocations say which rule they break and change nothing; bad options name the option."""

from __future__ import annotations

import json
import re

import pytest

import astrarium
from astrarium.core import IllegalAction, OptionError, State
from astrarium.games.orbital_combat import parse_allocation

GAME = astrarium.get_game("orbital-combat")
FAR = "r8 s26"


def game(*ships: str, **options: object) -> State:
    options.setdefault("turn_order", "fixed")
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def refused(state: State, text: str, reason: str) -> None:
    """``text`` parses, is not among the legal actions, and apply raises IllegalAction matching ``reason``, changing nothing."""
    before = json.dumps(state.full_view(), sort_keys=True)
    legal = state.legal_actions()
    action = state.parse_action(text)
    assert action not in legal
    with pytest.raises(IllegalAction, match=reason):
        state.apply(text)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert json.dumps(state.full_view(), sort_keys=True) == before
    assert state.history == [] and state.legal_actions() == legal


def test_power_allocation_over_10_energy_is_refused() -> None:
    refused(game("r4 s1", "r4 s9"), "coast w6 d6", r"spends 12 energy \(weapons 6 \+ defense 6\), more than the 10")
    refused(game("r4 s1 retro", FAR), "rot burn pro extreme scoop w0 d2", "spends 11 energy")


def test_power_allocation_under_10_energy_is_refused() -> None:
    refused(game("r4 s1", FAR), "coast w0 d4", "leaves 6 of the 10 energy unassigned")


def test_fusion_torch_burn_without_mass_is_refused() -> None:
    state = game("r4 s1 m1", FAR)
    refused(state, "burn pro hard w0 d8", "needs 2 reaction mass")
    assert max(a.mass for a in state.legal_actions()) == 1
    refused(game("r4 s1 m0", FAR), "burn pro soft w0 d9", "needs 1 reaction mass")


def test_fuel_scoop_while_burning_is_refused() -> None:
    state = game("r4 s1", FAR)
    refused(state, "burn pro soft scoop w0 d4", "scoop cannot be activated while burning")
    assert not any(a.scoop and a.burn for a in state.legal_actions())


def test_burn_past_ring_1_is_refused() -> None:
    refused(game("r2 s1 retro", FAR), "burn retro hard w0 d8", "would pass ring 1")
    refused(game("r1 s1 retro", FAR), "burn retro soft w0 d9", "would pass ring 1")


def test_burn_past_ring_8_is_refused() -> None:
    refused(game("r7 s1", "r1 s1"), "burn pro hard w0 d8", "would pass ring 8")
    refused(game("r8 s1", "r1 s1"), "burn pro soft w0 d9", "would pass ring 8")


def test_burn_facing_the_wrong_way_is_refused() -> None:
    refused(game("r4 s1", FAR), "burn retro soft w0 d9", "burns only the way it faces: add 'rot'")
    refused(game("r4 s1", FAR), "rot burn pro soft w0 d8", "drop 'rot'")


def test_weapons_without_a_target_in_range_are_refused() -> None:
    refused(game("r4 s1", FAR), "coast w5 d5", "no opponent is within weapon range")
    refused(game("r4 s1", "r4 s9", "r4 s25"), "coast w5 d5 @2", "beyond weapon range")
    refused(game("r4 s1", "r4 s9", "r4 s25"), "coast w5 d5 @0", "not an opponent")
    refused(game("r4 s1", "r4 s9", "r4 s25"), "coast w0 d10 @1", "needs weapons energy")


@pytest.mark.parametrize(
    "text,reason",
    [
        ("", "empty"),
        ("xyzzy", "cannot read 'xyzzy'"),
        ("w5 d5", "say 'coast' or 'burn"),
        ("burn sideways hard w5", "write a burn as"),
        ("burn pro", "write a burn as"),
        ("coast burn pro soft", "one engine order"),
        ("burn pro soft burn pro soft w0 d8", "only one burn"),
        ("coast w1 w2", "weapons given twice"),
        ("coast d1 d2", "defense given twice"),
    ],
)
def test_unreadable_notation_is_refused(text: str, reason: str) -> None:
    state = game("r4 s1", "r4 s9")
    with pytest.raises(IllegalAction, match=reason):
        state.apply(text)
    assert state.history == []


def test_defense_may_be_left_out_and_takes_the_rest() -> None:
    assert parse_allocation("rot burn pro extreme w2") == parse_allocation("rot burn pro extreme w2 d4")
    assert parse_allocation("coast") == parse_allocation("coast w0 d10")


@pytest.mark.parametrize(
    "options,name",
    [
        ({"start_mass": 7}, "start_mass"),
        ({"start_mass": 13}, "start_mass"),
        ({"turn_order": "random"}, "turn_order"),
        ({"hull": 0}, "hull"),
        ({"ships": ["r4 s1"]}, "ships"),
        ({"ships": ["r4 s1", "r9 s1"]}, "ships"),
        ({"ships": ["r4 s1", "r4 s49"]}, "ships"),
        ({"ships": ["r4 s1", "r4"]}, "ships"),
        ({"ships": ["r4 s1", "r4 s2 sideways"]}, "ships"),
        ({"ships": ["r4 s1", "r4 s2 m25"]}, "ships"),
        ({"ships": ["r4 s1", 7]}, "ships"),
    ],
)
def test_bad_options_name_the_option(options: dict, name: str) -> None:
    with pytest.raises(OptionError, match=name):
        GAME.new_game(2, 0, options)


def test_ships_option_places_ships_exactly() -> None:
    state = game("r5 s12 retro m9 h7", "r2 s30")
    ships = state.view()["ships"]
    assert (ships[0]["ring"], ships[0]["sector"], ships[0]["facing"], ships[0]["mass"], ships[0]["hull"]) == (5, 12, "retrograde", 9, 7)
    assert (ships[1]["ring"], ships[1]["sector"], ships[1]["mass"], ships[1]["hull"]) == (2, 30, 10, 24)


def test_game_over_refuses_actions() -> None:
    state = game("r4 s1", "r4 s9 h1")
    state.apply("coast w5 d5")
    state.apply("coast w0 d10")  # the round resolves: 3 strength at 100 mm, 2 stopped, 1 damage
    assert state.is_over and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply("coast w0 d10")


def test_every_broken_rule_is_named() -> None:
    state = game("r2 s1 m1", FAR)
    with pytest.raises(IllegalAction) as err:
        state.apply("burn retro extreme scoop w5 d5")
    message = str(err.value)
    reasons = ["spends 18 energy", "burns only the way it faces", "would pass ring 1", "needs 3 reaction mass", "while burning"]
    for reason in [*reasons, "weapon range"]:
        assert reason in message


def test_unreadable_notation_suggests_allocations_that_are_legal_as_written() -> None:
    # The examples an unreadable word is answered with must themselves be playable: all 10 energy spent, no scoop
    # while burning (the seed's "Cannot activate while burning"), no target named with one opponent.
    state = game("r4 s1 retro", "r4 s9")
    with pytest.raises(IllegalAction) as refusal:
        state.apply("coast xyzzy")
    examples = re.findall(r"'([^']*w\d[^']*)'", str(refusal.value))
    assert len(examples) == 3
    legal = {str(action) for action in state.legal_actions()}
    for example in examples:
        assert str(parse_allocation(example)) in legal, example
