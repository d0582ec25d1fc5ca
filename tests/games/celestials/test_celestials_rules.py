"""The seed's rules, one test each, named after the seed's sections. Positions come from the `position` option."""

from __future__ import annotations

from pathlib import Path

import pytest
from celestials_positions import cell, players, start

import astrarium
from astrarium.core import IllegalAction, OptionError, State

GAME = astrarium.get_game("celestials")


def legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: State, *notations: str) -> State:
    for n in notations:
        state.apply(n)
    return state


# -- Players -------------------------------------------------------------------------------------


def test_players_sun_and_moon_start_with_20_health_and_5_cards() -> None:
    state = start()
    sun, moon = players(state)
    assert (sun["character"], moon["character"]) == ("Sun", "Moon")
    assert sun["health"] == moon["health"] == 20
    assert sun["hand_size"] == moon["hand_size"] == 5
    assert state.current_player == 0


def test_players_health_reduced_to_0_the_other_player_wins() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B4 solar-lion; moon health 3")
    play(state, "draw", "activate B4 face")
    assert state.is_over and state.outcome.winners == (0,)
    assert "Moon fell to 0 health" in state.outcome.reason
    assert state.returns() == [1.0, -1.0]


# -- Phases --------------------------------------------------------------------------------------


def test_phases_each_character_starts_in_its_initial_phase() -> None:
    sun, moon = players(start())
    assert (sun["phase"], moon["phase"]) == ("Dawn", "New Moon")


def test_phases_each_character_has_its_own_structure() -> None:
    sun, moon = (d.phases for d in start().rules.decks)
    assert [p.name for p in sun] == ["Dawn", "Zenith", "Dusk"]
    assert [p.kind.value for p in sun] == ["setup", "damage", "falloff"]
    assert [p.name for p in moon] == ["New Moon", "Waxing", "Full Moon", "Waning"]
    assert [p.kind.value for p in moon] == ["setup", "setup", "damage", "falloff"]


def test_phases_advance_moves_forward_and_ends_the_turn() -> None:
    state = start("sun hand advance solar-lion sunspear")
    play(state, "draw", "advance")
    assert players(state)[0]["phase"] == "Zenith"
    assert "advance" in players(state)[0]["discard"]
    # the plays are over: only the discard-and-draw step remains, then the Moon's turn
    assert all(a == "keep" or a.startswith("discard ") for a in legal(state))
    play(state, "keep")
    assert state.current_player == 1


def test_phases_advance_from_the_final_phase_loops_to_the_initial_phase() -> None:
    state = start("sun phase Dusk; sun hand advance")
    play(state, "draw", "advance")
    assert players(state)[0]["phase"] == "Dawn"


def test_phases_moon_waxing_start_mends_every_moon_card_up_to_its_maximum() -> None:
    state = start("sun hand advance; moon phase Waxing; moon board A4 night-wolf 2; moon board B4 tide-serpent")
    play(state, "draw", "end", "keep")
    assert state.current_player == 1
    assert cell(state, "A4")["health"] == 3 and cell(state, "B4")["health"] == 5


def test_phases_sun_dusk_start_heals_the_sun_and_burns_the_moon() -> None:
    state = start("sun phase Dusk; sun health 15")
    assert players(state)[0]["health"] == 17 and players(state)[1]["health"] == 19


def test_phases_sun_entering_dusk_burns_the_moon_once() -> None:
    state = start("sun phase Zenith; sun health 15; sun hand advance")
    play(state, "nodraw", "advance")
    assert players(state)[0]["phase"] == "Dusk"
    assert players(state)[1]["health"] == 19 and players(state)[0]["health"] == 15  # the entry burns at once; no heal yet
    play(state, "end", "keep", "nodraw")  # the Moon's turn (her hand is full), then the Sun's next turn, still in Dusk
    assert players(state)[0]["health"] == 17 and players(state)[1]["health"] == 18  # only the start's burn and heal: no second entry


def test_phases_moon_waning_start_heals_the_moon_and_swells_her_cards_past_their_maximum() -> None:
    state = start("sun hand advance; moon phase Waning; moon health 15; moon board A4 night-wolf")
    play(state, "draw", "end", "keep")
    assert players(state)[1]["health"] == 16 and cell(state, "A4")["health"] == 4 + 1


# -- Turns ---------------------------------------------------------------------------------------


def test_turns_draw_a_card_up_to_a_hand_of_5() -> None:
    full = start()
    assert "draw" not in legal(full)  # 5 cards in hand: the draw step is skipped
    assert full.view(0)["step"] == "main"
    state = start("sun hand advance solar-lion")
    assert legal(state) == ["draw", "nodraw"]
    top = state.full_view()["players"][0]["draw_order"][-1]
    play(state, "draw")
    assert sorted(players(state)[0]["hand"]) == sorted(["advance", "solar-lion", top])


def test_turns_every_step_is_optional() -> None:
    state = start("sun hand advance solar-lion")
    play(state, "nodraw", "end", "keep")
    assert state.current_player == 1
    assert players(state)[0]["hand"] == ["advance", "solar-lion"]


def test_turns_discard_and_draw_a_card() -> None:
    state = start("sun hand advance solar-lion sunspear; sun pile phoenix radiance")
    play(state, "nodraw", "end", "discard sunspear")
    sun = players(state)[0]
    assert sun["discard"][-1] == "sunspear"
    assert sorted(sun["hand"]) == ["advance", "phoenix", "solar-lion"]
    assert state.current_player == 1


def test_turns_without_advance_the_turn_still_ends() -> None:
    state = start("sun hand solar-lion")
    play(state, "draw", "end")
    assert players(state)[0]["phase"] == "Dawn"


# -- Cards ---------------------------------------------------------------------------------------


def test_cards_activation_only_in_the_damage_phase() -> None:
    state = start("sun phase Dawn; sun hand advance; sun board B2 solar-lion; moon board B3 night-wolf")
    play(state, "draw")
    assert not any(a.startswith("activate") for a in legal(state))
    with pytest.raises(IllegalAction, match="Damage phase"):
        state.apply("activate B2 B3")


def test_cards_default_activation_damages_an_adjacent_card_by_its_damage() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 tide-serpent")
    play(state, "draw")
    assert "activate B2 B3" in legal(state)
    play(state, "activate B2 B3")
    assert cell(state, "B3")["health"] == 5 - 3


def test_cards_activation_exhausts_the_card() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 tide-serpent")
    play(state, "draw", "activate B2 B3")
    assert cell(state, "B2")["exhausted"]
    assert "activate B2 B3" not in legal(state)
    with pytest.raises(IllegalAction, match="exhausted"):
        state.apply("activate B2 B3")


def test_cards_exhausted_cards_recover_at_the_end_of_their_owners_turn() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 tide-serpent")
    play(state, "draw", "activate B2 B3", "end")
    assert cell(state, "B2")["exhausted"]
    play(state, "keep")
    assert not cell(state, "B2")["exhausted"]


def test_cards_an_exhausted_card_stays_exhausted_through_its_owners_next_turn() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion exhausted; moon board B3 tide-serpent")
    play(state, "draw")
    assert not any(a.startswith("activate B2") or a.startswith("move B2") for a in legal(state))


def test_cards_custom_activation_replaces_the_default_attack() -> None:
    state = start(
        "sun phase Zenith; sun hand advance; sun board A0 heliostat; "
        "moon board A3 night-wolf; moon board A4 tide-serpent; moon board B3 moth-swarm"
    )
    play(state, "draw")
    assert "activate A0" in legal(state)
    play(state, "activate A0")
    assert cell(state, "A3")["health"] == 4 - 2 and cell(state, "A4")["health"] == 5 - 2
    assert cell(state, "B3")["health"] == 3  # another lane: untouched
    assert players(state)[1]["health"] == 20  # an activation without a chosen target hits no player


def test_creatures_are_summoned_on_a_defensive_position() -> None:
    state = start("sun hand solar-lion advance")
    play(state, "draw")
    plays = [a for a in legal(state) if a.startswith("play solar-lion")]
    assert plays == ["play solar-lion A1", "play solar-lion B1", "play solar-lion C1", "play solar-lion D1"]
    with pytest.raises(IllegalAction, match="defensive position"):
        state.apply("play solar-lion A2")


def test_creatures_manoeuvre_once_per_turn_which_exhausts_them() -> None:
    state = start("sun hand advance; sun board B1 solar-lion")
    play(state, "draw", "move B1 B2")
    assert cell(state, "B2")["exhausted"] and cell(state, "B1") is None
    assert not any(a.startswith("move B2") for a in legal(state))


def test_structures_may_only_be_positioned_in_the_back_of_a_lane() -> None:
    state = start("sun hand sun-temple advance")
    play(state, "draw")
    assert [a for a in legal(state) if a.startswith("play sun-temple")] == [
        "play sun-temple A0",
        "play sun-temple B0",
        "play sun-temple C0",
        "play sun-temple D0",
    ]
    with pytest.raises(IllegalAction, match="back of a lane"):
        state.apply("play sun-temple A1")


def test_structures_do_not_manoeuvre() -> None:
    state = start("sun hand advance; sun board A0 sun-temple")
    play(state, "draw")
    with pytest.raises(IllegalAction, match="only creatures manoeuvre"):
        state.apply("move A0 A1")


def test_spells_activate_immediately_and_go_to_the_graveyard() -> None:
    state = start("sun phase Zenith; sun hand sunspear advance; moon board C4 night-wolf 4")
    play(state, "draw", "play sunspear C4")
    assert cell(state, "C4") is None
    assert players(state)[0]["graveyard"] == ["sunspear"]
    assert players(state)[1]["graveyard"] == ["night-wolf"]


def test_cards_phase_requirements_limit_when_a_card_is_played() -> None:
    state = start("sun phase Dawn; sun hand sunspear advance; moon board C4 night-wolf")
    play(state, "draw")
    assert not any(a.startswith("play sunspear") for a in legal(state))
    with pytest.raises(IllegalAction, match="only in Zenith"):
        state.apply("play sunspear C4")


def test_cards_effect_draw_on_play() -> None:
    state = start("sun hand dawn-herald advance; sun pile phoenix radiance")
    play(state, "nodraw", "play dawn-herald A1")
    assert sorted(players(state)[0]["hand"]) == ["advance", "phoenix"]


def test_cards_effect_exhaust_lane_enemies() -> None:
    state = start("sun hand advance; sun board C2 solar-lion; moon hand owl-sentinel advance; moon phase Waning")
    play(state, "draw", "end", "keep", "draw", "play owl-sentinel C4")
    assert cell(state, "C2")["exhausted"]
    play(state, "end", "keep")
    assert cell(state, "C2")["exhausted"]  # frozen through the Sun's turn
    assert not any(a.startswith("move C2") for a in legal(state))


def test_cards_effect_turn_start_mends_self_but_not_above_the_maximum() -> None:
    state = start("sun hand advance; sun board A1 phoenix 1; sun board B1 phoenix 3")
    assert cell(state, "A1")["health"] == 2 and cell(state, "B1")["health"] == 3


def test_cards_effect_adjacent_enemies() -> None:
    state = start(
        "moon phase Full Moon; moon hand advance; moon board B3 tide-serpent; "
        "sun board B2 solar-lion 9; sun board A3 dawn-herald 9; sun board C3 phoenix 9; sun hand advance",
        first="moon",
    )
    play(state, "draw", "activate B3")
    # the coils take 2 from every adjacent enemy card at once
    assert [cell(state, at)["health"] for at in ("B2", "A3", "C3")] == [7, 7, 7]


# -- Card piles ----------------------------------------------------------------------------------


def test_card_piles_a_deck_is_3_advance_and_two_of_each_listed_card() -> None:
    state = start()
    for seat, deck in enumerate(state.rules.decks):
        p = players(state)[seat]
        cards = p["hand"] + p["draw_order"]
        assert cards.count("advance") == 3
        for card in deck.cards[1:]:
            assert cards.count(card.key) == 2
        assert len(cards) == 3 + 2 * (len(deck.cards) - 1)


def test_card_piles_a_dead_card_goes_to_the_graveyard() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 night-wolf 3")
    play(state, "draw", "activate B2 B3")
    assert cell(state, "B3") is None and players(state)[1]["graveyard"] == ["night-wolf"]


def test_card_piles_both_players_decide_to_reshuffle_right_after_the_last_card_is_drawn() -> None:
    state = start("sun hand advance; sun pile phoenix; sun discard radiance; moon hand advance; moon pile; sun graveyard sunspear")
    assert players(state)[1]["draw_pile"] == 0
    play(state, "draw")
    assert state.current_player == 0 and legal(state) == ["reshuffle yes", "reshuffle no"]
    play(state, "reshuffle yes")
    assert state.current_player == 1 and legal(state) == ["reshuffle yes", "reshuffle no"]
    play(state, "reshuffle yes")
    sun, moon = players(state)
    assert sun["discard"] == [] and "radiance" in sun["draw_order"]
    assert moon["discard"] == [] and moon["draw_pile"] > 0
    assert sun["graveyard"] == ["sunspear"]  # graveyards stay
    assert state.current_player == 0 and state.view(0)["step"] == "main"


def test_card_piles_one_no_and_there_is_no_reshuffle_and_the_decision_is_final() -> None:
    state = start("sun hand advance; sun pile phoenix; sun discard radiance; moon hand advance; moon pile")
    discard = players(state)[0]["discard"]
    assert "radiance" in discard
    play(state, "draw", "reshuffle yes", "reshuffle no")
    sun = players(state)[0]
    assert sun["discard"] == discard and sun["draw_pile"] == 0
    assert state.view(None)["reshuffle_open"] is False
    play(state, "end", "discard phoenix")
    assert state.current_player == 1 and not state.view(None)["votes"]


def test_card_piles_play_stops_at_the_question_and_the_card_resolves_after_the_answer() -> None:
    # Dawn Herald draws, then advances the phase: its draw empties the last pile, so the advance waits.
    state = start("sun hand advance dawn-herald solar-lion; sun pile phoenix; sun discard radiance; moon hand advance; moon pile")
    play(state, "nodraw", "play dawn-herald A1")
    assert legal(state) == ["reshuffle yes", "reshuffle no"]
    assert state.view(None)["players"][0]["phase"] == "Dawn"
    play(state, "reshuffle no")
    assert state.view(None)["players"][0]["phase"] == "Zenith"
    assert state.view(0)["step"] == "discard"


def test_card_piles_a_game_that_ends_after_the_answer_asks_nothing_more(tmp_path: Path) -> None:
    # A designer's Sun deck whose Zenith burns the Moon for 20 on entry: the advance the question held back ends the game.
    deck = (Path(astrarium.games.celestials.__file__).parent / "sun.toml").read_text(encoding="utf-8")
    zenith = '{ name = "Zenith", kind = "damage" },'
    assert zenith in deck
    path = tmp_path / "sun.toml"
    path.write_text(deck.replace(zenith, zenith[:-3] + ', enter = [{ effect = "damage", amount = 20, target = "enemy_player" }] },'))
    position = "sun hand advance dawn-herald solar-lion; sun pile phoenix; sun discard radiance; moon hand advance; moon pile"
    for answers in (["reshuffle no"], ["reshuffle yes", "reshuffle yes"]):
        state = start(position, sun_deck=str(path))
        play(state, "nodraw", "play dawn-herald A1")
        assert not state.is_over and legal(state) == ["reshuffle yes", "reshuffle no"]
        play(state, *answers)
        assert state.is_over and state.outcome is not None and state.outcome.winners == (0,)
        assert state.view(None)["votes"] == []


def test_card_piles_empty_draw_and_discard_piles_draw_nothing() -> None:
    state = start("sun hand advance; sun pile; moon hand advance; moon pile")
    assert players(state)[0]["draw_pile"] == 0
    assert "draw" not in legal(state)
    play(state, "end", "discard advance")
    assert players(state)[0]["hand"] == []


# -- Health --------------------------------------------------------------------------------------


def test_health_a_card_dies_when_its_health_drops_to_0() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 night-wolf 4")
    play(state, "draw", "activate B2 B3")
    assert cell(state, "B3")["health"] == 1
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; moon board B3 night-wolf 3")
    play(state, "draw", "activate B2 B3")
    assert cell(state, "B3") is None


def test_health_a_card_may_be_healed_above_its_maximum() -> None:
    state = start("sun phase Dawn; sun hand radiance advance; sun board A1 solar-lion; sun health 10")
    play(state, "draw", "play radiance")
    assert cell(state, "A1")["health"] == 4 + 1
    assert players(state)[0]["health"] == 13


def test_health_a_player_is_not_healed_above_the_starting_health() -> None:
    state = start("sun phase Dawn; sun hand radiance advance; sun health 19")
    play(state, "draw", "play radiance")
    assert players(state)[0]["health"] == 20


# -- Board ---------------------------------------------------------------------------------------


def test_board_a_card_attacks_only_orthogonally_adjacent_cards() -> None:
    state = start(
        "sun phase Zenith; sun hand advance; sun board B2 solar-lion; "
        "moon board B3 night-wolf; moon board C3 moth-swarm; moon board A2 tide-serpent"
    )
    play(state, "draw")
    assert sorted(a for a in legal(state) if a.startswith("activate B2")) == ["activate B2 A2", "activate B2 B3"]
    with pytest.raises(IllegalAction, match="orthogonally adjacent"):
        state.apply("activate B2 C3")


def test_board_direct_attack_from_the_opponents_defence_in_a_lane_without_structure() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B4 solar-lion; sun board C4 phoenix; moon board C5 moon-well")
    play(state, "draw")
    assert "activate B4 face" in legal(state) and "activate C4 face" not in legal(state)
    with pytest.raises(IllegalAction, match="without an opposing structure"):
        state.apply("activate C4 face")
    play(state, "activate B4 face")
    assert players(state)[1]["health"] == 17


def test_board_direct_attack_is_blocked_only_by_the_opponents_structure() -> None:
    # The Sun's own structure never stands in the Moon's back row: a position putting it there is refused,
    # since in it the Sun's own Temple would seem to guard the Moon.
    with pytest.raises(OptionError, match="the Sun's structures stand only at the back of her lanes"):
        start("sun phase Zenith; sun hand advance; sun board B5 sun-temple; sun board B4 solar-lion")
    # A Sun creature on the Moon's structure position guards nothing either.
    state = start("sun phase Zenith; sun hand advance; sun board B5 phoenix; sun board B4 solar-lion")
    play(state, "draw")
    assert "activate B4 face" in legal(state)


def test_board_move_to_any_lane_at_the_same_position_in_friendly_territory() -> None:
    state = start("sun hand advance; sun board B1 solar-lion; sun board D1 phoenix")
    play(state, "draw")
    moves = [a for a in legal(state) if a.startswith("move B1")]
    assert moves == ["move B1 A1", "move B1 B0", "move B1 B2", "move B1 C1"]  # D1 is occupied


def test_board_only_orthogonal_steps_in_enemy_territory() -> None:
    state = start("sun hand advance; sun board B3 solar-lion")
    play(state, "draw")
    assert sorted(a for a in legal(state) if a.startswith("move B3")) == [
        "move B3 A3",
        "move B3 B2",
        "move B3 B4",
        "move B3 C3",
    ]
    with pytest.raises(IllegalAction, match="orthogonally"):
        state.apply("move B3 D3")


def test_board_creatures_may_not_manoeuvre_to_occupied_locations() -> None:
    state = start("sun hand advance; sun board B2 solar-lion; moon board B3 night-wolf")
    play(state, "draw")
    with pytest.raises(IllegalAction, match="occupied"):
        state.apply("move B2 B3")


# -- End -----------------------------------------------------------------------------------------


def test_end_turn_limit_more_health_wins() -> None:
    state = start("sun hand advance; moon hand advance; moon health 19", turn_limit=1)
    play(state, "draw", "end", "keep", "draw", "end", "keep")
    assert state.is_over and state.outcome.winners == (0,) and "turn limit" in state.outcome.reason


def test_end_turn_limit_equal_health_board_health_decides_else_a_draw() -> None:
    state = start("sun hand advance; moon hand advance; moon board A4 night-wolf", turn_limit=1)
    play(state, "draw", "end", "keep", "draw", "end", "keep")
    assert state.outcome.winners == (1,) and "on the board" in state.outcome.reason
    state = start("sun hand advance; moon hand advance", turn_limit=1)
    play(state, "draw", "end", "keep", "draw", "end", "keep")
    assert state.outcome.winners == (0, 1) and state.returns() == [0.0, 0.0]


def test_end_moon_may_go_first() -> None:
    assert start(first="moon").current_player == 1


def _all_but(seat: int, keep: list[str]) -> str:
    """Every listed card of a deck except ``keep``, for a graveyard statement (Advance Phase cards never go there)."""
    cards = [c.key for c in GAME.new_game(2, 0).rules.decks[seat].cards[1:] for _ in range(2)]
    for k in keep:
        cards.remove(k)
    return " ".join(cards)


def test_card_piles_after_two_yes_answers_the_question_comes_again() -> None:
    sun_keep = ["phoenix", "radiance", "solar-lion"]
    moon_keep = ["moonbeam", "night-wolf"]
    state = start(
        f"sun hand advance advance advance solar-lion; sun pile phoenix; sun discard radiance; sun graveyard {_all_but(0, sun_keep)}; "
        f"moon hand advance advance advance night-wolf; moon pile; moon discard moonbeam; moon graveyard {_all_but(1, moon_keep)}"
    )
    play(state, "draw", "reshuffle yes", "reshuffle yes")
    sun, moon = players(state)
    assert (sun["draw_order"], moon["draw_order"]) == (["radiance"], ["moonbeam"])
    play(state, "end", "discard phoenix")  # the Sun draws radiance; the Moon's pile still holds a card
    assert state.current_player == 1 and not state.view(None)["votes"]
    play(state, "draw")  # the last card of both draw piles: the Moon, who drew it, answers first
    assert state.view(None)["votes"] == [1, 0] and state.current_player == 1
    with pytest.raises(IllegalAction, match="reshuffle"):
        state.apply("end")


def test_cards_the_default_attack_may_hit_any_neighbouring_card_even_a_friendly_one() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B2 solar-lion; sun board B3 phoenix 5")
    play(state, "draw", "activate B2 B3")
    assert cell(state, "B3")["health"] == 2


def test_board_no_direct_attack_away_from_the_opponents_defence() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B3 solar-archer; moon board B2 night-wolf")
    play(state, "draw")
    assert "activate B3 face" not in legal(state)  # not on the Moon's defence position
    assert "activate B3 B2" in legal(state)  # the archer's own activation: any enemy card


def test_board_a_creature_may_stand_on_an_empty_structure_position_and_blocks_a_structure_there() -> None:
    state = start("sun hand advance; sun board B4 solar-lion; moon hand silver-tower advance")
    play(state, "draw", "move B4 B5", "end", "keep", "draw")
    assert cell(state, "B5")["card"] == "solar-lion"
    assert "play silver-tower B5" not in legal(state)
    with pytest.raises(IllegalAction, match="occupied"):
        state.apply("play silver-tower B5")


def test_board_a_creature_on_the_structure_position_does_not_guard_the_lane() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B4 solar-lion; sun board B5 phoenix")
    play(state, "draw")
    assert "activate B4 face" in legal(state)
