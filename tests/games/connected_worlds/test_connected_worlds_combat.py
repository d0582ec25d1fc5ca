"""Combat rules: one test per bullet of the seed's "Combat rules" section, plus worked examples in play."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.games.connected_worlds.combat import BaseFate, base_falls, resolve

GAME = astrarium.get_game("connected-worlds")


def position(body: str, **options):
    hands = """
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
"""
    return GAME.new_game(2, 7, {"scenario": body + hands, **options})


def units_at(state, cell: str) -> list[tuple[int, int]]:
    return sorted((u[1], u[2]) for u in state.full_view()["units"] if u[0] == cell)


def base_at(state, cell: str):
    return next(((b[1], b[2]) for b in state.full_view()["bases"] if b[0] == cell), None)


def unit(at: str, owner: int, strength: int) -> str:
    return f'[[unit]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


def base(at: str, owner: int, strength: int) -> str:
    return f'[[base]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


# -- the bullets, on the pure combat function ----------------------------------------


def test_combat_is_between_only_two_units():
    assert resolve([3], [2]).attackers == (3,)
    assert resolve([3], [2]).defenders == ()


def test_combat_equal_strength_fights_lose_both_units():
    result = resolve([2], [2])
    assert result.attackers == () and result.defenders == ()


def test_combat_unequal_fight_loses_the_weaker_and_the_stronger_fights_the_next_wave():
    # A Titan Force (4) beats 1, then 2, then 3, undamaged each time.
    result = resolve([4], [1, 2, 3])
    assert result.attackers == (4,) and result.defenders == ()
    result = resolve([2], [4, 5])
    assert result.attackers == () and result.defenders == (4, 5)


def test_combat_lowest_strength_unit_on_each_side_fights_first():
    # 2 meets 2 first (both lost), then 5 meets 3 (3 lost): 5 survives.
    result = resolve([5, 2], [3, 2])
    assert result.attackers == (5,) and result.defenders == ()


def test_combat_multiple_units_attack_in_waves_against_a_stacked_defense():
    # Waves: 2 v 2 (both lost), 3 v 4 (3 lost, that 4 fights on), 4 v 4 (both lost): 4 and 5 hold.
    result = resolve([2, 3, 4], [2, 4, 4, 5])
    assert result.attackers == () and result.defenders == (4, 5)


def test_combat_base_destroyed_by_an_attacking_force_equal_to_its_strength():
    result = resolve([2, 2], [], base_strength=4)
    assert result.base is BaseFate.DESTROYED and result.attackers == ()


def test_combat_base_captured_by_a_greater_force_and_holds_against_a_smaller_one():
    assert resolve([2, 3], [], base_strength=4).base is BaseFate.CAPTURED
    assert resolve([2, 3], [], base_strength=4).attackers == (2, 3)
    held = resolve([2], [], base_strength=3)
    assert held.base is BaseFate.HELD and held.attackers == ()


def test_combat_base_fights_after_its_defending_units():
    # 3 beats the 2 on the base, then the force of 3 meets the base of 3: both destroyed.
    result = resolve([3], [2], base_strength=3)
    assert result.base is BaseFate.DESTROYED and result.attackers == () and result.defenders == ()
    # Defenders that survive protect the base.
    assert resolve([2], [3], base_strength=1).base is BaseFate.HELD


def test_combat_base_falls_when_captured_or_destroyed_and_not_when_held_or_unattacked():
    """The question planners ask of a base (the searching players' guard, the scripted general): does it fall?"""
    assert base_falls([2, 2], [], 4) and base_falls([2, 3], [], 4) and base_falls([3], [2], 3)
    assert not base_falls([2], [], 3) and not base_falls([2], [3], 1) and not base_falls([], [], 1)


# -- the same rules in play ---------------------------------------------------------


def test_combat_units_can_exist_in_the_same_tile_on_top_of_bases():
    state = position(base("A:0,0", 0, 1) + unit("A:0,0", 0, 2) + unit("A:0,0", 0, 3) + base("B:0,0", 1, 1))
    assert units_at(state, "A:0,0") == [(0, 2), (0, 3)]
    assert base_at(state, "A:0,0") == (0, 1)


def test_combat_entering_an_enemy_hex_ends_movement_and_the_unit_cannot_move_again():
    state = position(base("A:0,0", 0, 1) + unit("A:0,0", 0, 3) + unit("A:2,0", 1, 2) + base("B:0,0", 1, 1))
    state.apply("move harvester A:0,0 u3")
    state.apply("step A:1,0")
    state.apply("step A:2,0")  # enemy there: movement ends although 1 point is left
    assert state.full_view()["moving"] is None
    assert "move harvester A:2,0 u3" not in state.history and all(str(a) != "move harvester A:2,0 u3" for a in state.legal_actions())
    before = state.full_view()
    with pytest.raises(astrarium.IllegalAction, match="engaged in combat"):
        state.apply("move harvester A:2,0 u3")
    assert state.full_view() == before


def test_combat_waves_in_play_resolve_at_the_end_of_the_turn():
    # Seat 0 brings a 2 and a 3 against a stack of 2 and 4 on a planet hex: the 4 survives.
    state = position(
        base("A:0,0", 0, 1) + unit("A:0,0", 0, 2) + unit("A:0,0", 0, 3) + unit("A:1,0", 1, 2) + unit("A:1,0", 1, 4) + base("B:0,0", 1, 1)
    )
    state.apply("move harvester A:0,0 u2")
    state.apply("step A:1,0")
    state.apply("move harvester A:0,0 u3")
    state.apply("step A:1,0")
    assert units_at(state, "A:1,0") == [(0, 2), (0, 3), (1, 2), (1, 4)]  # they share the hex during the turn
    state.apply("end")
    assert units_at(state, "A:1,0") == [(1, 4)]


def test_combat_ownership_of_a_base_changes_if_an_enemy_is_on_it_after_combat():
    state = position(base("A:0,0", 0, 1) + unit("A:1,0", 0, 3) + base("A:2,0", 1, 2))
    state.apply("move harvester A:1,0 u3")
    state.apply("step A:2,0")
    state.apply("end")
    assert base_at(state, "A:2,0") == (0, 2)
    assert units_at(state, "A:2,0") == [(0, 3)]


def test_combat_base_destroyed_in_play_by_an_equal_force():
    state = position(base("A:0,0", 0, 1) + unit("A:1,0", 0, 2) + base("A:2,0", 1, 2) + base("B:0,0", 1, 1))
    state.apply("move harvester A:1,0 u2")
    state.apply("step A:2,0")
    state.apply("end")
    assert base_at(state, "A:2,0") is None
    assert units_at(state, "A:2,0") == []


def test_combat_opposing_units_never_share_a_tile_at_the_end_of_a_turn():
    state = position(base("A:0,0", 0, 1) + unit("A:0,0", 0, 2) + unit("A:1,0", 1, 2) + base("B:0,0", 1, 1))
    state.apply("move harvester A:0,0 u2")
    state.apply("step A:1,0")
    state.apply("end")
    owners = {u[1] for u in state.full_view()["units"] if u[0] == "A:1,0"}
    assert len(owners) <= 1


def test_combat_on_entry_option_resolves_at_once():
    state = position(base("A:0,0", 0, 1) + unit("A:0,0", 0, 4) + unit("A:1,0", 1, 2) + base("B:0,0", 1, 1), combat="on-entry")
    state.apply("move harvester A:0,0 u4")
    state.apply("step A:1,0")
    assert units_at(state, "A:1,0") == [(0, 4)]
    assert not any(str(a).startswith("move harvester A:1,0") for a in state.legal_actions())


def test_combat_a_portal_is_lost_when_its_base_is_captured():
    state = position(
        base("A:0,0", 0, 1) + unit("A:1,0", 0, 3) + base("A:2,0", 1, 1) + base("B:0,0", 1, 1) + '[[portal]]\nbetween = ["A:2,0", "B:0,0"]\n'
    )
    assert state.full_view()["portals"] == [["A:2,0", "B:0,0"]]
    state.apply("move harvester A:1,0 u3")
    state.apply("step A:2,0")
    state.apply("end")
    assert state.full_view()["portals"] == []
