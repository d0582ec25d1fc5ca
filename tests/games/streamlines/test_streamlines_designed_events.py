"""Seed section "Events": the designed good- and bad-news Event cards (events.toml) beside Collapse.

The seed promises Event cards of "good or bad news (usually bad)" and describes only Collapse;
rules.md ("Events") says what each designed card does. Positions come from stacked decks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlines_fixtures import ONE_EACH, TWO_EACH, new_game, play, scenario_text, ship, stacked, write_scenario

from astrarium.core import Rng
from astrarium.core.data import parse_data
from astrarium.core.errors import DataError
from astrarium.games.streamlines.actions import Move
from astrarium.games.streamlines.board import SCENARIO_NAMES, load_scenario
from astrarium.games.streamlines.cards import card_counts, good_news
from astrarium.games.streamlines.events import EFFECTS, designed_events, parse_events
from astrarium.games.streamlines.words import event_words
from helpers import examples


def two_planets(tmp_path) -> str:
    """Planets on e5 and a9 (the Clock draws for e5 first), the escape on i1; ship 0 on e4, ship 1 on e5."""
    return write_scenario(tmp_path, scenario_text(["e5", "a9"], ["i1"], ["e4", "e5"]))


def game(tmp_path, clock: list[str], powers=(TWO_EACH, TWO_EACH), **options):
    return new_game(2, scenario_file=two_planets(tmp_path), deck=stacked([*powers], clock, planets=2), **options)


def stage(state, i: int = 0) -> str:
    return state.view()["planets"][i]["stage"]


# -- Good news -----------------------------------------------------------------------------------
def test_events_calm_star_lifts_the_warning_and_leaves_the_game(tmp_path) -> None:
    state = game(tmp_path, ["collapse", "straight", "calm-star", "straight"])
    assert stage(state) == "warned"
    play(state, "end")  # seat 1's Clock draws the Calm Star for e5
    view = state.view()
    assert stage(state) == "calm" and view["planets"][0]["collapse_cards"] == 0
    assert view["discard"]["collapse"] == 1, "the lifted Collapse goes back into circulation"
    assert view["lost"] == {"calm-star": 1}, "good news does not come back"


def test_events_calm_star_on_a_calm_planet_does_nothing(tmp_path) -> None:
    state = game(tmp_path, ["calm-star", "straight"])
    assert stage(state) == "calm" and stage(state, 1) == "calm"
    assert state.view()["lost"] == {"calm-star": 1}


def test_events_calm_star_does_not_stop_a_collapse(tmp_path) -> None:
    state = game(tmp_path, ["collapse", "straight", "collapse", "straight", "calm-star", "straight"])
    play(state, "end")
    assert stage(state) == "collapsing" and state.view()["planets"][0]["collapse_cards"] == 2


def test_events_tailwind_gives_the_ship_to_act_a_free_move(tmp_path) -> None:
    state = game(tmp_path, ["tailwind", "straight"])
    view = state.view()
    assert view["free_moves"] == 1 and view["actions_left"] == 2
    play(state, "move e3")
    assert state.view()["actions_left"] == 2, "the free move is spent first"


def test_events_tailwind_drawn_on_a_planet_gives_a_free_draw_too(tmp_path) -> None:
    state = game(tmp_path, ["straight", "straight", "straight", "straight", "tailwind", "refugee"])
    play(state, "end", "draw")  # ship 1, on the planet e5, draws the Tailwind
    view = state.view()
    assert view["free_moves"] == 1 and view["bonus_draw"] and view["actions_left"] == 1


def test_events_salvage_brings_back_the_newest_streamline_of_the_discard(tmp_path) -> None:
    state = game(tmp_path, ["corner", "salvage"])  # the Clock discards the corner for e5, then Salvage for a9
    assert ship(state, 0)["cargo"] == ["corner"]
    assert "corner" not in state.view()["discard"] and state.view()["lost"] == {"salvage": 1}


def test_events_salvage_needs_room_in_the_hold(tmp_path) -> None:
    clock = ["straight"] * 4 + ["refugee", "refugee"] + ["straight"] * 2 + ["corner", "salvage"]
    state = game(tmp_path, clock)
    play(state, "end", "draw", "draw", "end")  # ship 1 fills its two slots
    play(state, "end")  # ship 1's Clock: the corner is discarded, and Salvage finds a full hold
    assert ship(state, 1)["cargo"] == ["refugee", "refugee"]
    assert state.view()["discard"]["corner"] == 1


def test_events_ion_storm_costs_the_ship_to_act_an_action(tmp_path) -> None:
    state = game(tmp_path, ["ion-storm", "straight"])
    view = state.view()
    assert view["actions_left"] == 1 and view["discard"]["ion-storm"] == 1, "bad news stays in circulation"


def test_events_two_ion_storms_leave_no_action_and_never_fewer(tmp_path) -> None:
    state = game(tmp_path, ["ion-storm", "ion-storm"], powers=(ONE_EACH, ONE_EACH))
    assert state.view()["actions_left"] == 0
    assert [str(a) for a in state.legal_actions()] == ["end"]


# -- The deck -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_events_usually_bad_news_in_every_builtin_scenario(name: str) -> None:
    scenario = load_scenario(name)
    options = new_game(2, scenario=name).options
    good, bad = good_news(card_counts(options, scenario.collapse_cards))
    assert 0 < good < bad


def test_events_the_designed_cards_are_in_the_default_deck_and_out_with_events_collapse() -> None:
    designed = {card.effect: card.cards for card in designed_events()}
    default = new_game(2, scenario="standard").full_view()
    seen = {
        name: default["deck_contents"].get(name, 0) + default["discard"].get(name, 0) + default["lost"].get(name, 0) for name in designed
    }
    assert seen == designed
    seed_only = new_game(2, scenario="standard", events="collapse").full_view()
    for name in designed:
        assert name not in seed_only["deck_contents"] and name not in seed_only["discard"]


# -- The data -----------------------------------------------------------------------------------
def test_events_data_every_effect_once_with_a_purpose() -> None:
    cards = designed_events()
    assert sorted(c.effect for c in cards) == sorted(EFFECTS)
    assert all(c.purpose.strip() and len(c.purpose) <= 160 for c in cards)
    assert sum(c.good for c in cards) >= 3 and sum(not c.good for c in cards) >= 1


GOOD_ENTRY = 'effect = "tailwind"\nname = "Tailwind"\nnews = "good"\ncards = 2\npurpose = "a free move"\n'


@pytest.mark.parametrize(
    ("text", "entry", "message"),
    [
        ("[[event]]\n" + GOOD_ENTRY.replace("cards = 2", "cards = 7"), "event.#1.cards", "less than or equal to 6"),
        ("[[event]]\n" + GOOD_ENTRY.replace("cards = 2", "cards = 2.0"), "event.#1.cards", "integer"),
        ("[[event]]\n" + GOOD_ENTRY.replace('"good"', '"great"'), "event.#1.news", "good"),
        ("[[event]]\n" + GOOD_ENTRY.replace('"tailwind"\n', '"warp"\n', 1), "event.#1.effect", "tailwind"),
        ("[[event]]\n" + GOOD_ENTRY.replace('purpose = "a free move"\n', ""), "event.#1.purpose", "required"),
        ("[[event]]\n" + GOOD_ENTRY + "colour = 1\n", "event.#1.colour", "not permitted"),
        ("[[event]]\n" + GOOD_ENTRY + "[[event]]\n" + GOOD_ENTRY, "event.#2.effect", "listed twice"),
    ],
)
def test_events_data_a_bad_entry_names_the_file_and_the_entry(text: str, entry: str, message: str) -> None:
    with pytest.raises(DataError) as err:
        parse_events(parse_data(text, "my-events.toml", ".toml"), "my-events.toml")
    assert err.value.file == "my-events.toml" and entry in err.value.entry
    assert message.lower() in str(err.value).lower()


# -- How the events are told -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("event", "told"),
    [
        (
            "Tailwind at c3: ship 0 has a free move this turn",
            "A Tailwind card comes up for the planet at c3: ship A has a free move this turn.",
        ),
        (
            "Ion Storm at g7: ship 1 loses an action this turn",
            "An Ion Storm card comes up for the planet at g7: ship B loses an action this turn.",
        ),
        ("Calm Star at c3: the warning is lifted", "A Calm Star card comes up for the planet at c3: the warning is lifted."),
    ],
)
def test_events_are_told_in_words(event: str, told: str) -> None:
    assert event_words(event) == told


# -- Invariants under every option the designer can switch ------------------------------------------
@settings(max_examples=examples(20), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    scenario=st.sampled_from(SCENARIO_NAMES),
    movement=st.sampled_from(["rule", "carried"]),
    free_lay=st.booleans(),
)
def test_property_every_offered_move_is_a_whole_path_and_the_game_ends(
    seed: int, players: int, scenario: str, movement: str, free_lay: bool
) -> None:
    state = new_game(players, scenario=scenario, movement=movement, free_lay=free_lay)
    rng = Rng(seed)
    limit = state.game.max_moves(players, state.options)
    while not state.is_over:
        legal = state.legal_actions()
        for action in legal:
            if isinstance(action, Move):
                assert state.why_path_illegal(state.pos[state.turn], action.path, action.jump) == ""
        state.apply(rng.choice(legal))
        assert state.move_number <= limit
