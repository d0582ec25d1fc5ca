"""Movement, Movement restrictions, Moving between Ground and Space: one test per rule."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import IllegalAction

GAME = astrarium.get_game("connected-worlds")
HANDS = """
[[player]]
hand = ["harvester", "scientists", "portal", "excavater", "engineers"]
deck = ["harvester", "harvester", "scientists", "assault-team", "standard-base"]
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
"""


def position(body: str, **options):
    return GAME.new_game(2, 11, {"scenario": body + HANDS, **options})


def piece(kind: str, at: str, owner: int, strength: int) -> str:
    return f'[[{kind}]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


HOME = piece("base", "A:0,0", 0, 1) + piece("base", "B:0,0", 1, 1)


def steps(state) -> set[str]:
    return {str(a).removeprefix("step ") for a in state.legal_actions() if str(a).startswith("step ")}


def test_movement_uses_an_action_card_which_then_cannot_be_played_for_its_special_action():
    state = position(HOME + piece("unit", "A:0,0", 0, 2))
    state.apply("move scientists A:0,0 u2")
    state.apply("stop")
    assert not any(str(a).startswith("research scientists") for a in state.legal_actions())
    assert state.full_view()["played"] == ["scientists"]


def test_movement_units_move_up_to_the_cards_number_of_hexes():
    state = position(HOME + piece("unit", "A:-2,0", 0, 2))
    state.apply("move harvester A:-2,0 u2")  # Harvester: movement 3
    for hex_ in ("A:-1,0", "A:0,-1", "A:1,-1"):
        assert state.full_view()["moving"] is not None
        state.apply(f"step {hex_}")
    assert state.full_view()["moving"] is None  # 3 hexes used up the card
    assert [u[:3] for u in state.full_view()["units"]] == [["A:1,-1", 0, 2]]


def test_movement_between_hexes_hexes_must_be_adjacent():
    state = position(HOME + piece("unit", "A:-2,0", 0, 2))
    state.apply("move scientists A:-2,0 u2")
    assert steps(state) == {"A:-1,0", "A:-2,1", "A:-1,-1"}  # a corner hex of the planet has 3 neighbours
    with pytest.raises(IllegalAction, match="adjacent"):
        state.apply("step A:0,0")


def test_movement_portal_jump_costs_one_and_needs_an_existing_connection():
    body = HOME + piece("base", "C:0,0", 0, 1) + piece("unit", "A:0,0", 0, 2)
    state = position(body)
    state.apply("move scientists A:0,0 u2")
    assert "C:0,0" not in steps(state)
    state = position(body + '[[portal]]\nbetween = ["A:0,0", "C:0,0"]\n')
    state.apply("move scientists A:0,0 u2")  # movement 1: the jump is the whole move
    state.apply("step C:0,0")
    assert [u[:3] for u in state.full_view()["units"]] == [["C:0,0", 0, 2]]
    assert state.full_view()["moving"] is None


def test_movement_connect_bases_makes_a_portal_between_two_of_your_bases():
    state = position(HOME + piece("base", "C:0,0", 0, 1))
    assert "connect portal A:0,0 C:0,0" in [str(a) for a in state.legal_actions()]
    assert not any(str(a).startswith("connect portal") and "B:0,0" in str(a) for a in state.legal_actions())
    state.apply("connect portal A:0,0 C:0,0")
    assert state.full_view()["portals"] == [["A:0,0", "C:0,0"]]


def test_movement_entering_an_enemy_unit_ends_movement_so_units_cannot_move_through_it():
    state = position(HOME + piece("unit", "A:-2,0", 0, 2) + piece("unit", "A:-1,0", 1, 2))
    state.apply("move harvester A:-2,0 u2")
    state.apply("step A:-1,0")
    assert state.full_view()["moving"] is None  # 2 points left, but the move ended in combat


def test_movement_bases_move_like_units_and_leave_their_units_behind():
    state = position(HOME + piece("unit", "A:0,0", 0, 2))
    state.apply("move harvester A:0,0 base")
    state.apply("step A:1,0")
    state.apply("stop")
    view = state.full_view()
    assert ["A:1,0", 0, 1] in view["bases"]
    assert [u[:3] for u in view["units"]] == [["A:0,0", 0, 2]]


def test_movement_restrictions_bases_cannot_exist_in_the_same_hex():
    state = position(HOME + piece("base", "A:1,0", 0, 1))
    state.apply("move harvester A:0,0 base")
    assert "A:1,0" not in steps(state)
    with pytest.raises(IllegalAction, match="same hex"):
        state.apply("step A:1,0")


def test_movement_restrictions_a_base_cannot_capture_by_moving_onto_an_enemy():
    state = position(HOME + piece("base", "A:1,0", 1, 1) + piece("unit", "A:0,1", 1, 2))
    state.apply("move harvester A:0,0 base")
    assert "A:1,0" not in steps(state) and "A:0,1" not in steps(state)


def test_ground_to_space_costs_one_and_goes_to_the_corresponding_hex_in_space():
    state = position(HOME + piece("unit", "A:1,0", 0, 2))
    state.apply("move scientists A:1,0 u2")
    assert "S:-2,0" in steps(state)  # world A lies on the space hex S:-2,0
    state.apply("step S:-2,0")
    assert [u[:3] for u in state.full_view()["units"]] == [["S:-2,0", 0, 2]]


def test_ground_to_space_the_unit_must_be_in_your_territory():
    state = position(HOME + piece("unit", "A:2,0", 0, 2))
    state.apply("move scientists A:2,0 u2")
    assert "S:-2,0" not in steps(state)
    state = position(HOME + piece("unit", "A:2,0", 0, 2), launch="anywhere")
    state.apply("move scientists A:2,0 u2")
    assert "S:-2,0" in steps(state)


def test_space_to_ground_costs_one_and_lands_on_territory_you_control():
    state = position(HOME + piece("unit", "S:-2,0", 0, 2))
    state.apply("move scientists S:-2,0 u2")
    landing = {s for s in steps(state) if s.startswith("A:")}
    assert landing == {"A:0,0", "A:1,0", "A:1,-1", "A:0,-1", "A:-1,0", "A:-1,1", "A:0,1"}
    state.apply("step A:1,-1")
    assert [u[:3] for u in state.full_view()["units"]] == [["A:1,-1", 0, 2]]


def test_space_to_ground_on_a_world_without_your_territory_lands_on_any_hex_free_of_enemies_by_default():
    state = position(HOME + piece("unit", "S:0,-2", 0, 2))  # world C, nobody there
    state.apply("move scientists S:0,-2 u2")
    assert len({s for s in steps(state) if s.startswith("C:")}) == 19
    strict = position(HOME + piece("unit", "S:0,-2", 0, 2), landing="territory")
    strict.apply("move scientists S:0,-2 u2")
    assert not {s for s in steps(strict) if s.startswith("C:")}


def test_stop_ends_a_movement_early_and_the_card_is_spent():
    state = position(HOME + piece("unit", "A:0,0", 0, 2))
    state.apply("move harvester A:0,0 u2")
    state.apply("step A:1,0")
    state.apply("stop")
    assert state.full_view()["moving"] is None
    assert "harvester" not in state.full_view()["players"][0]["hand"]


def test_portal_moves_with_its_base_and_bases_cannot_use_portals():
    body = HOME + piece("base", "C:0,0", 0, 1) + '[[portal]]\nbetween = ["A:0,0", "C:0,0"]\n'
    state = position(body)
    state.apply("move harvester A:0,0 base")
    assert "C:0,0" not in steps(state)  # the far end holds a base
    state.apply("step A:1,0")
    state.apply("stop")
    assert state.full_view()["portals"] == [["A:1,0", "C:0,0"]]


def test_illegal_moves_change_nothing_and_name_the_rule():
    state = position(HOME + piece("unit", "A:0,0", 0, 2) + piece("unit", "B:1,0", 1, 3))
    before = state.full_view()
    for text, rule in [
        ("step A:1,0", "no piece is moving"),
        ("move harvester A:0,0 u5", "no unit of strength 5"),
        ("move harvester B:0,0 base", "no base on that hex"),
        ("deploy harvester A:1,0", "only unit cards are deployed"),
        ("found A:2,0", "setup is over"),
        ("connect portal A:0,0 B:0,0", "two different bases that you control"),
    ]:
        with pytest.raises(IllegalAction, match=rule):
            state.apply(text)
        assert state.full_view() == before and state.history == []
    state.apply("move harvester A:0,0 u2")
    with pytest.raises(IllegalAction, match="a piece is moving"):
        state.apply("gather harvester")
