"""A thin adapter: an OpenSpiel game seen through the astrarium State API.

Only what the searches use is adapted (current player, legal actions, apply,
the end and the returns, clone), so our ``mcts`` and OpenSpiel's ``MCTSBot``
run on the very same C++ forward model and differ only in the search code.
Actions are OpenSpiel's integer action ids.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from astrarium.core.contract import Parts
from astrarium.core.game import Game, State
from astrarium.core.outcome import Outcome


class SpielState(State):
    """One pyspiel state behind the astrarium State API (sequential, no chance nodes)."""

    spiel: Any

    def _setup(self) -> None:
        self.spiel = self.game.spiel_game.new_initial_state()  # type: ignore[attr-defined]

    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.spiel.current_player()

    def _legal_actions(self) -> list[Any]:
        return self.spiel.legal_actions()

    def _apply(self, action: Any) -> None:
        spiel = self.spiel
        spiel.apply_action(action)
        if spiel.is_terminal():
            returns = spiel.returns()
            best = max(returns)
            winners = tuple(seat for seat, r in enumerate(returns) if r == best)
            self._outcome = Outcome(winners, "game over", tuple(returns))

    def returns(self) -> list[float]:
        return self.spiel.returns() if self._outcome is not None else [0.0] * self.players

    def _copy_fields(self, new: State) -> None:
        new.spiel = self.spiel.clone()  # type: ignore[attr-defined]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {"position": str(self.spiel)}

    def render(self, seat: int | None = None) -> str:
        return str(self.spiel)


class SpielGame(Game):
    """An OpenSpiel game as an astrarium Game (not registered: for benchmarks only)."""

    title = "OpenSpiel game"
    min_players = 2
    max_players = 2
    state_class = SpielState
    parts = Parts.rules_only(hidden_or_chance=False)

    def __init__(self, name: str) -> None:
        self.spiel_game = pyspiel.load_game(name)
        self.id = f"openspiel-{name}"
        players = self.spiel_game.num_players()
        self.min_players = self.max_players = players
        if self.spiel_game.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
            raise ValueError(f"{name}: the adapter covers deterministic games only")

    def max_moves(self, players: int, options: Any) -> int:
        return self.spiel_game.max_game_length()

    def new_state(self) -> SpielState:
        return self.new_game(self.spiel_game.num_players(), 0)  # type: ignore[return-value]
