"""The actions of a turn: one rotation (or a pass when no star can turn), then card plays, then end.

With the designer's variant ``swap`` on, a turn may instead be one swap: a card
from the hand goes to the discard pile and the hand is refilled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from astrarium.core.errors import IllegalAction, short
from astrarium.games.constellations.board import MAX_SIDE, cell_name
from astrarium.games.constellations.cards import Card, CardError, shown


@dataclass(frozen=True, slots=True)
class Rotate:
    """Rotate every ring within the star's range around the star at (row, col) one step clockwise."""

    row: int
    col: int

    def __str__(self) -> str:
        if self.names_a_cell():
            return f"rot {cell_name(self.row, self.col)}"
        return f"rot <row {shown(self.row)}, column {shown(self.col)}>"

    def __repr__(self) -> str:
        # Written out (not the dataclass's) so that a crafted huge int cannot make it fail;
        # it still spells each field's type (1.0, True), as the exact legality check needs.
        return f"Rotate(row={shown(self.row)}, col={shown(self.col)})"

    def names_a_cell(self) -> bool:
        """Whether row and column are whole numbers that a cell name can spell (on some board)."""
        row, col = self.row, self.col
        return type(row) is int and type(col) is int and 0 <= row < MAX_ROW and 0 <= col < MAX_SIDE


@dataclass(frozen=True, slots=True)
class Play:
    """Play a constellation card from the hand; it scores for every line that shows it."""

    card: Card

    def __str__(self) -> str:
        return f"play {_card_text(self.card)}"

    def __repr__(self) -> str:
        return f"Play(card={shown(self.card, 60)})"


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
        return f"swap {_card_text(self.card)}"

    def __repr__(self) -> str:
        return f"Swap(card={shown(self.card, 60)})"


def _card_text(card: object) -> str:
    return str(card) if type(card) is Card else shown(card)


Action = Rotate | Play | End | Pass | Swap
END = End()
PASS = Pass()
#: Row numbers in a notation have at most two digits (a board has at most 26 rows).
MAX_ROW = 99
#: ASCII only: '²' or '٣' is no row number, and a digit string is bounded before int() reads it.
_CELL = re.compile(r"([a-z])([0-9]{1,2})")


def parse_action(text: str) -> Action:
    """Read an action's notation: ``rot c4``, ``play ryw/3``, ``end``, ``pass``, ``swap ryw/3``."""
    said = short(text.strip())
    if not text.isascii():
        raise IllegalAction(f"{said!r} is not an action: notations use plain letters and digits, like 'rot c4' or 'play ryw/3'")
    words = text.strip().lower().split()
    if words == ["end"]:
        return END
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] in ("rot", "rotate"):
        m = _CELL.fullmatch(words[1])
        if not m or int(m.group(2)) < 1:
            raise IllegalAction(f"{said!r}: name the star's cell as column letter and row number (1 to {MAX_ROW}), like 'rot c4'")
        return Rotate(int(m.group(2)) - 1, ord(m.group(1)) - ord("a"))
    if len(words) == 2 and words[0] in ("play", "swap"):
        try:
            card = Card.parse(words[1])
        except CardError as exc:
            raise IllegalAction(str(exc)) from exc
        return Play(card) if words[0] == "play" else Swap(card)
    raise IllegalAction(f"{said!r} is not an action: write 'rot c4', 'play ryw/3', 'end' or 'pass'")
