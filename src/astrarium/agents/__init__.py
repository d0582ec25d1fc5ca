"""Computer players. Every agent works on every game through the core API.

``random`` (uniform), ``greedy`` (one step of lookahead on the game's
evaluation), ``mcts`` (UCT) and ``ismcts`` (information-set MCTS); build one
from a spec with ``make_agent("mcts:iterations=500")``. The arena
(:mod:`astrarium.agents.arena`) plays many games between them.
"""

from astrarium.agents.base import Agent, AgentFactory, agent_names, make_agent, parse_agent_spec, register_agent
from astrarium.agents.greedy import GreedyAgent
from astrarium.agents.mcts import ISMCTSAgent, MCTSAgent
from astrarium.agents.random_agent import RandomAgent
from astrarium.agents.rollout import RolloutAgent
from astrarium.agents.scripted_connected import PLAYERS as CONNECTED_PLAYERS
from astrarium.agents.scripted_constellations import PLAYERS as CONSTELLATIONS_PLAYERS
from astrarium.agents.scripted_orbital import PLAYERS as ORBITAL_PLAYERS
from astrarium.agents.scripted_streamlines import PLAYERS as STREAMLINES_PLAYERS

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("mcts", MCTSAgent)
register_agent("ismcts", ISMCTSAgent)
register_agent("rollout", RolloutAgent)
# Fixed strategies of Orbital Combat, Connected Worlds and Constellations: the balance and strength yardsticks.
_FIXED: dict[str, AgentFactory] = {**ORBITAL_PLAYERS, **CONNECTED_PLAYERS, **CONSTELLATIONS_PLAYERS, **STREAMLINES_PLAYERS}
for _name, _player in _FIXED.items():
    register_agent(_name, _player)

__all__ = [
    "Agent",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "RolloutAgent",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
