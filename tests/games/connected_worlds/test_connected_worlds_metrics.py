"""Connected Worlds' own measurements (the lab's ``metric_<name>`` columns): bases lost and the worlds needed reached."""

from __future__ import annotations

import astrarium
from astrarium.agents import make_agent
from astrarium.core import State
from astrarium.games.connected_worlds.metrics import final_metrics

GAME = astrarium.get_game("connected-worlds")


def planned_game(seed: int, victory: str) -> State:
    """A finished game between two planning players, seeded."""
    state = GAME.new_game(2, seed, {"victory": victory})
    agents = [make_agent("cw-general", seed=seed * 1000 + seat, game=GAME.id) for seat in (0, 1)]
    while (seat := state.current_player) is not None:
        state.apply(agents[seat].choose(state))
    return state


def test_metrics_the_winner_by_expansion_reached_the_worlds_needed() -> None:
    state = planned_game(0, "expansion")
    assert state.outcome is not None and "expansion" in state.outcome.reason
    found = final_metrics(state)
    (winner,) = state.outcome.winners
    assert found[f"reached_{winner}"] == 1.0
    assert found[f"worlds_{winner}"] >= 3


def test_metrics_every_seat_has_bases_lost_reached_bases_and_worlds() -> None:
    found = final_metrics(planned_game(1, "capture"))
    assert set(found) == {f"{name}_{seat}" for name in ("bases_lost", "reached", "bases", "worlds") for seat in (0, 1)}
    assert all(found[f"reached_{seat}"] in (0.0, 1.0) for seat in (0, 1))
