"""Celestials' own measurements of a finished game (the lab's ``metric_<name>`` columns).

``health_<seat>``: each side's health at the end (seat 0 the Sun, seat 1 the Moon);
``turns``: the turns played by both sides together.
"""

from __future__ import annotations

from astrarium.core.game import State


def final_metrics(state: State) -> dict[str, float]:
    """Health left per side and the turns played, from the final position's full view."""
    view = state.full_view()
    found = {f"health_{seat}": float(side["health"]) for seat, side in enumerate(view["players"])}
    found["turns"] = float(view["turns_done"])
    return found
