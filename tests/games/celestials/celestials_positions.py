"""Celestials positions for the tests: set up from the text notation of ``position``, read through the full view."""

from __future__ import annotations

import astrarium
from astrarium.core import State

GAME = astrarium.get_game("celestials")


def start(position: str = "", seed: int = 0, **options: object) -> State:
    """A two-player game from a position in the game's notation (empty: the normal setup), with these options."""
    return GAME.new_game(2, seed, {"position": position, **options})


def players(state: State) -> list[dict]:
    return state.full_view()["players"]


def cell(state: State, at: str) -> dict | None:
    return next((c for c in state.full_view()["board"] if c["at"] == at), None)
