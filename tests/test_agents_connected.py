"""The fixed Connected Worlds strategies (``cw-rusher``, ``cw-expander``): they play legal games, and the exploit they
stand for stays beaten (rules.md of connected-worlds, "Design notes" and "Balance")."""

from __future__ import annotations

import re

import pytest

import astrarium
from astrarium.agents import agent_names, make_agent
from astrarium.agents.base import agent_options
from astrarium.core import State

GAME = astrarium.get_game("connected-worlds")
#: The house rules before the repair (issue: a round-1 rush wins), as options.
OLD_RULES = {"first_base": 1, "landing": "territory-or-any", "gather": "anywhere", "elimination": False}


def play(state: State, specs: list[str], seed: int = 0) -> State:
    agents = [make_agent(spec, seed=seed * 10 + k) for k, spec in enumerate(specs)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    return state


def rounds(state: State) -> int:
    found = re.search(r"round (\d+)", state.outcome.reason)  # type: ignore[union-attr]
    return int(found.group(1)) if found else state.full_view()["round"]


def test_the_players_are_registered_and_declare_their_options():
    assert {"cw-rusher", "cw-expander"} <= set(agent_names())
    assert agent_options("cw-rusher") == []
    assert agent_options("cw-expander") == ["guard"]
    with pytest.raises(ValueError, match="guard must be true or false"):
        make_agent("cw-expander:guard=maybe")


def test_they_play_only_connected_worlds():
    state = astrarium.get_game("orbital-combat").new_game(2, 0)
    for name in ("cw-rusher", "cw-expander"):
        with pytest.raises(ValueError, match="plays only connected-worlds"):
            make_agent(name).choose(state)


@pytest.mark.parametrize("victory", ["expansion", "capture", "annihilation"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_they_play_whole_games_with_legal_actions(victory: str, players: int):
    line = ["cw-rusher", "cw-expander", "cw-expander:guard=false", "cw-rusher"][:players]
    state = play(GAME.new_game(players, 7, {"victory": victory, "round_limit": 12}), line)
    assert state.is_over


def test_old_rules_the_round_1_rush_wins_and_the_defaults_stop_it():
    """The exploit of the issue: seat 0 lands its Assault Team on the lone strength-1 base and wins in round 1."""
    one_round = {"victory": "annihilation", "round_limit": 1}
    old = [play(GAME.new_game(2, seed, {**one_round, **OLD_RULES}), ["cw-rusher", "cw-expander"]) for seed in range(12)]
    fast = [seed for seed, state in enumerate(old) if "wins by annihilation" in state.outcome.reason]  # type: ignore[union-attr]
    assert fast, "the rusher should win some games in round 1 under the old rules"
    for seed in range(12):
        state = play(GAME.new_game(2, seed, one_round), ["cw-rusher", "cw-expander"])
        assert "round limit" in state.outcome.reason  # type: ignore[union-attr]


def test_the_expander_reaches_three_worlds_when_left_alone():
    state = play(GAME.new_game(2, 3, {"victory": "expansion"}), ["cw-expander", "cw-expander:guard=false"])
    assert "wins by expansion" in state.outcome.reason  # type: ignore[union-attr]
