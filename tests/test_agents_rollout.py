"""The rollout player (policy improvement over a named base player) and the Streamlines team built on it, ``sl-search``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium import lab
from astrarium.agents import RolloutAgent, agent_names, make_agent
from astrarium.agents.streamlines_courier import won as courier_won
from test_agents import GAMES, Take, guarded, nim, positions


# -- options ------------------------------------------------------------------------------
def test_the_rollout_player_is_registered_and_takes_its_options_after_a_colon() -> None:
    assert "rollout" in agent_names()
    agent = make_agent("rollout:base=greedy,samples=3,depth=5,margin=0.1,z=1.5", seed=2)
    assert isinstance(agent, RolloutAgent)
    assert (agent.base_spec, agent.samples, agent.depth, agent.margin, agent.z) == ("greedy", 3, 5, 0.1, 1.5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("rollout:samples=0", "samples must be"),
        ("rollout:depth=-1", "depth must be"),
        ("rollout:margin=-0.5", "margin must be"),
        ("rollout:z=11", "z must be"),
        ("rollout:base=wizard", "unknown player kind 'wizard'"),
        ("rollout:base=rollout", "base cannot itself be a rollout player"),
        ("rollout:base=sl-search", "base cannot itself be a rollout player"),
        ("rollout:base=3", "base must name a player"),
        ("rollout:perfect_information=cheat", "perfect_information must be true or false"),
    ],
)
def test_bad_rollout_options_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


# -- every game, no peeking -----------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_the_rollout_player_plays_legal_actions_in_every_game_without_changing_the_position(game_id: str) -> None:
    for state in positions(game_id):
        before = state.full_view()
        agent = make_agent("rollout:base=random,samples=2,depth=6", seed=1)
        action = agent.choose(state)
        assert action in state.legal_actions(), f"rollout chose {action} in {state!r}"
        assert state.full_view() == before
        if len(state.legal_actions()) > 1:
            assert agent.last_rollouts == 2 * len(state.legal_actions())


SECRET_GAMES = [g for g in GAMES if astrarium.get_game(g).hidden_information or astrarium.get_game(g).chance]


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_the_rollout_player_looks_only_through_determinize_for_the_acting_seat(game_id: str) -> None:
    for state in positions(game_id):
        if len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        state, calls = guarded(state)
        action = make_agent("rollout:base=random,samples=3,depth=4", seed=2).choose(state)
        assert action in state.legal_actions()
        assert calls == [seat] * 3


# -- policy improvement -----------------------------------------------------------------------
def test_the_rollout_player_finds_the_win_its_base_player_misses() -> None:
    # Three stones: taking all three wins at once; a random base player takes it a third of the time.
    assert {make_agent("random", seed=s).choose(nim(3)) for s in range(12)} > {Take(3)}
    for seed in range(12):
        assert make_agent("rollout:base=random,samples=4", seed=seed).choose(nim(3)) == Take(3)


def test_the_rollout_player_reads_nim_one_move_deeper_than_its_base() -> None:
    # From five stones the only winning move leaves four; with greedy finishing every game, only take 1 wins.
    agent = make_agent("rollout:base=greedy,samples=2", seed=3)
    assert agent.choose(nim(5)) == Take(1)
    assert agent.last_values == {"take 1": 1.0, "take 2": -1.0, "take 3": -1.0}  # type: ignore[attr-defined]


def test_a_margin_no_rollout_can_beat_keeps_the_base_players_action() -> None:
    # Returns lie in [-1, 1], so a margin of 2 is never exceeded: the player plays exactly its base player's moves.
    for seed in range(8):
        base = make_agent("random", seed=seed).choose(nim(9))
        assert make_agent("rollout:base=random,samples=2,margin=2", seed=seed).choose(nim(9)) == base


@given(heap=st.integers(min_value=1, max_value=40), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_property_a_rollout_move_is_legal_leaves_the_position_alone_and_never_loses_a_forced_win(heap: int, seed: int) -> None:
    state = nim(heap)
    before = state.full_view()
    agent = make_agent("rollout:base=random,samples=3", seed=seed)
    action = agent.choose(state)
    assert action in state.legal_actions()
    assert state.full_view() == before
    if 2 <= heap <= 3:  # taking the whole heap wins in every world; nothing can do better, so it is always found or kept
        assert agent.last_values[str(Take(heap))] == 1.0  # type: ignore[attr-defined]
        assert action == Take(heap) or agent.last_values[str(action)] == 1.0  # type: ignore[attr-defined]


def test_a_confidence_threshold_keeps_the_base_action_on_a_single_lucky_world() -> None:
    # One world is no evidence: with z > 0 and one sample, nothing can beat the base player's action.
    for seed in range(8):
        base = make_agent("random", seed=seed).choose(nim(9))
        assert make_agent("rollout:base=random,samples=1,z=1", seed=seed).choose(nim(9)) == base


# -- the Streamlines team ---------------------------------------------------------------------
def test_sl_search_is_offered_for_streamlines_only() -> None:
    assert "sl-search" in agent_names("streamlines")
    assert "sl-search" not in agent_names("celestials")
    with pytest.raises(ValueError, match="plays only streamlines"):
        make_agent("sl-search", game="celestials")


def test_sl_search_plays_whole_legal_games_on_every_scenario() -> None:
    game = astrarium.get_game("streamlines")
    for scenario in ("introductory", "standard", "hard"):
        state = game.new_game(2, 1, {"scenario": scenario})
        agents = [make_agent("sl-search:samples=1", seat, game="streamlines") for seat in range(2)]
        while (seat := state.current_player) is not None:
            action = agents[seat].choose(state)
            assert state.is_legal(action)
            state.apply(action)


def test_a_team_that_never_leaves_the_courier_wins_the_couriers_games() -> None:
    """A lab comparison of two teams plays the same seeds: a rollout team that always keeps the courier's action
    (margin 2) wins exactly the courier's games, and the paired difference is zero."""
    team = lab.run(lab.build_experiment("streamlines", ["rollout:base=sl-courier,samples=1,margin=2"] * 2, games=6), jobs=1)
    courier = [courier_won("standard", 2, seed, False, {}) for seed in range(6)]
    assert [row["returns"][0] > 0 for row in team.table.sort_by("seed").to_pylist()] == courier
    couriers = lab.run(lab.build_experiment("streamlines", ["sl-courier"] * 2, games=6), jobs=1)
    found = lab.compare(couriers, team)
    assert found.get("win seat 0").value == 0.0 and found.changed == []
