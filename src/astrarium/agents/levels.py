"""Levels a person understands (``easy``, ``medium``, ``hard``) and the thinking time of a computer player at a table.

A person choosing an opponent thinks in how hard it plays and how long it
makes them wait, not in iterations. A level names a player spec:

- ``easy``: the greedy player, one step of lookahead on the game's evaluation;
  it answers at once and misses every plan longer than one action.
- ``medium``: UCT search for 0.3 s a move.
- ``hard``: search for 2 s a move; information-set search (``ismcts``) in the
  games with hidden cards or chance, where it does not over-explore actions
  that are only sometimes legal, plain UCT (``mcts``) elsewhere.

Both searches use each game's tuned settings (:data:`TUNING`: rollout kind,
rollout depth, exploration), the ones the strength runs chose for the game
(docs/agents.md, "Strength"); only the budget differs. Each level's measured
strength is in docs/agents.md, "Levels".

A search player named without a budget (``mcts``) would search 1000
iterations, which is a fraction of a second in one game and more than a minute
in another; where a person waits for it (``play`` and the menu) it thinks for
:data:`PLAY_SECONDS` instead. The arena keeps iteration budgets, so its
results stay reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.agents.base import parse_agent_spec

#: How long a search player without a budget thinks a move at a table, in seconds.
PLAY_SECONDS = 1.0
#: The players that search and take a budget (``iterations`` or ``seconds``).
SEARCH_KINDS = ("mcts", "ismcts")
#: The search settings of ``medium`` and ``hard`` per game, without a budget: the settings the strength runs
#: found best for the game (docs/agents.md, "Strength"). A game not named searches with the defaults.
TUNING: dict[str, str] = {
    "celestials": "depth=10",
    "connected-worlds": "depth=20",
    "constellations": "rollout=heuristic,depth=2,c=0.5",
    "orbital-combat": "depth=0,expand=greedy,iterations=1000",
    "streamlines": "rollout=heuristic,depth=4",
}
#: A game whose best player at a level is not a tuned search names it here, per level. Streamlines: the rollout
#: player over the scripted courier (``sl-search``) rescues more often than the courier on the introductory and
#: standard maps and about as often on the hard one (200 games a line), where the tuned search won 23% of introductory
#: games against the courier's 76% (docs/agents.md, rules of
#: streamlines "Design notes", 4); it is budgeted in re-sampled decks, not seconds: 4 a move at ``medium`` (tens of
#: milliseconds), 12 at ``hard``. Connected Worlds: the scripted general (``cw-general``: it guards the bases the enemy
#: can strike next turn and sends the rest at the bases it can take) beat the tuned search in most games and answers
#: at once, so it plays ``medium``; ``hard`` is the rollout player over it, which tries every action with the general
#: playing both sides for 20 actions on 2 re-dealt worlds (0.1 to 0.2 s a move) and beat the general in 77% of 200
#: games (rules of connected-worlds, "The planning player").
CW_HARD = "rollout:base=cw-general,samples=2,depth=20,margin=0.1"
GAME_LEVELS: dict[str, dict[str, str]] = {
    "streamlines": {"medium": "sl-search", "hard": "sl-search:samples=12"},
    "connected-worlds": {"medium": "cw-general", "hard": CW_HARD},
}


#: What a level of :data:`GAME_LEVELS` plays, in the words a person reads in the menu (in place of the level's summary).
GAME_LEVEL_SUMMARIES: dict[str, dict[str, str]] = {
    "streamlines": {
        "medium": "tries each action against the scripted courier on 4 re-dealt decks",
        "hard": "tries each action against the scripted courier on 12 re-dealt decks",
    },
    "connected-worlds": {
        "medium": "answers at once; guards what the enemy can strike next turn and attacks with the rest",
        "hard": "tries each action, then plays the medium plan for both sides 20 actions ahead",
    },
}


@dataclass(frozen=True)
class Level:
    """A level: its name, the player it stands for, and a line a person reads in the menu."""

    name: str
    summary: str

    def spec(self, hidden_or_chance: bool, game: str | None = None) -> str:
        """The player spec of this level (``hidden_or_chance``: the game hides cards or draws on chance).

        With ``game`` named, a search takes that game's :data:`TUNING`.
        """
        if self.name == "easy":
            return "greedy"
        chosen = GAME_LEVELS.get(game or "", {}).get(self.name)
        if chosen is not None:
            return chosen
        tuning = TUNING.get(game or "", "")
        extra = f"{tuning}," if tuning else ""
        if self.name == "medium":
            return f"mcts:{extra}seconds=0.3"
        kind = "ismcts" if hidden_or_chance else "mcts"
        return f"{kind}:{extra}seconds=2"


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "answers at once; looks one action ahead"),
    "medium": Level("medium", "thinks 0.3 s a move; searches a few moves ahead"),
    "hard": Level("hard", "thinks 2 s a move; searches furthest ahead"),
}


def level_summary(name: str, game: str | None = None) -> str:
    """The line a person reads about level ``name`` (for ``game``: what that game's level plays, if it is its own)."""
    return GAME_LEVEL_SUMMARIES.get(game or "", {}).get(name, LEVELS[name].summary)


def level_names() -> list[str]:
    """The levels, easiest first."""
    return list(LEVELS)


def is_level(spec: str) -> bool:
    """Whether ``spec`` names a level (any case, no options)."""
    return spec.strip().lower() in LEVELS


def table_spec(spec: str, hidden_or_chance: bool = False, game: str | None = None) -> str:
    """The player spec to build for a seat at a table: a level resolved, a search without a budget given one.

    ``hidden_or_chance`` says whether the game hides cards or draws on chance
    (it chooses the search of ``hard``) and ``game`` which game it is (a level's
    search takes the game's :data:`TUNING`). Any other spec is returned as given;
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
