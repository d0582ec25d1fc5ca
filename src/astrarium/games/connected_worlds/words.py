"""Connected Worlds actions told in words, from two picture views of one seat.

``describe(before, notation, after)`` gives the action as a player would say
it (``A (seat 0) plays Harvester to gather 3 resources (now 8).``), then what
it caused: a piece engaged, combats and their survivors, bases captured or
destroyed, portals closed, territory and worlds gained or lost, the cards
drawn at the end of the turn, the next player, the next round and the end.

Hands are secret: the cards a player draws are named only in that player's
own view (its ``hand``), and to the others only as far as everyone knows them
(``known_in_hand``, when a draw took a whole deck). Card names come from the
card table every view carries.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from astrarium.core.words import as_int as _int
from astrarium.core.words import as_list as _list
from astrarium.core.words import as_map as _map
from astrarium.core.words import as_text as _text
from astrarium.core.words import (
    entry,
    mark,
    new_events,
    next_line,
    outcome_lines,
    outcome_of,
    round_line,
    seat_count,
    seat_hand,
    seats_named,
    who,
)
from astrarium.core.words import join_words as _join
from astrarium.core.words import plural as _plural

SPACE = "S"

_COMBAT = re.compile(
    r"combat at (\S+): seat (\d) \[([\d, ]*)\] vs \[([\d, ]*)\](?: and base (\d+) of seat (\d))?"
    r" -> attackers left \[([\d, ]*)\], defenders left \[([\d, ]*)\](?:, base \w+)?"
)
_SEAT = re.compile(r"\bseat (\d)\b")


# -- small readers that never fail on a missing or odd value -------------------------------
def _plural_name(name: str) -> str:
    """``Harvesters``; a name already ending in s (``Scientists``) stays as it is."""
    return name if name.endswith("s") else name + "s"


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


class Cards:
    """The card table a view carries, by slug (a card missing from it is named by its slug)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.by_slug: dict[str, Mapping[str, Any]] = {}
        for card in _list(view.get("cards")):
            card = _map(card)
            slug = _text(card.get("slug"))
            if slug:
                self.by_slug[slug] = card

    def name(self, slug: str) -> str:
        return _text(self.by_slug.get(slug, {}).get("name")) or slug

    def number(self, slug: str, field: str) -> int | None:
        return _int(self.by_slug.get(slug, {}).get(field))


def _player(view: Mapping[str, Any], seat: int | None) -> Mapping[str, Any]:
    return entry(view, "players", seat)


def _board_name(view: Mapping[str, Any], hex_name: str) -> str:
    key = hex_name.split(":")[0]
    for board in _list(view.get("boards")):
        board = _map(board)
        if board.get("key") == key:
            return _text(board.get("name"))
    return ""


def _piece(text: str) -> str:
    """``u2`` as ``strength-2 unit``, ``base`` as ``base``."""
    if text.startswith("u") and text[1:].isascii() and text[1:].isdigit():
        return f"strength-{int(text[1:])} unit"
    return "base" if text == "base" else "piece"


# -- the action itself ---------------------------------------------------------------------------
def _step_line(name: str, target: str, before: Mapping[str, Any]) -> str:
    moving = _map(before.get("moving"))
    start = _text(moving.get("at"))
    piece = _piece(_text(moving.get("piece")))
    if not start:
        return f"{name} moves a piece to {target}."
    portals = {tuple(sorted((_text(a), _text(b)))) for a, b in (p for p in _list(before.get("portals")) if len(_list(p)) == 2)}
    from_space, to_space = start.startswith(SPACE + ":"), target.startswith(SPACE + ":")
    if tuple(sorted((start, target))) in portals:
        how = f"through the portal from {start} to {target}"
    elif not from_space and to_space:
        how = f"from {start} up into space at {target}"
    elif from_space and not to_space:
        world = _board_name(before, target)
        how = f"from {start} down to {world + ' at ' if world else ''}{target}"
    else:
        how = f"from {start} to {target}"
    return f"{name} moves the {piece} {how}."


#: What one action's first line reads from: the acting seat's name, the action's words after its verb, the cards, the views.
_Said = Callable[[str, list[str], Cards, Mapping[str, Any], Mapping[str, Any], int | None], str]


def _found_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    world = _board_name(before, rest[0])
    on = f" on {world}" if world else ""
    return f"{name} founds a first base{on} at {rest[0]}."


def _move_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    card = cards.name(rest[0])
    reach = cards.number(rest[0], "movement")
    steps = f" (up to {_plural(reach, 'step')})" if reach else ""
    return f"{name} plays {card} to move the {_piece(rest[2])} at {rest[1]}{steps}."


def _stop_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    at = _text(_map(before.get("moving")).get("at"))
    return f"{name} stops the move{' at ' + at if at else ''}."


def _gather_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    gained = cards.number(rest[0], "resources")
    now = _int(_player(after, seat).get("resources"))
    amount = _plural(gained, "resource") if gained is not None else "resources"
    return f"{name} plays {cards.name(rest[0])} to gather {amount}" + (f" (now {now})." if now is not None else ".")


def _buy_line(verb: str) -> _Said:
    """``research`` or ``build``: a card played to buy another, at its cost."""

    def line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
        cost = cards.number(rest[1], "cost")
        price = f" for {_plural(cost, 'resource')}" if cost is not None else ""
        return f"{name} plays {cards.name(rest[0])} to {verb} {_article(cards.name(rest[1]))} card{price}; it goes to the discard pile."

    return line


def _connect_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    return f"{name} plays {cards.name(rest[0])} to open a portal between its bases at {rest[1]} and {rest[2]}."


def _deploy_line(name: str, rest: list[str], cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> str:
    strength = cards.number(rest[0], "strength")
    power = f" (strength {strength})" if strength is not None else ""
    return f"{name} deploys {_article(cards.name(rest[0]))}{power} at {rest[1]}."


#: verb -> (the words it takes after it, None for any; its first line).
_FIRST_LINES: dict[str, tuple[int | None, _Said]] = {
    "found": (1, _found_line),
    "move": (3, _move_line),
    "step": (1, lambda name, rest, cards, before, after, seat: _step_line(name, rest[0], before)),
    "stop": (None, _stop_line),
    "gather": (1, _gather_line),
    "research": (2, _buy_line("research")),
    "build": (2, _buy_line("build")),
    "connect": (3, _connect_line),
    "deploy": (2, _deploy_line),
    "end": (None, lambda name, rest, cards, before, after, seat: f"{name} ends the turn."),
}


def _first_line(
    name: str, words: list[str], notation: str, cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None
) -> str:
    verb, rest = (words[0], words[1:]) if words else ("", [])
    arity, line = _FIRST_LINES.get(verb, (0, None))
    if line is None or (arity is not None and len(rest) != arity):
        return f"{name}: {notation}"
    return line(name, rest, cards, before, after, seat)


def _engaged_lines(verb: str, words: list[str], seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A unit that entered or was deployed onto enemy pieces; a move whose steps are spent."""
    if verb not in ("step", "deploy") or seat is None or len(words) < 2:
        return []
    target = words[-1]
    engaged = any(
        len(_list(u)) >= 4 and _list(u)[0] == target and _list(u)[1] == seat and _list(u)[3] is True for u in _list(after.get("units"))
    )
    if engaged:
        return [
            f"It meets enemy pieces at {target}: they fight when the turn ends."
            if verb == "step"
            else f"It lands among enemy pieces at {target}: they fight when the turn ends."
        ]
    if verb == "step":
        moving = _map(after.get("moving"))
        left = _int(moving.get("movement_left"))
        if before.get("moving") and not after.get("moving"):
            return ["No steps left: the move ends."]
        if left is not None:
            return [f"{_plural(left, 'step')} left."]
    return []


# -- consequences ------------------------------------------------------------------------------
def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _strengths(values: list[int]) -> str:
    return _join([str(v) for v in values]) if values else "none"


def _units(values: list[int]) -> str:
    """``a strength-2 unit`` or ``units of strength 2 and 3``."""
    if len(values) == 1:
        return f"a strength-{values[0]} unit"
    return f"units of strength {_strengths(values)}"


def combat_words(event: str) -> str:
    """A combat event for players: who attacked with what, against what, and who is left."""
    m = _COMBAT.fullmatch(event)
    if not m:
        text = seats_named(event.strip(), _SEAT)
        return (text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else ""
    where, attacker, attacking, defending, base, owner, attackers_left, defenders_left = m.groups()
    against = _numbers(defending)
    foes = [_units(against)] if against else []
    if base is not None and owner is not None:
        foes.append(f"{mark(int(owner))}'s base of strength {base}")
    line = f"Combat at {where}: {mark(int(attacker))} attacks with {_units(_numbers(attacking))} against {_join(foes) or 'nothing'}"
    return line + f"; attackers left: {_strengths(_numbers(attackers_left))}; defenders left: {_strengths(_numbers(defenders_left))}."


def _bases(view: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    out = {}
    for base in _list(view.get("bases")):
        b = _list(base)
        if len(b) >= 3 and isinstance(b[0], str) and _int(b[1]) is not None and _int(b[2]) is not None:
            out[b[0]] = (b[1], b[2])
    return out


def _base_lines(verb: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Bases captured or destroyed (a base moved by a step is neither), and portals closed with them."""
    old, new = _bases(before), _bases(after)
    moved_from = _text(_map(before.get("moving")).get("at")) if verb == "step" and _map(before.get("moving")).get("piece") == "base" else ""
    lines = []
    for hex_name, (owner, strength) in sorted(old.items()):
        if hex_name == moved_from:
            continue
        now = new.get(hex_name)
        if now is None:
            lines.append(f"{mark(owner)}'s base at {hex_name} (strength {strength}) is destroyed.")
        elif now[0] != owner:
            lines.append(f"{who(now[0])} captures {mark(owner)}'s base at {hex_name} (strength {strength}).")
    closed = len(_list(before.get("portals"))) - len(_list(after.get("portals")))
    if lines and closed > 0:
        lines.append(f"{_plural(closed, 'portal')} {'closes' if closed == 1 else 'close'} with it.")
    return lines


def _territory_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for seat, (b, a) in enumerate(zip(_list(before.get("players")), _list(after.get("players")), strict=False)):
        b, a = _map(b), _map(a)
        old, new = _int(b.get("territory")), _int(a.get("territory"))
        if old is not None and new is not None and old != new:
            lines.append(f"{mark(seat)}'s territory: {old} → {_plural(new, 'hex', 'hexes')}.")
        old_worlds = [w for w in _list(b.get("worlds")) if isinstance(w, str)]
        new_worlds = [w for w in _list(a.get("worlds")) if isinstance(w, str)]
        if old_worlds != new_worlds:
            names = [(_board_name(after, w + ":") or w) for w in new_worlds]
            if len(new_worlds) == 1:
                lines.append(f"{mark(seat)} has a base on 1 world ({names[0]}).")
            elif new_worlds:
                lines.append(f"{mark(seat)} has bases on {len(new_worlds)} worlds ({_join(names)}).")
            else:
                lines.append(f"{mark(seat)} has no base on any world.")
    return lines


def _draw_lines(seat: int | None, cards: Cards, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The end-of-turn draw: named for the drawer, counted for the others (with what everyone knows of it)."""
    if seat is None:
        return []
    b, a = _player(before, seat), _player(after, seat)
    deck_b, deck_a, size_a = _int(b.get("deck")), _int(a.get("deck")), _int(a.get("hand_size"))
    if size_a is None:
        return []
    lines = []
    if deck_b is not None and deck_a is not None and deck_a > deck_b:
        lines.append(f"{mark(seat)} shuffles the discard pile into a new deck.")
    hand = seat_hand(after, seat)
    if hand is not None:
        drawn = sorted(hand, key=lambda slug: cards.name(slug))
        listed = ", ".join(cards.name(c) for c in drawn)
        lines.append(f"{who(seat)} draws {_plural(size_a, 'card')}" + (f": {listed}." if listed else "."))
        return lines
    lines.append(f"{who(seat)} draws {_plural(size_a, 'card')}.")
    known = [c for c in _list(a.get("known_in_hand")) if isinstance(c, str)]
    if known:
        shown = Counter(known)
        listed = _join([cards.name(c) if n == 1 else f"{n} {_plural_name(cards.name(c))}" for c, n in sorted(shown.items())])
        lines.append(f"The whole deck was drawn, so everyone knows {mark(seat)}'s hand includes {listed}.")
    return lines


def _next_lines(seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    if outcome_of(after) is not None:
        return []
    lines = []
    order = [q for q in _list(after.get("order")) if isinstance(q, int)]
    lines.append(round_line(before, after, "round_limit", f": {who(order[0])} plays first" if order else ""))
    if before.get("phase") == "setup" and after.get("phase") == "main":
        lines.append("Every player has founded a base: play begins.")
    lines.append(next_line(seat, after))
    return lines


#: ``choices = steps``: what a head starts, and what each part of the action is, by verb and the words chosen so far.
_HEAD_WORDS = {"move": "to move a piece", "connect": "to open a portal", "deploy": "to deploy it"}
_NEXT_WORDS = {
    ("move", 2): "the hex of the piece to move",
    ("move", 3): "the piece (base or unit)",
    ("connect", 2): "the hex of the first base",
    ("connect", 3): "the hex of the second base",
    ("deploy", 2): "the hex to deploy at",
}


def _choice_line(name: str, words: list[str], cards: Cards, after: Mapping[str, Any]) -> str:
    """``choices = steps``: a part chosen of an action that is not whole yet, and what is asked next."""
    pending = _map(after.get("pending"))
    chosen = [_token(w) for w in _text(pending.get("notation")).split()]
    verb, slug = (chosen[0], chosen[1]) if len(chosen) >= 2 else (words[0], words[-1])
    asked = _NEXT_WORDS.get((verb, len(chosen)), "the next part")
    if words[0] in _HEAD_WORDS:
        return f"{name} plays {cards.name(slug)} {_HEAD_WORDS[verb]}; next: {asked}."
    return f"{name} chooses {words[-1]} for {cards.name(slug)}; next: {asked}."


def _whole_words(words: list[str], before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str] | None:
    """``choices = steps``: the whole action's words when ``words`` is its last part; None for a part that leaves it unfinished.

    An action that is not a part of one is its own words.
    """
    if len(words) == 2 and words[0] in _HEAD_WORDS:
        return None
    pending = _map(before.get("pending"))
    if len(words) != 2 or words[0] not in ("at", "piece") or not pending:
        return words
    if after.get("pending"):
        return None
    return [_token(w) for w in _text(pending.get("notation")).split()] + [words[1]]


def _token(word: str) -> str:
    """A notation word as the views write it: hexes with their board key in capitals, cards and verbs in lower case."""
    return word.upper() if ":" in word else word.lower()


# -- the whole description ---------------------------------------------------------------------
def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The action in words, then one line per consequence the two views show."""
    seat = _int(before.get("to_move"))
    name = who(seat)
    written = [_token(w) for w in notation.split()]
    cards = Cards(after if after.get("cards") else before)
    words = _whole_words(written, before, after)
    if words is None:
        return [_choice_line(name, written, cards, after)]
    verb = words[0] if words else ""
    notation = " ".join(words) if words is not written else notation
    lines = [_first_line(name, words, notation, cards, before, after, seat)]
    lines += _engaged_lines(verb, words, seat, before, after)
    lines += [combat_words(e) for e in new_events(before, after)]
    lines += _base_lines(verb, before, after)
    lines += _territory_lines(before, after)
    if verb == "end":
        lines += _draw_lines(seat, cards, before, after)
    lines += _next_lines(seat, before, after)
    lines += outcome_lines(before, after, seat_count(after, "players"))
    return [line for line in lines if line]
