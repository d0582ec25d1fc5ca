"""Constellations' own measurements of a finished game (the lab's ``metric_<name>`` columns).

``score_<seat>``: each seat's score at the end; ``rounds``: the round the game ended in.
"""

from __future__ import annotations

from astrarium.core.game import State


def final_metrics(state: State) -> dict[str, float]:
    """Each seat's score and the rounds played, from the final position's full view."""
    view = state.full_view()
    found = {f"score_{seat}": float(score) for seat, score in enumerate(view["scores"])}
    found["rounds"] = float(view["round"])
    return found
