"""The search players' ``spread`` option: a seeded player draws its move among the root's near-equally visited actions.

``spread=0`` (the default) plays the most visited action and draws no number, as the players always did; with a
spread the move is drawn from the player's own generator among the actions visited at least ``1 - spread`` times as
often as the most visited one (src/astrarium/agents/mcts.py, docs/agents.md, "The players").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.agents import MCTSAgent, make_agent
from astrarium.core import State
from helpers import examples, play_rotated

GAME = astrarium.get_game("orbital-combat")
#: Orbital Combat's level search (no random number drawn) on a budget small enough for a quick test.
LEVEL = "mcts:depth=0,expand=greedy,iterations=60"
#: A search that draws numbers (random expansion and rollouts): the generator's sequence is what spread=0 must keep.
RANDOM_SEARCH = "mcts:iterations=40,depth=6"
#: An opening from notation: both ships' first allocations.
OPENING = ["coast w8 d2", "burn pro soft w7 d2"]


def moves_of(specs: list[str], seed: int) -> list[str]:
    """The notations of game ``seed`` between ``specs`` as the lab plays it (seats rotated, players seeded by it)."""
    return [str(action) for action in play_rotated(GAME.id, specs, seed).to_record()["actions"]]


def position(notations: list[str]) -> State:
    """The standard start with ``notations`` played."""
    state = GAME.new_game(2, 0)
    for notation in notations:
        state.apply(notation)
    return state


# -- the option ----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_spread_is_an_option_of_both_searches_and_off_by_default(kind: str) -> None:
    assert make_agent(kind).spread == 0.0
    assert make_agent(f"{kind}:spread=0.25").spread == 0.25
    assert make_agent(f"{kind}:spread=0").spread == 0.0


@pytest.mark.parametrize(
    ("spec", "shown"),
    [("mcts:spread=1", "1"), ("mcts:spread=1.5", "1.5"), ("mcts:spread=-0.1", "-0.1"), ("ismcts:spread=wide", "'wide'")],
)
def test_a_spread_outside_0_to_1_is_refused_with_the_option_named(spec: str, shown: str) -> None:
    with pytest.raises(ValueError, match=r"spread must be a number from 0 up to \(not including\) 1") as refused:
        make_agent(spec)
    assert str(refused.value).endswith(f"not {shown}")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), True])
def test_a_spread_that_is_no_finite_number_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="spread must be a number"):
        MCTSAgent(spread=value)  # type: ignore[arg-type]


# -- spread 0: today's rule exactly ------------------------------------------------------------
@pytest.mark.parametrize("spec", [LEVEL, RANDOM_SEARCH])
def test_spread_0_plays_the_same_whole_games_as_a_player_without_the_option(spec: str) -> None:
    for seed in (0, 1):
        assert moves_of([f"{spec},spread=0", f"{spec},spread=0"], seed) == moves_of([spec, spec], seed)


def test_spread_0_draws_no_number_from_the_player_s_generator() -> None:
    state = position(OPENING)
    plain, spread_0 = make_agent(RANDOM_SEARCH, seed=3), make_agent(f"{RANDOM_SEARCH},spread=0", seed=3)
    assert str(plain.choose(state)) == str(spread_0.choose(state))
    assert plain.rand.getstate() == spread_0.rand.getstate()


# -- with a spread: varied play, replayable by seed -----------------------------------------------
def test_without_a_spread_the_level_mirror_plays_one_game_whatever_the_seeds() -> None:
    assert len({tuple(moves_of([LEVEL, LEVEL], seed)) for seed in range(3)}) == 1


def test_with_a_spread_the_same_seed_replays_the_same_level_mirror() -> None:
    spec = f"{LEVEL},spread=0.1"
    assert moves_of([spec, spec], 4) == moves_of([spec, spec], 4)


def test_with_a_spread_different_seeds_play_different_level_mirrors() -> None:
    spec = f"{LEVEL},spread=0.1"
    games = {tuple(moves_of([spec, spec], seed)) for seed in range(6)}
    assert len(games) > 1


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 10_000), spread=st.sampled_from([0.05, 0.1, 0.3, 0.6]), played=st.integers(0, 2))
def test_every_choice_is_among_the_actions_visited_within_the_spread(seed: int, spread: float, played: int) -> None:
    state = position(OPENING[:played])
    agent = make_agent(f"{LEVEL},spread={spread}", seed=seed)
    chosen = str(agent.choose(state))
    visits = agent.last_visits
    assert chosen in visits
    assert visits[chosen] >= (1 - spread) * max(visits.values())


def test_a_spread_draws_among_the_near_equal_actions_and_never_a_clearly_worse_one() -> None:
    state = position(OPENING)
    chosen = set()
    for seed in range(12):
        agent = make_agent(f"{LEVEL},spread=0.2", seed=seed)
        chosen.add(str(agent.choose(state)))
        best = max(agent.last_visits.values())
        near = {a for a, n in agent.last_visits.items() if n >= 0.8 * best}
        assert chosen <= near
    assert len(chosen) > 1


@pytest.mark.slow
def test_the_medium_level_with_a_spread_plays_a_different_mirror_for_each_seed() -> None:
    spec = "mcts:depth=0,expand=greedy,iterations=1000,spread=0.1"
    games = {tuple(moves_of([spec, spec], seed)) for seed in range(4)}
    assert len(games) == 4
