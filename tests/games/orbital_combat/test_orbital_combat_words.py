"""Orbital Combat allocations told in words: burns, arrivals, shots, hull lost, ships destroyed, rounds resolved."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng, State
from astrarium.games.orbital_combat.words import describe
from helpers import play_told

GAME = astrarium.get_game("orbital-combat")


def new(players: int = 2, **options: object) -> State:
    options.setdefault("start_ring", 4)  # the descriptions below were written for ring 4 and 12 hull
    options.setdefault("hull", 12)
    return GAME.new_game(players, 0, options)


def told(state: State, notation: str, seat: int | None = 0) -> list[str]:
    before = state.picture_view(seat)
    state.apply(notation)
    return GAME.describe(before, notation, state.picture_view(seat))


def test_shot_that_destroys_a_ship_tells_the_damage_the_hull_lost_and_the_end() -> None:
    state = new(ships=["r4 s1", "r4 s9 h3"], resolution="turn")
    assert told(state, "coast w10 d0", 1) == [
        "Ship A (seat 0) coasts; weapons 10 at ship B, defense 0.",
        "Ship A fires weapons 10 at ship B, 26 mm away: 10 damage.",
        "Ship B loses 3 hull (3 → 0) and is destroyed.",
        "Game over: ship A is the last ship flying.",
        "Ship A (seat 0) wins.",
    ]


def test_turn_resolution_burn_leaves_the_ring_and_arrives_next_turn() -> None:
    state = new(resolution="turn")
    assert told(state, "rot burn retro hard w0 d7") == [
        "Ship A (seat 0) turns about and burns retrograde hard: leaves ring 4 for ring 2; no weapons, defense 7.",
        "Ship B (seat 1) is next.",
    ]
    assert told(state, "coast w0 d10") == [
        "Ship B (seat 1) coasts; no weapons, defense 10.",
        "Round 2 of 40 begins; ship B (seat 1) allocates first.",
    ]
    state.apply("coast w0 d10")
    assert told(state, "coast w0 d10")[0] == "Ship A (seat 0) arrives in ring 2 and coasts; no weapons, defense 10."


def test_round_resolution_plans_first_then_tells_the_whole_round() -> None:
    state = new()
    assert told(state, "rot burn retro hard w0 d7", None) == [
        "Ship A (seat 0) allocates: turn about and burn retrograde hard (ring 4 to ring 2); no weapons, defense 7.",
        "Ship B (seat 1) is next.",
    ]
    assert told(state, "coast scoop w0 d5", None) == [
        "Ship B (seat 1) allocates: coast and scoop; no weapons, defense 5.",
        "The round resolves: every ship moves, then fires in the round's turn order.",
        "Ship A leaves ring 4 for ring 2.",
        "Ship B scoops 6 reaction mass (10 → 16).",
        "Round 2 of 40 begins; ship B (seat 1) allocates first.",
    ]
    state.apply("coast w0 d10")
    assert told(state, "coast w0 d10")[2] == "Ship A arrives in ring 2."


def test_collision_costs_both_ships_hull() -> None:
    state = new(ships=["r4 s1", "r4 s7"], resolution="turn")
    assert told(state, "coast w0 d10") == [
        "Ship A (seat 0) coasts; no weapons, defense 10.",
        "Ship A collides with ship B.",
        "Ship A loses 2 hull (12 → 10).",
        "Ship B loses 2 hull (12 → 10).",
        "Ship B (seat 1) is next.",
    ]


def test_named_target_among_several_opponents() -> None:
    state = new(3, ships=["r4 s1", "r4 s9", "r4 s11"], resolution="turn")
    assert told(state, "coast w4 d6 @2")[0] == "Ship A (seat 0) coasts; weapons 4 at ship C, defense 6."


def test_missing_keys_and_unreadable_notation_fall_back_to_plain_words() -> None:
    assert describe({}, "coast w0 d10", {}) == ["The game coasts; no weapons, defense 10."]
    assert describe({"to_move": 1}, "dance", {"ships": "odd"}) == ["Ship B (seat 1): dance"]
    assert describe({"to_move": 0, "ships": [{"hull": 5}]}, "burn pro", {"ships": [{"hull": 2, "alive": False}]}) == [
        "Ship A (seat 0) coasts; no weapons.",
        "Ship A loses 3 hull (5 → 2) and is destroyed.",
    ]


@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), resolution=st.sampled_from(["round", "turn"]))
def test_every_allocation_is_told_the_same_to_every_seat(seed: int, players: int, resolution: str) -> None:
    """Perfect information: every seat and the spectator read the same non-empty lines."""
    state = GAME.new_game(players, seed, {"resolution": resolution, "round_limit": 15})
    rng = Rng(seed)
    seats: list[int | None] = [*range(players), None]
    while not state.is_over:
        before = {seat: state.picture_view(seat) for seat in seats}
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        told_to = [describe(before[seat], notation, state.picture_view(seat)) for seat in seats]
        assert told_to[0] and all(isinstance(line, str) and line.strip() for line in told_to[0])
        assert all(lines == told_to[0] for lines in told_to)
        destroyed = [s for s in range(players) if before[None]["ships"][s]["alive"] and not state.view(None)["ships"][s]["alive"]]
        for seat in destroyed:
            assert any(line.startswith(f"Ship {'ABCD'[seat]} ") and "destroyed" in line for line in told_to[0])


# -- one name per ship: the letter of the picture on the board, in the table, the log and the refusals ----------


def seats_only_beside_their_ships(text: str) -> bool:
    """Whether every "seat N" in ``text`` stands beside its ship's letter, "ship A (seat 0)"; ships are never digits."""
    import re

    bare = re.sub(r"\bship ([A-D]) \(seat (\d)\)", lambda m: "" if "ABCD"[int(m.group(2))] == m.group(1) else m.group(0), text, flags=re.I)
    return not re.search(r"\bseat \d|\bship \d", bare, flags=re.I)


@given(seed=st.integers(0, 5_000), steps=st.integers(0, 40), players=st.integers(2, 4))
def test_ship_a_is_ship_a_on_the_board_in_the_table_and_in_the_log_at_80x24_and_120x40(seed: int, steps: int, players: int) -> None:
    import re

    from rich.text import Text

    state, lines = play_told("orbital-combat", players, seed, steps)
    for width, height in [(80, 22), (120, 34)]:
        screen = Text.from_markup(state.render_fit(0, width=width, height=height)).plain
        assert seats_only_beside_their_ships(screen), screen
        assert not re.search(r"\bship \d", screen)
        alive = [s for s in range(players) if state.alive[s]]
        rows = [line for line in screen.split("\n") if re.match(r"^[ *][A-D] ", line)]
        assert sorted(row[1] for row in rows) == ["ABCD"[s] for s in range(players)]
        drawn = {ch for line in screen.split("\n") for ch in line.partition("|")[2] if ch in "ABCD"}
        if width == 80 and "|" in screen:  # the unrolled rings: every ship flying is its letter on its ring
            assert drawn == {"ABCD"[s] for s in alive}
    assert all(seats_only_beside_their_ships(line) for line in lines), lines


def test_a_refusal_names_the_ship_as_the_board_does() -> None:
    state = new(ships=["r4 s1", "r4 s9"], resolution="turn")
    try:
        state.apply("burn retro soft w0 d8")
    except ValueError as exc:
        assert "ship A faces prograde" in str(exc)
    else:
        raise AssertionError("a ship facing prograde cannot burn retrograde")


def test_two_ships_in_one_sector_both_show_on_the_unrolled_rings() -> None:
    from rich.text import Text

    state = new(ships=["r2 s26", "r2 s26"])
    screen = Text.from_markup(state.render_fit(0, width=80, height=22)).plain
    ring = next(line for line in screen.split("\n") if line.startswith("ring 2 "))
    assert "AB" in ring.partition("|")[2] or "BA" in ring.partition("|")[2], screen
