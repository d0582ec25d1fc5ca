"""Orbital Combat's and Streamlines' encodings for learning agents, over random games (docs/learning.md).

In every position reached by random play, for many seeds, player counts and
options: every legal action has an index and no two share one; every index
the mask sets gives back a legal action, whose index it is; the observation
has the announced shape, and a seat's observation is the same in a state and
in its ``determinize`` for that seat; a seat that is out never moves.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astrarium.agents import make_agent
from astrarium.core import Rng, get_game
from astrarium.core.game import State
from astrarium.games.orbital_combat import learning as orbital_learning
from astrarium.games.orbital_combat.rings import load_ring_table
from astrarium.games.streamlines import learning as streamlines_learning
from helpers import examples

ORBITAL = get_game("orbital-combat")
STREAMLINES = get_game("streamlines")
MODULES = {"orbital-combat": orbital_learning, "streamlines": streamlines_learning}


def _encoder(state: State) -> Any:
    return MODULES[state.game.id].encoder(state.players, state.options)


def _is_out(state: State, seat: int) -> bool:
    return bool(MODULES[state.game.id].is_out(state, seat))


def _check_position(state: State, encoder: Any, pick: random.Random) -> None:
    """The mask, the indices, the observations and who is out, in one position."""
    space = encoder.actions
    legal = state.legal_actions()
    indices = [space.index(action) for action in legal]
    assert len(set(indices)) == len(indices), "two legal actions share an index"
    assert all(0 <= i < space.size for i in indices)
    for i in pick.sample(indices, min(4, len(indices))):
        action = space.action(i, state)
        assert action in legal and space.index(action) == i
    seat = state.current_player
    assert seat is not None and not _is_out(state, seat)
    seen = encoder.observe(state.view(seat), seat)
    assert seen.shape == encoder.observation_shape and seen.dtype == np.float32 and np.isfinite(seen).all()
    low, high = encoder.observation_bounds
    assert ((low <= seen) & (seen <= high)).all(), f"features {np.flatnonzero((seen < low) | (seen > high))[:5]} outside their bounds"
    other = state.determinize(seat, Rng(pick.randrange(2**32)))
    assert np.array_equal(encoder.observe(other.view(seat), seat), seen), "the observation holds something the seat cannot see"
    assert encoder.observe_global(state.full_view()).shape == encoder.global_shape


def _play(game: Any, players: int, seed: int, options: dict[str, Any], moves: int) -> State:
    state = game.new_game(players, seed, options)
    encoder = MODULES[game.id].encoder(players, state.options)
    pick = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        _check_position(state, encoder, pick)
        state.apply(pick.choice(state.legal_actions()))
    return state


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), resolution=st.sampled_from(["round", "turn"]))
def test_orbital_masks_and_observations_hold_over_random_games(seed: int, players: int, resolution: str) -> None:
    state = _play(ORBITAL, players, seed, {"resolution": resolution, "round_limit": 12}, 60)
    for seat in range(players):
        assert _is_out(state, seat) == (not state.view(None)["ships"][seat]["alive"])


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), scenario=st.sampled_from(["introductory", "standard", "hard"]))
def test_streamlines_masks_and_observations_hold_over_random_games(seed: int, players: int, scenario: str) -> None:
    state = _play(STREAMLINES, players, seed, {"scenario": scenario}, 200)
    for seat in range(players):
        assert _is_out(state, seat) == (state.view(None)["ships"][seat]["square"] is None)


@pytest.mark.parametrize(("players", "size"), [(2, 528), (3, 704), (4, 880)])
def test_orbital_space_lists_every_allocation_once(players: int, size: int) -> None:
    space = orbital_learning.encoder(players, ORBITAL.resolve_options(players, {})).actions
    assert space.size == size and len(set(space.labels)) == size
    assert space.index("burn retro hard w5 d3") == space.labels.index("burn retro hard w5 d3")


@pytest.mark.parametrize(("players", "size"), [(2, 214), (3, 223), (4, 232)])
def test_streamlines_space_sizes(players: int, size: int) -> None:
    assert streamlines_learning.encoder(players, STREAMLINES.resolve_options(players, {})).actions.size == size


def test_streamlines_move_is_indexed_by_where_it_ends() -> None:
    """Any whole path to an end square is that move (rules.md, Decisions 5): one index, whatever path is written."""
    state = STREAMLINES.new_game(2, 3, {"scenario": "introductory"})
    space = _encoder(state).actions
    for move in state.moves_from(state.pos[state.turn]):
        assert space.index(move) == 81 * move.jump + move.path[-1]
        assert space.index(str(move)) == space.index(move)


def test_streamlines_drop_always_has_its_index() -> None:
    """Dropping refugees off is the only way to win: the index exists for every player count, and is set when legal."""
    for players in (2, 3, 4):
        assert "drop" in streamlines_learning.encoder(players, STREAMLINES.resolve_options(players, {})).actions.labels
    courier = make_agent("sl-courier", seed=1)
    for seed in range(10):
        state = STREAMLINES.new_game(2, seed, {"scenario": "introductory"})
        while not state.is_over:
            if any(str(a) == "drop" for a in state.legal_actions()):
                drop = _encoder(state).actions.index("drop")
                assert any(_encoder(state).actions.index(a) == drop for a in state.legal_actions())
                return
            state.apply(courier.choose(state))
    pytest.fail("the courier never came to drop refugees off in 10 games")


def test_orbital_observation_holds_the_closing_zone() -> None:
    """The zone (rules, "The closing zone") is in the observation: its safe ring this round and the next, and its damage."""
    options = ORBITAL.resolve_options(2, {"zone_round": 3, "zone_damage": 2})
    encoder = orbital_learning.encoder(2, options)
    rings = load_ring_table(options["ring_table"]).count
    at = encoder.observation_shape[0] - 2 - len(orbital_learning.GLOBAL_FEATURES)
    zone = slice(at + orbital_learning.GLOBAL_FEATURES.index("zone_safe_ring"), at + len(orbital_learning.GLOBAL_FEATURES))
    state = ORBITAL.new_game(2, 5, options)
    pick = random.Random(5)
    seen_edges = set()
    while not state.is_over and state.view(None)["round"] < 6:
        seat = state.current_player
        view = state.view(seat)
        edge, following = view["zone"]["safe_to_ring"], view["zone"]["next_round_safe_to_ring"]
        expected = [edge / rings, following / rings, 2 / options["hull"]]
        assert encoder.observe(view, seat)[zone].tolist() == pytest.approx(expected)
        seen_edges.add(edge)
        state.apply(pick.choice(state.legal_actions()))
    assert len(seen_edges) > 1, "the zone closed in these rounds, and the observation followed it"
    late = ORBITAL.new_game(2, 5, {"zone_round": 20, "zone_damage": 2})
    early = ORBITAL.new_game(2, 5, {"zone_round": 1, "zone_damage": 2})
    assert encoder.observe(late.view(0), 0)[zone].tolist() != encoder.observe(early.view(0), 0)[zone].tolist()
