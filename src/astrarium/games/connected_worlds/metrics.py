"""Connected Worlds' own measurements of a finished game (the lab's ``metric_<name>`` columns).

``bases_lost_<seat>``: the bases each seat lost to combat (destroyed or captured), counted by
replaying the game's actions from its start and watching each seat's bases; ``worlds_<seat>``:
the worlds each seat holds at the end; ``bases_<seat>``: the bases it holds at the end.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from astrarium.core.game import State


def _bases_by_seat(view: dict[str, Any], players: int) -> list[int]:
    """How many bases each seat holds in a full view (its ``bases``: cell, owner, strength)."""
    owners = Counter(owner for _, owner, _ in view["bases"])
    return [owners[seat] for seat in range(players)]


def bases_lost(final: State) -> list[int]:
    """Bases each seat lost in the game: every fall of its base count, move by move, from the start."""
    state = final.game.new_game(final.players, final.seed, final.options)
    lost = [0] * final.players
    before = _bases_by_seat(state.full_view(), final.players)
    for action in final.actions:
        state.apply_unchecked(action)
        after = _bases_by_seat(state.full_view(), final.players)
        lost = [n + max(0, b - a) for n, b, a in zip(lost, before, after, strict=True)]
        before = after
    return lost


def final_metrics(state: State) -> dict[str, float]:
    """Bases lost, bases held and worlds held by each seat at the end of the game."""
    view = state.full_view()
    held = _bases_by_seat(view, state.players)
    found: dict[str, float] = {}
    for seat, lost in enumerate(bases_lost(state)):
        found[f"bases_lost_{seat}"] = float(lost)
        found[f"bases_{seat}"] = float(held[seat])
        found[f"worlds_{seat}"] = float(len(view["players"][seat]["worlds"]))
    return found
