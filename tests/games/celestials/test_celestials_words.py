"""Celestials actions told in words: plays, spells, attacks, draws kept secret, phases, turns and the end."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng, State
from astrarium.games.celestials.words import describe

GAME = astrarium.get_game("celestials")


def game(position: str = "", **options: object) -> State:
    return GAME.new_game(2, 0, {"position": position, **options})


def told(state: State, notation: str, seat: int | None = 0) -> list[str]:
    before = state.picture_view(seat)
    state.apply(notation)
    return GAME.describe(before, notation, state.picture_view(seat))


def card_name(state: State, seat: int, key: str) -> str:
    return next(c["name"] for c in state.view(None)["decks"][seat]["cards"] if c["key"] == key)


def test_creature_played_to_its_square() -> None:
    state = game("sun hand phoenix solar-lion")
    assert told(state, "nodraw") == ["Sun (A) does not draw."]
    assert told(state, "play phoenix A1") == ["Sun (A) plays Phoenix to A1."]


def test_spell_destroys_the_creature_it_targets() -> None:
    state = game("sun phase Zenith; sun hand sunspear; moon board B4 night-wolf 4")
    state.apply("nodraw")
    assert told(state, "play sunspear B4", 1) == [
        "Sun (A) casts Sunspear at the Moon's Night Wolf on B4.",
        "The Moon's Night Wolf on B4 is destroyed.",
        "Moon (B) loses 1 health (20 → 19).",
    ]


def test_activation_tells_the_damage_dealt_to_the_target() -> None:
    state = game("sun phase Zenith; sun board B1 solar-lion; moon board B2 night-wolf")
    assert told(state, "activate B1 B2", None) == [
        "Sun (A) activates Solar Lion on B1 against the Moon's Night Wolf on B2.",
        "The Moon's Night Wolf on B2 takes 3 damage (4 → 1).",
    ]


def test_direct_attack_that_ends_the_game() -> None:
    state = game("sun phase Zenith; sun board B4 solar-lion; moon health 3")
    assert told(state, "activate B4 face", 1) == [
        "Sun (A) attacks the Moon directly with Solar Lion on B4.",
        "Moon (B) loses 3 health (3 → 0).",
        "Game over: Moon fell to 0 health: Sun wins.",
        "Sun (A) wins.",
    ]


def test_card_drawn_is_named_to_the_drawer_and_hidden_from_the_other_seat() -> None:
    state = game("sun hand phoenix")
    top = state.full_view()["players"][0]["draw_order"][-1]
    mine, theirs = state.clone(), state.clone()
    assert told(mine, "draw", 0) == [f"Sun (A) draws {card_name(state, 0, top)}."]
    assert told(theirs, "draw", 1) == told(state, "draw", None) == ["Sun (A) draws a card."]


def test_advance_phase_and_the_turn_passing_when_the_hand_is_empty() -> None:
    state = game("sun hand advance")
    state.apply("nodraw")
    assert told(state, "advance", None) == ["Sun (A) plays Advance Phase: Dawn → Zenith.", "Moon (B) begins turn 1 of 30 in New Moon."]


def test_turn_start_effect_of_the_new_phase_is_told_after_the_turn_passes() -> None:
    state = game("moon phase Waning; moon health 10")
    assert told(state, "end", None) == ["Sun (A) ends the plays."]
    assert told(state, "keep", None) == [
        "Sun (A) keeps the hand.",
        "Moon (B) begins turn 1 of 30 in Waning.",
        "Moon (B) heals 1 (10 → 11).",
    ]


def test_exhaustion_by_a_spell_and_recovery_at_the_end_of_the_turn() -> None:
    state = game("moon phase New Moon; moon hand eclipse moth-swarm; sun board A1 phoenix", first="moon")
    state.apply("nodraw")
    assert told(state, "play eclipse", None) == [
        "Moon (B) casts Eclipse.",
        "Exhausted: the Sun's Phoenix on A1.",
        "Moon (B) moves to the next phase: New Moon → Waxing; the plays of the turn end.",
    ]
    state = game("sun board A1 phoenix; sun board B1 solar-lion")
    state.apply("move A1 A2")
    state.apply("move B1 B2")
    state.apply("end")
    assert told(state, "keep", None)[:2] == ["Sun (A) keeps the hand.", "Ready again: the Sun's Phoenix on A2 and Solar Lion on B2."]


def test_missing_keys_fall_back_to_plain_words() -> None:
    assert describe({}, "keep", {}) == ["The game keeps the hand."]
    assert describe({"to_move": 1}, "dance", {"players": "odd", "board": [None]}) == ["Moon (B): dance"]
    assert (
        describe({"to_move": 0, "board": [{"at": "A1"}]}, "move A1 A2", {"turns_done": 1})[0] == "Sun (A) moves a creature from A1 to A2."
    )


def _visible_names(state: State, before: dict, after: dict, notation: str, seat: int | None) -> set[str]:
    """The card names the seat may read: the notation's, the board's, the public piles', its own hand's, what is known."""
    decks = state.view(None)["decks"]
    names = {(s, c["key"]): c["name"] for s, deck in enumerate(decks) for c in deck["cards"]}
    keys: set[tuple[int, str]] = set()
    mover = before["to_move"]
    keys.update((mover, w) for w in notation.split())
    for view in (before, after):
        keys.update((cell["owner"], cell["card"]) for cell in view["board"])
        for s, player in enumerate(view["players"]):
            for pile in ("discard", "graveyard", "known_hand") + (("hand",) if s == seat else ()):
                keys.update((s, key) for key in player.get(pile, []))
    return {names.get(key, "Advance Phase" if key[1] == "advance" else key[1]) for key in keys}


@given(seed=st.integers(0, 10_000), first=st.sampled_from(["sun", "moon"]))
def test_every_action_is_told_to_every_seat_without_naming_a_hidden_card(seed: int, first: str) -> None:
    state = GAME.new_game(2, seed, {"first": first, "turn_limit": 8})
    every_name = {c["name"] for deck in state.view(None)["decks"] for c in deck["cards"]} | {"Advance Phase"}
    mention = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(every_name, key=len, reverse=True)) + r")\b")
    rng = Rng(seed)
    seats: list[int | None] = [0, 1, None]
    while not state.is_over:
        before = {seat: state.picture_view(seat) for seat in seats}
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        for seat in seats:
            after = state.picture_view(seat)
            lines = describe(before[seat], notation, after)
            assert lines and all(isinstance(line, str) and line.strip() for line in lines)
            named = set(mention.findall(" ".join(lines)))
            assert named <= _visible_names(state, before[seat], after, notation, seat), (seat, notation, lines)


# -- the board: whole card names, sides named by their player, turns counted as the log counts ------------


@given(seed=st.integers(0, 5_000), steps=st.integers(0, 120))
@example(seed=640, steps=113)  # the reshuffle question is asked: the turn stays in view above it
def test_the_board_shows_whole_card_names_each_side_by_name_and_the_logs_turn_count_at_80x24_and_120x40(seed: int, steps: int) -> None:
    import re

    from rich.text import Text

    game = astrarium.get_game("celestials")
    state = game.new_game(2, seed)
    rng = Rng(seed)
    logged = ""
    for _ in range(steps):
        if state.is_over:
            break
        before = state.picture_view(0)
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        logged = next((line for line in game.describe(before, notation, state.picture_view(0)) if " begins turn " in line), logged)
    if state.is_over:
        return
    catalog = state.rules.catalog
    on_board = [catalog[c].name for c in state.cell_card if c >= 0]
    for width, height in [(80, 18), (120, 34)]:
        screen = Text.from_markup(state.render_fit(0, width=width, height=height)).plain
        flat = " ".join(screen.split())  # a name broken at its space still reads whole
        for name in on_board:
            assert flat.count(name) >= on_board.count(name), (name, screen)
        for word in {w for name in on_board for w in name.split()}:  # no word of a name is cut
            assert not re.search(rf"\b{word[:-1]}(?!{word[-1]})\b", screen), (word, screen)
        head = next(line for line in screen.split("\n") if "Structure" in line)
        assert "1" not in head and "2" not in head  # positions are not numbered by side: the side is named above
        sides = screen.split("\n")[screen.split("\n").index(head) - 1].split()
        assert sides == [deck.character for deck in state.rules.decks]
        turn = re.search(r"(\w+)'s turn (\d+) of (\d+)", screen)
        assert turn is not None and turn.group(3) == str(state.options["turn_limit"])
        if logged and state.votes == []:  # the log's "Sun (S) begins turn 5 of 30" is the header's "Sun's turn 5 of 30"
            told = re.search(r"^(\w+) \(\w\) begins turn (\d+) of (\d+)", logged)
            assert told is not None and turn.groups() == told.groups(), (logged, turn.group(0))
