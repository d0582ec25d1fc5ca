"""The actions of a turn: one rotation (or a pass when no star can turn), then card plays, then end.

With the designer's variant ``swap`` on, a turn may instead be one swap: a card
from the hand goes to the discard pile and the hand is refilled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from astrarium.core.errors import IllegalAction
from astrarium.games.constellations.board import cell_name
from astrarium.games.constellations.cards import Card, CardError


@dataclass(frozen=True, slots=True)
class Rotate:
    """Rotate every ring within the star's range around the star at (row, col) one step clockwise."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"rot {cell_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a constellation card from the hand; it scores for every line that shows it."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class End:
    """End the turn (keep the remaining cards) and refill the hand."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pass:
    """Skip the rotation: allowed only when no star's rotation would move anything."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Swap:
    """Variant ``swap``: instead of rotating, discard a card from the hand; the turn ends and the hand refills."""

    card: Card

    def __str__(self) -> str:
        return f"swap {self.card}"


Action = Rotate | Play | End | Pass | Swap
END = End()
PASS = Pass()
_CELL = re.compile(r"^([a-z])(\d+)$")


def parse_action(text: str) -> Action:
    """Read an action's notation: ``rot c4``, ``play ryw/3``, ``end``, ``pass``, ``swap ryw/3``."""
    words = text.strip().lower().split()
    if words == ["end"]:
        return END
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] in ("rot", "rotate"):
        m = _CELL.match(words[1])
        if not m or int(m.group(2)) < 1:
            raise IllegalAction(f"{text.strip()!r}: name the star's cell as column letter and row number, like 'rot c4'")
        return Rotate(int(m.group(2)) - 1, ord(m.group(1)) - ord("a"))
    if len(words) == 2 and words[0] in ("play", "swap"):
        try:
            card = Card.parse(words[1])
        except CardError as exc:
            raise IllegalAction(str(exc)) from exc
        return Play(card) if words[0] == "play" else Swap(card)
    raise IllegalAction(f"{text.strip()!r} is not an action: write 'rot c4', 'play ryw/3', 'end' or 'pass'")
