"""The Connected Worlds scripted players' ``ties`` option: how they pick among moves their plan values alike.

``first`` (the default) takes the first in the map's order of hexes and the cards' order, as the players always did;
``random`` draws one of the equally valued moves from the player's own seeded generator (docs/agents.md, "Connected
Worlds scripted players"; docs/balance/connected-worlds.md, "Three and four players").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.agents import make_agent
from astrarium.agents.base import agent_options
from astrarium.core import State

GAME = astrarium.get_game("connected-worlds")
SHORT = {"round_limit": 6}
#: Seat 0's Command Post on its homeworld's centre, seat 1's on its own; seat 0 holds a unit card or a base card.
HOMES = '[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 3\n[[base]]\nat = "B:0,0"\nowner = 1\nstrength = 3\n'


def moves_of(specs: list[str], players: int, seed: int, options: dict[str, object]) -> list[str]:
    """The notations of a whole game between ``specs`` (seat k's player seeded ``seed * 10 + k``), each checked legal."""
    state = GAME.new_game(players, seed, options)
    agents = [make_agent(spec, seed=seed * 10 + k, game=GAME.id) for k, spec in enumerate(specs)]
    moves: list[str] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(state)
        assert action in state.legal_actions(), f"{specs[seat]} chose {action} in {state!r}"
        moves.append(str(action))
        state.apply(action)
    return moves


def holding(hand: str) -> State:
    """Seat 0 to play in capture with ``hand`` (the two homes of :data:`HOMES` and no unit on the map)."""
    body = f"{HOMES}[[player]]\nhand = {hand}\n[[player]]\n"
    return GAME.new_game(2, 5, {"scenario": body, "victory": "capture"})


def test_every_scripted_player_takes_the_ties_option():
    assert "ties" in agent_options("cw-general")  # type: ignore[operator]
    assert "ties" in agent_options("cw-rusher")  # type: ignore[operator]
    assert "ties" in agent_options("cw-expander")  # type: ignore[operator]
    for spec in ("cw-general:ties=first", "cw-general:ties=random", "cw-rusher:ties=random", "cw-expander:guard=false,ties=random"):
        assert make_agent(spec, seed=3, game=GAME.id).choose(GAME.new_game(2, 0)) in GAME.new_game(2, 0).legal_actions()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cw-general:ties=sometimes", "ties must be one of first, random, not 'sometimes'"),
        ("cw-general:ties=1", "ties must be one of first, random, not 1"),
        ("cw-general:ties=true", "ties must be one of first, random, not True"),
        ("cw-expander:ties=last", "ties must be one of first, random, not 'last'"),
        ("cw-general:tie=random", "cw-general has no option 'tie'; its options are ties"),
    ],
)
def test_a_bad_ties_value_is_refused_with_a_message_naming_the_option(spec: str, message: str):
    with pytest.raises(ValueError) as refused:
        make_agent(spec, game=GAME.id)
    assert str(refused.value) == message


@pytest.mark.parametrize(("players", "victory", "seed"), [(2, "capture", 1), (3, "expansion", 2), (3, "capture", 4), (4, "expansion", 0)])
def test_ties_first_plays_exactly_as_the_player_built_without_the_option(players: int, victory: str, seed: int):
    options = {**SHORT, "victory": victory}
    plain = moves_of(["cw-general"] * players, players, seed, options)
    first = moves_of(["cw-general:ties=first"] * players, players, seed, options)
    assert first == plain
    line = ["cw-rusher", "cw-expander", "cw-general", "cw-expander:guard=false"][:players]
    with_first = [f"{spec}{',' if ':' in spec else ':'}ties=first" for spec in line]
    assert moves_of(with_first, players, seed, options) == moves_of(line, players, seed, options)


@pytest.mark.parametrize(
    ("card", "first"),
    [
        # a fighting unit: every hex of the home territory is as near the enemy; the first by name
        ("assault-team", "deploy assault-team A:-1,0"),
        # a base card: every free hex adds as much territory; the first in the map's order
        ("standard-base", "deploy standard-base A:0,-1"),
    ],
)
def test_first_deploys_on_the_first_of_equal_hexes_and_random_on_any_of_them(card: str, first: str):
    state = holding(f'["{card}", "harvester", "scientists", "portal", "engineers"]')
    deploys = {str(a) for a in state.legal_actions() if str(a).startswith("deploy ")}
    assert str(make_agent("cw-general", game=GAME.id).choose(state)) == first
    drawn = {str(make_agent("cw-general:ties=random", seed=seed, game=GAME.id).choose(state)) for seed in range(40)}
    assert drawn == deploys


def test_random_ties_are_reproducible_with_the_same_seeds():
    line = ["cw-general:ties=random"] * 3
    assert moves_of(line, 3, 5, {**SHORT, "victory": "capture"}) == moves_of(line, 3, 5, {**SHORT, "victory": "capture"})


def test_random_ties_play_differently_from_first_ties_somewhere_over_a_few_games():
    options = {**SHORT, "victory": "expansion"}
    differ = [
        seed
        for seed in range(3)
        if moves_of(["cw-general:ties=random"] * 3, 3, seed, options) != moves_of(["cw-general"] * 3, 3, seed, options)
    ]
    assert differ


@settings(max_examples=8, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
    victory=st.sampled_from(["expansion", "capture", "annihilation"]),
    rivals=st.sampled_from(["cw-general", "cw-rusher:ties=random", "cw-expander:ties=random"]),
)
def test_every_move_of_a_player_breaking_ties_at_random_is_legal(players: int, seed: int, victory: str, rivals: str):
    line = ["cw-general:ties=random", *[rivals] * (players - 1)]
    moves = moves_of(line, players, seed, {"round_limit": 5, "victory": victory})
    assert moves
