"""The actions of Connected Worlds: frozen values whose ``str()`` is the notation.

Hexes are written ``<board>:<q>,<r>``: ``S`` is space, a world's key (``A``, ``B``,
...) its planet board, e.g. ``S:0,-2`` or ``A:1,0``. Cards are written by slug
(``harvester``, ``plasma-furnace``, ``assault-team``).

=================================  ==================================================
``found A:0,0``                    setup: place your first base on a world hex
``move harvester A:0,0 u2``        play a card as movement for your strength-2 unit
``move portal A:0,0 base``         ... or for your base on that hex
``step S:-1,0``                    move the moving piece one hex (or jump, land, launch)
``stop``                           end the current movement early
``gather harvester``               Gather Resources
``research scientists excavater``  Research: buy an action card
``build engineers titan-force``    Build Units: buy a unit card
``connect portal A:0,0 B:1,0``     Connect Bases: a portal between two of your bases
``deploy assault-team A:1,0``      deploy a unit card into your territory
``end``                            end your turn
=================================  ==================================================

With the option ``choices = steps`` a move, a portal and a deployment are chosen
one part at a time: ``move harvester`` (the card played), ``at A:0,0`` (the
piece's hex), ``piece u2``; ``connect portal``, ``at A:0,0``, ``at B:1,0``;
``deploy assault-team``, ``at A:1,0``. :func:`split` gives the parts of a whole
action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from astrarium.core.errors import IllegalAction, short

#: The largest unit strength a piece field may hold and still be printed as a notation.
_MAX_PIECE = 10**6


def malformed(action: Any) -> str | None:
    """What is wrong with the fields of an action object someone built by hand (None: nothing).

    Cells, cards and purchases are text and a piece is a whole number >= 0. An object
    with a float, bool, None or list in a field is never legal (core matches actions
    exactly); this names the field, and keeps ``str``/``repr`` from printing it as a
    notation that would not read back.
    """
    names: tuple[str, ...] = type(action).__slots__
    for name in names:
        value = getattr(action, name)
        if name == "piece":
            if type(value) is not int or not 0 <= value <= _MAX_PIECE:
                return f"the piece is 0 (the base) or a unit's strength as a whole number, not {shown(value)}"
        elif type(value) is not str:
            return f"{name} is written as text (a hex such as 'A:0,0' or a card's slug), not {shown(value)}"
    return None


def shown(value: Any) -> str:
    """A field's value for a message: cut short, and never failing (an int of 5,000 digits has no ``repr``)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"<{type(value).__name__} of {value.bit_length()} bits>"
    try:
        return short(repr(value), 40)
    except ValueError:  # a container holding such an int
        return f"<{type(value).__name__}>"


class _Action:
    """Shared printing: ``str`` is the notation, ``repr`` names every field's type and value (cut short)."""

    __slots__ = ()

    def notation(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation() if malformed(self) is None else repr(self)

    def __repr__(self) -> str:
        names: tuple[str, ...] = type(self).__slots__
        fields = ", ".join(f"{name}={shown(getattr(self, name))}" for name in names)
        return f"{type(self).__name__}({fields})"


@dataclass(frozen=True, slots=True, repr=False)
class Found(_Action):
    cell: str

    def notation(self) -> str:
        return f"found {self.cell}"


@dataclass(frozen=True, slots=True, repr=False)
class Move(_Action):
    card: str
    cell: str
    piece: int  # 0 = the base on the hex, n = a unit of strength n

    def notation(self) -> str:
        return f"move {self.card} {self.cell} {piece_word(self.piece)}"


@dataclass(frozen=True, slots=True, repr=False)
class Step(_Action):
    cell: str

    def notation(self) -> str:
        return f"step {self.cell}"


@dataclass(frozen=True, slots=True, repr=False)
class Stop(_Action):
    def notation(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True, repr=False)
class Gather(_Action):
    card: str

    def notation(self) -> str:
        return f"gather {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Research(_Action):
    card: str
    buy: str

    def notation(self) -> str:
        return f"research {self.card} {self.buy}"


@dataclass(frozen=True, slots=True, repr=False)
class Build(_Action):
    card: str
    buy: str

    def notation(self) -> str:
        return f"build {self.card} {self.buy}"


@dataclass(frozen=True, slots=True, repr=False)
class Connect(_Action):
    card: str
    a: str
    b: str

    def notation(self) -> str:
        return f"connect {self.card} {self.a} {self.b}"


@dataclass(frozen=True, slots=True, repr=False)
class Deploy(_Action):
    card: str
    cell: str

    def notation(self) -> str:
        return f"deploy {self.card} {self.cell}"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn(_Action):
    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True, repr=False)
class Head(_Action):
    """``choices = steps``: the first part of a move, a portal or a deployment, the verb and the card played."""

    verb: str
    card: str

    def notation(self) -> str:
        return f"{self.verb} {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class At(_Action):
    """``choices = steps``: the next hex of the action chosen so far (the piece's, a base's, where a unit lands)."""

    cell: str

    def notation(self) -> str:
        return f"at {self.cell}"


@dataclass(frozen=True, slots=True, repr=False)
class Piece(_Action):
    """``choices = steps``: the piece a move plays its card for, the last part of a move (0: the base)."""

    piece: int

    def notation(self) -> str:
        return f"piece {piece_word(self.piece)}"


STOP = Stop()
END = EndTurn()
#: The verbs whose actions ``choices = steps`` splits into parts, and how many parts follow the head.
HEAD_VERBS: dict[str, int] = {"move": 2, "connect": 2, "deploy": 1}


def piece_word(piece: int) -> str:
    """A piece as the notation writes it: ``base`` or ``u`` and the unit's strength."""
    return "base" if piece == 0 else f"u{piece}"


def split(action: Any) -> tuple[Any, ...]:
    """The parts ``choices = steps`` chooses ``action`` in (an action that is not split: itself alone)."""
    cls = type(action)
    if cls is Move:
        return (Head("move", action.card), At(action.cell), Piece(action.piece))
    if cls is Connect:
        return (Head("connect", action.card), At(action.a), At(action.b))
    if cls is Deploy:
        return (Head("deploy", action.card), At(action.cell))
    return (action,)


_SHAPES: dict[str, tuple[type, int]] = {
    "found": (Found, 1),
    "move": (Move, 3),
    "step": (Step, 1),
    "stop": (Stop, 0),
    "gather": (Gather, 1),
    "research": (Research, 2),
    "build": (Build, 2),
    "connect": (Connect, 3),
    "deploy": (Deploy, 2),
    "end": (EndTurn, 0),
    "at": (At, 1),
    "piece": (Piece, 1),
}

NOTATION_HELP = (
    "found A:0,0 | move CARD HEX u2|base | step HEX | stop | gather CARD | research CARD BUY | "
    "build CARD BUY | connect CARD HEX HEX | deploy CARD HEX | end "
    "(choices=steps: move CARD, connect CARD or deploy CARD, then at HEX, piece u2|base)"
)


#: A unit written ``u<strength>``: ASCII digits only (``str.isdigit`` would take '²' and then ``int`` fails), at most two.
_UNIT = re.compile(r"u([0-9]{1,2})")


def parse(text: str) -> Any:
    """Read one action's notation (structure only; the state checks that hexes and cards exist)."""
    words = text.strip().lower().split()
    written = short(text.strip())
    if not words or words[0] not in _SHAPES:
        raise IllegalAction(f"{written!r} is not an action; write one of: {NOTATION_HELP}")
    verb, args = words[0], words[1:]
    cls, arity = _SHAPES[verb]
    if verb in HEAD_VERBS and len(args) == 1:
        return Head(verb, args[0])
    if len(args) != arity:
        raise IllegalAction(f"{written!r}: '{verb}' takes {arity} word(s) after it; {NOTATION_HELP}")
    args = [a.upper() if ":" in a else a for a in args]
    if cls is Move:
        return Move(args[0], args[1], _piece(args[2], written))
    if cls is Piece:
        return Piece(_piece(args[0], written))
    if cls is Stop:
        return STOP
    if cls is EndTurn:
        return END
    return cls(*args)


def _piece(text: str, written: str) -> int:
    """``base`` as 0, ``u2`` as 2; IllegalAction naming the action as written otherwise."""
    unit = _UNIT.fullmatch(text)
    if text == "base":
        return 0
    if unit is not None and int(unit[1]) > 0:
        return int(unit[1])
    raise IllegalAction(f"{written!r}: the piece is 'base' or 'u' and a strength of 1 to 99 in digits 0-9, such as 'u2'")
