"""Learning agents' front ends: PettingZoo, Gymnasium and OpenSpiel adapters over any game that declares ``parts.learning``.

``pip install astrarium[rl]`` brings numpy, pettingzoo, gymnasium and
open-spiel; each adapter imports its library when first called, so importing
this package needs none of them. docs/learning.md describes the API and every
game's encoding.

* :func:`pettingzoo_env`: an AEC environment, every seat an agent;
* :func:`gymnasium_env`: one seat against computer players (registered as ``astrarium/<game>-v0``);
* :func:`openspiel_game`: a pyspiel Python game, for OpenSpiel's algorithms.

A game without the part raises :class:`~astrarium.core.errors.ContractError` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["gymnasium_env", "openspiel_game", "pettingzoo_env", "register_gymnasium"]


def pettingzoo_env(game_id: str, players: int = 2, options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of ``game_id`` for ``players`` seats (agents ``player_0`` ...)."""
    from astrarium.rl.aec import AstrariumAEC

    return AstrariumAEC(game_id, players=players, options=options, render_mode=render_mode)


def gymnasium_env(game_id: str, seat: int = 0, opponents: str = "greedy", **settings: Any) -> Any:
    """A Gymnasium environment: the learner plays ``seat``, computer players (an agent spec) play the others.

    ``settings``: ``players`` (2), ``options`` (the game's), ``render_mode``
    (None or ``"ansi"``), ``illegal``: an action the mask does not set loses the
    game (``"lose"``, the default) or raises (``"raise"``).
    """
    from astrarium.rl.single import AstrariumGym

    return AstrariumGym(game_id, seat=seat, opponents=opponents, **settings)


def register_gymnasium() -> list[str]:
    """Register ``astrarium/<game>-v0`` with Gymnasium for every game that declares the learning part; their ids."""
    from astrarium.rl.single import register_all

    return register_all()


def openspiel_game(game_id: str, players: int = 2, options: Mapping[str, Any] | None = None, seed: int = 0) -> Any:
    """A pyspiel game of ``game_id`` (registered as ``python_astrarium_<game>``), for OpenSpiel's algorithms.

    Its first initial state is the game of ``seed``, each next one the next seed's.
    """
    from astrarium.rl.spiel import load

    return load(game_id, players=players, options=options, seed=seed)
