"""Fixed Orbital Combat strategies: the cheap policies a good rule set must punish.

Each player always plays the same kind of allocation, whatever the position,
and never burns. They are kept as named players so that the balance of the
game's house rules stays a regression test (``rules.md``, "Design notes" and
"Balance"): a searching player must beat every one of them.

- ``orbital-turtle``: coast, everything into defense (``coast w0 d10``).
- ``orbital-gunner``: coast, everything into weapons when a target is in
  range (``coast w10 d0``, at the weakest ship in range), else all defense.
- ``orbital-scooper``: coast and scoop every turn, the rest into defense
  (``coast scoop w0 d5``): the fuel tie-break's favourite.
- ``orbital-guard``: all defense when an opponent is in range, else coast and
  scoop.
- ``orbital-runner``: flees outward whenever an opponent is in range (the
  softest outward burn it can make, the rest into defense), else coasts and
  scoops: it keeps out of range and waits for the round limit, the way two
  searching ships once settled on opposite sides of ring 4 and never met.

They read only the legal actions and the public view, so they follow
whatever the game's options make legal (range, who may be fired at).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from astrarium.core.game import State

GAME_ID = "orbital-combat"


def _allocations(state: State) -> list[Any]:
    """The legal allocations, after checking that the game is Orbital Combat (the policies mean nothing elsewhere)."""
    if state.game.id != GAME_ID:
        raise ValueError(f"this player plays only {GAME_ID}, not {state.game.id}")
    return state.legal_actions()


def _coast(action: Any, scoop: bool) -> bool:
    """A coast without rotation, with or without the scoop."""
    return not action.rotate and action.burn is None and action.scoop is scoop


def _pick(legal: list[Any], wanted: Callable[[Any], bool]) -> Any:
    for action in legal:
        if wanted(action):
            return action
    raise ValueError("no legal allocation fits this fixed strategy")  # every legal list holds every coast


def _hull(state: State, seat: int) -> int:
    return int(state.view()["ships"][seat]["hull"])


class _FixedOrbital:
    """Base of the fixed strategies: built like every player (a seed, no options); the seed is unused."""

    name = "orbital-fixed"
    #: The only game these players are written for (menus and the arena offer them there alone).
    games = (GAME_ID,)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State) -> Any:
        raise NotImplementedError


class TurtlePlayer(_FixedOrbital):
    """Always ``coast w0 d10``: full defense, never fires, never moves off its ring."""

    name = "orbital-turtle"

    def choose(self, state: State) -> Any:
        return _pick(_allocations(state), lambda a: _coast(a, False) and a.weapons == 0)


class GunnerPlayer(_FixedOrbital):
    """All weapons at the weakest ship in range (``coast w10 d0``); all defense when nothing is in range."""

    name = "orbital-gunner"

    def choose(self, state: State) -> Any:
        legal = _allocations(state)
        shots = [a for a in legal if _coast(a, False) and a.defense == 0 and a.weapons > 0]
        if not shots:
            return _pick(legal, lambda a: _coast(a, False) and a.weapons == 0)
        if any(a.target is not None for a in shots):
            return min(shots, key=lambda a: (_hull(state, a.target), a.target))
        return shots[0]


class ScooperPlayer(_FixedOrbital):
    """Always ``coast scoop w0 d5``: gathers reaction mass and defends with the rest."""

    name = "orbital-scooper"

    def choose(self, state: State) -> Any:
        return _pick(_allocations(state), lambda a: _coast(a, True) and a.weapons == 0)


class GuardPlayer(_FixedOrbital):
    """Full defense when an opponent is in range (``coast w0 d10``), else ``coast scoop w0 d5``."""

    name = "orbital-guard"

    def choose(self, state: State) -> Any:
        legal = _allocations(state)
        threatened = any(a.weapons > 0 for a in legal)
        return _pick(legal, lambda a: _coast(a, not threatened) and a.weapons == 0)


class RunnerPlayer(_FixedOrbital):
    """Out of range at any cost: a soft outward burn (flipping first if needed) whenever an opponent is in range, else
    ``coast scoop w0 d5``; all defense in range when it cannot burn outward."""

    name = "orbital-runner"

    def choose(self, state: State) -> Any:
        legal = _allocations(state)
        if not any(a.weapons > 0 for a in legal):
            return _pick(legal, lambda a: _coast(a, True) and a.weapons == 0)
        outward = [a for a in legal if a.burn is not None and int(a.burn) == 1 and a.direction.name == "PROGRADE" and a.weapons == 0]
        if outward:
            return min(outward, key=lambda a: a.rotate)
        return _pick(legal, lambda a: _coast(a, False) and a.weapons == 0)
