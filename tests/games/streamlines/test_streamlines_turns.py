"""Seed sections "Powers", "Turns", "Actions", "Loading Up" and "Special Cards"."""

from __future__ import annotations

import pytest
from streamlines_fixtures import (
    ONE_EACH,
    TWO_EACH,
    moves,
    new_game,
    play,
    scenario_text,
    ship,
    stacked,
    write_scenario,
)

from astrarium.core import IllegalAction
from astrarium.games.streamlines.cards import COUNT_OPTIONS
from astrarium.games.streamlines.events import designed_events


def board(tmp_path, starts=("e5",), streamlines=None, required=3, planets=("e5",), escapes=("e6",)) -> str:
    """A planet on e5 with an escape just north of it on e6 (both ships start on the planet)."""
    text = scenario_text(list(planets), list(escapes), list(starts), required=required, streamlines=streamlines)
    return write_scenario(tmp_path, text)


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- Powers ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_powers_each_ship_gets_action_cargo_and_two_more(players: int) -> None:
    for seed in range(10):
        state = new_game(players) if seed == 0 else __import__("astrarium").get_game("streamlines").new_game(players, seed)
        for seat in range(players):
            powers = ship(state, seat)["powers"]
            assert sum(powers.values()) == 4
            assert powers["action"] >= 1 and powers["cargo"] >= 1


def test_powers_unused_power_cards_go_into_the_deck() -> None:
    state = new_game(3, scenario="introductory")
    view = state.full_view()
    defaults = {o.name: o.default for o in state.game.options}
    for option, kind_name in [("action_cards", "action"), ("cargo_cards", "cargo"), ("pickup_cards", "pickup")]:
        dealt = sum(s["powers"].get(kind_name, 0) for s in view["ships"])
        in_deck = view["deck_contents"].get(kind_name, 0) + view["discard"].get(kind_name, 0)
        assert dealt + in_deck == defaults[option]
    assert set(COUNT_OPTIONS) <= set(defaults)


def test_powers_one_action_per_action_card(tmp_path) -> None:
    deck = stacked([["action", "cargo", "action", "action"], ONE_EACH], [])
    state = new_game(2, scenario_file=board(tmp_path), deck=deck)
    assert state.view()["actions_left"] == 3
    play(state, "move e4", "move e3", "move e2")
    assert moves(state) == [] and legal(state) == ["end"]


# -- Turns: the Clock Is Ticking -------------------------------------------------------
def test_turns_clock_draws_one_card_per_planet() -> None:
    state = new_game(2, scenario="standard")
    view = state.full_view()
    total = sum(view["discard"].values()) + sum(p["collapse_cards"] for p in view["planets"]) + sum(view["lost"].values())
    events = sum(card.cards for card in designed_events())
    cards = sum(o.default or 0 for o in state.game.options if o.name.endswith("_cards")) + 4 + 6 + events  # gates, collapses
    assert total == 3 and view["deck"] == cards - 8 - 3
    play(state, "end")
    view = state.full_view()
    total = sum(view["discard"].values()) + sum(p["collapse_cards"] for p in view["planets"]) + sum(view["lost"].values())
    assert total == 6 and state.current_player == 1


def test_turns_clock_discards_everything_but_collapse(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["refugee", "corner", "collapse"])
    state = new_game(2, scenario_file=board(tmp_path), deck=deck)
    assert state.view()["discard"] == {"refugee": 1}
    play(state, "end")
    assert state.view()["discard"] == {"refugee": 1, "corner": 1}
    play(state, "end")
    assert state.view()["planets"][0]["stage"] == "warned"
    assert state.view()["discard"] == {"refugee": 1, "corner": 1}


def test_turns_players_take_turns_in_order(tmp_path) -> None:
    state = new_game(3, scenario_file=board(tmp_path), deck=stacked([TWO_EACH] * 3, []))
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        play(state, "end")
    assert seen == [0, 1, 2, 0]


# -- Loading Up ---------------------------------------------------------------------------
def test_loading_power_card_is_kept_and_the_next_draw_is_free(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "pickup", "refugee"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw")
    assert ship(state, 0)["powers"]["pickup"] == 1
    assert state.view()["actions_left"] == 1 and state.view()["bonus_draw"]
    play(state, "draw")
    assert ship(state, 0)["cargo"] == ["refugee"]
    assert state.view()["actions_left"] == 1 and not state.view()["bonus_draw"]


def test_loading_drawn_action_card_gives_an_action_at_once(tmp_path) -> None:
    deck = stacked([ONE_EACH, ONE_EACH], ["straight", "action"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw")
    assert state.view()["actions_left"] == 1


def test_loading_event_takes_effect_and_the_next_draw_is_free(tmp_path) -> None:
    deck = stacked([ONE_EACH, ONE_EACH], ["straight", "collapse", "refugee"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw")
    assert state.view()["planets"][0]["stage"] == "warned"
    assert state.view()["actions_left"] == 0 and "draw" in legal(state)
    play(state, "draw")
    assert ship(state, 0)["cargo"] == ["refugee"]
    assert "draw" not in legal(state)


def test_loading_only_on_a_planet_square(tmp_path) -> None:
    state = new_game(2, scenario_file=board(tmp_path, starts=("e4",)), deck=stacked([ONE_EACH, ONE_EACH], []))
    with pytest.raises(IllegalAction, match="only on a Planet square"):
        state.apply("draw")


@pytest.mark.parametrize("dumped,pile", [("corner", "discard"), ("refugee", "lost")])
def test_loading_full_cargo_dumps_a_card(tmp_path, dumped: str, pile: str) -> None:
    deck = stacked([["action", "cargo", "action", "action"], ONE_EACH], ["straight", "refugee", "corner"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw", "draw")
    assert state.view()["must_dump"]
    assert legal(state) == ["dump corner", "dump refugee"]
    with pytest.raises(IllegalAction, match="over-full"):
        state.apply("move e4")
    play(state, f"dump {dumped}")
    assert state.view()[pile].get(dumped) == 1
    assert len(ship(state, 0)["cargo"]) == 1 and not state.view()["must_dump"]


# -- Actions ------------------------------------------------------------------------------
def test_actions_lay_streamline_on_own_empty_square_any_orientation(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "corner", "line"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw", "draw")
    play(state, "end", "end")
    assert not any(a.startswith("lay") for a in legal(state)), "a planet square is not empty"
    with pytest.raises(IllegalAction, match="not empty"):
        state.apply("lay ne")
    play(state, "move e4")
    lays = [a for a in legal(state) if a.startswith("lay")]
    assert lays == ["lay ns", "lay ew", "lay ne", "lay es", "lay nw", "lay sw"]
    play(state, "lay nw")
    assert state.view()["streamlines"] == {"e4": "corner nw"}
    assert ship(state, 0)["cargo"] == ["line"] and state.view()["actions_left"] == 0


@pytest.mark.parametrize("free_lay", [False, True])
def test_actions_laying_costs_an_action_unless_the_free_lay_house_rule(tmp_path, free_lay: bool) -> None:
    # The seed lists playing a Streamline card among the actions; the house rule free_lay (off by default)
    # makes it free, so that a ship with no action left may still lay the cards it carries.
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "corner", "line"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck, free_lay=free_lay), "draw", "draw")
    play(state, "end", "end", "move e4", "lay nw")
    assert state.view()["actions_left"] == (1 if free_lay else 0)
    if free_lay:
        play(state, "move e3")  # the action the free lay left over
    assert state.view()["actions_left"] == 0
    before = state.full_view()
    if free_lay:
        play(state, "lay ns")
        assert state.view()["streamlines"] == {"e4": "corner nw", "e3": "line ns"} and ship(state, 0)["cargo"] == []
    else:
        assert not any(a.startswith("lay") for a in legal(state))
        with pytest.raises(IllegalAction, match="no actions left"):
            state.apply("lay ns")
        assert state.full_view() == before


def test_actions_cannot_lay_on_an_escape_square(tmp_path) -> None:
    deck = stacked([["action", "cargo", "action", "action"], TWO_EACH], ["straight", "corner"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw", "move e6")
    with pytest.raises(IllegalAction, match="not empty"):
        state.apply("lay ne")


def test_actions_drop_off_refugees_at_escape_wins(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "refugee", "refugee"])
    state = new_game(2, scenario_file=board(tmp_path, required=2), deck=deck)
    play(state, "draw", "draw", "end", "end", "move e6")
    assert not state.is_over
    play(state, "drop")
    assert state.is_over and state.outcome.winners == (0, 1)
    assert state.returns() == [1.0, 1.0]
    assert "rescued 2" in state.outcome.reason


def test_actions_drop_only_at_an_escape(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "refugee"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw")
    with pytest.raises(IllegalAction, match="only at an Escape square"):
        state.apply("drop")


def test_actions_transfer_one_cargo_card_to_a_ship_on_the_same_square(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "pickup", "refugee", "tee"])
    state = play(new_game(2, scenario_file=board(tmp_path), deck=deck), "draw", "draw", "draw")
    assert [a for a in legal(state) if a.startswith("give")] == []  # the two draws spent both actions
    play(state, "end", "end", "end")
    assert state.current_player == 1
    play(state, "end")
    assert [a for a in legal(state) if a.startswith("give")] == ["give tee 1", "give refugee 1"]
    play(state, "give refugee 1")
    assert ship(state, 0)["cargo"] == ["tee"] and ship(state, 1)["cargo"] == ["refugee"]
    assert state.view()["actions_left"] == 1


def test_actions_transfer_needs_the_same_square(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "refugee"])
    state = new_game(2, scenario_file=board(tmp_path, starts=("e5", "e4")), deck=deck)
    play(state, "draw")
    with pytest.raises(IllegalAction, match="same square"):
        state.apply("give refugee 1")


# -- Special Cards ----------------------------------------------------------------------
def test_special_pickup_takes_the_streamline_under_the_ship(tmp_path) -> None:
    deck = stacked([["action", "cargo", "pickup", "action"], ONE_EACH], [])
    state = new_game(2, scenario_file=board(tmp_path, starts=("e4",), streamlines={"e4": "n"}), deck=deck)
    play(state, "pickup")
    assert ship(state, 0)["cargo"] == ["straight"] and state.view()["streamlines"] == {}
    assert "pickup" not in ship(state, 0)["powers"] and state.view()["discard"].get("pickup") == 1
    assert state.view()["actions_left"] == 2


def test_special_pickup_needs_cargo_room(tmp_path) -> None:
    deck = stacked([["action", "cargo", "pickup", "action"], ONE_EACH], ["straight", "refugee"])
    # e4 points east, but f4 points back west, so a ship stepping onto e4 stops there.
    state = new_game(2, scenario_file=board(tmp_path, streamlines={"e4": "e", "f4": "w"}), deck=deck)
    play(state, "draw", "move e4")
    with pytest.raises(IllegalAction, match="no room"):
        state.apply("pickup")


def test_special_extra_move_gives_one_move_then_is_discarded(tmp_path) -> None:
    deck = stacked([["action", "cargo", "extra-move", "cargo"], ONE_EACH], [])
    state = play(new_game(2, scenario_file=board(tmp_path, starts=("e4",)), deck=deck), "move e3")
    assert moves(state) == [] and "extra" in legal(state)
    play(state, "extra", "move e2")
    assert ship(state, 0)["square"] == "e2" and state.view()["discard"].get("extra-move") == 1
    assert legal(state) == ["end"]


@pytest.mark.parametrize("turn,result", [("cw", "corner ne"), ("ccw", "corner sw")])
def test_special_engineering_turns_the_streamline_90_degrees(tmp_path, turn: str, result: str) -> None:
    deck = stacked([ONE_EACH, ONE_EACH], [])
    state = new_game(2, scenario_file=board(tmp_path, starts=("e4",), streamlines={"e4": "nw"}), deck=deck)
    play(state, f"engineer {turn}")
    assert state.view()["streamlines"] == {"e4": result}
    assert "engineering" not in ship(state, 0)["powers"] and state.view()["actions_left"] == 1


def test_special_gates_jump_to_the_matching_gate_and_stop(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "gate-a", "gate-a"])
    state = new_game(2, scenario_file=board(tmp_path, escapes=("a1",)), deck=deck)
    play(state, "draw", "draw", "end", "end")
    play(state, "move e6", "lay gate-a", "end", "end")
    play(state, "move e7", "move e8", "end", "end")
    play(state, "lay gate-a", "move e7", "end", "end")
    assert state.view()["streamlines"] == {"e6": "gate-a", "e8": "gate-a"}
    assert "move e6" in moves(state) and "move e6=e8" in moves(state)
    play(state, "move e6=e8")
    assert ship(state, 0)["square"] == "e8" and state.view()["gate_stopped"]
    assert moves(state) == [] and state.view()["actions_left"] == 1
    with pytest.raises(IllegalAction, match="Gate"):
        state.apply("move e9")
    play(state, "end", "end")
    assert state.current_player == 0 and moves(state)
    assert not any("=" in m for m in moves(state)), "a ship starting on a Gate does not jump"


def test_special_pickup_can_take_up_a_gate(tmp_path) -> None:
    deck = stacked([["action", "cargo", "action", "pickup"], TWO_EACH], ["straight", "gate-a", "gate-a"])
    state = new_game(2, scenario_file=board(tmp_path, escapes=("a1",)), deck=deck)
    play(state, "draw", "move e6", "end", "end")
    play(state, "lay gate-a", "pickup")
    assert state.view()["streamlines"] == {} and ship(state, 0)["cargo"] == ["gate-a"]


def test_played_cards_are_reshuffled_when_the_deck_runs_dry(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "corner"], filler=0, refugees=3, planets=1)
    state = new_game(2, scenario_file=board(tmp_path, required=1, starts=("e4",)), deck=deck)
    while state.view()["deck"] > 0:
        play(state, "end")
    discarded = sum(state.view()["discard"].values())
    play(state, "end")
    assert state.view()["deck"] == discarded - 1
    assert any("shuffled" in e for e in state.view()["events"])


def test_loading_free_draw_never_reshuffles_the_discard_pile(tmp_path) -> None:
    # Decision: a free draw needs cards left in the deck (otherwise Collapse cards could cycle forever).
    deck = stacked([ONE_EACH, ONE_EACH], ["collapse", "collapse", "refugee", "pickup"], planets=0, filler=0, refugees=0)
    state = new_game(2, scenario_file=board(tmp_path, required=1), deck=deck)
    play(state, "end", "end")
    assert state.view()["discard"] == {"refugee": 1}
    play(state, "draw")
    assert state.view()["deck"] == 0 and state.view()["actions_left"] == 0
    assert not state.view()["bonus_draw"], "no free draw is on offer with the deck empty"
    assert "draw" not in legal(state)
    with pytest.raises(IllegalAction, match="free draw needs cards left in the deck"):
        state.apply("draw")


# The deck (top first) for the two tests below: the Clock draws a Collapse on turn 1 (a warning),
# a Refugee on turn 2 and a Straight on turn 3; then ship 0, with two actions, draws a Pickup
# (a Power: the next draw is free) and, free, the last card, a Collapse (an Event). The deck is dry.
DRY_AFTER_FREE_DRAW = ["collapse", "refugee", "straight", "pickup", "collapse"]


def test_loading_paid_draw_uses_up_the_free_draw(tmp_path) -> None:
    """A paid draw (one that reshuffles the discard pile) leaves no free draw behind it."""
    deck = stacked([TWO_EACH, TWO_EACH], DRY_AFTER_FREE_DRAW, planets=0, filler=0, refugees=0)
    state = new_game(2, scenario_file=board(tmp_path, required=1), deck=deck)
    play(state, "end", "end", "draw", "draw")
    assert state.view()["deck"] == 0 and state.view()["actions_left"] == 1
    assert state.view()["planets"][0]["stage"] == "collapsing"
    assert state.view()["discard"] == {"refugee": 1, "straight": 1}
    play(state, "draw")  # paid: the discard pile becomes the deck, and a cargo card comes up
    assert state.view()["actions_left"] == 0 and state.view()["deck"] == 1
    assert len(ship(state, 0)["cargo"]) == 1
    assert not state.view()["bonus_draw"]
    assert "draw" not in legal(state)
    with pytest.raises(IllegalAction, match="no actions left"):
        state.apply("draw")


def test_loading_board_offers_a_free_draw_only_when_there_is_one(tmp_path) -> None:
    deck = stacked([TWO_EACH, TWO_EACH], DRY_AFTER_FREE_DRAW, planets=0, filler=0, refugees=0)
    state = new_game(2, scenario_file=board(tmp_path, required=1), deck=deck)
    play(state, "end", "end", "draw")
    assert state.view()["bonus_draw"] and "may draw again for free" in state.render(0)
    play(state, "draw")
    # The deck is empty: the next draw costs the ship's last action and reshuffles.
    assert state.view()["deck"] == 0 and "draw" in legal(state)
    assert not state.view()["bonus_draw"]
    assert "for free" not in state.render(0)
