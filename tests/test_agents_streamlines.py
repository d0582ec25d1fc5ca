"""The scripted Streamlines players ``sl-courier`` and ``sl-builder``: named, legal, and Streamlines only."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.agents import agent_names, make_agent
from astrarium.agents.streamlines_courier import won as policy_won


@pytest.mark.parametrize("name", ["sl-courier", "sl-builder"])
def test_scripted_streamlines_players_are_offered_for_streamlines_only(name: str) -> None:
    assert name in agent_names("streamlines")
    assert name not in agent_names("orbital-combat")
    with pytest.raises(ValueError, match="plays only streamlines"):
        make_agent(name, game="orbital-combat")


@pytest.mark.parametrize("name", ["sl-courier", "sl-builder"])
@pytest.mark.parametrize("scenario", ["introductory", "standard", "hard"])
def test_scripted_streamlines_players_play_whole_legal_games(name: str, scenario: str) -> None:
    game = astrarium.get_game("streamlines")
    for seed in range(3):
        state = game.new_game(3, seed, {"scenario": scenario})
        agent = make_agent(name, seed, game="streamlines")
        while not state.is_over:
            action = agent.choose(state)
            assert state.is_legal(action)
            state.apply(action)


def test_the_named_players_play_the_games_of_the_scripted_policy() -> None:
    """The balance figures come from the lab's sl- teams; they must win the games of the courier's (builder's) policy."""
    game = astrarium.get_game("streamlines")
    for lay, name in ((False, "sl-courier"), (True, "sl-builder")):
        measured = sum(policy_won("standard", 2, seed, lay, {}) for seed in range(12))
        won = 0
        for seed in range(12):
            state = game.new_game(2, seed, {"scenario": "standard"})
            agents = [make_agent(name, seed * 1000 + seat, game="streamlines") for seat in range(2)]
            while not state.is_over:
                seat = state.current_player
                assert seat is not None
                state.apply(agents[seat].choose(state))
            won += bool(state.outcome and state.outcome.winners)
        assert won == measured, (name, won, measured)
    assert 0 < measured < 12, "the standard scenario should be neither always won nor always lost by the builders"


def test_scripted_streamlines_builder_lays_streamlines_and_courier_never_does() -> None:
    game = astrarium.get_game("streamlines")
    laid = {"sl-courier": 0, "sl-builder": 0}
    for name in laid:
        for seed in range(20):
            state = game.new_game(2, seed, {"scenario": "standard"})
            agent = make_agent(name, seed, game="streamlines")
            while not state.is_over:
                action = agent.choose(state)
                laid[name] += str(action).startswith("lay")
                state.apply(action)
    assert laid["sl-courier"] == 0 and laid["sl-builder"] >= 10


def test_scripted_streamlines_player_refuses_another_game() -> None:
    state = astrarium.get_game("orbital-combat").new_game(2, 0)
    with pytest.raises(ValueError, match="plays only streamlines"):
        make_agent("sl-courier").choose(state)
