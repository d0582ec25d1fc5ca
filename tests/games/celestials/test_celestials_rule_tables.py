"""The rules' own tables of the cards and options agree with the decks and options they are made from.

The rules read a card's kind, numbers and effects, each phase's effects and the
hand and turn limits from tables made once per pair of decks and options
(``Rules``), not from the deck's cards and the options mapping; these tests
check that every table says what the deck file and the options say, so the
rules play exactly as written (tests/test_speed_equivalence.py checks whole
games against recorded ones).
"""

from __future__ import annotations

from typing import Any

import pytest

import astrarium
from astrarium.games.celestials import state as S
from astrarium.games.celestials.cards import CHOSEN, Step

GAME = astrarium.get_game("celestials")


def rules_of(seed: int, options: dict[str, Any] | None = None) -> S.Rules:
    state = GAME.new_game(2, seed, options)
    assert isinstance(state, S.CelestialsState)
    return state.rules


def steps(effects: Any) -> list[tuple[Any, int, Any]]:
    return [(e.effect, e.amount, e.target) for e in effects]


def plain(cards_steps: tuple[Step, ...] | None) -> list[tuple[Any, int, Any]]:
    return [(s.effect, s.amount, s.target) for s in cards_steps or ()]


@pytest.mark.parametrize("options", [{}, {"first": "moon", "hand_limit": 7, "turn_limit": 25, "health": 9}])
def test_card_tables_say_what_each_catalog_card_says(options: dict[str, Any]) -> None:
    rules = rules_of(1, options)
    assert len(rules.cards) == len(rules.catalog)
    for card, table in zip(rules.catalog, rules.cards, strict=True):
        assert (table.kind, table.damage, table.health, table.phases) == (card.kind, card.damage, card.health, card.phases)
        assert steps(table.on_play) == plain(card.on_play)
        assert table.activates is (card.on_activate is not None)
        assert steps(table.on_activate) == plain(card.on_activate)
        assert steps(table.on_turn_start) == plain(card.on_turn_start)


def test_phase_tables_say_what_each_deck_phase_says() -> None:
    rules = rules_of(1)
    for seat, deck in enumerate(rules.decks):
        assert [steps(e) for e in rules.phase_start[seat]] == [plain(p.start) for p in deck.phases]
        assert [steps(e) for e in rules.phase_enter[seat]] == [plain(p.enter) for p in deck.phases]


def test_limits_are_the_games_options_and_shared_only_between_games_with_the_same_options() -> None:
    changed = {"hand_limit": 7, "turn_limit": 25, "health": 9}
    default = rules_of(1)
    own = rules_of(2, changed)
    assert (default.hand_limit, default.turn_limit, default.health) == (5, 30, 20)
    assert (own.hand_limit, own.turn_limit, own.health) == (7, 25, 9)
    assert rules_of(3, changed) is own
    assert rules_of(4) is default


def test_chosen_targets_are_the_three_the_rules_test_by_identity() -> None:
    assert {S.T_CHOSEN_ENEMY, S.T_CHOSEN_FRIEND, S.T_CHOSEN_ADJACENT_ENEMY} == CHOSEN
