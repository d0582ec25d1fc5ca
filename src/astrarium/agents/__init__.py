"""Computer players. Every agent works on every game through the core API."""

from astrarium.agents.base import Agent, agent_names, make_agent, parse_agent_spec, register_agent
from astrarium.agents.random_agent import RandomAgent

register_agent("random", RandomAgent)

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "parse_agent_spec", "register_agent"]
