"""An action and what it caused, in words, for every event log: ``A (seat 0) takes 2 stars from pile b; 3 are left.``"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core.words import as_int, as_list, as_text, next_line, outcome_lines, plural, who


def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """What ``notation`` did, read from the picture views before and after it (never fails on an odd view)."""
    seat = as_int(before.get("to_move"))
    words = as_text(notation).split()
    lines = [f"{who(seat)}: {notation}."]
    if len(words) == 3 and words[1].isdigit() and len(words[2]) == 1:
        index = ord(words[2]) - ord("a")
        piles = as_list(after.get("piles"))
        left = as_int(piles[index]) if 0 <= index < len(piles) else None
        rest = "" if left is None else f"; {'none' if left == 0 else left} left"
        lines = [f"{who(seat)} takes {plural(int(words[1]), 'star')} from pile {words[2]}{rest}."]
    lines += outcome_lines(before, after, as_int(after.get("players_count")) or 2)
    ending = next_line(seat, after)
    return [*lines, ending] if ending else lines
