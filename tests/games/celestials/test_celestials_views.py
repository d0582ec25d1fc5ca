"""Hidden information, notation, rendering and the evaluation."""

from __future__ import annotations

import json

import pytest

import astrarium
from astrarium.core import IllegalAction, Rng
from astrarium.games.celestials.actions import FACE, Activate, Discard, Move, Play, Reshuffle, parse

GAME = astrarium.get_game("celestials")


def test_hidden_a_seat_sees_its_own_hand_and_only_counts_of_the_other() -> None:
    state = GAME.new_game(2, 5)
    sun_view, moon_view, spectator = state.view(0), state.view(1), state.view(None)
    assert "hand" in sun_view["players"][0] and "hand" not in sun_view["players"][1]
    assert "hand" in moon_view["players"][1] and "hand" not in moon_view["players"][0]
    assert all("hand" not in p and "draw_order" not in p for p in spectator["players"])
    text = json.dumps(spectator)
    assert all(f'"{k}"' not in text for k in ("draw_order",))


def test_hidden_determinize_redeals_the_opponents_hand_and_both_draw_piles() -> None:
    state = GAME.new_game(2, 5)
    worlds = [state.determinize(0, Rng(k)) for k in range(6)]
    assert all(w.view(0) == state.view(0) for w in worlds)
    assert any(w.full_view()["players"][1]["hand"] != state.full_view()["players"][1]["hand"] for w in worlds)
    assert any(w.full_view()["players"][0]["draw_order"] != state.full_view()["players"][0]["draw_order"] for w in worlds)
    for w in worlds:  # same cards, re-dealt
        for seat in (0, 1):
            a, b = w.full_view()["players"][seat], state.full_view()["players"][seat]
            assert sorted(a["hand"] + a["draw_order"]) == sorted(b["hand"] + b["draw_order"])
            assert len(a["hand"]) == len(b["hand"])


def _deck_but(seat: int, keep: list[str]) -> str:
    """Every card of a deck except ``keep``, for a discard statement."""
    cards = [c.key for c in GAME.new_game(2, 0).rules.decks[seat].cards[1:] for _ in range(2)] + ["advance"] * 3
    for k in keep:
        cards.remove(k)
    return " ".join(cards)


def test_hidden_determinize_keeps_the_cards_known_to_be_in_a_hand_after_a_reshuffle() -> None:
    # The Moon's draw pile holds exactly her 5 starting cards; the Sun then draws the last card of both piles.
    moon_hand = ["advance", "eclipse", "moonbeam", "night-wolf", "night-wolf"]
    state = GAME.new_game(2, 3, {"position": f"sun hand advance; sun pile phoenix; moon discard {_deck_but(1, moon_hand)}"})
    for notation in ("draw", "reshuffle yes", "reshuffle yes"):
        state.apply(notation)
    # Both piles were empty, so everyone knows the Moon's hand, and that her new pile is her old discard pile.
    assert sorted(state.view(0)["players"][1]["known_hand"]) == moon_hand
    worlds = [state.determinize(0, Rng(k)) for k in range(40)]
    assert all(sorted(w.full_view()["players"][1]["hand"]) == moon_hand for w in worlds)
    for notation in ("end", "keep", "end", "discard eclipse"):  # the Moon discards and draws a card the Sun does not see
        state.apply(notation)
    known = ["advance", "moonbeam", "night-wolf", "night-wolf"]
    assert sorted(state.view(0)["players"][1]["known_hand"]) == known
    hands = [state.determinize(0, Rng(k)).full_view()["players"][1]["hand"] for k in range(40)]
    assert all(len(h) == 5 and all(h.count(c) >= known.count(c) for c in known) for h in hands)
    assert len({tuple(h) for h in hands}) > 1  # the drawn card is re-sampled


def test_hidden_a_hand_the_position_sets_is_public_and_kept_by_determinize() -> None:
    state = GAME.new_game(2, 0, {"position": "moon hand eclipse moonbeam"})
    assert state.view(0)["players"][1]["known_hand"] == ["eclipse", "moonbeam"]
    assert all(state.determinize(0, Rng(k)).full_view()["players"][1]["hand"] == ["eclipse", "moonbeam"] for k in range(10))
    state.apply("end")
    state.apply("keep")
    state.apply("nodraw")  # the Moon's hand changes only in the open
    assert state.view(0)["players"][1]["known_hand"] == ["eclipse", "moonbeam"]


@pytest.mark.parametrize(
    "action",
    [
        Play("solar-lion", 7),
        Play("radiance"),
        Activate(3, FACE),
        Activate(0),
        Activate(8, 9),
        Move(1, 2),
        Discard("eclipse"),
        Reshuffle(True),
        Reshuffle(False),
    ],
)
def test_notation_round_trips(action: object) -> None:
    assert parse(str(action)) == action


def test_notation_unreadable_text_says_what_is_expected() -> None:
    state = GAME.new_game(2, 0)
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply("summon everything")
    with pytest.raises(IllegalAction, match="not a location"):
        state.apply("move Z9 A1")


def test_render_shows_lanes_health_exhaustion_hand_and_phases() -> None:
    state = GAME.new_game(2, 0, {"position": "sun board B2 solar-lion 3 exhausted; sun hand sunspear advance"})
    text = state.render(0)
    for word in ("Sun", "Moon", "health", "Dawn", "New Moon", "Solar Lion 3z", "your hand: advance, sunspear"):
        assert word in text
    assert "your hand" not in state.render(None)


def test_evaluate_prefers_health_and_board_and_is_bounded() -> None:
    even = GAME.new_game(2, 0, {"position": "sun hand advance; moon hand advance"})
    ahead = GAME.new_game(2, 0, {"position": "sun hand advance; moon hand advance; moon health 10"})
    board = GAME.new_game(2, 0, {"position": "sun hand advance; moon hand advance; sun board A1 solar-lion"})
    assert even.evaluate(0) == pytest.approx(0.0)
    assert ahead.evaluate(0) > 0.3 and ahead.evaluate(1) == pytest.approx(-ahead.evaluate(0))
    assert 0 < board.evaluate(0) < ahead.evaluate(0)
    assert all(-1 <= s.evaluate(seat) <= 1 for s in (even, ahead, board) for seat in (0, 1))


def test_evaluate_values_a_creature_more_the_nearer_it_stands_to_the_opponents_defence() -> None:
    def value(at: str) -> float:
        return GAME.new_game(2, 0, {"position": f"sun hand advance; moon hand advance; sun board {at} solar-lion"}).evaluate(0)

    assert value("A1") < value("A2") < value("A3") < value("A4")
    assert value("A5") < value("A4")
