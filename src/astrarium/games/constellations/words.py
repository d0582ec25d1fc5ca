"""Constellations actions told in words, from two picture views of one seat.

``describe(before, notation, after)`` is what every front end shows in its
event log: the action as a player would say it, then what it caused (the
objects a rotation moved, the points a card scored, the turn that ended by
itself, the cards drawn, the next round, the end). It reads the two views
only, so it can never tell a seat what that seat may not see: the cards a
player draws are named only in that player's own views (the ``hand`` a view
holds), and every other seat hears how many were drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core.words import as_int as _int
from astrarium.core.words import as_list as _list
from astrarium.core.words import as_text as _text
from astrarium.core.words import cards_gained, mark, next_line, outcome_lines, round_line, seat_count, who
from astrarium.core.words import join_words as _join
from astrarium.core.words import plural as _plural
from astrarium.games.constellations.board import OBJECTS, STAR_RANGES


# -- small readers that never fail on a missing or odd value -------------------------------
def _score_of(view: Mapping[str, Any], seat: int) -> int | None:
    scores = _list(view.get("scores"))
    return _int(scores[seat]) if 0 <= seat < len(scores) else None


def _hand(view: Mapping[str, Any]) -> list[str] | None:
    """The viewing seat's own hand, when the view holds it."""
    hand = view.get("hand")
    if not isinstance(hand, list):
        return None
    return [c for c in hand if isinstance(c, str)]


# -- the board ---------------------------------------------------------------------------------
def _cells(view: Mapping[str, Any]) -> list[str]:
    return [row.strip() for row in _text(view.get("board")).split("\n") if row.strip()]


def _cell(name: str) -> tuple[int, int] | None:
    """``c4`` as (row, column), 0-based."""
    name = name.strip().lower()
    if len(name) < 2 or not ("a" <= name[0] <= "z") or not name[1:].isascii() or not name[1:].isdigit():
        return None
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def _object_at(rows: list[str], row: int, col: int) -> str:
    if 0 <= row < len(rows) and 0 <= col < len(rows[row]):
        return rows[row][col]
    return ""


def _moved_objects(rows: list[str], row: int, col: int, star: str) -> int:
    """How many objects lie within the star's range (its rings), so move with its rotation."""
    reach = STAR_RANGES.get(star)
    count = 0
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if (r, c) == (row, col) or ch not in OBJECTS:
                continue
            if reach is None or max(abs(r - row), abs(c - col)) <= reach:
                count += 1
    return count


def _describe_rotation(mover: str, cell: str, before: Mapping[str, Any]) -> str:
    rows = _cells(before)
    spot = _cell(cell)
    star = _object_at(rows, *spot) if spot is not None else ""
    if spot is None or star not in STAR_RANGES:
        return f"{mover} rotates the rings around {cell}."
    name = OBJECTS[star][0]
    reach = STAR_RANGES[star]
    span = "every ring" if reach is None else f"range {reach}"
    moved = _moved_objects(rows, spot[0], spot[1], star)
    return f"{mover} rotates around the {name} at {cell} ({span}), moving {_plural(moved, 'object')} one step clockwise."


# -- plays and points --------------------------------------------------------------------------
def _points_sum(value: int, found: int) -> str:
    """``3 + 4 + 5`` for a 3-point card found three times (each one more than the one before)."""
    if found < 2 or found > 6:
        return ""
    return " (" + " + ".join(str(value + i) for i in range(found)) + ")"


def _last_play(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Any] | None:
    played = _list(after.get("played"))
    if len(played) <= len(_list(before.get("played"))) or not isinstance(played[-1], list | tuple):
        return None
    entry = list(played[-1])
    return entry if len(entry) >= 4 else None


def _describe_play(mover: str, seat: int | None, card: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    entry = _last_play(before, after)
    if entry is None:
        return f"{mover} plays {card}."
    found, points = _int(entry[2]), _int(entry[3])
    if found is None or points is None:
        return f"{mover} plays {card}."
    value = _int(_card_points(card))
    detail = _points_sum(value, found) if value is not None else ""
    score = _score_of(after, seat) if seat is not None else None
    total = f"; score {score}" if score is not None else ""
    return f"{mover} plays {card}: found {_times(found)}, {_plural(points, 'point')}{detail}{total}."


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _card_points(card: str) -> int | None:
    _, _, digits = card.partition("/")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 3 else None


# -- the whole description ---------------------------------------------------------------------
def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The action in words, then one line per consequence the two views show."""
    seat = _int(before.get("to_move"))
    mover = who(seat)
    words = notation.split()
    verb = words[0].lower() if words else ""
    arg = words[1] if len(words) > 1 else ""
    viewer = _int(after.get("viewer"))
    own = seat is not None and viewer == seat

    if verb in ("rot", "rotate") and arg:
        lines = [_describe_rotation(mover, arg.lower(), before)]
    elif verb == "play" and arg:
        lines = [_describe_play(mover, seat, arg.lower(), before, after)]
    elif verb == "swap" and arg:
        lines = [f"{mover} swaps {arg.lower()} away instead of rotating."]
    elif verb == "pass":
        lines = [f"{mover} passes: no star can move anything."]
    elif verb == "end":
        kept = _hand(before) if own else None
        if kept:
            lines = [f"{mover} ends the turn, keeping {_join(kept)}."]
        else:
            lines = [f"{mover} ends the turn."]
    else:
        lines = [f"{mover}: {notation}"]

    lines += _turn_end(seat, verb, arg.lower(), before, after, own)
    lines += outcome_lines(before, after, seat_count(after, "scores"), scored=True)
    return [line for line in lines if line]


def _turn_ended(seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    if after.get("outcome"):
        return True
    if _int(after.get("turn")) != _int(before.get("turn")) or _int(after.get("round")) != _int(before.get("round")):
        return True
    return before.get("phase") == "play" and after.get("phase") == "rotate"


def _turn_end(seat: int | None, verb: str, card: str, before: Mapping[str, Any], after: Mapping[str, Any], own: bool) -> list[str]:
    """Why the turn ended (when it ended by itself), the refill, the next round and the next seat."""
    if seat is None or not _turn_ended(seat, before, after):
        return []
    lines: list[str] = []
    name = who(seat)
    sizes = _list(before.get("hand_sizes"))
    held = _int(sizes[seat]) if 0 <= seat < len(sizes) else None
    if verb in ("rot", "rotate", "pass"):
        lines.append(f"No card in {mark(seat)}'s hand is found on the board, so the turn ends.")
    elif verb == "play":
        if held is not None and held <= 1:
            lines.append(f"{name} has played every card, so the turn ends.")
        else:
            lines.append(f"No card left in {mark(seat)}'s hand is found on the board, so the turn ends.")
    lines += _refill(seat, verb, card, before, after, own)
    if after.get("outcome"):
        return lines
    return [*lines, round_line(before, after, "max_rounds"), next_line(seat, after)]


def _refill(seat: int, verb: str, card: str, before: Mapping[str, Any], after: Mapping[str, Any], own: bool) -> list[str]:
    """The cards drawn to refill the hand: named for their drawer, counted for everyone else."""
    deck_before, deck_after = _int(before.get("deck")), _int(after.get("deck"))
    if deck_before is None or deck_after is None:
        return []
    drawn = deck_before - deck_after
    lines: list[str] = []
    if drawn > 0:
        named = _drawn_cards(before, after, card if verb in ("play", "swap") else None) if own else []
        if named and len(named) == drawn:
            lines.append(f"{who(seat)} draws {_join(named)}.")
        else:
            lines.append(f"{who(seat)} draws {_plural(drawn, 'card')}.")
        if deck_after == 0:
            lines.append("The deck is now empty.")
    elif deck_before == 0 and _short_hand(seat, after):
        lines.append(f"The deck is empty: {mark(seat)}'s hand cannot be refilled.")
    return lines


def _short_hand(seat: int, after: Mapping[str, Any]) -> bool:
    sizes = [s for s in (_int(x) for x in _list(after.get("hand_sizes"))) if s is not None]
    return bool(sizes) and 0 <= seat < len(sizes) and sizes[seat] < max(sizes)


def _drawn_cards(before: Mapping[str, Any], after: Mapping[str, Any], left: str | None) -> list[str]:
    """The cards in ``after``'s hand that were not in ``before``'s (less the card that left it)."""
    old, new = _hand(before), _hand(after)
    if old is None or new is None:
        return []
    return cards_gained(old, new, left)
