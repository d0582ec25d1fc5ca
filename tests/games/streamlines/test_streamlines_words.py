"""Streamlines actions told in words: the Clock, collapses, ships lost, rescues, and the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from streamlines_fixtures import GAME, scenario_text, stacked, write_scenario

from astrarium.core import IllegalAction, Rng, State
from astrarium.games.streamlines.words import card_words, describe, new_events
from helpers import play_told

DRAWN = re.compile(r"draws (.+?) (?:at|for the planet at) [a-i][1-9]")
EVENT_COMES_UP = re.compile(r"(An? .+? card) comes up for the planet at [a-i][1-9]")
THREE_ACTIONS = ["action", "action", "action", "cargo"]


def told(state: State, notation: str, seat: int | None = 0) -> list[str]:
    before = state.picture_view(seat)
    state.apply(notation)
    return GAME.describe(before, notation, state.picture_view(seat))


def play(state: State, *notations: str) -> None:
    for notation in notations:
        state.apply(notation)


def planet_with_escape(tmp_path: Path, cards: list[str], required: int = 1) -> State:
    """A planet on e5 where both ships start, an escape north of it on e6; three actions a ship."""
    path = write_scenario(tmp_path, scenario_text(["e5"], ["e6"], ["e5"], required=required))
    return GAME.new_game(2, 0, {"scenario_file": path, "deck": stacked([THREE_ACTIONS] * 2, cards)})


def test_clock_and_a_second_collapse_are_told_after_the_turn_passes(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, scenario_text(["c3", "g7"], ["e5"], ["c4"], required=3))
    deck = stacked([["action", "cargo", "pickup", "engineering"]] * 2, ["collapse", "refugee", "collapse", "refugee"], planets=2)
    state = GAME.new_game(2, 0, {"scenario_file": path, "deck": deck})
    assert told(state, "end", 1) == [
        "Ship A (seat 0) ends its turn.",
        "Turn 2: Ship B (seat 1) to act with 1 action.",
        "A Collapse card lands on the planet at c3: the planet becomes a black hole after every player's next turn.",
        "The Clock draws a Refugee for the planet at g7: discarded.",
    ]


def test_planet_collapsing_and_a_ship_flying_into_the_black_hole(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, scenario_text(["c3", "g7"], ["e5"], ["c4"], required=3))
    deck = stacked([["action", "cargo", "pickup", "engineering"]] * 2, ["collapse", "refugee", "collapse", "refugee"], planets=2)
    state = GAME.new_game(2, 0, {"scenario_file": path, "deck": deck})
    play(state, "end", "end", "end")
    assert told(state, "end", None)[:3] == [
        "Ship B (seat 1) ends its turn.",
        "The planet at c3 is now a black hole.",
        "Turn 5: Ship A (seat 0) to act with 1 action.",
    ]
    assert told(state, "move c3", 1) == [
        "Ship A (seat 0) moves from c4 to c3.",
        "Ship A flies into the black hole at c3 and is lost.",
        "Turn 6: Ship B (seat 1) to act with 1 action.",
        "The Clock draws a straight streamline for the planet at g7: discarded.",
    ]


def test_draws_name_the_card_free_draws_and_a_collapse_warning(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["straight", "refugee", "action", "collapse", "corner"])
    assert told(state, "draw") == ["Ship A (seat 0) draws a Refugee at e5."]
    assert told(state, "draw") == ["Ship A (seat 0) draws an Action card at e5.", "Ship A may draw again without spending an action."]
    assert told(state, "draw") == [
        "Ship A (seat 0) draws a Collapse card at e5 (a free draw).",
        "A Collapse card lands on the planet at e5: a warning.",
        "Ship A may draw again without spending an action.",
    ]
    assert told(state, "draw") == [
        "Ship A (seat 0) draws a corner streamline at e5 (a free draw).",
        "Ship A's hold is over-full: it must dump a card.",
    ]


def test_dumped_refugee_is_lost_for_good(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["straight", "refugee", "corner"], required=2)
    play(state, "draw")
    state.apply("draw")
    assert told(state, "dump refugee") == ["Ship A (seat 0) dumps a Refugee into space.", "1 refugee is lost for good (1 lost in all)."]


def test_rescue_that_wins_the_game(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["straight", "refugee"])
    play(state, "draw")
    assert told(state, "move e6") == ["Ship A (seat 0) moves from e5 to e6."]
    assert told(state, "drop", None) == [
        "Ship A (seat 0) drops off 1 refugee at e6: 1 of 1 rescued.",
        "Game over: the team rescued 1 of the 1 refugees needed.",
        "The team wins.",
    ]


def test_lay_engineer_and_pickup_say_where_and_which_way(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["straight", "engineering", "pickup", "corner"])
    play(state, "draw", "draw", "draw", "move e4")
    assert told(state, "lay nw") == ["Ship A (seat 0) lays a corner streamline at e4, arrows north and west."]
    assert told(state, "engineer cw") == [
        "Ship A (seat 0) uses its Engineering card: turns the streamline at e4 clockwise (arrows north and east)."
    ]
    assert told(state, "pickup") == ["Ship A (seat 0) uses its Pickup card: takes the corner streamline at e4 into its hold."]


def test_second_gate_of_a_pair_says_which_squares_it_joins(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["straight", "gate-a", "straight", "gate-a"])
    play(state, "draw", "move e4")
    assert told(state, "lay gate-a") == ["Ship A (seat 0) lays Gate A at e4."]
    play(state, "end", "draw", "move f5")
    assert told(state, "lay gate-a", None) == ["Ship B (seat 1) lays Gate A at f5; Gate A now joins e4 and f5."]


def test_turns_passed_by_lost_ships_are_told_before_the_turn_that_begins() -> None:
    # Seed 1851, 3 players, standard: ships C and A are lost, so one end starts three turns (27, 28 and 29).
    state = GAME.new_game(3, 1851, {"scenario": "standard"})
    rng = Rng(1851)
    while True:
        before = state.picture_view(0)
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        after = state.picture_view(0)
        if after["turn_number"] - before["turn_number"] >= 3:
            break
    lines = describe(before, notation, after)
    assert lines[0] == "Ship B (seat 1) ends its turn."
    turn = next(i for i, line in enumerate(lines) if line.startswith("Turn 29: Ship B (seat 1) to act"))
    passed = [i for i, line in enumerate(lines) if line.endswith("the turn passes after the Clock phase.")]
    assert len(passed) == 2 and max(passed) < turn
    # the three Clock phases' draws are all told, the last after the new turn's line
    draws = [i for i, line in enumerate(lines) if line.startswith("The Clock draws")]
    assert len(draws) == 3 and draws[-1] > turn > draws[-2]


def test_new_events_survive_the_trim_at_a_turn_start() -> None:
    old = [f"e{i}" for i in range(8)]
    trimmed = old[-6:] + ["n1", "n2"]
    assert new_events({"events": old, "turn_number": 3}, {"events": trimmed, "turn_number": 4}) == ["n1", "n2"]
    assert new_events({"events": ["x"]}, {"events": ["x", "x"]}) == ["x"]
    assert new_events({}, {"events": ["x"]}) == ["x"]


def test_missing_keys_fall_back_to_plain_words() -> None:
    assert describe({}, "draw", {}) == ["The game draws a card."]
    assert describe({"to_move": 2}, "warp", {"events": "odd", "ships": [None]}) == ["Ship C (seat 2): warp"]
    lines = describe({"to_move": 0, "ships": [{"square": "c3"}]}, "move c4", {"ships": [{"square": None}]})
    assert lines == ["Ship A (seat 0) moves from c3 to c4.", "Ship A is lost."]


def drawn_cards(lines: list[str]) -> list[str]:
    """The cards the lines say were drawn, in order (a Collapse the Clock drew is told by where it lands)."""
    named: list[str] = []
    for i, line in enumerate(lines):
        m = DRAWN.search(line)
        if m:
            named.append(m.group(1))
        elif line.startswith("A Collapse card lands") and not (i and "draws a Collapse card" in lines[i - 1]):
            named.append("a Collapse card")
        elif (event := EVENT_COMES_UP.match(line)) and not (i and f"draws {event.group(1).lower()}" in lines[i - 1].lower()):
            named.append(event.group(1)[0].lower() + event.group(1)[1:])
    return named


@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), scenario=st.sampled_from(["introductory", "standard", "hard"]))
@example(seed=1851, players=3, scenario="standard")  # two ships lost: three turns start in one action
def test_every_action_is_told_the_same_to_every_seat(seed: int, players: int, scenario: str) -> None:
    """Everything in Streamlines is public but the deck's order: every seat and the spectator read the same lines."""
    state = GAME.new_game(players, seed, {"scenario": scenario})
    rng = Rng(seed)
    seats: list[int | None] = [*range(players), None]
    while not state.is_over:
        before = {seat: state.picture_view(seat) for seat in seats}
        order = state.full_view()["deck_order"]
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        told_to = [describe(before[seat], notation, state.picture_view(seat)) for seat in seats]
        for lines in told_to:
            assert lines and all(isinstance(line, str) and line.strip() for line in lines)
            assert lines == told_to[0]
        # Every card named as drawn is the card that came off the top of the deck, in order (the deck's
        # order is the one secret, so nothing else from it may be named).
        named = drawn_cards(told_to[0])
        if "shuffled" not in " ".join(told_to[0]):
            assert named == [card_words(card) for card in reversed(order)][: len(named)]


# -- one name per ship: the picture's letter on the board, in the log and in the refusals -------------------------

#: Notations tried at every position for their refusals: every verb, and gifts to every seat number.
TRIED = ["draw", "drop", "pickup", "extra", "engineer cw", "lay n", "lay gate-a", "dump refugee", "move a1", "end"] + [
    f"give {card} {to}" for card in ("refugee", "straight") for to in range(5)
]


def seats_only_beside_their_ships(text: str) -> bool:
    """Whether every "seat N" in ``text`` stands beside its ship's letter, "ship A (seat 0)"; ships are never digits."""
    bare = re.sub(r"\bship ([A-D]) \(seat (\d)\)", lambda m: "" if "ABCD"[int(m.group(2))] == m.group(1) else m.group(0), text, flags=re.I)
    return not re.search(r"\bseat \d|\bship \d", bare, flags=re.I)


def refusals(state: State) -> list[str]:
    """The reasons the position gives for refusing each of :data:`TRIED` that is not legal in it."""
    legal = {str(action) for action in state.legal_actions()}
    reasons = []
    for notation in TRIED:
        if notation not in legal:
            try:
                state.clone().apply(notation)
            except ValueError as exc:
                reasons.append(str(exc))
    return reasons


@given(seed=st.integers(0, 5_000), steps=st.integers(0, 80), players=st.integers(2, 4))
def test_ship_a_is_ship_a_on_the_board_in_the_log_and_in_the_refusals_at_80x24_and_120x40(seed: int, steps: int, players: int) -> None:
    from rich.text import Text

    state, lines = play_told("streamlines", players, seed, steps)
    for width, height in [(80, 24), (120, 40), (80, 22), (120, 34)]:
        screen = Text.from_markup(state.render_fit(0, width=width, height=height)).plain
        assert seats_only_beside_their_ships(screen), screen
        rows = [line for line in screen.split("\n") if re.match(r"^[> ] ship [A-D] at ", line)]
        assert [row[7] for row in rows] == ["ABCD"[s] for s in range(players)], screen
        if not state.is_over:
            turn = state.current_player
            assert f"Ship {'ABCD'[turn]} (seat {turn}) to act" in screen
    assert all(seats_only_beside_their_ships(line) for line in lines), lines
    if not state.is_over:
        reasons = refusals(state)
        assert reasons and all(seats_only_beside_their_ships(reason) for reason in reasons), reasons


def test_a_refusal_names_the_ship_as_the_board_and_the_log_do(tmp_path: Path) -> None:
    state = planet_with_escape(tmp_path, ["refugee"] * 3, required=3)
    with pytest.raises(IllegalAction, match=r"^pickup: ship A \(seat 0\) on e5 has no Pickup card$"):
        state.apply("pickup")
    play(state, "draw")
    with pytest.raises(IllegalAction, match=r"^give refugee 0: ship A \(seat 0\) on e5 cannot give cargo to itself"):
        state.apply("give refugee 0")
    with pytest.raises(IllegalAction, match=r"^give refugee 3: no ship has the seat number 3 in a game of 2 players$"):
        state.apply("give refugee 3")
    assert told(state, "give refugee 1") == ["Ship A (seat 0) gives a Refugee to ship B."]


def test_the_recent_events_on_the_board_name_ships_by_letter(tmp_path: Path) -> None:
    from rich.text import Text

    state = planet_with_escape(tmp_path, ["refugee", "straight"])
    play(state, "draw")
    screen = Text.from_markup(state.render_fit(0)).plain
    assert "Recent: " in screen and "ship A drew straight at e5" in screen  # the Clock drew the Refugee
    assert "ship 0" not in screen
