"""Orbital Combat's own measurements of a finished game (the lab's ``metric_<name>`` columns).

``hull_<seat>`` and ``mass_<seat>``: each ship's hull and reaction mass at the end;
how the game ended: ``ships_flying`` (ships not destroyed) and ``destroyed`` (1 when it ended by
destruction, the last ship flying or the last ships destroyed together; 0 at the round limit).
"""

from __future__ import annotations

from astrarium.core.game import State


def final_metrics(state: State) -> dict[str, float]:
    """Hull and mass left per seat and how the game ended, from the final position's full view."""
    ships = state.full_view()["ships"]
    found: dict[str, float] = {}
    for ship in ships:
        found[f"hull_{ship['seat']}"] = float(ship["hull"])
        found[f"mass_{ship['seat']}"] = float(ship["mass"])
    flying = sum(1 for ship in ships if ship["alive"])
    found["ships_flying"] = float(flying)
    found["destroyed"] = 1.0 if flying <= 1 else 0.0
    return found
