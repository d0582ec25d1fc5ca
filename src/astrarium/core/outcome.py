"""The end of a game as plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and why.

    ``winners`` lists the winning seats: one seat for a plain win, several for a
    shared win (a tie), every seat for a cooperative win or a draw, none when
    everyone lost (a cooperative loss). ``reason`` says how the game ended in a
    player's words. ``scores`` carries final scores where the game has them.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None

    def to_json(self) -> dict:
        data: dict = {"winners": list(self.winners), "reason": self.reason}
        if self.scores is not None:
            data["scores"] = list(self.scores)
        return data
