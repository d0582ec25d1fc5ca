"""The actions a ship can take, as frozen values with a canonical notation.

move c2-b2-b3-a3    one step, then the streamlines followed (every square entered, in order)
move d4-g7=c8       ... ending on a Gate at g7 and jumping to its partner at c8
draw                draw a card on a Planet square
dump refugee        dump a cargo card when the hold is over-full
lay nw              lay a streamline card on the ship's square, arrows pointing n and w
lay gate-a          lay a Gate card on the ship's square
drop                drop off every refugee aboard at an Escape square
give corner 2       transfer one cargo card to seat 2's ship on the same square
pickup              use the Pickup card: take the card on the ship's square into cargo
extra               use the Extra Move card: one move that costs no action
engineer cw         use the Engineering card: turn the streamline under the ship (cw or ccw)
end                 end the turn

An action object may come from a stranger with fields of any type (a float, a bool,
a huge int, None). Core's exact match refuses it before it is applied; ``problem``
says why, and ``__str__``/``__repr__`` never fail on such fields, so the refusal
message can always be written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from astrarium.core.errors import IllegalAction, short
from astrarium.games.streamlines.board import SQUARES, arrows_text, parse_arrows, parse_square, square_name
from astrarium.games.streamlines.cards import CARGO_KINDS, GATES, KIND_OF_NAME, LAYABLE, NAMES, shape_of

#: The highest seat number (the game is for at most four players).
MAX_SEAT = 3
#: About the digits an int field may have before it is described rather than printed (str() fails past 4,300).
_SHOWN_DIGITS = 40


def _field_text(value: object, depth: int = 0) -> str:
    """``repr`` of a field value that never fails: an int too long to print, or nesting too deep, is described instead."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * _SHOWN_DIGITS:
        return f"<{type(value).__name__} of {value.bit_length()} bits>"
    if isinstance(value, tuple | list):
        if depth > 3:
            return f"<{type(value).__name__}>"
        items = ", ".join(_field_text(v, depth + 1) for v in value[:100]) + (", ..." if len(value) > 100 else "")
        if isinstance(value, tuple):
            body = f"({items},)" if len(value) == 1 else f"({items})"
        else:
            body = f"[{items}]"
        return body if type(value) in (tuple, list) else f"{short(type(value).__name__, 40)}{body}"
    return short(repr(value), 200)


def _safe_repr(self: object) -> str:
    """The dataclass repr (which spells out each field's type), safe for any field value."""
    inner = ", ".join(f"{f.name}={_field_text(getattr(self, f.name))}" for f in fields(self))  # type: ignore[arg-type]
    return f"{type(self).__name__}({inner})"


def _square(value: object) -> str:
    return square_name(value) if type(value) is int and 0 <= value < SQUARES else "??"


def _card(value: object) -> str:
    return NAMES[value] if type(value) is int and value in NAMES else "??"


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    path: tuple[int, ...]
    jump: bool = False

    __repr__ = _safe_repr

    def __str__(self) -> str:
        path = self.path if type(self.path) is tuple else ()
        names = [_square(s) for s in path[: SQUARES + 1]]
        if self.jump is True and len(names) > 1:
            return "move " + "-".join(names[:-1]) + "=" + names[-1]
        return "move " + "-".join(names)


@dataclass(frozen=True, slots=True, repr=False)
class Draw:
    __repr__ = _safe_repr

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, repr=False)
class Dump:
    kind: int

    __repr__ = _safe_repr

    def __str__(self) -> str:
        return f"dump {_card(self.kind)}"


@dataclass(frozen=True, slots=True, repr=False)
class Lay:
    kind: int
    mask: int  # the arrows (0 for a Gate)

    __repr__ = _safe_repr

    def __str__(self) -> str:
        if type(self.kind) is int and self.kind in GATES:
            return f"lay {_card(self.kind)}"
        return f"lay {arrows_text(self.mask)}" if type(self.mask) is int and 0 < self.mask < 15 else "lay ??"


@dataclass(frozen=True, slots=True, repr=False)
class DropOff:
    __repr__ = _safe_repr

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True, repr=False)
class Give:
    kind: int
    seat: int

    __repr__ = _safe_repr

    def __str__(self) -> str:
        seat = str(self.seat) if type(self.seat) is int and 0 <= self.seat <= MAX_SEAT else "??"
        return f"give {_card(self.kind)} {seat}"


@dataclass(frozen=True, slots=True, repr=False)
class UsePickup:
    __repr__ = _safe_repr

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True, repr=False)
class UseExtraMove:
    __repr__ = _safe_repr

    def __str__(self) -> str:
        return "extra"


@dataclass(frozen=True, slots=True, repr=False)
class Engineer:
    clockwise: bool

    __repr__ = _safe_repr

    def __str__(self) -> str:
        if type(self.clockwise) is not bool:
            return "engineer ??"
        return "engineer cw" if self.clockwise else "engineer ccw"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn:
    __repr__ = _safe_repr

    def __str__(self) -> str:
        return "end"


ACTION_TYPES = (Move, Draw, Dump, Lay, DropOff, Give, UsePickup, UseExtraMove, Engineer, EndTurn)

DRAW, DROP, PICKUP_ACTION, EXTRA_ACTION, END = Draw(), DropOff(), UsePickup(), UseExtraMove(), EndTurn()
ENGINEER_CW, ENGINEER_CCW = Engineer(True), Engineer(False)
DUMPS = {k: Dump(k) for k in CARGO_KINDS}

NOTATION_HELP = (
    "move SQ-SQ-... (squares entered; '=SQ' for a gate jump), draw, dump CARD, lay ARROWS|gate-x, "
    "drop, give CARD SEAT, pickup, extra, engineer cw|ccw, end"
)


def _is_int(value: object, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def problem(action: object) -> str | None:
    """Why ``action`` is no Streamlines action at all (a foreign object, or a field of the wrong type or range), or None.

    Fields must be exactly of their declared type: ``1.0``, ``True`` or an IntEnum in
    place of an int is refused, since it would write a different notation.
    """
    name = type(action).__name__
    if not isinstance(action, ACTION_TYPES):
        return f"a {short(name, 40)} is not a Streamlines action; write one of: {NOTATION_HELP}"
    for cls, check in _FIELD_CHECKS:
        if isinstance(action, cls):
            return check(action, name)
    return None


# Each check takes an action of its class and the class's name, and says what is wrong with its fields (None: nothing).


def _move_problem(action: Any, name: str) -> str | None:
    path, jump = action.path, action.jump
    if type(jump) is not bool:
        return f"{name}: jump must be True or False, not {_field_text(jump)}"
    if type(path) is not tuple or not 1 + jump <= len(path) <= SQUARES + 1:
        return f"{name}: path must be a tuple of 1 to {SQUARES + 1} squares, not {short(_field_text(path), 60)}"
    if not all(_is_int(s, 0, SQUARES - 1) for s in path):
        bad = next(s for s in path if not _is_int(s, 0, SQUARES - 1))
        return f"{name}: each square of the path is a number 0 .. {SQUARES - 1}, not {_field_text(bad)}"
    return None


def _cargo_problem(action: Any, name: str) -> str | None:
    if not (type(action.kind) is int and action.kind in CARGO_KINDS):
        return f"{name}: kind must be a cargo card's number, not {_field_text(action.kind)}"
    return None


def _give_problem(action: Any, name: str) -> str | None:
    cargo = _cargo_problem(action, name)
    if cargo is not None:
        return cargo
    if not _is_int(action.seat, 0, MAX_SEAT):
        return f"{name}: seat must be a seat number 0 .. {MAX_SEAT}, not {_field_text(action.seat)}"
    return None


def _lay_problem(action: Any, name: str) -> str | None:
    if not (type(action.kind) is int and action.kind in LAYABLE):
        return f"{name}: kind must be a streamline or gate card's number, not {_field_text(action.kind)}"
    if not _is_int(action.mask, 0, 15):
        return f"{name}: mask must be an arrow mask 0 .. 15, not {_field_text(action.mask)}"
    return None


def _engineer_problem(action: Any, name: str) -> str | None:
    if type(action.clockwise) is not bool:
        return f"{name}: clockwise must be True or False, not {_field_text(action.clockwise)}"
    return None


#: The field checks of the actions with fields, by class (the first class the action is an instance of).
_FIELD_CHECKS: tuple[tuple[type, Callable[[Any, str], str | None]], ...] = (
    (Move, _move_problem),
    (Dump, _cargo_problem),
    (Give, _give_problem),
    (Lay, _lay_problem),
    (Engineer, _engineer_problem),
)


def _cargo_kind(word: str, text: str) -> int:
    kind = KIND_OF_NAME.get(word)
    if kind is None or kind not in CARGO_KINDS:
        raise IllegalAction(f"{text!r}: {short(word, 20)!r} is not a cargo card (refugee, straight, line, corner, tee, gate-a ..)")
    return kind


_SEAT = re.compile(r"[0-9]{1,3}")


def parse(text: str) -> object:
    """The action written as ``text``; raises IllegalAction for text that is no action.

    Notations are plain ASCII: a digit such as '²' or a letter that only lower-cases to
    ASCII (the Kelvin sign) is refused here with a reason, never passed on to ``int``.
    """
    words = text.split()
    shown = short(" ".join(words))
    if not all(w.isascii() for w in words):
        raise IllegalAction(f"{shown!r} is not an action: notations use plain letters, digits and '-', '='")
    words = [w.lower() for w in words]
    if not words:
        raise IllegalAction("an empty text is not an action")
    verb, rest = words[0], words[1:]
    if verb in _SIMPLE and not rest:
        return _SIMPLE[verb]
    read = _READERS.get(verb)
    action = None if read is None else _read(read, rest, shown)
    if action is None:
        raise IllegalAction(f"{shown!r} is not an action; write one of: {NOTATION_HELP}")
    return action


def _read(read: Callable[[list[str], str], object | None], rest: list[str], shown: str) -> object | None:
    """``read(rest, shown)``, a square, arrow or number it cannot read refused as an IllegalAction that quotes the text."""
    try:
        return read(rest, shown)
    except ValueError as exc:
        if isinstance(exc, IllegalAction):
            raise
        raise IllegalAction(f"{shown!r}: {exc}") from None


# Each reader takes the words after the verb and the text as shown in a refusal; it returns the action, or None when
# the words are not of the verb's form.


def _read_move(rest: list[str], shown: str) -> object | None:
    if len(rest) != 1:
        return None
    route, eq, target = rest[0].partition("=")
    steps = route.split("-")
    if len(steps) > SQUARES:
        raise IllegalAction(f"{shown!r}: a move enters at most {SQUARES} squares")
    path = [parse_square(s) for s in steps]
    if eq:
        path.append(parse_square(target))
    return Move(tuple(path), bool(eq))


def _read_dump(rest: list[str], shown: str) -> object | None:
    return DUMPS[_cargo_kind(rest[0], shown)] if len(rest) == 1 else None


def _read_give(rest: list[str], shown: str) -> object | None:
    if len(rest) != 2:
        return None
    if not _SEAT.fullmatch(rest[1]):
        raise IllegalAction(f"{shown!r}: the seat to give to is a number 0 .. {MAX_SEAT}")
    return Give(_cargo_kind(rest[0], shown), int(rest[1]))


def _read_lay(rest: list[str], shown: str) -> object | None:
    if len(rest) != 1:
        return None
    if rest[0].startswith("gate-"):
        kind = KIND_OF_NAME.get(rest[0])
        if kind is None or kind not in GATES:
            raise IllegalAction(f"{shown!r}: there is no {short(rest[0], 20)} card")
        return Lay(kind, 0)
    mask = parse_arrows(rest[0])
    if mask in (0, 15):
        raise IllegalAction(f"{shown!r}: a streamline card has one to three arrows")
    return Lay(shape_of(mask), mask)


def _read_engineer(rest: list[str], shown: str) -> object | None:
    if rest not in (["cw"], ["ccw"]):
        return None
    return ENGINEER_CW if rest[0] == "cw" else ENGINEER_CCW


#: The actions written as one word.
_SIMPLE: dict[str, object] = {"draw": DRAW, "drop": DROP, "pickup": PICKUP_ACTION, "extra": EXTRA_ACTION, "end": END}
#: The readers of the verbs followed by more words.
_READERS: dict[str, Callable[[list[str], str], object | None]] = {
    "move": _read_move,
    "dump": _read_dump,
    "give": _read_give,
    "lay": _read_lay,
    "engineer": _read_engineer,
}
