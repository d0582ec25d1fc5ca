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
"""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.core.errors import IllegalAction
from astrarium.games.streamlines.board import arrows_text, parse_arrows, parse_square, square_name
from astrarium.games.streamlines.cards import CARGO_KINDS, GATES, KIND_OF_NAME, NAMES, shape_of


@dataclass(frozen=True, slots=True)
class Move:
    path: tuple[int, ...]
    jump: bool = False

    def __str__(self) -> str:
        names = [square_name(s) for s in self.path]
        if self.jump:
            return "move " + "-".join(names[:-1]) + "=" + names[-1]
        return "move " + "-".join(names)


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Dump:
    kind: int

    def __str__(self) -> str:
        return f"dump {NAMES[self.kind]}"


@dataclass(frozen=True, slots=True)
class Lay:
    kind: int
    mask: int  # the arrows (0 for a Gate)

    def __str__(self) -> str:
        return f"lay {NAMES[self.kind]}" if self.kind in GATES else f"lay {arrows_text(self.mask)}"


@dataclass(frozen=True, slots=True)
class DropOff:
    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class Give:
    kind: int
    seat: int

    def __str__(self) -> str:
        return f"give {NAMES[self.kind]} {self.seat}"


@dataclass(frozen=True, slots=True)
class UsePickup:
    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class UseExtraMove:
    def __str__(self) -> str:
        return "extra"


@dataclass(frozen=True, slots=True)
class Engineer:
    clockwise: bool

    def __str__(self) -> str:
        return "engineer cw" if self.clockwise else "engineer ccw"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


DRAW, DROP, PICKUP_ACTION, EXTRA_ACTION, END = Draw(), DropOff(), UsePickup(), UseExtraMove(), EndTurn()
ENGINEER_CW, ENGINEER_CCW = Engineer(True), Engineer(False)
DUMPS = {k: Dump(k) for k in CARGO_KINDS}

NOTATION_HELP = (
    "move SQ-SQ-... (squares entered; '=SQ' for a gate jump), draw, dump CARD, lay ARROWS|gate-x, "
    "drop, give CARD SEAT, pickup, extra, engineer cw|ccw, end"
)


def _cargo_kind(word: str, text: str) -> int:
    kind = KIND_OF_NAME.get(word)
    if kind is None or kind not in CARGO_KINDS:
        raise IllegalAction(f"{text!r}: {word!r} is not a cargo card (refugee, straight, line, corner, tee, gate-a ..)")
    return kind


def parse(text: str) -> object:
    """The action written as ``text``; raises IllegalAction for text that is no action."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("an empty text is not an action")
    verb, rest = words[0], words[1:]
    simple = {"draw": DRAW, "drop": DROP, "pickup": PICKUP_ACTION, "extra": EXTRA_ACTION, "end": END}
    if verb in simple and not rest:
        return simple[verb]
    try:
        if verb == "move" and len(rest) == 1:
            route, eq, target = rest[0].partition("=")
            path = [parse_square(s) for s in route.split("-")]
            if eq:
                path.append(parse_square(target))
            return Move(tuple(path), bool(eq))
        if verb == "dump" and len(rest) == 1:
            return DUMPS[_cargo_kind(rest[0], text)]
        if verb == "give" and len(rest) == 2 and rest[1].isdigit():
            return Give(_cargo_kind(rest[0], text), int(rest[1]))
        if verb == "lay" and len(rest) == 1:
            if rest[0].startswith("gate-"):
                kind = KIND_OF_NAME.get(rest[0])
                if kind is None or kind not in GATES:
                    raise IllegalAction(f"{text!r}: there is no {rest[0]} card")
                return Lay(kind, 0)
            mask = parse_arrows(rest[0])
            if mask in (0, 15):
                raise IllegalAction(f"{text!r}: a streamline card has one to three arrows")
            return Lay(shape_of(mask), mask)
        if verb == "engineer" and rest in (["cw"], ["ccw"]):
            return ENGINEER_CW if rest[0] == "cw" else ENGINEER_CCW
    except ValueError as exc:
        if isinstance(exc, IllegalAction):
            raise
        raise IllegalAction(f"{text!r}: {exc}") from None
    raise IllegalAction(f"{text!r} is not an action; write one of: {NOTATION_HELP}")
