"""Seed section "Events": Collapse warnings, countdowns, black holes, and how the game ends."""

from __future__ import annotations

import pytest
from streamlines_fixtures import ONE_EACH, TWO_EACH, moves, new_game, play, scenario_text, ship, stacked, write_scenario

from astrarium.core import IllegalAction


def two_planets(tmp_path, starts=("e4", "e5"), streamlines=None, required=3) -> str:
    """Planets on e5 and a9, the escape on i1."""
    text = scenario_text(["e5", "a9"], ["i1"], list(starts), required=required, streamlines=streamlines)
    return write_scenario(tmp_path, text)


def planet(state, i: int = 0) -> dict:
    return state.view()["planets"][i]


# Clock cards, two per turn (e5 first, then a9): warning, then the collapse starts on seat 1's Clock.
COLLAPSING = ["collapse", "straight", "collapse", "straight"]


def test_events_first_collapse_is_a_warning_on_the_planet(tmp_path) -> None:
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    assert planet(state) == {"square": "e5", "stage": "warned", "collapse_cards": 1, "turns_left": None}
    assert "collapse" not in state.view()["discard"]


def test_events_second_collapse_every_player_has_one_more_turn(tmp_path) -> None:
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    play(state, "end")  # seat 1's Clock draws the second Collapse for e5
    assert planet(state)["stage"] == "collapsing" and state.current_player == 1
    play(state, "end")  # the drawer's turn ends
    assert planet(state)["stage"] == "collapsing" and state.current_player == 0
    play(state, "end")  # seat 0's one more turn
    assert planet(state)["stage"] == "collapsing" and state.current_player == 1
    assert "draw" in [str(a) for a in state.legal_actions()], "still a source of cards on the last turn"
    play(state, "end")  # seat 1's (the drawer's) one more turn: now the star collapses
    assert planet(state)["stage"] == "black hole"


def test_events_ship_on_the_black_hole_is_lost_with_its_cargo(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], [*COLLAPSING, "straight", "straight", "straight", "straight", "refugee"], planets=2)
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=deck)
    play(state, "end", "end", "end")
    play(state, "draw")  # ship 1, on e5, draws a refugee on the last turn
    assert ship(state, 1)["cargo"] == ["refugee"]
    play(state, "end")
    assert ship(state, 1)["square"] is None and ship(state, 1)["cargo"] == []
    assert state.view()["lost"] == {"action": 2, "cargo": 2, "refugee": 1}
    assert not state.is_over and state.current_player == 0


def test_events_lost_ship_still_takes_the_clock_phase(tmp_path) -> None:
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    play(state, "end", "end", "end", "end")
    assert ship(state, 1)["square"] is None
    before = state.view()["deck"]
    turn = state.view()["turn_number"]
    play(state, "end")  # seat 1 has no ship: its Clock draws one card (only a9 is left), then the turn passes
    assert state.current_player == 0
    assert state.view()["turn_number"] == turn + 2
    assert state.view()["deck"] == before - 2


def test_events_black_hole_is_no_longer_a_source_of_cards(tmp_path) -> None:
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    play(state, "end", "end", "end", "end")
    before = state.view()["deck"]
    play(state, "end")
    assert state.view()["deck"] == before - 2  # one card a turn for a9, none for the black hole


def test_events_passing_through_a_black_hole_loses_the_ship(tmp_path) -> None:
    # e3 points north: a ship stepping onto it from e2 rides into e5 ... through the black hole.
    text = two_planets(tmp_path, starts=("e2", "h1"), streamlines={"e3": "n", "e4": "n"})
    state = new_game(2, scenario_file=text, deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    play(state, "end", "end", "end", "end")
    assert planet(state)["stage"] == "black hole" and state.current_player == 0
    assert "move e3-e4-e5" in moves(state)
    play(state, "move e3-e4-e5")
    assert ship(state, 0)["square"] is None
    assert state.current_player == 1, "a ship that is lost ends its player's turn"


def test_events_further_collapse_on_a_collapsing_planet_is_discarded(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], [*COLLAPSING, "collapse", "straight"], planets=2)
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=deck)
    play(state, "end", "end")
    assert planet(state)["collapse_cards"] == 2 and state.view()["discard"].get("collapse") == 1


def test_end_all_planets_black_holes_the_team_loses(tmp_path) -> None:
    text = scenario_text(["e5"], ["e6"], ["a1"], required=1)
    deck = stacked([ONE_EACH, ONE_EACH], ["collapse", "collapse"], planets=1)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    play(state, "end", "end", "end")
    assert not state.is_over
    play(state, "end")
    assert state.is_over and state.outcome.winners == () and state.returns() == [-1.0, -1.0]
    assert "every planet is a black hole" in state.outcome.reason
    with pytest.raises(IllegalAction, match="over"):
        state.apply("end")


def test_end_too_few_refugees_left_the_team_loses(tmp_path) -> None:
    text = scenario_text(["e5"], ["e6"], ["e5"], required=2)
    deck = stacked([["action", "cargo", "action", "action"], ONE_EACH], ["straight", "refugee", "refugee"], refugees=0)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    play(state, "draw", "draw")
    assert not state.is_over
    play(state, "dump refugee")
    assert state.is_over and state.outcome.winners == ()
    assert "too few refugees" in state.outcome.reason


def test_end_every_ship_lost_the_team_loses(tmp_path) -> None:
    state = new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([TWO_EACH, TWO_EACH], COLLAPSING, planets=2))
    play(state, "end", "end", "end", "end", "move e5")
    assert state.is_over and state.outcome.reason == "every ship is lost"
