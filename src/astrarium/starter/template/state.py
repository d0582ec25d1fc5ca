"""The rules: piles of stars, each seat in turn takes from one pile, and whoever takes the last star wins."""

from __future__ import annotations

from typing import Any

from astrarium.core import Outcome, State
from astrarium.starter.template.actions import Take, parse_take, pile_name
from astrarium.starter.template.layouts import load_layouts


class PilesState(State):
    """A position: the stars left in each pile, whose turn it is, and the last few events."""

    piles: list[int]
    max_take: int
    turn: int
    events: list[str]

    def _setup(self) -> None:
        layout = load_layouts()[self.options["layout"]]
        self.piles = list(layout.piles)
        self.max_take = layout.max_take
        self.turn = self.options["first"] % self.players
        self.events = []

    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def _legal_actions(self) -> list[Any]:
        return [Take(n, p) for p, stars in enumerate(self.piles) for n in range(1, min(stars, self.max_take) + 1)]

    def parse_action(self, text: str) -> Any:
        return parse_take(text)

    def explain_illegal(self, action: Any) -> str:
        if not isinstance(action, Take) or not 0 <= action.pile < len(self.piles):
            return f"{action} names no pile (the piles are a to {pile_name(len(self.piles) - 1)})"
        if not 1 <= action.count <= self.max_take:
            return f"{action}: a turn takes 1 to {self.max_take} stars"
        return f"{action}: pile {pile_name(action.pile)} has {self.piles[action.pile]} stars left"

    def _apply(self, action: Take) -> None:
        self.piles[action.pile] -= action.count
        self.events = [*self.events[-2:], f"seat {self.turn} took {action.count} from pile {pile_name(action.pile)}"]
        if not any(self.piles):
            self._outcome = Outcome((self.turn,), f"seat {self.turn} took the last star")
            return
        self.turn = (self.turn + 1) % self.players

    def _copy_fields(self, new: State) -> None:
        new.piles = self.piles.copy()  # type: ignore[attr-defined]
        new.events = self.events.copy()  # type: ignore[attr-defined]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        # Nothing is hidden: every seat sees the whole position.
        return {"piles": list(self.piles), "max_take": self.max_take, "turn": self.turn, "events": list(self.events)}
