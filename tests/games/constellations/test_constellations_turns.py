"""Seed sections 5 (actions), 6 (cards), 7 (points); the end of the game, views and hidden hands."""

from __future__ import annotations

import json

import pytest
from rich.text import Text

import astrarium
from astrarium.core import IllegalAction, Rng
from astrarium.games.constellations.cards import Card

GAME = astrarium.get_game("constellations")
# Found twice (up and down) before rotating the yellow dwarf at i1, three times after:
# the gas giant at h1 moves to i2, into the planet's right line.
POINTS_BOARD = ".G.....GY\n.P.......\n.G......."
# A rotation around g1 is legal (its rings hold gas giants) but leaves the board as it is.
STILL_BOARD = "PGGGG.Y"
NEVER = "kkkkk/1"


def new(board: str, deck: list[str], players: int = 1, **options):
    return GAME.new_game(players, 0, {"board": board, "deck": deck, **options})


def test_section7_three_points_found_three_times_is_twelve() -> None:
    assert Card.parse("ryw/3").score(3) == 3 + 4 + 5 == 12


def test_section7_seed_example_on_the_board() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER])
    assert state.found("g") == 2
    state.apply("rot i1")
    assert state.view(0)["board"] == ".G......Y\n.P......G\n.G......."
    assert state.found("g") == 3
    state.apply("play g/3")
    assert state.view(0)["scores"] == [12]
    assert state.view(0)["played"] == [[0, "g/3", 3, 12]]


def test_section7_each_further_constellation_is_worth_one_more() -> None:
    assert [Card.parse("gy/2").score(n) for n in range(5)] == [0, 2, 5, 9, 14]


def test_section5_play_several_cards_then_discard_and_refill_in_deck_order() -> None:
    deck = ["g/3", "g/1", NEVER, "b/1", "y/1", "r/1"]
    state = new(POINTS_BOARD, deck)
    state.apply("rot i1")
    state.apply("play g/3")
    assert state.view(0)["phase"] == "play"  # g/1 is still playable
    state.apply("play g/1")
    view = state.view(0)
    # No card left is found, so the turn ended by itself and the hand was refilled from the top.
    assert view["scores"] == [12 + 6]
    assert view["hand"] == [NEVER, "b/1", "y/1"]
    assert view["deck"] == 1
    assert view["phase"] == "rotate" and view["round"] == 2


def test_section5_a_turn_must_start_with_a_rotation() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER])
    before = json.dumps(state.full_view(), sort_keys=True)
    with pytest.raises(IllegalAction, match="rotate first"):
        state.apply("play g/3")
    with pytest.raises(IllegalAction, match="rotate first"):
        state.apply("end")
    assert json.dumps(state.full_view(), sort_keys=True) == before
    assert state.history == []


def test_section5_only_cards_found_at_least_once_may_be_played() -> None:
    state = new(POINTS_BOARD, ["g/3", "y/1", NEVER, NEVER])
    state.apply("rot i1")
    assert [str(a) for a in state.legal_actions()] == ["play g/3", "end"]
    with pytest.raises(IllegalAction, match="not found"):
        state.apply("play y/1")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("play gg/5")


def test_section5_end_keeps_playable_cards_for_later() -> None:
    state = new(STILL_BOARD, ["g/1", "k/1", "k/1", "k/1", "k/1"], players=2)
    state.apply("rot g1")
    state.apply("end")
    assert state.current_player == 1
    assert state.full_view()["hands"][0] == ["g/1", "k/1", "k/1"]


def test_section5_turn_ends_by_itself_when_nothing_is_playable() -> None:
    state = new(STILL_BOARD, [NEVER] * 8, players=2)
    state.apply("rot g1")
    assert state.current_player == 1 and state.view(1)["phase"] == "rotate"


def test_variant_swap_replaces_the_rotation_discards_and_refills() -> None:
    state = new(POINTS_BOARD, [NEVER, "g/3", "gy/2", "b/1", "y/1", "r/1", "k/1"], players=2, swap=True)
    assert "swap kkkkk/1" in [str(a) for a in state.legal_actions()]
    state.apply("swap kkkkk/1")
    view = state.full_view()
    # The turn ended at once: no rotation, the card is on the public swap pile, the hand refilled from the top.
    assert view["board"] == ".G.....GY\n.P.......\n.G......."
    assert view["swapped"] == [[0, NEVER]] and view["played"] == []
    assert view["hands"][0] == ["g/3", "gy/2", "k/1"]
    assert view["deck"] == 0 and state.current_player == 1
    assert state.view(1)["swapped"] == [[0, NEVER]]
    assert f"Last swap: seat 0 discarded {NEVER}" in Text.from_markup(state.render(1)).plain


def test_variant_swap_is_off_by_default_and_refused_with_a_reason() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER], players=2)
    assert not any(str(a).startswith("swap") for a in state.legal_actions())
    before = json.dumps(state.full_view(), sort_keys=True)
    with pytest.raises(IllegalAction, match="option swap"):
        state.apply("swap g/3")
    on = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER], players=2, swap=True)
    with pytest.raises(IllegalAction, match="not in your hand"):
        on.apply("swap gg/5")
    on.apply("rot i1")
    with pytest.raises(IllegalAction, match="already rotated"):
        on.apply("swap g/3")
    assert json.dumps(state.full_view(), sort_keys=True) == before


def test_section6_cards_have_one_to_five_colours() -> None:
    assert Card.parse("bgyrw/9") == Card("bgyrw", 9)
    for bad in ["bgyrwk/9", "/3", "x/1", "g/0", "g3"]:
        with pytest.raises(ValueError):
            Card.parse(bad)


def test_end_when_the_deck_runs_out_the_round_is_finished() -> None:
    state = new(STILL_BOARD, ["g/1", NEVER], players=2, hand_size=1)
    state.apply("rot g1")
    state.apply("play g/1")  # seat 0 cannot refill: the deck has run out
    assert not state.is_over and state.current_player == 1
    state.apply("rot g1")  # seat 1 plays the last turn of the round
    assert state.is_over
    assert "deck ran out in round 1" in state.outcome.reason
    assert state.outcome.winners == (0,)
    assert state.returns() == [1.0, -1.0]


def test_end_after_max_rounds() -> None:
    state = new(STILL_BOARD, [NEVER] * 3, max_rounds=2)
    state.apply("rot g1")
    assert not state.is_over
    state.apply("rot g1")
    assert state.is_over and "2 rounds" in state.outcome.reason


def test_end_when_every_card_is_played_and_ties_share_the_win() -> None:
    state = new(STILL_BOARD, ["g/1", "g/1"], players=2, hand_size=1)
    for _ in range(2):
        state.apply("rot g1")
        state.apply("play g/1")
    assert state.is_over and "every constellation card" in state.outcome.reason
    assert state.outcome.winners == (0, 1)
    assert state.returns() == [0.0, 0.0]  # everyone tied: a draw


def test_tied_top_scores_share_the_win() -> None:
    state = new(STILL_BOARD, ["g/1", "g/1", NEVER, NEVER, NEVER], players=3, hand_size=1, max_rounds=1)
    for _ in range(2):
        state.apply("rot g1")
        state.apply("play g/1")
    state.apply("rot g1")
    assert state.is_over
    assert state.outcome.winners == (0, 1)
    assert state.returns() == [1.0, 1.0, -1.0]


@pytest.mark.parametrize("target,won", [(1, True), (2, False)])
def test_solo_is_a_score_attack_against_the_target(target: int, won: bool) -> None:
    state = new(STILL_BOARD, ["g/1"], hand_size=1, solo_target=target)
    state.apply("rot g1")
    state.apply("play g/1")
    assert state.is_over
    assert state.returns() == [1.0 if won else -1.0]


def test_views_show_board_scores_own_hand_and_only_sizes_of_others() -> None:
    state = new(STILL_BOARD, ["ryw/3", "gy/2", "k/1", "b/1"], players=2, hand_size=2)
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    assert v0["board"] == STILL_BOARD
    assert v0["scores"] == [0, 0]
    assert v0["hand"] == ["ryw/3", "gy/2"] and v1["hand"] == ["k/1", "b/1"]
    assert v0["hand_sizes"] == [2, 2]
    assert "ryw/3" not in json.dumps(v1) and "ryw/3" not in json.dumps(spectator)
    assert spectator["hand"] is None


def test_determinize_redeals_what_the_seat_cannot_see() -> None:
    state = GAME.new_game(3, 5)
    full = state.full_view()
    unseen = sorted(full["hands"][1] + full["hands"][2] + full["deck_order"])
    changed = False
    for k in range(5):
        world = state.determinize(0, Rng(k))
        w = world.full_view()
        assert w["hands"][0] == full["hands"][0]
        assert sorted(w["hands"][1] + w["hands"][2] + w["deck_order"]) == unseen
        assert [len(h) for h in w["hands"]] == [len(h) for h in full["hands"]]
        assert world.view(0) == state.view(0)
        changed |= w != full
    assert changed


def test_illegal_actions_give_reasons_and_change_nothing() -> None:
    state = GAME.new_game(2, 1)
    before = json.dumps(state.full_view(), sort_keys=True)
    with pytest.raises(IllegalAction, match="row 9, column 26"):
        state.apply("rot z9")
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply("fly away")
    with pytest.raises(IllegalAction, match="like 'rot c4'"):
        state.apply("rot 44")
    with pytest.raises(IllegalAction, match="colour"):
        state.apply("play xq/3")
    assert json.dumps(state.full_view(), sort_keys=True) == before


def test_render_shows_grid_hand_scores_and_deck() -> None:
    state = new(POINTS_BOARD, ["g/3", "gy/2", NEVER, NEVER], players=2, hand_size=2)
    text = Text.from_markup(state.render(0)).plain
    assert "a b c d e f g h i" in text
    assert "g/3 (found 2)" in text and "gy/2 (found 0)" in text
    assert "deck 0" in text and "seat 1: 0" in text
    assert "g/3" not in Text.from_markup(state.render(1)).plain


def test_evaluation_is_bounded_and_prefers_points() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER, NEVER, NEVER, NEVER], players=2)
    before = state.evaluate(0)
    state.apply("rot i1")
    state.apply("play g/3")
    after = state.evaluate(0)
    assert -1.0 <= before < after <= 1.0
    assert state.evaluate(1) < 0
