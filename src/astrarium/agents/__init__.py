"""Computer players. Every agent works on every game through the core API.

``random`` (uniform), ``greedy`` (one step of lookahead on the game's
evaluation), ``mcts`` (UCT), ``ismcts`` (information-set MCTS), ``rollout``,
and each game's scripted players (the references it declares); build one
from a spec with ``make_agent("mcts:iterations=500")``. The arena
(:mod:`astrarium.agents.arena`) plays many games between them.
"""

from astrarium.agents.base import Agent, agent_names, make_agent, parse_agent_spec, register_agent
from astrarium.agents.greedy import GreedyAgent
from astrarium.agents.learned import LearnedPlayer
from astrarium.agents.mcts import ISMCTSAgent, MCTSAgent
from astrarium.agents.random_agent import RandomAgent
from astrarium.agents.rollout import RolloutAgent

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("mcts", MCTSAgent)
register_agent("ismcts", ISMCTSAgent)
register_agent("rollout", RolloutAgent)
register_agent("learned", LearnedPlayer)  # the shipped learned policies (astrarium.rl.learn trains them)
# The games' scripted players (fixed strategies, the balance and strength yardsticks, a game's best plan) are each
# game's declared ``parts.players``, "module:attribute" references into this package; they are imported and registered
# the first time any player is asked for (``base.resolve_player``), and a bad reference is an error naming the game.

__all__ = [
    "Agent",
    "GreedyAgent",
    "LearnedPlayer",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "RolloutAgent",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
