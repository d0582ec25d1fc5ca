"""Invariants over random play (hypothesis), hidden information, and the terminal picture."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng
from astrarium.games.connected_worlds.data import HEX_DIRECTIONS
from helpers import examples

GAME = astrarium.get_game("connected-worlds")
seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=4)


def cards_owned(view: dict, seat: int) -> int:
    row = view["players"][seat]
    played = len(view["played"]) if view["turn"] == seat else 0
    return len(row["hand"]) + len(row["deck_order"]) + sum(row["discard"].values()) + played + row["deployed"]


def documented_territory(view: dict, seat: int) -> int:
    """The rule book's count: each base's hex and the 6 around it that exist on its board, overlaps once."""
    hexes = set()
    for cell, owner, _ in view["bases"]:
        if owner != seat:
            continue
        board, _, qr = cell.partition(":")
        q, r = map(int, qr.split(","))
        hexes.add((board, q, r))
        for dq, dr in HEX_DIRECTIONS:
            hexes.add((board, q + dq, r + dr))
    return len({h for h in hexes if f"{h[0]}:{h[1]},{h[2]}" in ALL_HEXES[view["map"]]})


ALL_HEXES = {GAME.new_game(n, 0).board.name: set(GAME.new_game(n, 0).board.cell_names) for n in (2, 3, 4)}


def check_end_of_turn(view: dict) -> None:
    owners: dict[str, set[int]] = {}
    for cell, owner, _ in view["bases"]:
        owners.setdefault(cell, set()).add(owner)
    for cell, owner, _, engaged in view["units"]:
        assert not engaged
        owners.setdefault(cell, set()).add(owner)
    assert all(len(o) == 1 for o in owners.values()), "opposing pieces share a hex at the end of a turn"
    cells = [b[0] for b in view["bases"]]
    assert len(cells) == len(set(cells)), "two bases on one hex"


@settings(max_examples=examples(15))
@given(seed=seeds, n=players, victory=st.sampled_from(["expansion", "capture", "annihilation"]))
def test_property_cards_are_conserved_and_no_hex_holds_two_bases_or_opposing_units(seed, n, victory):
    state = GAME.new_game(n, seed, {"victory": victory, "round_limit": 8})
    rng = Rng(seed)
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        view = state.full_view()
        for p in range(n):
            assert cards_owned(view, p) == 10 + view["players"][p]["bought"]
        if str(action) == "end":
            check_end_of_turn(view)


@settings(max_examples=examples(15))
@given(seed=seeds, n=players)
def test_property_territory_equals_the_documented_count(seed, n):
    state = GAME.new_game(n, seed, {"round_limit": 6})
    rng = Rng(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        view = state.full_view()
        for p in range(n):
            assert view["players"][p]["territory"] == documented_territory(view, p)


def test_random_play_from_the_first_50_of_200_seeds_ends_without_error():
    check_random_play_ends(range(50))


@pytest.mark.slow
def test_random_play_from_the_other_150_of_200_seeds_ends_without_error():
    check_random_play_ends(range(50, 200))


def check_random_play_ends(seeds: range) -> None:
    """Random games of 2 to 4 players under every victory and both combat timings end within the bound, with a reason."""
    for seed in seeds:
        n = 2 + seed % 3
        options = {"victory": ("expansion", "capture", "annihilation")[seed % 3 if seed % 2 else 0]}
        if seed % 5 == 0:
            options["combat"] = "on-entry"
        state = GAME.new_game(n, seed, options)
        bound = GAME.max_moves(n, state.options)
        rng = Rng(seed)
        while not state.is_over:
            assert state.move_number < bound
            state.apply(rng.choice(state.legal_actions()))
        assert state.outcome.reason


def test_a_rounds_actions_never_exceed_the_per_turn_cap():
    n, state = 2, GAME.new_game(2, 9)
    per_turn = 5 * (1 + 3) + 1  # every card played as a 3-step movement, plus 'end'
    rng = Rng(9)
    count = 0
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        count += 1
        if str(action) == "end":
            assert count <= per_turn
            count = 0
    assert GAME.max_moves(n, state.options) == n + 30 * n * per_turn


@settings(max_examples=examples(10))
@given(seed=seeds, n=players)
def test_hidden_determinize_redeals_other_hands_from_the_same_cards(seed, n):
    state = GAME.new_game(n, seed)
    rng = Rng(seed)
    for _ in range(40 + seed % 60):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player if not state.is_over else 0
    before = state.full_view()
    world = state.determinize(seat, Rng(seed + 1)).full_view()
    for p in range(n):
        a, b = before["players"][p], world["players"][p]
        assert Counter(a["hand"] + a["deck_order"]) == Counter(b["hand"] + b["deck_order"])
        assert len(a["hand"]) == len(b["hand"]) and a["discard"] == b["discard"]
    assert world["players"][seat]["hand"] == before["players"][seat]["hand"]
    assert state.full_view() == before


def test_hidden_a_seat_sees_its_own_hand_and_no_other_hand_or_deck_order():
    state = GAME.new_game(3, 4)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        for p, row in enumerate(view["players"]):
            assert ("hand" in row) == (p == seat)
            assert "deck_order" not in row
            assert row["hand_size"] == 5 and row["deck"] == 5
    assert "hand" not in state.view(1)["players"][0] and state.view(1)["players"][1]["hand"] == state.full_view()["players"][1]["hand"]


def test_render_shows_the_maps_bases_units_portals_and_the_hand():
    scenario = (
        '[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 1\n[[base]]\nat = "C:0,0"\nowner = 0\nstrength = 2\n'
        '[[base]]\nat = "B:0,0"\nowner = 1\nstrength = 1\n[[unit]]\nat = "S:0,0"\nowner = 1\nstrength = 3\n'
        '[[portal]]\nbetween = ["A:0,0", "C:0,0"]\n'
        '[[player]]\nresources = 7\nhand = ["harvester", "portal"]\ndeck = ["scientists"]\n[[player]]\n'
    )
    state = GAME.new_game(2, 1, {"scenario": scenario})
    text = state.render(0)
    for expected in (
        "Space",
        "World A: Aurelia",
        "World D: Dione",
        "0B1*",  # seat 0's base of strength 1, with a portal
        "0B2*",
        "1u3",  # seat 1's unit of strength 3
        "·0",  # seat 0's territory
        "(A)",
        "A:0,0↔C:0,0",
        "resources 7",
        "Your hand (seat 0): portal, harvester",
        "territory 14",
        "worlds AC",
    ):
        assert expected in text, expected
    assert "Your hand" not in state.render(None)
    assert "[red]" in text and "[blue]" in text


def test_evaluation_favours_territory_strength_and_resources_within_bounds():
    scenario = (
        '[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 2\n[[base]]\nat = "C:0,0"\nowner = 0\nstrength = 1\n'
        '[[base]]\nat = "B:2,0"\nowner = 1\nstrength = 1\n[[player]]\nresources = 9\n[[player]]\n'
    )
    state = GAME.new_game(2, 1, {"scenario": scenario})
    assert 0 < state.evaluate(0) <= 1 and -1 <= state.evaluate(1) < 0
    # Shares are zero-sum; each side also pays on its own for bases within the other's reach, so the sum is at most 0.
    assert -0.5 < state.evaluate(0) + state.evaluate(1) <= 0


@settings(max_examples=examples(15))
@given(
    seed=seeds,
    n=players,
    landing=st.sampled_from(["territory", "territory-or-any", "beachhead"]),
    launch=st.sampled_from(["territory", "anywhere"]),
)
def test_property_movement_the_planners_step_graphs_follow_the_step_rule(seed, n, landing, launch):
    """Movement: the backward graph (``step_sources``) and the steps asked with the territory and enemy hexes given
    once are the same steps as ``step_targets`` asked hex by hex, for bases and units of every seat."""
    state = GAME.new_game(n, seed, {"landing": landing, "launch": launch, "round_limit": 6})
    rng = Rng(seed)
    checked = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        if rng.below(8):
            continue
        for p in range(n):
            terr, enemy = state.territory(p), state.enemy_cells(p)
            for piece in (0, 1):
                inverted: dict[int, list[int]] = {}
                for cell in range(state.board.size):
                    one_by_one = state.step_targets(cell, piece, p)
                    assert state.step_targets(cell, piece, p, terr, enemy) == one_by_one
                    for nxt in one_by_one:
                        inverted.setdefault(nxt, []).append(cell)
                sources = state.step_sources(piece, p)
                assert {c: sorted(set(s)) for c, s in sources.items()} == {c: sorted(set(s)) for c, s in inverted.items()}
                checked += 1
    assert checked > 0
