"""Levels a person understands (``easy``, ``medium``, ``hard``) and the thinking time of a computer player at a table.

A person choosing an opponent thinks in how hard it plays and how long it
makes them wait, not in iterations. A level names a player spec:

- ``easy``: the greedy player, one step of lookahead on the game's evaluation;
  it answers at once and misses every plan longer than one action.
- ``medium``: UCT search for 0.3 s a move.
- ``hard``: search for 2 s a move; information-set search (``ismcts``) in the
  games with hidden cards or chance, where it does not over-explore actions
  that are only sometimes legal, plain UCT (``mcts``) elsewhere.

Each game declares its levels (``parts.levels`` in its package, see
``core.contract``): a designer's game may take
:func:`astrarium.core.contract.search_levels` with its tuned search settings
(``parts.search``: rollout kind, rollout depth, exploration); the shipped games
name the player of each level that the levels' runs ordered (a search with an
iteration budget and a wall-clock cap, one step of lookahead, a scripted plan,
a rollout player over it), each level beating the one below it.
Each level's measured strength is in docs/agents.md, "Levels".

A search player named without a budget (``mcts``) would search 1000
iterations, which is a fraction of a second in one game and more than a minute
in another; where a person waits for it (``play`` and the menu) it thinks for
:data:`PLAY_SECONDS` instead. The arena keeps iteration budgets, so its
results stay reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.agents.base import parse_agent_spec
from astrarium.core.contract import search_levels
from astrarium.core.registry import get_game

#: How long a search player without a budget thinks a move at a table, in seconds.
PLAY_SECONDS = 1.0
#: The players that search and take a budget (``iterations`` or ``seconds``).
SEARCH_KINDS = ("mcts", "ismcts")


@dataclass(frozen=True)
class Level:
    """A level: its name, the player it stands for, and a line a person reads in the menu."""

    name: str
    summary: str

    def spec(self, hidden_or_chance: bool, game: str | None = None) -> str:
        """The player spec of this level (``hidden_or_chance``: the game hides cards or draws on chance).

        With ``game`` named, the level the game declares (``parts.levels``);
        without, the usual level with the searches' default settings.
        """
        if game is not None:
            return get_game(game).parts.levels[self.name]
        return search_levels("", hidden_or_chance=hidden_or_chance)[self.name]


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "answers at once; looks one action ahead"),
    "medium": Level("medium", "thinks 0.3 s a move; searches a few moves ahead"),
    "hard": Level("hard", "thinks 2 s a move; searches furthest ahead"),
}


def level_summary(name: str, game: str | None = None) -> str:
    """The line a person reads about level ``name`` (for ``game``: what that game's level plays, if it is its own)."""
    own = get_game(game).parts.level_summaries if game is not None else {}
    return own.get(name, LEVELS[name].summary)


def level_names() -> list[str]:
    """The levels, easiest first."""
    return list(LEVELS)


def is_level(spec: str) -> bool:
    """Whether ``spec`` names a level (any case, no options)."""
    return spec.strip().lower() in LEVELS


def table_spec(spec: str, hidden_or_chance: bool = False, game: str | None = None) -> str:
    """The player spec to build for a seat at a table: a level resolved, a search without a budget given one.

    ``hidden_or_chance`` says whether the game hides cards or draws on chance
    (it chooses the search of ``hard``) and ``game`` which game it is (a level
    is then the one the game declares). Any other spec is returned as given;
    a bad one is left for :func:`astrarium.agents.make_agent` to refuse with
    its own message.
    """
    lowered = spec.strip().lower()
    if lowered in LEVELS:
        return LEVELS[lowered].spec(hidden_or_chance, game)
    try:
        name, options = parse_agent_spec(spec)
    except ValueError:
        return spec
    if name in SEARCH_KINDS and "iterations" not in options and "seconds" not in options:
        return f"{spec.strip()}{',' if ':' in spec else ':'}seconds={PLAY_SECONDS:g}"
    return spec


def measured_spec(spec: str, hidden_or_chance: bool = False, game: str | None = None) -> str:
    """The player a measurement plays for ``spec``: a level as at a table, less the wall-clock cap of a budgeted search.

    A level's search thinks up to its ``iterations`` and at most ``seconds``
    a move, so that a slow machine does not keep a person waiting; that cap
    would make a measurement depend on the machine and its load, so a level
    measured (the lab) plays its iteration budget alone. Any other spec is
    returned as given.
    """
    if not is_level(spec):
        return spec.strip()
    resolved = table_spec(spec, hidden_or_chance, game)
    name, _, rest = resolved.partition(":")
    parts = [part.strip() for part in rest.split(",") if part.strip()]
    if name.strip().lower() not in SEARCH_KINDS or not any(part.startswith("iterations=") for part in parts):
        return resolved
    return f"{name.strip()}:{','.join(part for part in parts if not part.startswith('seconds='))}"
