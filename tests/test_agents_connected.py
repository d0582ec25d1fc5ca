"""The fixed Connected Worlds strategies (``cw-rusher``, ``cw-expander``, ``cw-general``): they play legal games, the
exploit they stand for stays beaten, and the general guards what is threatened and strikes with the rest (docs/balance/
connected-worlds.md, "Design notes" and "Balance")."""

from __future__ import annotations

import re

import pytest

import astrarium
from astrarium.agents import agent_names, make_agent
from astrarium.agents.base import agent_options
from astrarium.core import State

GAME = astrarium.get_game("connected-worlds")
#: The house rules before the repair (under them a round-1 rush wins), as options.
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
    assert {"cw-rusher", "cw-expander", "cw-general"} <= set(agent_names())
    assert agent_options("cw-rusher") == ["ties"]
    assert agent_options("cw-general") == ["ties"]
    assert agent_options("cw-expander") == ["guard", "ties"]
    with pytest.raises(ValueError, match="guard must be true or false"):
        make_agent("cw-expander:guard=maybe")


def test_they_play_only_connected_worlds():
    state = astrarium.get_game("orbital-combat").new_game(2, 0)
    for name in ("cw-rusher", "cw-expander", "cw-general"):
        with pytest.raises(ValueError, match="plays only connected-worlds"):
            make_agent(name).choose(state)


@pytest.mark.parametrize("victory", ["expansion", "capture", "annihilation"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_they_play_whole_games_with_legal_actions(victory: str, players: int):
    line = ["cw-rusher", "cw-expander", "cw-expander:guard=false", "cw-rusher"][:players]
    state = play(GAME.new_game(players, 7, {"victory": victory, "round_limit": 12}), line)
    assert state.is_over
    generals = ["cw-general", "cw-rusher", "cw-general", "cw-expander"][:players]
    state = play(GAME.new_game(players, 8, {"victory": victory, "round_limit": 12}), generals)
    assert state.is_over


def test_old_rules_the_round_1_rush_wins_and_the_defaults_stop_it():
    """The old rules' exploit: seat 0 lands its Assault Team on the lone strength-1 base and wins in round 1."""
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


def scenario(*pieces: tuple[str, str, int, int], hand: str = '["harvester", "scientists", "portal", "engineers", "harvester"]') -> State:
    """Seat 0 to play with ``hand``; pieces are (kind, hex, owner, strength)."""
    body = "".join(f'[[{kind}]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n' for kind, at, owner, strength in pieces)
    body += f"[[player]]\nhand = {hand}\n[[player]]\n"
    return GAME.new_game(2, 5, {"scenario": body, "victory": "capture"})


HOMES = (("base", "A:0,0", 0, 3), ("base", "B:0,0", 1, 3))


def test_the_rusher_keeps_its_cards_when_its_unit_could_only_wait_next_to_a_base_it_cannot_take():
    state = scenario(*HOMES, ("unit", "B:1,0", 0, 2))
    assert str(make_agent("cw-rusher").choose(state)) == "gather harvester"


def test_the_rusher_attacks_with_every_unit_next_to_a_base_that_together_take_it():
    state = scenario(*HOMES, ("unit", "B:1,0", 0, 2), ("unit", "B:1,-1", 0, 2))
    rusher = make_agent("cw-rusher")
    for _ in range(4):  # two units, each a move and a step into the base: 2 + 2 against the Outpost's 3
        state.apply(rusher.choose(state))
    assert sorted(u[:3] for u in state.full_view()["units"]) == [["B:0,0", 0, 2], ["B:0,0", 0, 2]]
    state.apply("end")
    assert ["B:0,0", 0, 3] in state.full_view()["bases"]


def test_the_guarding_expander_strikes_at_an_intruder_in_its_territory_it_would_beat():
    state = scenario(*HOMES, ("unit", "A:0,0", 0, 3), ("unit", "A:1,0", 1, 2))
    expander = make_agent("cw-expander")
    move = expander.choose(state)
    assert str(move).startswith("move ") and str(move).endswith("A:0,0 u3")
    state.apply(move)
    assert str(expander.choose(state)) == "step A:1,0"
    unguarded = scenario(*HOMES, ("unit", "A:0,0", 0, 3), ("unit", "A:1,0", 1, 2))
    assert not str(make_agent("cw-expander:guard=false").choose(unguarded)).startswith("move ")


def test_the_scripted_players_are_offered_only_for_connected_worlds() -> None:
    from astrarium.agents import agent_names

    assert {"cw-rusher", "cw-expander", "cw-general"} <= set(agent_names("connected-worlds"))
    for other in ("orbital-combat", "celestials", "streamlines", "constellations"):
        assert not any(name.startswith("cw-") for name in agent_names(other)), other


# -- the general: guard what the enemy can strike next turn, send the rest at the weakest base -------------------------
#: Two enemy Assault Teams two steps from seat 0's Outpost on its own world: together (4) they would take it (3); with
#: seat 0's own Assault Team on it, 2 against 2 fall together and the last 2 is lost against the Outpost.
STRIKERS = (("unit", "A:2,0", 1, 2), ("unit", "A:2,-1", 1, 2))


def test_the_general_keeps_a_guard_on_a_base_the_enemy_could_take_next_turn():
    state = scenario(*HOMES, ("unit", "A:0,0", 0, 2), *STRIKERS)
    assert str(make_agent("cw-general").choose(state)) == "gather harvester"


def test_the_general_sends_the_guard_when_the_enemy_could_only_land_on_a_beachhead_next_turn():
    """Enemy units in space must land where their player holds no territory, which ends their move: no threat this turn."""
    state = scenario(*HOMES, ("unit", "A:0,0", 0, 2), ("unit", "S:-1,1", 1, 2), ("unit", "S:-1,0", 1, 2))
    assert str(make_agent("cw-general").choose(state)) == "move harvester A:0,0 u2"


def test_the_general_deploys_a_fighting_unit_on_the_threatened_base():
    state = scenario(*HOMES, *STRIKERS, hand='["assault-team", "harvester", "scientists", "portal", "engineers"]')
    assert str(make_agent("cw-general").choose(state)) == "deploy assault-team A:0,0"


def test_the_general_goes_for_the_base_it_can_take_where_the_rusher_goes_for_the_nearest():
    """From S:-1,-1 world C (an Outpost) is nearer than world B (a Standard Base, which an Assault Team takes)."""
    state = scenario(("base", "A:0,0", 0, 3), ("base", "B:0,0", 1, 1), ("base", "C:0,0", 1, 3), ("unit", "S:-1,-1", 0, 2))
    steps = {}
    for name in ("cw-general", "cw-rusher"):
        game, player = state.clone(), make_agent(name)
        move = player.choose(game)
        assert str(move) == "move harvester S:-1,-1 u2"
        game.apply(move)
        steps[name] = str(player.choose(game))
    assert steps == {"cw-general": "step S:0,-1", "cw-rusher": "step S:0,-2"}
