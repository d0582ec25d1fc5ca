"""The one kind of action, ``take N P``: take N stars from pile P (a letter), and how its text is read."""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.core import IllegalAction
from astrarium.core.errors import short

#: The notation, as the terminal shows it.
NOTATION = "take N P: take N stars from pile P (take 2 b)"


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` stars from pile ``pile`` (0 is pile a)."""

    count: int
    pile: int

    def __str__(self) -> str:
        return f"take {self.count} {pile_name(self.pile)}"


def pile_name(index: int) -> str:
    """A pile's letter: ``a`` for pile 0."""
    return chr(ord("a") + index)


def parse_take(text: str) -> Take:
    """The action ``text`` spells (IllegalAction saying how to write one when it spells none)."""
    words = text.strip().lower().split()
    if len(words) != 3 or words[0] != "take" or not (words[1].isascii() and words[1].isdigit() and len(words[1]) <= 2):
        raise IllegalAction(f"{short(text.strip())!r} is not an action: write {NOTATION}")
    letter = words[2]
    if len(letter) != 1 or not "a" <= letter <= "z":
        raise IllegalAction(f"{short(text.strip())!r}: a pile is named by one letter (a, b, c, ...)")
    return Take(int(words[1]), ord(letter) - ord("a"))
