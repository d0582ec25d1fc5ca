"""Scripted Streamlines teams: the yardsticks a searching team is measured against.

- ``sl-courier``: draws on planets, carries refugees to the nearest escape by the
  move that ends closest to it, dumps streamline cards before refugees and never
  lays a streamline.
- ``sl-builder``: the courier that also lays streamline lanes: carrying a
  streamline card, it lays it wherever its square lies on a shortest route from a
  planet to the escape and the card can point only towards the escape.

- ``sl-search``: the shipped searching team: the rollout player
  (:mod:`astrarium.agents.rollout`) over the courier. Before each move it plays every
  legal action on re-sampled decks and lets couriers finish the game, and leaves the
  courier's plan only where another action wins clearly more often on the same decks.

They read only what every player sees (the board, the ships and their holds; never
the deck's order); the policy is :mod:`astrarium.agents.streamlines_courier`,
so the measurements in the game's rules and these players are one and the same.
"""

from __future__ import annotations

from typing import Any

from astrarium.agents.rollout import RolloutAgent
from astrarium.agents.streamlines_courier import courier
from astrarium.core.game import State
from astrarium.games.streamlines.state import StreamlinesState

GAME_ID = "streamlines"


class _Scripted:
    """Built like every player (a seed, no options); the policy is deterministic, so the seed is unused."""

    name = "sl-scripted"
    #: The only game these players are written for (menus and the arena offer them there alone).
    games = (GAME_ID,)
    lay = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State) -> Any:
        if not isinstance(state, StreamlinesState):
            raise ValueError(f"this player plays only {GAME_ID}, not {state.game.id}")
        return courier(state, lay=self.lay)


class CourierPlayer(_Scripted):
    """Carries refugees and never lays a streamline."""

    name = "sl-courier"


class BuilderPlayer(_Scripted):
    """Carries refugees and lays one-way streamline lanes towards the escape."""

    name = "sl-builder"
    lay = True


#: The budget of ``sl-search``: re-sampled decks a move, the rollout cap (None: to the end of the game), and the
#: standard errors by which another action must beat the courier's (see docs/balance/streamlines.md, "Design notes", 4).
SEARCH_SAMPLES = 4
SEARCH_DEPTH: int | None = None
SEARCH_Z = 2.0


class SearchPlayer(RolloutAgent):
    """The rollout player over ``sl-courier``, at the budget the Streamlines measurements chose."""

    name = "sl-search"
    games = (GAME_ID,)

    def __init__(self, seed: int = 0, *, samples: int = SEARCH_SAMPLES) -> None:
        super().__init__(seed, base=CourierPlayer.name, samples=samples, depth=SEARCH_DEPTH, z=SEARCH_Z)
