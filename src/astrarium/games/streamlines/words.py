"""Streamlines actions told in words, from two picture views of one seat.

``describe(before, notation, after)`` gives the action as a player would say
it, then what it caused: the cards drawn (the Clock's and the ship's), the
Collapse cards and the planets that became black holes, the ships lost,
refugees rescued and lost, a full hold, a free draw, the next turn and the end.

Everything in Streamlines is public except the order of the deck, so a card
is named once it is drawn. The game writes what happened in the view's
``events`` (the last few, trimmed at each turn start); this module takes the
ones that are new since ``before``, says them in a player's words, and adds
what the views show side by side (positions, holds, piles, the count of
refugees rescued). When a view has no events, the planets' stages and the
ships on the board still tell the collapses and the losses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from astrarium.core.words import as_int as _int
from astrarium.core.words import as_list as _list
from astrarium.core.words import as_map as _map
from astrarium.core.words import as_text as _text
from astrarium.core.words import entries, entry, mark, outcome_lines, seat_count, seats_named
from astrarium.core.words import join_words as _join
from astrarium.core.words import new_events as _new_events
from astrarium.core.words import plural as _plural
from astrarium.core.words import ship_who as who

#: How each card reads in a sentence (with its article).
CARD_WORDS = {
    "action": "an Action card",
    "cargo": "a Cargo card",
    "pickup": "a Pickup card",
    "extra-move": "an Extra Move card",
    "engineering": "an Engineering card",
    "straight": "a straight streamline",
    "line": "a line streamline",
    "corner": "a corner streamline",
    "tee": "a tee streamline",
    "refugee": "a Refugee",
    "collapse": "a Collapse card",
    "calm-star": "a Calm Star card",
    "tailwind": "a Tailwind card",
    "salvage": "a Salvage card",
    "ion-storm": "an Ion Storm card",
}
ARROW_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}
#: The game's events speak in the past; the log speaks in the present, like its other lines.
PRESENT_TENSE = ((" flew into ", " flies into "), (" was swallowed ", " is swallowed "), (" was shuffled ", " is shuffled "))
#: The most events from before an action that the game keeps once a turn has started in it (the state trims its
#: event list by this; the events of the action itself are all kept).
KEPT_AT_TURN_START = 6

_CLOCK = re.compile(r"clock for ([a-i][1-9]): ([a-z-]+), discarded")
_DREW = re.compile(r"ship (\d) drew ([a-z-]+) at ([a-i][1-9])")
_DUMPED = re.compile(r"ship (\d) dumped ([a-z-]+) into space")
_COLLAPSE = re.compile(r"Collapse at ([a-i][1-9]): (.+)")
_DESIGNED = re.compile(r"(Calm Star|Tailwind|Salvage|Ion Storm) at ([a-i][1-9]): (.+)")
_SHIP = re.compile(r"\bship (\d)\b")
#: How the game's event of a lost ship's turn passing ends.
_TURN_PASSES = "the turn passes after the Clock phase"


# -- small readers that never fail on a missing or odd value -------------------------------
def ship_names(text: str) -> str:
    """``text`` with every ``ship 0`` the rules write named as the ship players see: ``ship A``."""
    return seats_named(text, _SHIP, "ship ")


def card_words(name: str) -> str:
    """A card with its article: ``a Refugee``, ``an Action card``, ``Gate A``."""
    if name.startswith("gate-") and len(name) == 6:
        return f"Gate {name[-1].upper()}"
    return CARD_WORDS.get(name, f"a {name} card" if name else "a card")


def _arrows(letters: str) -> str:
    return _join([ARROW_WORDS[ch] for ch in letters if ch in ARROW_WORDS])


def _count(pile: object, name: str) -> int:
    value = _map(pile).get(name)
    return value if type(value) is int else 0


# -- events ------------------------------------------------------------------------------------
def new_events(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The events in ``after`` that are not in ``before``.

    The game appends events and, after an action in which a turn started, keeps
    only the last :data:`KEPT_AT_TURN_START` events from before it, so the old
    ones that survive are a tail of ``before``'s list at the head of
    ``after``'s: the longest such overlap is removed (at most that many when a
    turn started in between).
    """
    turned = _int(after.get("turn_number")) != _int(before.get("turn_number"))
    return _new_events(before, after, KEPT_AT_TURN_START if turned else None)


def event_words(event: str) -> str:
    """One of the game's events as a sentence for players."""
    m = _CLOCK.fullmatch(event)
    if m:
        return f"The Clock draws {card_words(m.group(2))} for the planet at {m.group(1)}: discarded."
    m = _DREW.fullmatch(event)
    if m:
        return f"Ship {mark(int(m.group(1)))} draws {card_words(m.group(2))} at {m.group(3)}."
    m = _DUMPED.fullmatch(event)
    if m:
        return f"Ship {mark(int(m.group(1)))} dumps {card_words(m.group(2))} into space."
    m = _COLLAPSE.fullmatch(event)
    if m:
        return f"A Collapse card lands on the planet at {m.group(1)}: {m.group(2).rstrip('.')}."
    m = _DESIGNED.fullmatch(event)
    if m:
        said = ship_names(m.group(3).rstrip("."))
        article = "An" if m.group(1)[0] in "AEIOU" else "A"
        return f"{article} {m.group(1)} card comes up for the planet at {m.group(2)}: {said}."
    text = ship_names(event.strip())
    for past, present in PRESENT_TENSE:
        text = text.replace(past, present)
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# -- the action itself ---------------------------------------------------------------------------
def _move_line(name: str, path_text: str, before: Mapping[str, Any], seat: int | None) -> str:
    start = _text(entry(before, "ships", seat).get("square"))
    route, _, jumped = path_text.partition("=")
    squares = [s for s in route.split("-") if s]
    if not squares:
        return f"{name} moves."
    origin = f" from {start}" if start else ""
    free = " (a free move)" if (_int(before.get("free_moves")) or 0) > 0 else ""
    if len(squares) == 1:
        line = f"{name} moves{origin} to {squares[0]}"
    else:
        line = f"{name} moves{origin} to {squares[0]} and follows the streamlines to {squares[-1]}"
    if jumped:
        line += f", then jumps through the gate to {jumped}"
    return line + free + "."


def _lay_line(name: str, what: str, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    square = _text(entry(after, "ships", seat).get("square")) or _text(entry(before, "ships", seat).get("square"))
    at = f" at {square}" if square else ""
    if what.startswith("gate-"):
        ends = sorted(sq for sq, card in _map(after.get("streamlines")).items() if card == what)
        joined = f"; Gate {what[-1:].upper()} now joins {ends[0]} and {ends[1]}" if len(ends) == 2 else ""
        return f"{name} lays {card_words(what)}{at}{joined}."
    laid = _text(_map(after.get("streamlines")).get(square)).split()
    kind = laid[0] if laid else "streamline"
    return f"{name} lays a {kind} streamline{at}, arrows {_arrows(what)}."


def _drop_line(name: str, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    saved_before, saved_after = _int(before.get("rescued")), _int(after.get("rescued"))
    square = _text(entry(before, "ships", seat).get("square"))
    at = f" at {square}" if square else ""
    if saved_before is None or saved_after is None:
        return f"{name} drops off its refugees{at}."
    needed = _int(after.get("required"))
    of = f" of {needed}" if needed else ""
    return f"{name} drops off {_plural(saved_after - saved_before, 'refugee')}{at}: {saved_after}{of} rescued."


def _give_line(name: str, kind: str, to: str) -> str:
    target = f"ship {mark(int(to))}" if to.isascii() and to.isdigit() and len(to) <= 3 else "another ship"
    return f"{name} gives {card_words(kind)} to {target}."


def _pickup_line(name: str, before: Mapping[str, Any], seat: int | None) -> str:
    square = _text(entry(before, "ships", seat).get("square"))
    laid = _text(_map(before.get("streamlines")).get(square)).split()
    if not laid:
        return f"{name} uses its Pickup card."
    taken = card_words(laid[0]) if laid[0].startswith("gate-") else f"the {laid[0]} streamline"
    return f"{name} uses its Pickup card: takes {taken} at {square} into its hold."


def _engineer_line(name: str, turn: str, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    square = _text(entry(before, "ships", seat).get("square"))
    way = "anticlockwise" if turn == "ccw" else "clockwise"
    laid = _text(_map(after.get("streamlines")).get(square)).split()
    arrows = f" (arrows {_arrows(laid[1])})" if len(laid) > 1 else ""
    at = f" at {square}" if square else ""
    return f"{name} uses its Engineering card: turns the streamline{at} {way}{arrows}."


def _first_line(name: str, words: list[str], notation: str, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    verb = words[0] if words else ""
    rest = words[1:]
    if verb == "move" and len(rest) == 1:
        return _move_line(name, rest[0], before, seat)
    if verb == "draw":
        free = " (a free draw)" if before.get("bonus_draw") is True else ""
        return f"{name} draws a card{free}."
    if verb == "dump" and len(rest) == 1:
        return f"{name} dumps {card_words(rest[0])} into space."
    if verb == "lay" and len(rest) == 1:
        return _lay_line(name, rest[0], before, after, seat)
    if verb == "drop":
        return _drop_line(name, before, after, seat)
    if verb == "give" and len(rest) == 2:
        return _give_line(name, rest[0], rest[1])
    if verb == "pickup":
        return _pickup_line(name, before, seat)
    if verb == "extra":
        return f"{name} uses its Extra Move card: one move this turn costs no action."
    if verb == "engineer" and len(rest) == 1:
        return _engineer_line(name, rest[0], before, after, seat)
    if verb == "end":
        return f"{name} ends its turn."
    return f"{name}: {notation}"


# -- the whole description ---------------------------------------------------------------------
def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The action in words, then one line per consequence the two views show."""
    seat = _int(before.get("to_move"))
    name = who(seat)
    words = notation.lower().split()
    verb = words[0] if words else ""
    events = new_events(before, after)
    lines = [_first_line(name, words, notation, before, after, seat)]

    if verb == "draw" and seat is not None:
        for i, event in enumerate(events):
            drew = _DREW.fullmatch(event)
            if drew and int(drew.group(1)) == seat:
                free = " (a free draw)" if before.get("bonus_draw") is True else ""
                lines[0] = f"{name} draws {card_words(drew.group(2))} at {drew.group(3)}{free}."
                del events[i]
                break
    if verb == "dump" and seat is not None:
        events = [e for e in events if not ((m := _DUMPED.fullmatch(e)) and int(m.group(1)) == seat)]

    turn_line = _next_turn(seat, before, after)
    mover_events, clock_events = _split_at_turn(events, turn_line is not None)
    lines += [event_words(e) for e in mover_events]
    if not isinstance(after.get("events"), list):
        lines += _stages_without_events(before, after)
    lines += _ships_lost(before, after, events)
    lines += _refugees_lost(before, after)
    lines += _hold_and_draws(seat, before, after, turn_line is not None)
    if turn_line:
        lines.append(turn_line)
    lines += [event_words(e) for e in clock_events]
    lines += outcome_lines(before, after, seat_count(after, "ships"), reason=ship_names, team=True)
    return [line for line in lines if line]


def _split_at_turn(events: list[str], turned: bool) -> tuple[list[str], list[str]]:
    """The events of the mover's own action, and those of the turns that began after it.

    A new turn starts with the Clock phase, whose events are its draws (and the
    Collapse cards and reshuffles among them); whatever comes before the first
    of them happened at the end of the mover's turn. When lost ships' turns
    passed in between (each ends with a "the turn passes" event), the new turn
    is the one after the last of them, and the passed turns are told before it.
    """
    if turned:
        start = 1 + max((i for i, event in enumerate(events) if event.endswith(_TURN_PASSES)), default=-1)
        for i in range(start, len(events)):
            if _CLOCK.fullmatch(events[i]) or events[i].startswith(("Collapse at", "the discard pile")):
                return events[:i], events[i:]
    return events, []


def _next_turn(seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """``Turn 12: Ship B (seat 1) to act with 2 actions.`` when a new turn began."""
    b, a = _int(before.get("turn_number")), _int(after.get("turn_number"))
    if b is None or a is None or a == b:
        return None
    nxt = _int(after.get("turn"))
    if after.get("outcome") or nxt is None:
        return f"Turn {a} begins."
    left = _int(after.get("actions_left"))
    actions = f" with {_plural(left, 'action')}" if left is not None and left >= 0 else ""
    return f"Turn {a}: {who(nxt)} to act{actions}."


def _stages_without_events(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Planets that changed stage, told from the planets themselves (for a view without events)."""
    lines = []
    old = {_text(_map(p).get("square")): _text(_map(p).get("stage")) for p in _list(before.get("planets"))}
    for planet in _list(after.get("planets")):
        square, stage = _text(_map(planet).get("square")), _text(_map(planet).get("stage"))
        if square and stage and old.get(square) not in (None, stage):
            lines.append(f"The planet at {square} is now {'a black hole' if stage == 'black hole' else stage}.")
    return lines


def _ships_lost(before: Mapping[str, Any], after: Mapping[str, Any], events: list[str]) -> list[str]:
    """Ships gone from the board that no event names (the events say how the others were lost)."""
    lines = []
    old, new = entries(before, "ships"), entries(after, "ships")
    for s, (b, a) in enumerate(zip(old, new, strict=False)):
        if b.get("square") and a.get("square") is None and not any(re.search(rf"\bship {s}\b", e) for e in events):
            lines.append(f"Ship {mark(s)} is lost.")
    return lines


def _refugees_lost(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lost = _count(after.get("lost"), "refugee") - _count(before.get("lost"), "refugee")
    if lost <= 0:
        return []
    total = _count(after.get("lost"), "refugee")
    verb_form = "is" if lost == 1 else "are"
    return [f"{_plural(lost, 'refugee')} {verb_form} lost for good ({total} lost in all)."]


def _hold_and_draws(seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any], turned: bool) -> list[str]:
    if seat is None or turned or after.get("outcome"):
        return []
    lines = []
    if after.get("must_dump") is True and before.get("must_dump") is not True:
        lines.append(f"Ship {mark(seat)}'s hold is over-full: it must dump a card.")
    if after.get("bonus_draw") is True:
        lines.append(f"Ship {mark(seat)} may draw again without spending an action.")
    return lines
