"""The decks' own design (rules.md, "The decks"): the cards that advance the phase, burn, freeze and heal.

The seed leaves the cards to the designer's lists; these tests pin the shipped
decks' mechanics, one per card whose effect is more than a number, and the
evaluation that makes the computer players use the phase cycle.
"""

from __future__ import annotations

from typing import Any

import pytest
from celestials_positions import cell, players, start

import astrarium
from astrarium.agents import make_agent
from astrarium.core import IllegalAction, State
from astrarium.games.celestials.cards import Card, Deck, Kind, builtin_deck
from astrarium.games.celestials.metrics import final_metrics

GAME = astrarium.get_game("celestials")


def play(state: State, *notations: str) -> State:
    for n in notations:
        state.apply(n)
    return state


# -- Phases: cards that advance ------------------------------------------------------------------------


def test_phases_dawn_herald_draws_advances_the_phase_and_ends_the_plays() -> None:
    state = start("sun hand dawn-herald solar-lion; sun pile phoenix sunspear")
    play(state, "nodraw", "play dawn-herald A1")
    sun = players(state)[0]
    assert sun["phase"] == "Zenith"
    assert sorted(sun["hand"]) == ["phoenix", "solar-lion"]  # drew the top card
    assert cell(state, "A1")["card"] == "dawn-herald"
    assert [str(a) for a in state.legal_actions()][0] == "keep"  # the plays ended: step 4 follows


def test_phases_a_card_that_advances_loops_from_the_last_phase() -> None:
    state = start("sun phase Dusk; sun hand dawn-herald advance")
    play(state, "nodraw", "play dawn-herald B1")
    assert players(state)[0]["phase"] == "Dawn"


def test_phases_eclipse_freezes_the_suns_board_and_turns_the_moons_cycle() -> None:
    state = start("moon hand eclipse moth-swarm; sun board A1 phoenix; sun board B1 solar-lion", first="moon")
    play(state, "nodraw", "play eclipse")
    assert players(state)[1]["phase"] == "Waxing"
    assert cell(state, "A1")["exhausted"] and cell(state, "B1")["exhausted"]
    assert players(state)[1]["graveyard"] == ["eclipse"]
    with pytest.raises(IllegalAction):
        state.apply("play moth-swarm A4")  # the plays have ended


def test_phases_eclipse_at_full_moon_ends_the_strike_and_brings_the_waning() -> None:
    """Design notes, "Reaching the Waning": Eclipse is cast at Full Moon too, so leaving the Damage phase freezes the Sun."""
    state = start("moon phase Full Moon; moon hand eclipse moth-swarm; sun board C1 solar-lion", first="moon")
    play(state, "nodraw", "play eclipse")
    assert players(state)[1]["phase"] == "Waning"
    assert cell(state, "C1")["exhausted"]
    assert [str(a) for a in state.legal_actions()][0] == "keep"  # the plays ended: step 4 follows


def test_phases_eclipse_cannot_be_cast_while_waxing() -> None:
    """Eclipse stays out of the Waxing: from there it would jump the Moon into her Full Moon with the Sun frozen."""
    state = start("moon phase Waxing; moon hand eclipse moth-swarm", first="moon")
    play(state, "nodraw")
    assert "play eclipse" not in [str(a) for a in state.legal_actions()]
    before = state.to_record()
    with pytest.raises(IllegalAction):
        state.apply("play eclipse")
    assert state.to_record() == before


# -- The decks: burst and face damage, freezing, endurance ------------------------------------------


def test_decks_solar_lion_burns_the_moon_for_2_as_it_lands() -> None:
    state = start("sun hand solar-lion advance")
    play(state, "nodraw", "play solar-lion C1")
    assert players(state)[1]["health"] == 18


def test_decks_sunspear_and_solar_flare_burn_the_moon_herself() -> None:
    state = start("sun phase Zenith; sun hand sunspear solar-flare advance; moon board B4 tide-serpent")
    play(state, "nodraw", "play sunspear B4")
    assert cell(state, "B4")["health"] == 1 and players(state)[1]["health"] == 19
    play(state, "play solar-flare")
    assert cell(state, "B4") is None and players(state)[1]["health"] == 17


def test_decks_night_wolf_bite_wounds_and_freezes_a_neighbour() -> None:
    state = start("moon phase Full Moon; moon hand advance; moon board B3 night-wolf; sun board B2 solar-lion", first="moon")
    play(state, "nodraw", "activate B3 B2")
    lion = cell(state, "B2")
    assert lion["health"] == 3 and lion["exhausted"]
    play(state, "end", "keep")  # the Sun's turn: the lion stays frozen through it
    assert not any(str(a).startswith(("activate B2", "move B2")) for a in state.legal_actions())


def test_decks_moonbeam_wounds_and_freezes_one_card_anywhere() -> None:
    state = start("moon phase Waning; moon hand moonbeam advance; sun board D0 heliostat", first="moon")
    play(state, "nodraw", "play moonbeam D0")
    assert cell(state, "D0")["health"] == 2 and cell(state, "D0")["exhausted"]


def test_decks_high_tide_wears_down_enemies_and_heals_the_moon_and_her_cards() -> None:
    state = start(
        "moon phase Full Moon; moon health 15; moon hand high-tide advance; moon board A4 owl-sentinel; sun board C1 phoenix", first="moon"
    )
    play(state, "nodraw", "play high-tide")
    assert cell(state, "C1")["health"] == 2 and cell(state, "A4")["health"] == 6 and players(state)[1]["health"] == 16


def test_decks_moon_well_does_something_at_full_health() -> None:
    """The Well heals its own lane past the maximum, so it grows even when the Moon is at full health."""
    state = start("sun hand advance; moon board A5 moon-well; moon board A4 owl-sentinel")
    play(state, "nodraw", "end", "keep")
    assert players(state)[1]["health"] == 20
    assert cell(state, "A5")["health"] == 6 and cell(state, "A4")["health"] == 6


def test_decks_a_cards_printed_damage_is_what_its_activation_deals() -> None:
    """Solar Archer and Night Wolf: the stat line never promises more than the shot or bite does."""
    for name in ("sun", "moon"):
        for card in builtin_deck(name).cards:
            dealt = [s.amount for s in card.on_activate or () if s.effect.value == "damage"]
            if dealt:
                assert card.damage <= max(dealt), card.key


def shape(card: Card) -> tuple[Any, ...]:
    """A card with its numbers taken away: type, default attack or not, and each effect list as (effect, target) pairs."""

    def steps(listed: tuple[Any, ...] | None) -> tuple[tuple[str, str], ...] | None:
        return None if listed is None else tuple((s.effect.value, s.target.value) for s in listed)

    attacks = card.kind is not Kind.SPELL and card.on_activate is None and card.damage > 0
    return (card.kind.value, attacks, steps(card.on_play), steps(card.on_activate), steps(card.on_turn_start))


def reskins(sun: Deck, moon: Deck) -> list[tuple[str, str]]:
    """Pairs (Sun card, Moon card) that differ only in numbers (and names and phases)."""
    return [(a.key, b.key) for a in sun.cards[1:] for b in moon.cards[1:] if shape(a) == shape(b)]


def test_decks_no_two_cards_of_the_two_decks_differ_only_in_numbers() -> None:
    """The balance target of docs/balance/celestials.md: no card of one deck is another's with other numbers."""
    assert reskins(builtin_deck("sun"), builtin_deck("moon")) == []


def test_decks_the_reskin_check_finds_a_pair_that_differs_only_in_numbers() -> None:
    """The check itself: the old Sunspear and Moonbeam (damage 4 / 4, one chosen enemy) are found."""
    sun, moon = builtin_deck("sun"), builtin_deck("moon")
    spear = next(c for c in sun.cards if c.key == "sunspear")
    beam = next(c for c in moon.cards if c.key == "moonbeam")
    plain_spear = type(spear)(spear.key, spear.name, spear.kind, phases=spear.phases, on_play=spear.on_play[:1])
    plain_beam = type(beam)(beam.key, beam.name, beam.kind, phases=beam.phases, on_play=beam.on_play[:1])
    assert shape(plain_spear) == shape(plain_beam)
    assert shape(spear) != shape(beam)


# -- Evaluation: the phase cycle has a value ------------------------------------------------------------


def test_evaluation_a_board_is_worth_more_in_the_damage_phase() -> None:
    dawn = start("sun hand advance; sun board B1 solar-lion")
    zenith = start("sun phase Zenith; sun hand advance; sun board B1 solar-lion")
    assert zenith.evaluate(0) > dawn.evaluate(0)


def test_evaluation_the_easy_player_advances_to_strike() -> None:
    """Under the old evaluation advancing only cost a card, so greedy never advanced."""
    state = start("sun hand advance sunspear; sun board B1 solar-lion; moon board B2 owl-sentinel")
    play(state, "nodraw")
    assert str(make_agent("greedy", seed=1).choose(state)) == "advance"


def test_evaluation_does_not_read_the_opponents_hidden_hand() -> None:
    one = start("moon hand moonbeam high-tide moth-swarm; moon phase Full Moon")
    other = start("moon hand advance advance eclipse; moon phase Full Moon")
    assert one.evaluate(0) == other.evaluate(0)


def test_evaluation_greedy_mirror_games_play_the_whole_cycle() -> None:
    """Four greedy mirror games (the `easy` level): both sides advance and strike in their Damage phase (the game's metrics)."""
    found = [final_metrics(greedy_mirror(seed)) for seed in range(4)]
    assert sum(m["advances"] or 0 for m in found) >= 8
    for damage in ("entered_sun_zenith", "entered_moon_full_moon"):
        assert sum(m[damage] or 0 for m in found) >= 3


def greedy_mirror(seed: int) -> State:
    """A finished game of greedy against greedy, seeded."""
    state = GAME.new_game(2, seed, {})
    agents = [make_agent("greedy", seed=seed * 1000 + seat, game=GAME.id) for seat in (0, 1)]
    while (seat := state.current_player) is not None:
        state.apply(agents[seat].choose(state))
    return state


def test_metrics_a_card_drawn_and_never_used_counts_0_and_one_never_drawn_counts_none() -> None:
    """The usage target's column: played or activated when drawn 1, drawn and never used 0, never drawn left out."""
    state = greedy_mirror(0)
    found = final_metrics(state)
    used = {k: v for k, v in found.items() if k.startswith("used_")}
    assert set(used) == {f"used_{d.character.lower()}_{c.key.replace('-', '_')}" for d in state.rules.decks for c in d.cards}
    assert any(v == 1.0 for v in used.values()) and all(v in (0.0, 1.0, None) for v in used.values())
    assert found["entered_sun_dawn"] == 1.0 and found["entered_moon_new_moon"] == 1.0  # the first phase counts as entered
    assert found["knockout"] == float(not state.outcome.reason.startswith("turn limit"))
