"""Constellations actions told in words: what each seat reads in the event log, and what it may not."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng, State
from astrarium.games.constellations.words import describe

GAME = astrarium.get_game("constellations")
# The yellow dwarf at i1 moves the gas giant at h1 into the planet's right line: g found 3 times after.
POINTS_BOARD = ".G.....GY\n.P.......\n.G......."
# No star can move anything: the yellow dwarf's rings (range 3) are empty, the planet is 4 cells away.
STILL_BOARD = "Y...P"
NEVER = "kkkkk/1"
CARD = re.compile(r"\b[bgyrwk]{1,5}/[0-9]{1,2}\b")


def new(board: str, deck: list[str], players: int = 1, **options: object) -> State:
    return GAME.new_game(players, 0, {"board": board, "deck": deck, **options})


def told(state: State, notation: str, seat: int | None) -> list[str]:
    """Play ``notation`` and return its description from ``seat``'s views (None: a spectator)."""
    before = state.picture_view(seat)
    state.apply(notation)
    return GAME.describe(before, notation, state.picture_view(seat))


def told_to_all(state: State, notation: str) -> dict[int | None, list[str]]:
    seats: list[int | None] = [*range(state.players), None]
    before = {seat: state.picture_view(seat) for seat in seats}
    state.apply(notation)
    return {seat: GAME.describe(before[seat], notation, state.picture_view(seat)) for seat in seats}


def test_rotation_names_the_star_its_range_and_the_objects_it_moves() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER])
    assert told(state, "rot i1", 0) == ["A (seat 0) rotates around the yellow dwarf at i1 (range 3), moving 1 object one step clockwise."]


def test_play_tells_times_found_points_and_the_turn_that_ends_by_itself() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER])
    state.apply("rot i1")
    assert told(state, "play g/3", 0) == [
        "A (seat 0) plays g/3: found 3 times, 12 points (3 + 4 + 5); score 12.",
        "No card left in A's hand is found on the board, so the turn ends.",
        f"A (seat 0) draws {NEVER}.",
        "The deck is now empty.",
        "Round 2 of 12 begins.",
    ]


def test_card_drawn_is_named_to_the_drawer_and_counted_for_the_others() -> None:
    state = new(POINTS_BOARD, ["g/3", NEVER, NEVER, NEVER, NEVER, NEVER, "b/1", NEVER], players=2)
    state.apply("rot i1")
    lines = told_to_all(state, "play g/3")
    assert lines[0][2] == "A (seat 0) draws b/1."
    assert lines[1][2] == lines[None][2] == "A (seat 0) draws 1 card."
    assert lines[1][-1] == "B (seat 1) is next."
    assert not any("b/1" in line for line in lines[1] + lines[None])


def test_end_names_the_cards_kept_only_to_their_holder() -> None:
    state = new(POINTS_BOARD, ["g/3", "g/1", NEVER, NEVER, NEVER, NEVER], players=2)
    state.apply("rot i1")
    lines = told_to_all(state, "end")
    assert lines[0] == ["A (seat 0) ends the turn, keeping g/3, g/1 and kkkkk/1.", "B (seat 1) is next."]
    assert lines[1] == lines[None] == ["A (seat 0) ends the turn.", "B (seat 1) is next."]


def test_turn_ending_rotation_says_why_and_who_is_next() -> None:
    state = new(POINTS_BOARD, [NEVER] * 6, players=2)
    assert told(state, "rot i1", 1) == [
        "A (seat 0) rotates around the yellow dwarf at i1 (range 3), moving 1 object one step clockwise.",
        "No card in A's hand is found on the board, so the turn ends.",
        "B (seat 1) is next.",
    ]


def test_pass_when_no_star_can_move_anything() -> None:
    state = new(STILL_BOARD, ["g/1", NEVER, NEVER])
    assert told(state, "pass", None) == [
        "A (seat 0) passes: no star can move anything.",
        "No card in A's hand is found on the board, so the turn ends.",
        "Round 2 of 12 begins.",
    ]


def test_variant_swap_names_the_card_swapped_away() -> None:
    state = new(STILL_BOARD, ["g/1", NEVER, NEVER, "b/1"], swap=True)
    assert told(state, "swap g/1", 0) == [
        "A (seat 0) swaps g/1 away instead of rotating.",
        "A (seat 0) draws b/1.",
        "The deck is now empty.",
        "Round 2 of 12 begins.",
    ]


def test_game_end_says_why_and_who_won() -> None:
    state = new(POINTS_BOARD, ["g/3"], hand_size=1, solo_target=10)
    state.apply("rot i1")
    assert told(state, "play g/3", 0) == [
        "A (seat 0) plays g/3: found 3 times, 12 points (3 + 4 + 5); score 12.",
        "A (seat 0) has played every card, so the turn ends.",
        "Game over: every constellation card has been played; 12 points reached the solo target of 10.",
        "A (seat 0) wins.",
    ]


def test_full_tie_at_the_round_limit_is_a_draw() -> None:
    state = new(STILL_BOARD, [NEVER] * 6, players=2, max_rounds=2)
    for _ in range(3):
        state.apply("pass")
    lines = told(state, "pass", None)
    assert lines[-2:] == ["Game over: 2 rounds were played; top score 0.", "The game is a draw."]


def test_missing_keys_and_unknown_notation_fall_back_to_plain_words() -> None:
    assert describe({}, "rot c4", {}) == ["The game rotates the rings around c4."]
    assert describe({"to_move": 1}, "dance", {"outcome": "odd"}) == ["B (seat 1): dance"]
    assert describe({"to_move": 0, "board": 5, "played": [None]}, "play g/1", {"played": [[0, "g/1"]], "hand_sizes": "x"})[0] == (
        "A (seat 0) plays g/1."
    )


def _visible_cards(before: dict, after: dict, notation: str) -> set[str]:
    """Every card the seat may read in its two views (its own hand, the public plays and swaps) or in the notation."""
    seen = set(CARD.findall(notation))
    for view in (before, after):
        seen.update(view.get("hand") or [])
        seen.update(str(p[1]) for p in view.get("played", []))
        seen.update(str(p[1]) for p in view.get("swapped", []))
    return seen


@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), swap=st.booleans())
def test_every_action_is_told_to_every_seat_without_naming_a_hidden_card(seed: int, players: int, swap: bool) -> None:
    state = GAME.new_game(players, seed, {"swap": swap, "max_rounds": 6})
    rng = Rng(seed)
    seats: list[int | None] = [*range(players), None]
    while not state.is_over:
        before = {seat: state.picture_view(seat) for seat in seats}
        action = rng.choice(state.legal_actions())
        notation = str(action)
        state.apply(action)
        full = state.full_view()
        for seat in seats:
            after = state.picture_view(seat)
            lines = describe(before[seat], notation, after)
            assert lines and all(isinstance(line, str) and line.strip() for line in lines)
            named = set(CARD.findall(" ".join(lines)))
            assert named <= _visible_cards(before[seat], after, notation), (seat, notation, lines)
            others = {c for s, hand in enumerate(full["hands"]) if s != seat for c in hand} | set(full["deck_order"])
            assert not (named & others) - _visible_cards(before[seat], after, notation)


def test_a_one_card_challenge_ends_speaking_of_its_card_not_of_points() -> None:
    # A puzzle's set-up: one card, a hand of one, a solo target the card always reaches.
    state = new(POINTS_BOARD, ["g/3"], hand_size=1, solo_target=1)
    state.apply("rot i1")
    lines = told(state, "play g/3", 0)
    assert "Game over: g/3 was made and played: solved." in lines and lines[-1] == "A (seat 0) wins."
    assert not any("points reached" in line for line in lines)


def test_a_single_round_is_told_in_the_singular() -> None:
    state = new(STILL_BOARD, [NEVER], hand_size=1, solo_target=1, max_rounds=1)
    assert told(state, "pass", 0)[-2:] == ["Game over: 1 round was played without playing kkkkk/1.", "A (seat 0) loses."]
    state = new(STILL_BOARD, [NEVER, NEVER], hand_size=1, max_rounds=1)
    assert "Game over: 1 round was played; 0 points missed the solo target of 30." in told(state, "pass", 0)


# -- 'card gk/1': the constellation cards of the hand explained --------------------------------------

COLOUR_WORDS = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "w": "white", "k": "black"}


def test_card_gk_1_tells_its_colours_in_order_its_points_and_how_it_is_found() -> None:
    state = new(POINTS_BOARD, ["gk/1", "g/1", "ryw/3"])
    text = GAME.card_text("gk/1", state)
    assert text.startswith("gk/1: a constellation card: green")
    assert text.index("green") < text.index("black")
    assert "1 point found once, 3 points found twice, 6 points three times" in text
    assert "from a planet" in text and "play gk/1" in text
    assert GAME.info("GK/1", state) == text  # 'info' finds the card too, in any case
    assert "Found twice on this board now: 3 points." in GAME.card_text("g/1", state)  # two lines show green
    state.apply("rot i1")  # the yellow dwarf brings a third green into a line
    assert "Found 3 times on this board now: 6 points." in GAME.card_text("g/1", state)
    assert GAME.card_text("gk/1").startswith("gk/1: a constellation card")  # the shipped deck without a game


@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30), players=st.integers(1, 4))
def test_every_card_in_any_hand_is_explained_by_card(seed: int, steps: int, players: int) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    for hand in state.full_view()["hands"]:
        for notation in hand:
            text = GAME.card_text(notation, state)
            colours, points = notation.split("/")
            assert text.startswith(f"{notation}: a constellation card: ")
            at = 0
            for colour in colours:  # the colours named in the card's order
                at = text.index(f"{COLOUR_WORDS[colour]} (", at) + 1
            assert f"Worth {points} point" in text
            assert ("Found " in text) != ("Not found" in text)
