"""Connected Worlds' own measurements of a finished game (the lab's ``metric_<name>`` columns).

``bases_lost_<seat>``: the bases each seat lost to combat (destroyed or captured), and
``reached_<seat>``: 1 when the seat held bases on the worlds the expansion victory needs at some
point of the game, else 0, both counted by replaying the game's actions from its start and
watching each seat's bases; ``worlds_<seat>``: the worlds each seat holds at the end;
``bases_<seat>``: the bases it holds at the end.
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
    return replayed_bases(final)[0]


def replayed_bases(final: State) -> tuple[list[int], list[bool]]:
    """Per seat, replaying the game from its start: the bases it lost, and whether it ever held the worlds needed."""
    state = final.game.new_game(final.players, final.seed, final.options)
    needed = state.worlds_needed  # type: ignore[attr-defined]
    lost = [0] * final.players
    reached = [False] * final.players
    before = _bases_by_seat(state.full_view(), final.players)
    for action in final.actions:
        state.apply_unchecked(action)
        view = state.full_view()
        after = _bases_by_seat(view, final.players)
        lost = [n + max(0, b - a) for n, b, a in zip(lost, before, after, strict=True)]
        reached = [r or len(state.worlds_with_base(seat)) >= needed for seat, r in enumerate(reached)]  # type: ignore[attr-defined]
        before = after
    return lost, reached


def final_metrics(state: State) -> dict[str, float]:
    """Bases lost and whether the worlds needed were ever held (by replay); bases and worlds held at the end; each seat."""
    view = state.full_view()
    held = _bases_by_seat(view, state.players)
    found: dict[str, float] = {}
    losses, reached = replayed_bases(state)
    for seat, lost in enumerate(losses):
        found[f"bases_lost_{seat}"] = float(lost)
        found[f"reached_{seat}"] = float(reached[seat])
        found[f"bases_{seat}"] = float(held[seat])
        found[f"worlds_{seat}"] = float(len(view["players"][seat]["worlds"]))
    return found
