"""Orbital Combat's own measurements of a finished game (the lab's ``metric_<name>`` columns).

``hull_<seat>`` and ``mass_<seat>``: each ship's hull and reaction mass at the end;
how the game ended: ``ships_flying`` (ships not destroyed) and ``destroyed`` (1 when it ended by
destruction, the last ship flying or the last ships destroyed together; 0 at the round limit);
``first_mover_score``: the result of the seat that allocated first in round 1 (1 a win, 1/k a win shared by
k ships, 0 a loss), whose mean over games is the first mover's score whatever the turn order drew.
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
    outcome = state.outcome
    if outcome is not None:
        first = state.game.new_game(state.players, state.seed, state.options).current_player
        winners = outcome.winners
        found["first_mover_score"] = 1.0 / len(winners) if first in winners else 0.0
    return found
