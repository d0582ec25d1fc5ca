"""The agent protocol: a computer player chooses an action for the seat to move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from astrarium.core.game import State


@runtime_checkable
class Agent(Protocol):
    """A player. Built with a seed and keyword options; ``choose`` returns a legal action.

    An agent may look at ``state.legal_actions()`` and ``state.view(seat)`` for the
    seat it plays; it must not read hidden parts of the state unless it was built
    with ``perfect_information=True`` (for experiments only).
    """

    name: str

    def choose(self, state: State) -> Any: ...


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=2000,seconds=1"`` -> ``("mcts", {"iterations": 2000, "seconds": 1})``.

    Values that read as integers or numbers become numbers; true/false become booleans.
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"no player kind in {spec!r}")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"player option {part!r} in {spec!r} should look like name=value")
        options[key.strip()] = _parse_value(raw.strip())
    return name, options


def _parse_value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from a spec such as ``random`` or ``mcts:iterations=500``."""
    name, options = parse_agent_spec(spec)
    factory = _AGENTS.get(name)
    if factory is None:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown player kind {name!r}; known: human, {known}")
    try:
        return factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for {name!r}: {exc}") from exc
