"""Seed section "Movement and Streamlines": one step, then follow the streamlines; never against one."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlines_fixtures import (
    SEED_EXAMPLE,
    TWO_EACH,
    moves,
    new_game,
    play,
    scenario_text,
    ship,
    stacked,
    write_scenario,
)

import astrarium
from astrarium.core import IllegalAction
from astrarium.games.streamlines.actions import Move
from astrarium.games.streamlines.board import parse_square

DECK = stacked([TWO_EACH, TWO_EACH], [])
GAME_OPTIONS = astrarium.get_game("streamlines").default_options()


def example(tmp_path, starts: list[str]):
    """The seed's example board with the ships starting where the test needs them."""
    text = Path(SEED_EXAMPLE).read_text(encoding="utf-8").replace('starts = ["c1", "d2"]', f"starts = {starts!r}")
    return new_game(2, scenario_file=write_scenario(tmp_path, text.replace("'", '"')), deck=DECK)


def test_movement_example_board_is_the_seeds() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    assert state.view()["streamlines"] == {
        "b3": "straight w",
        "c3": "straight e",
        "d3": "straight w",
        "a2": "corner ne",
        "b2": "corner nw",
        "c2": "tee new",
    }
    assert ship(state, 0)["square"] == "c1" and ship(state, 1)["square"] == "d2"


def test_movement_from_k_up_to_g_then_f_b_and_into_a() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    assert "move c2-b2-b3-a3" in moves(state)
    play(state, "move c2-b2-b3-a3")
    assert ship(state, 0)["square"] == "a3"


def test_movement_every_distinct_end_is_one_action() -> None:
    # From K: up into G, where the player chooses G's up, left or right streamline; or a plain step left/right.
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    assert moves(state) == ["move c2-c3", "move c2-d2", "move c2-b2-b3-a3", "move d1", "move b1"]


def test_movement_must_follow_streamlines_as_far_as_they_go() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    with pytest.raises(IllegalAction, match="must follow the streamlines"):
        state.apply("move c2")
    with pytest.raises(IllegalAction, match="must follow the streamlines"):
        state.apply("move c2-b2")


@pytest.mark.parametrize("start", ["b3", "a2"])
def test_movement_cannot_enter_f_from_b_or_e(tmp_path, start: str) -> None:
    state = example(tmp_path, [start, "h1"])
    assert not any(m.startswith("move b2") for m in moves(state))
    with pytest.raises(IllegalAction, match="never enters b2 moving against its streamline"):
        state.apply("move b2")
    assert ship(state, 0)["square"] == start


@pytest.mark.parametrize("start", ["b2", "c3", "d2"])
def test_movement_only_way_into_g_is_from_k(tmp_path, start: str) -> None:
    state = example(tmp_path, [start, "h1"])
    assert not any(m.startswith("move c2") for m in moves(state))
    with pytest.raises(IllegalAction, match="against"):
        state.apply("move c2")
    from_k = example(tmp_path, ["c1", "h1"])
    assert any(m.startswith("move c2") for m in moves(from_k))


def test_movement_contradiction_g_through_c_stops_before_d() -> None:
    # The seed says a ship "could follow the streamlines from G through C to D"; but D's streamline points
    # west, against a ship moving east from C. Decision: the absolute rule wins, the ship stops on C.
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    assert "move c2-c3" in moves(state)
    assert not any("d3" in m for m in moves(state))
    with pytest.raises(IllegalAction, match="never enters d3 moving against its streamline"):
        state.apply("move c2-c3-d3")
    play(state, "move c2-c3")
    assert ship(state, 0)["square"] == "c3"


def test_movement_contradiction_h_to_d_stops_before_c() -> None:
    # "If it started in square H, it could move to D and follow streamlines into C": C points east,
    # against a ship moving west from D. Decision: the ship stops on D.
    state = play(new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK), "end")
    assert state.current_player == 1
    assert "move d3" in moves(state)
    with pytest.raises(IllegalAction, match="never enters c3 moving against its streamline"):
        state.apply("move d3-c3")
    play(state, "move d3")
    assert ship(state, 1)["square"] == "d3"


def test_movement_from_h_to_g_is_against_but_to_f_via_g_is_not_possible() -> None:
    # The seed's "or move to G and follow streamlines to F, B, and finally A" from H also enters G against
    # its east-pointing streamline; the same decision applies.
    state = play(new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK), "end")
    with pytest.raises(IllegalAction, match="never enters c2 moving against"):
        state.apply("move c2-b2-b3-a3")


def test_movement_streamline_loop_stops_before_reentering(tmp_path) -> None:
    loop = {"d4": "e", "e4": "n", "e5": "w", "d5": "s"}
    text = scenario_text(["i9"], ["a9"], ["c4", "h1"], streamlines=loop)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=DECK)
    assert "move d4-e4-e5-d5" in moves(state)
    play(state, "move d4-e4-e5-d5")
    assert ship(state, 0)["square"] == "d5"


def test_movement_branching_streamlines_player_chooses(tmp_path) -> None:
    # A tee at e5 pointing n, e, w: a ship entering from the south picks one of the three exits.
    text = scenario_text(["i9"], ["a9"], ["e4", "h1"], streamlines={"e5": "new"})
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=DECK)
    up = [m for m in moves(state) if m.startswith("move e5")]
    assert up == ["move e5-e6", "move e5-f5", "move e5-d5"]


def test_movement_costs_one_action_each(tmp_path) -> None:
    text = scenario_text(["i9"], ["a9"], ["e4", "h1"])
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=DECK)
    play(state, "move e5", "move e6")
    assert state.view()["actions_left"] == 0
    assert moves(state) == []
    with pytest.raises(IllegalAction, match="no actions left"):
        state.apply("move e7")


def test_movement_illegal_path_text_is_explained() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    with pytest.raises(IllegalAction, match="not next to"):
        state.apply("move e5")
    with pytest.raises(IllegalAction, match="no streamline on d1 points"):
        state.apply("move d1-d2")
    with pytest.raises(IllegalAction, match="not a square"):
        state.apply("move z9")


def test_movement_illegal_move_leaves_the_position_unchanged() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK)
    before, legal = state.full_view(), state.legal_actions()
    for text in ("move c2-c3-d3", "move c2", "move b2", "lay ne", "drop", "draw", "give refugee 1", "pickup"):
        with pytest.raises(IllegalAction) as err:
            state.apply(text)
        assert str(err.value).startswith(text)
    assert state.full_view() == before and state.legal_actions() == legal and state.history == []


# -- Decisions 5: two paths to the same end square are one move ---------------------------------
# From e4 a step north enters the corner on e5 (n, e); both of its arrows lead on to f6:
# e5 -> e6 (east) -> f6, or e5 -> f5 (north) -> f6. f6 is empty, so the ship stops there.
TWO_WAYS = {"e5": "ne", "e6": "e", "f5": "n"}


def two_ways(tmp_path):
    text = scenario_text(["i9"], ["a9"], ["e4", "h1"], streamlines=TWO_WAYS)
    return new_game(2, scenario_file=write_scenario(tmp_path, text), deck=DECK)


def test_movement_any_whole_path_to_an_offered_end_is_that_move(tmp_path) -> None:
    state = two_ways(tmp_path)
    assert "move e5-e6-f6" in moves(state) and "move e5-f5-f6" not in moves(state)
    play(state, "move e5-f5-f6")
    assert ship(state, 0)["square"] == "f6" and state.view()["actions_left"] == 1
    assert state.history == ["move e5-e6-f6"], "the record writes the offered path"
    assert astrarium.replay(state.to_record()).full_view() == state.full_view()


def test_movement_another_path_as_an_object_is_explained(tmp_path) -> None:
    state = two_ways(tmp_path)
    before = state.full_view()
    with pytest.raises(IllegalAction, match=r"ends where move e5-e6-f6 does and is that move; play it as move e5-e6-f6"):
        state.apply(Move((parse_square("e5"), parse_square("f5"), parse_square("f6"))))
    assert state.full_view() == before and state.history == []


def test_movement_stopping_short_names_where_the_streamlines_go(tmp_path) -> None:
    state = two_ways(tmp_path)
    with pytest.raises(IllegalAction, match="must follow the streamlines as far as they go: from e5 it goes on to e6 or f5"):
        state.apply("move e5")
    with pytest.raises(IllegalAction, match="from f5 it goes on to f6"):
        state.apply("move e5-f5")
    assert ship(state, 0)["square"] == "e4" and state.history == []


# -- Movement and Streamlines: the example's paths under both readings (option movement) ----------
# The seed's example cannot satisfy both its rule and its pictures. The default reading (movement=rule)
# keeps the rule; movement=carried is the other reading, for the designer to playtest: a ship carried
# by an arrow may enter a square against its streamline, while a first step still may not.
READINGS = ("rule", "carried")


def seed_board(tmp_path, reading: str, starts: list[str] | None = None):
    if starts is None:
        return new_game(2, scenario_file=SEED_EXAMPLE, deck=DECK, movement=reading)
    text = Path(SEED_EXAMPLE).read_text(encoding="utf-8").replace('starts = ["c1", "d2"]', f"starts = {starts!r}")
    return new_game(2, scenario_file=write_scenario(tmp_path, text.replace("'", '"')), deck=DECK, movement=reading)


def test_movement_the_default_reading_is_the_rule() -> None:
    assert GAME_OPTIONS["movement"] == "rule"


@pytest.mark.parametrize("reading", READINGS)
def test_movement_example_k_up_to_g_then_f_b_a_under_both_readings(tmp_path, reading: str) -> None:
    state = seed_board(tmp_path, reading)
    play(state, "move c2-b2-b3-a3")
    assert ship(state, 0)["square"] == "a3"


@pytest.mark.parametrize(("reading", "ends"), [("rule", "c3"), ("carried", "d3")])
def test_movement_example_g_through_c_to_d_under_both_readings(tmp_path, reading: str, ends: str) -> None:
    # "It could alternatively follow the streamlines from G through C to D": D points west, against the ship.
    state = seed_board(tmp_path, reading)
    path = {"c3": "move c2-c3", "d3": "move c2-c3-d3"}[ends]
    assert path in moves(state)
    play(state, path)
    assert ship(state, 0)["square"] == ends


@pytest.mark.parametrize(("reading", "ends"), [("rule", "d3"), ("carried", "c3")])
def test_movement_example_h_to_d_and_into_c_under_both_readings(tmp_path, reading: str, ends: str) -> None:
    # "If it started in square H, it could move to D and follow streamlines into C": C points east.
    state = play(seed_board(tmp_path, reading), "end")
    path = {"d3": "move d3", "c3": "move d3-c3"}[ends]
    assert path in moves(state)
    play(state, path)
    assert ship(state, 1)["square"] == ends


@pytest.mark.parametrize("reading", READINGS)
def test_movement_example_h_to_g_is_a_first_step_against_g_under_both_readings(tmp_path, reading: str) -> None:
    # "Or move to G and follow strealines to F, B, and finally A": the step from H into G is a first step,
    # which no arrow carries, and the seed forbids it "not even at the start of its movement".
    state = play(seed_board(tmp_path, reading), "end")
    before = state.full_view()
    assert not any(m.startswith("move c2") for m in moves(state))
    with pytest.raises(IllegalAction, match="c2"):
        state.apply("move c2-b2-b3-a3")
    assert state.full_view() == before


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("start", ["b3", "a2"])
def test_movement_example_no_step_into_f_from_b_or_e_under_both_readings(tmp_path, reading: str, start: str) -> None:
    state = seed_board(tmp_path, reading, [start, "h1"])
    assert not any(m.startswith("move b2") for m in moves(state))
    with pytest.raises(IllegalAction, match="b2"):
        state.apply("move b2")


def test_movement_carried_reading_arrow_carries_into_f_from_e(tmp_path) -> None:
    # From I (a1) a step up enters E (a2), whose arrows point north (to A) and east (to F, against F's
    # west arrow). Only the carried reading lets the east arrow carry the ship into F, then north to B and
    # west into A: the same end square as E -> A, so that whole path is accepted as that one move.
    rule = seed_board(tmp_path, "rule", ["a1", "h1"])
    assert moves(rule) == ["move a2-a3", "move b1"]
    with pytest.raises(IllegalAction, match="never enters b2 moving against its streamline"):
        rule.apply("move a2-b2-b3-a3")
    carried = seed_board(tmp_path, "carried", ["a1", "h1"])
    assert moves(carried) == ["move a2-a3", "move b1"]
    play(carried, "move a2-b2-b3-a3")
    assert ship(carried, 0)["square"] == "a3" and carried.history == ["move a2-a3"]
