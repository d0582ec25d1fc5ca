"""The fixed Orbital Combat players: each plays its one policy, legally, in any position, and only in Orbital Combat."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.agents import agent_names, make_agent
from astrarium.core import Rng, State

GAME = astrarium.get_game("orbital-combat")
NAMES = ["orbital-turtle", "orbital-gunner", "orbital-scooper", "orbital-guard"]
#: The fixed player that burns (outward, out of range); its rules are tested in tests/games/orbital_combat.
RUNNER = "orbital-runner"


def game(*ships: str, **options: object) -> State:
    options.setdefault("turn_order", "fixed")
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def random_positions(count: int, seed: int = 3) -> list[State]:
    """Positions of random games with 2 to 4 ships, both resolutions, none over."""
    rng = Rng(seed)
    found: list[State] = []
    game_seed = seed
    while len(found) < count:
        players = 2 + game_seed % 3
        state = GAME.new_game(players, game_seed, {"resolution": ("round", "turn")[game_seed % 2]})
        game_seed += 1
        for _ in range(rng.randrange(0, 60)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            found.append(state)
    return found


def test_the_fixed_players_are_registered_under_their_names() -> None:
    assert {*NAMES, RUNNER} == set(GAME.parts.players) and {*NAMES, RUNNER} <= set(agent_names())
    for name in NAMES:
        assert make_agent(name).name == name


def test_the_fixed_players_take_no_options() -> None:
    with pytest.raises(ValueError, match="takes no options"):
        make_agent("orbital-turtle:depth=3")


@pytest.mark.parametrize("name", NAMES)
def test_the_fixed_players_refuse_other_games(name: str) -> None:
    other = astrarium.get_game("constellations").new_game(2, 0)
    with pytest.raises(ValueError, match="plays only orbital-combat"):
        make_agent(name).choose(other)


@pytest.mark.parametrize("name", NAMES)
def test_the_fixed_players_always_play_a_legal_coast(name: str) -> None:
    player = make_agent(name)
    for state in random_positions(40):
        action = player.choose(state)
        assert action in state.legal_actions()
        assert action.burn is None and not action.rotate  # they never leave their ring


def test_turtle_puts_everything_into_defense() -> None:
    state = game("r3 s1", "r3 s17")  # in range
    assert str(make_agent("orbital-turtle").choose(state)) == "coast w0 d10"


def test_gunner_fires_everything_in_range_and_defends_out_of_range() -> None:
    gunner = make_agent("orbital-gunner")
    assert str(gunner.choose(game("r3 s1", "r3 s17"))) == "coast w10 d0"
    assert str(gunner.choose(game("r4 s1", "r8 s26"))) == "coast w0 d10"


def test_gunner_fires_at_the_weakest_ship_in_range() -> None:
    state = game("r3 s1", "r3 s12 h20", "r3 s22 h5")
    assert str(make_agent("orbital-gunner").choose(state)) == "coast w10 d0 @2"


def test_scooper_always_scoops() -> None:
    scooper = make_agent("orbital-scooper")
    assert str(scooper.choose(game("r3 s1", "r3 s17"))) == "coast scoop w0 d5"
    assert str(scooper.choose(game("r4 s1", "r8 s26"))) == "coast scoop w0 d5"


def test_guard_defends_in_range_and_scoops_out_of_range() -> None:
    guard = make_agent("orbital-guard")
    assert str(guard.choose(game("r3 s1", "r3 s17"))) == "coast w0 d10"
    assert str(guard.choose(game("r4 s1", "r8 s26"))) == "coast scoop w0 d5"


@pytest.mark.parametrize("name", NAMES)
def test_a_whole_game_between_fixed_players_ends(name: str) -> None:
    state = GAME.new_game(2, 1)
    players = [make_agent(name), make_agent("orbital-gunner")]
    while not state.is_over:
        state.apply(players[state.current_player].choose(state))
    assert state.outcome is not None


def test_the_fixed_players_are_offered_for_orbital_combat_only() -> None:
    assert set(NAMES) <= set(agent_names("orbital-combat"))
    assert not set(NAMES) & set(agent_names("constellations"))
    with pytest.raises(ValueError, match="plays only orbital-combat"):
        make_agent("orbital-gunner", game="constellations")


def test_a_search_does_not_read_the_lot_of_the_rolled_turn_order() -> None:
    """With every round's first seat drawn by lot, the search looks ahead on worlds whose coming draws are re-sampled."""
    from astrarium.agents.search import must_sample

    state = game("r8 s1", "r8 s17", turn_order="rolled")  # out of each other's range
    assert must_sample(state, perfect_information=False) and not must_sample(game("r8 s1", "r8 s17"), False)
    world_next = set()
    for k in range(12):
        world = state.determinize(state.current_player, Rng(50 + k))
        assert world.view() == state.view()  # this round's order is already drawn and public
        for _ in range(2):
            world.apply("coast w0 d10")
        world_next.add(world.current_player)
    assert world_next == {0, 1}  # the next round's first seat differs between worlds: the real draw is not read


def test_the_levels_play_the_rolled_turn_order_to_the_end() -> None:
    from astrarium.agents.levels import measured_spec

    state = GAME.new_game(2, 4, {"turn_order": "rolled", "round_limit": 6})
    medium = measured_spec("medium", False, "orbital-combat").replace("iterations=1000", "iterations=60")
    assert "mcts:" in medium
    players = {seat: make_agent(medium, seed=seat, game="orbital-combat") for seat in (0, 1)}
    while not state.is_over:
        seat = state.current_player
        state.apply(players[seat].choose(state))
    assert state.outcome is not None
