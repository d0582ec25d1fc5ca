"""Streamlines' own measurements of a finished game (the lab's ``metric_<name>`` columns).

``rescued``: refugees rescued (``required``: how many the scenario asks for); ``refugees_lost``:
refugees lost to space; ``turns``: turns played; ``black_holes``: planets that collapsed into black
holes by the end. The state keeps no turn of each collapse, so the turns and the black holes
together are the nearest it exposes to "turns to collapse".
"""

from __future__ import annotations

from astrarium.core.game import State


def final_metrics(state: State) -> dict[str, float]:
    """Refugees rescued and lost, turns played and planets collapsed, from the final position's full view."""
    view = state.full_view()
    return {
        "rescued": float(view["rescued"]),
        "required": float(view["required"]),
        "refugees_lost": float(view["lost"].get("refugee", 0)),
        "turns": float(view["turn_number"]),
        "black_holes": float(sum(1 for planet in view["planets"] if planet["stage"] == "black hole")),
    }
