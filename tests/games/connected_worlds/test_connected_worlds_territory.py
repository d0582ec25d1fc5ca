"""Territory and Winning the game: one test per rule."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import IllegalAction

GAME = astrarium.get_game("connected-worlds")
CARDS = 'hand = ["harvester"]\ndeck = ["harvester"]\n'


def position(pieces: list[tuple[str, str, int, int]], players: int = 2, cards: str = CARDS, **options):
    body = "".join(f'[[{kind}]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n' for kind, at, owner, strength in pieces)
    body += f"[[player]]\n{cards}" + f"[[player]]\n{CARDS}" * (players - 1)
    return GAME.new_game(players, 3, {"scenario": body, **options})


def territory(state, seat: int) -> int:
    return state.full_view()["players"][seat]["territory"]


def test_territory_a_base_controls_its_hex_and_the_six_around_it():
    state = position([("base", "A:0,0", 0, 1), ("base", "S:0,0", 1, 1)])
    assert territory(state, 0) == 7 and territory(state, 1) == 7


def test_territory_at_the_border_of_a_planet_counts_only_hexes_on_the_board():
    state = position([("base", "A:2,0", 0, 1), ("base", "A:-2,2", 1, 1)])
    assert territory(state, 0) == 4 and territory(state, 1) == 4  # a corner hex has 3 neighbours


def test_territory_overlap_of_bases_in_the_same_empire_counts_once():
    state = position([("base", "A:0,0", 0, 1), ("base", "A:1,0", 0, 1), ("base", "B:0,0", 1, 1)])
    assert territory(state, 0) == 10  # 7 + 7 - 4 shared hexes


def test_territory_overlap_of_opposing_empires_counts_for_both():
    state = position([("base", "A:0,0", 0, 1), ("base", "A:1,0", 1, 1)])
    assert territory(state, 0) == 7 and territory(state, 1) == 7


def test_territory_units_in_a_hex_do_not_count():
    state = position([("base", "A:0,0", 0, 1), ("unit", "C:0,0", 0, 5), ("base", "B:0,0", 1, 1)])
    assert territory(state, 0) == 7


def test_territory_deploy_only_into_territory_you_own():
    state = position([("base", "A:0,0", 0, 1), ("base", "B:0,0", 1, 1)], cards='hand = ["assault-team"]\ndeck = []\n')
    targets = {str(a).removeprefix("deploy assault-team ") for a in state.legal_actions() if str(a).startswith("deploy")}
    assert targets == {"A:0,0", "A:1,0", "A:1,-1", "A:0,-1", "A:-1,0", "A:-1,1", "A:0,1"}
    with pytest.raises(IllegalAction, match="territory you own"):
        state.apply("deploy assault-team A:2,0")


def test_territory_bases_in_space_claim_space():
    state = position([("base", "S:0,0", 0, 1), ("base", "B:0,0", 1, 1)], cards='hand = ["assault-team"]\ndeck = []\n')
    assert "deploy assault-team S:1,0" in [str(a) for a in state.legal_actions()]


# -- Winning the game (checked at the end of each round) --------------------------------


def end_round(state) -> None:
    """Every seat still taking turns plays 'end' (a player without pieces takes none: option elimination)."""
    start = state.full_view()["round"]
    while not state.is_over and state.full_view()["round"] == start:
        state.apply("end")


def test_master_of_expansion_needs_three_worlds_and_the_most_territory():
    pieces = [("base", "A:0,0", 0, 1), ("base", "C:0,0", 0, 1), ("base", "D:0,0", 0, 1), ("base", "B:0,0", 1, 1)]
    state = position(pieces)
    state.apply("end")
    assert not state.is_over  # only at the end of the round
    state.apply("end")
    assert state.outcome.winners == (0,) and "expansion" in state.outcome.reason


def test_master_of_expansion_tied_territory_means_the_game_continues():
    corners = [("base", "A:2,-2", 0, 1), ("base", "C:2,-2", 0, 1), ("base", "D:2,-2", 0, 1)]  # 3 worlds, 4 + 4 + 4
    seat1 = [("base", "B:2,-2", 1, 1), ("base", "S:3,-3", 1, 1), ("base", "S:-3,3", 1, 1)]  # 1 world, 4 + 4 + 4
    state = position(corners + seat1)
    assert territory(state, 0) == territory(state, 1) == 12
    end_round(state)
    assert not state.is_over  # tied for the most territory: the game continues
    state = position(corners + seat1 + [("base", "S:3,0", 1, 1)])
    assert territory(state, 1) == 16
    end_round(state)
    assert not state.is_over  # three worlds, but not the most territory


def test_all_your_base_capture_victory_when_every_base_is_yours():
    state = position([("base", "A:0,0", 0, 1), ("unit", "B:0,0", 1, 2)], victory="capture")
    end_round(state)
    assert state.outcome.winners == (0,) and "capture" in state.outcome.reason
    state = position([("base", "A:0,0", 0, 1), ("base", "B:0,0", 1, 1)], victory="capture")
    end_round(state)
    assert not state.is_over


def test_war_never_ends_annihilation_needs_every_enemy_unit_and_base_destroyed():
    state = position([("base", "A:0,0", 0, 1), ("unit", "B:0,0", 1, 2)], victory="annihilation")
    end_round(state)
    assert not state.is_over
    state = position([("base", "A:0,0", 0, 1), ("unit", "A:1,0", 0, 2)], victory="annihilation")
    end_round(state)
    assert state.outcome.winners == (0,)


def test_round_limit_ends_the_game_by_territory_then_strength_then_resources():
    state = position([("base", "A:0,0", 0, 1), ("base", "B:0,0", 1, 1), ("unit", "B:0,0", 1, 2)], round_limit=1)
    end_round(state)
    assert state.outcome.winners == (1,) and "round limit" in state.outcome.reason  # equal territory, more strength
    state = position([("base", "A:0,0", 0, 1), ("base", "B:0,0", 1, 1)], round_limit=1)
    end_round(state)
    assert state.outcome.winners == (0, 1) and state.returns() == [0.0, 0.0]


def test_a_game_without_bases_ends_at_the_end_of_the_round():
    state = position([("unit", "A:0,0", 0, 2), ("unit", "B:0,0", 1, 3)])
    end_round(state)
    assert state.outcome.winners == (1,) and "no base" in state.outcome.reason
