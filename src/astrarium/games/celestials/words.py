"""Celestials actions told in words, from two picture views of one seat.

``describe(before, notation, after)`` gives the action as a player would say
it (``Sun (A) plays Phoenix to A1.``), then what it caused: damage and healing
of cards and players, cards destroyed or exhausted, cards drawn, a phase
advanced, the turn passing (with what its start did: phase effects, cards
recovering, cards mending), the reshuffle question and its answer, the end.

Hands are secret: a card drawn is named only in its drawer's own view (its
``hand``), or when everyone knows it (``known_hand``); otherwise the line
says "a card". Card names come from the decks every view carries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, NamedTuple

from astrarium.core.words import as_int as _int
from astrarium.core.words import as_list as _list
from astrarium.core.words import as_map as _map
from astrarium.core.words import as_text as _text
from astrarium.core.words import cards_gained, entry, mark, outcome_lines, outcome_of, seat_hand
from astrarium.core.words import join_words as _join
from astrarium.core.words import who as _name

#: The view's ``step`` between two turns (while a reshuffle question is open, the next turn waits).
TURN_OVER = "turn over"
DEFAULT_CHARACTERS = ("Sun", "Moon")


# -- small readers that never fail on a missing or odd value -------------------------------


def _player(view: Mapping[str, Any], seat: int | None) -> Mapping[str, Any]:
    return entry(view, "players", seat)


def character(view: Mapping[str, Any], seat: int) -> str:
    """The seat's character as the view names it (``Sun``), or the default one."""
    return _text(_player(view, seat).get("character")) or DEFAULT_CHARACTERS[seat % 2]


def by_character(seat: int, view: Mapping[str, Any], start: bool) -> str:
    """A seat by its character and letter: ``Sun (A)`` (the game's naming, for the kit's ``who``)."""
    return f"{character(view, seat)} ({mark(seat)})"


#: A seat as the picture names it: ``who(seat, view)`` is ``Sun (A)``.
who = partial(_name, naming=by_character)


def _side(view: Mapping[str, Any], seat: int) -> str:
    """``the Sun's`` (a card's owner, inside a sentence)."""
    return f"the {character(view, seat)}'s"


class Names:
    """Card names by (owning seat, key), from the decks a view carries."""

    def __init__(self, *views: Mapping[str, Any]) -> None:
        self.names: dict[tuple[int, str], str] = {}
        self.types: dict[tuple[int, str], str] = {}
        for view in views:
            for seat, deck in enumerate(_list(view.get("decks"))):
                for card in _list(_map(deck).get("cards")):
                    card = _map(card)
                    key = _text(card.get("key"))
                    if key:
                        self.names[(seat, key)] = _text(card.get("name")) or key
                        self.types[(seat, key)] = _text(card.get("type"))
            if self.names:
                return

    def name(self, seat: int | None, key: str) -> str:
        if key == "advance":
            return "Advance Phase"
        return self.names.get((seat if seat is not None else -1, key), key)

    def kind(self, seat: int | None, key: str) -> str:
        return self.types.get((seat if seat is not None else -1, key), "")


Cell = tuple[str, int, int, bool]  # card key, owner, health, exhausted


def _board(view: Mapping[str, Any]) -> dict[str, Cell]:
    out: dict[str, Cell] = {}
    for cell in _list(view.get("board")):
        cell = _map(cell)
        at, key, owner, health = _text(cell.get("at")), _text(cell.get("card")), _int(cell.get("owner")), _int(cell.get("health"))
        if at and key and owner is not None and health is not None:
            out[at] = (key, owner, health, cell.get("exhausted") is True)
    return out


def _card_on(view: Mapping[str, Any], names: Names, at: str) -> str:
    """``the Moon's Night Wolf on B4`` (or ``B4`` when the view has no card there)."""
    cell = _board(view).get(at)
    if cell is None:
        return at
    return f"{_side(view, cell[1])} {names.name(cell[1], cell[0])} on {at}"


def _drawn(before: Mapping[str, Any], after: Mapping[str, Any], seat: int, left: str | None) -> list[str] | None:
    """The keys that entered ``seat``'s hand, when the views show them (its own hand, or what everyone knows)."""
    for field in ("hand", "known_hand"):
        old, new = _player(before, seat).get(field), _player(after, seat).get(field)
        if field == "hand" and (not isinstance(old, list) or not isinstance(new, list)):
            continue
        gained = cards_gained(_list(old), _list(new), left)
        if field == "hand" or gained:
            return gained
    return None


def _draw_words(view: Mapping[str, Any], names: Names, seat: int, count: int, keys: list[str] | None) -> str:
    if keys and len(keys) == count:
        return _join([names.name(seat, k) for k in keys])
    return "a card" if count == 1 else f"{count} cards"


# -- the action itself ---------------------------------------------------------------------------
class _Act(NamedTuple):
    """One action as the log words it: who acted, the words after the verb, the seat, and the views around it."""

    name: str
    rest: list[str]
    seat: int | None
    names: Names
    before: Mapping[str, Any]
    after: Mapping[str, Any]


def _first_line(
    name: str, words: list[str], notation: str, seat: int | None, names: Names, before: Mapping[str, Any], after: Mapping[str, Any]
) -> str:
    """The action in words, by its verb (table :data:`_SAYINGS`); an action the table cannot word is shown as written."""
    verb, rest = (words[0], words[1:]) if words else ("", [])
    say = _SAYINGS.get(verb)
    line = say(_Act(name, rest, seat, names, before, after)) if say is not None else None
    return line if line is not None else f"{name}: {notation}"


def _say_draw(act: _Act) -> str | None:
    if act.seat is None:
        return None
    keys = _drawn(act.before, act.after, act.seat, None)
    return f"{act.name} draws {_draw_words(act.after, act.names, act.seat, 1, keys)}."


def _say_play(act: _Act) -> str | None:
    rest, name = act.rest, act.name
    if not rest:
        return None
    card = act.names.name(act.seat, rest[0])
    at = rest[1].upper() if len(rest) > 1 else ""
    if act.names.kind(act.seat, rest[0]) == "spell":
        return f"{name} casts {card} at {_card_on(act.before, act.names, at)}." if at else f"{name} casts {card}."
    return f"{name} plays {card} to {at}." if at else f"{name} plays {card}."


def _say_activate(act: _Act) -> str | None:
    rest, name, seat, before = act.rest, act.name, act.seat, act.before
    if not rest:
        return None
    source = _card_on(before, act.names, rest[0].upper())
    if len(rest) > 1 and rest[1] == "face" and seat is not None:
        return f"{name} attacks the {character(before, 1 - seat)} directly with {source.removeprefix(_side(before, seat) + ' ')}."
    mine = source.removeprefix(_side(before, seat) + " ") if seat is not None else source
    if len(rest) > 1:
        return f"{name} activates {mine} against {_card_on(before, act.names, rest[1].upper())}."
    return f"{name} activates {mine}."


def _say_move(act: _Act) -> str | None:
    rest = act.rest
    if len(rest) != 2:
        return None
    cell = _board(act.before).get(rest[0].upper())
    card = act.names.name(cell[1], cell[0]) if cell else "a creature"
    return f"{act.name} moves {card} from {rest[0].upper()} to {rest[1].upper()}."


def _say_advance(act: _Act) -> str | None:
    if act.seat is None:
        return None
    old, new = _text(_player(act.before, act.seat).get("phase")), _text(_player(act.after, act.seat).get("phase"))
    change = f": {old} → {new}" if old and new else ""
    return f"{act.name} plays Advance Phase{change}."


def _say_discard(act: _Act) -> str | None:
    rest, seat = act.rest, act.seat
    if not rest or seat is None:
        return None
    count = _drawn_count(act.before, act.after, seat, discarded=1)
    drawn = _drawn(act.before, act.after, seat, rest[0])
    drew = f" and draws {_draw_words(act.after, act.names, seat, count, drawn)}" if count > 0 else ""
    return f"{act.name} discards {act.names.name(seat, rest[0])}{drew}."


def _say_reshuffle(act: _Act) -> str | None:
    if act.rest == ["yes"]:
        return f"{act.name} agrees to reshuffle."
    if act.rest == ["no"]:
        return f"{act.name} refuses to reshuffle: the discard piles stay where they are for the rest of the game."
    return None


#: The words of each verb: a function of the action (None when it does not fit the verb's usual form).
_SAYINGS: dict[str, Callable[[_Act], str | None]] = {
    "draw": _say_draw,
    "nodraw": lambda act: f"{act.name} does not draw.",
    "play": _say_play,
    "activate": _say_activate,
    "move": _say_move,
    "advance": _say_advance,
    "end": lambda act: f"{act.name} ends the plays.",
    "discard": _say_discard,
    "keep": lambda act: f"{act.name} keeps the hand.",
    "reshuffle": _say_reshuffle,
}


def _drawn_count(before: Mapping[str, Any], after: Mapping[str, Any], seat: int, discarded: int = 0) -> int:
    """Cards that went from the draw pile into the hand (``discarded`` left the hand meanwhile)."""
    pile_b, pile_a = _int(_player(before, seat).get("draw_pile")), _int(_player(after, seat).get("draw_pile"))
    if pile_b is not None and pile_a is not None and pile_a <= pile_b:
        return pile_b - pile_a
    size_b, size_a = _int(_player(before, seat).get("hand_size")), _int(_player(after, seat).get("hand_size"))
    return max(0, size_a - size_b + discarded) if size_a is not None and size_b is not None else 0


# -- consequences ------------------------------------------------------------------------------
def _board_lines(
    verb: str, words: list[str], names: Names, before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[list[str], list[str]]:
    """Card changes: (the cards that recovered at the end of the turn, and every other change)."""
    old, new = _board(before), _board(after)
    acted = {w.upper() for w in words[1:3]} if verb in ("move", "activate", "play") else set()
    moved_from = words[1].upper() if verb == "move" and len(words) > 2 else ""
    damage: list[str] = []
    exhausted: list[tuple[int, str]] = []
    recovered: list[tuple[int, str]] = []
    for at in sorted(set(old) | set(new)):
        b, a = old.get(at), new.get(at)
        if b is None or at == moved_from:
            continue
        plain = f"{names.name(b[1], b[0])} on {at}"
        card = f"{_side(before, b[1])} {plain}"
        if a is None or a[:2] != b[:2]:
            damage.append(f"{card[0].upper()}{card[1:]} is destroyed.")
            continue
        if a[2] < b[2]:
            damage.append(f"{card[0].upper()}{card[1:]} takes {b[2] - a[2]} damage ({b[2]} → {a[2]}).")
        elif a[2] > b[2]:
            damage.append(f"{card[0].upper()}{card[1:]} gains {a[2] - b[2]} health ({b[2]} → {a[2]}).")
        if a[3] and not b[3] and not (at in acted and verb in ("activate", "move")):
            exhausted.append((b[1], plain))
        elif b[3] and not a[3]:
            recovered.append((b[1], plain))
    lines = damage
    if exhausted:
        lines.append(f"Exhausted: {_by_owner(before, exhausted)}.")
    recovery = [f"Ready again: {_by_owner(before, recovered)}."] if recovered else []
    return recovery, lines


def _by_owner(view: Mapping[str, Any], cards: list[tuple[int, str]]) -> str:
    """``the Sun's Phoenix on A1 and Solar Lion on B1`` (each owner named once)."""
    parts = []
    for seat in (0, 1):
        mine = [text for owner, text in cards if owner == seat]
        if mine:
            parts.append(f"{_side(view, seat)} {_join(mine)}")
    return " and ".join(parts) if len(parts) == 2 else "".join(parts)


def _health_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for seat in (0, 1):
        old, new = _int(_player(before, seat).get("health")), _int(_player(after, seat).get("health"))
        if old is None or new is None or old == new:
            continue
        if new < old:
            lines.append(f"{who(seat, after)} loses {old - new} health ({old} → {new}).")
        else:
            lines.append(f"{who(seat, after)} heals {new - old} ({old} → {new}).")
    return lines


def _other_draws(
    verb: str, words: list[str], seat: int | None, names: Names, before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[str]:
    """Cards drawn by an effect (``on play: draw 1``), beyond the draws the action itself names."""
    lines = []
    for s in (0, 1):
        if (s == seat and verb in ("draw", "discard")) or _pile_refilled(before, after, s):
            continue
        count = _drawn_count(before, after, s)
        if count <= 0:
            continue
        left = words[1] if s == seat and verb == "play" and len(words) > 1 else None
        lines.append(f"{who(s, after)} draws {_draw_words(after, names, s, count, _drawn(before, after, s, left))}.")
    return lines


def _pile_refilled(before: Mapping[str, Any], after: Mapping[str, Any], seat: int) -> bool:
    pile_b, pile_a = _int(_player(before, seat).get("draw_pile")), _int(_player(after, seat).get("draw_pile"))
    return pile_b is not None and pile_a is not None and pile_a > pile_b


def _reshuffle_lines(before: Mapping[str, Any], after: Mapping[str, Any], names: Names) -> list[str]:
    lines = []
    votes_b, votes_a = _list(before.get("votes")), _list(after.get("votes"))
    if votes_a and not votes_b:
        first = _int(votes_a[0])
        asked = f", {who(first, after)} first" if first is not None else ""
        lines.append(f"Both draw piles are empty: the players decide whether to shuffle their discard piles back in{asked}.")
    elif votes_a and votes_b and votes_a != votes_b and _int(votes_a[0]) is not None:
        lines.append(f"{who(votes_a[0], after)} answers next.")
    if any(_pile_refilled(before, after, s) for s in (0, 1)):
        lines.append("Both players shuffle their discard piles into their draw piles.")
        for s in (0, 1):
            known = Counter(cards_gained(_list(_player(before, s).get("known_hand")), _list(_player(after, s).get("known_hand"))))
            if known and seat_hand(after, s) is None:
                listed = _join([names.name(s, k) + (f" ×{n}" if n > 1 else "") for k, n in sorted(known.items())])
                lines.append(f"Everyone can count {who(s, after)}'s hand now: {listed}.")
    return lines


def _phase_lines(verb: str, seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A phase moved on by a played card's ``advance`` effect (Advance Phase itself says so in its first line)."""
    if verb != "play" or seat is None:
        return []
    old, new = _text(_player(before, seat).get("phase")), _text(_player(after, seat).get("phase"))
    if not old or not new or old == new:
        return []
    return [f"{who(seat, after)} moves to the next phase: {old} → {new}; the plays of the turn end."]


def _turn_began(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a new turn began: its start effects happened (after any reshuffle question was answered)."""
    if outcome_of(after) is not None or after.get("step") == TURN_OVER:
        return False
    done_b, done_a = _int(before.get("turns_done")), _int(after.get("turns_done"))
    return (done_b is not None and done_a is not None and done_a != done_b) or before.get("step") == TURN_OVER


def _turn_line(after: Mapping[str, Any]) -> str:
    nxt = _int(after.get("turn"))
    done = _int(after.get("turns_done"))
    if nxt is None or done is None:
        return ""
    phase = _text(_player(after, nxt).get("phase"))
    limit = _int(after.get("turn_limit"))
    of = f" of {limit}" if limit else ""
    return f"{who(nxt, after)} begins turn {done // 2 + 1}{of}" + (f" in {phase}." if phase else ".")


# -- the whole description ---------------------------------------------------------------------
def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The action in words, then one line per consequence the two views show."""
    seat = _int(before.get("to_move"))
    name = who(seat, before)
    words = notation.lower().split()
    verb = words[0] if words else ""
    names = Names(after, before)
    began = _turn_began(before, after)
    lines = [_first_line(name, words, notation, seat, names, before, after)]
    recovered, changes = _board_lines(verb, words, names, before, after)
    health = _health_lines(before, after)
    if not began:
        lines += changes + health
    lines += _other_draws(verb, words, seat, names, before, after)
    lines += _phase_lines(verb, seat, before, after)
    lines += recovered
    lines += _reshuffle_lines(before, after, names)
    if began:
        lines.append(_turn_line(after))
        lines += changes + health
    lines += outcome_lines(before, after, 2, naming=by_character)
    return [line for line in lines if line]
