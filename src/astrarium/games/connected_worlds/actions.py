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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from astrarium.core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Found:
    cell: str

    def __str__(self) -> str:
        return f"found {self.cell}"


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    cell: str
    piece: int  # 0 = the base on the hex, n = a unit of strength n

    def __str__(self) -> str:
        return f"move {self.card} {self.cell} {'base' if self.piece == 0 else f'u{self.piece}'}"


@dataclass(frozen=True, slots=True)
class Step:
    cell: str

    def __str__(self) -> str:
        return f"step {self.cell}"


@dataclass(frozen=True, slots=True)
class Stop:
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Gather:
    card: str

    def __str__(self) -> str:
        return f"gather {self.card}"


@dataclass(frozen=True, slots=True)
class Research:
    card: str
    buy: str

    def __str__(self) -> str:
        return f"research {self.card} {self.buy}"


@dataclass(frozen=True, slots=True)
class Build:
    card: str
    buy: str

    def __str__(self) -> str:
        return f"build {self.card} {self.buy}"


@dataclass(frozen=True, slots=True)
class Connect:
    card: str
    a: str
    b: str

    def __str__(self) -> str:
        return f"connect {self.card} {self.a} {self.b}"


@dataclass(frozen=True, slots=True)
class Deploy:
    card: str
    cell: str

    def __str__(self) -> str:
        return f"deploy {self.card} {self.cell}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


STOP = Stop()
END = EndTurn()

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
}

NOTATION_HELP = (
    "found A:0,0 | move CARD HEX u2|base | step HEX | stop | gather CARD | research CARD BUY | "
    "build CARD BUY | connect CARD HEX HEX | deploy CARD HEX | end"
)


def parse(text: str) -> Any:
    """Read one action's notation (structure only; the state checks that hexes and cards exist)."""
    words = text.strip().lower().split()
    if not words or words[0] not in _SHAPES:
        raise IllegalAction(f"{text.strip()!r} is not an action; write one of: {NOTATION_HELP}")
    verb, args = words[0], words[1:]
    cls, arity = _SHAPES[verb]
    if len(args) != arity:
        raise IllegalAction(f"{text.strip()!r}: '{verb}' takes {arity} word(s) after it; {NOTATION_HELP}")
    args = [a.upper() if ":" in a else a for a in args]
    if cls is Move:
        piece_text = args[2]
        if piece_text == "base":
            piece = 0
        elif piece_text.startswith("u") and piece_text[1:].isdigit() and int(piece_text[1:]) > 0:
            piece = int(piece_text[1:])
        else:
            raise IllegalAction(f"{text.strip()!r}: the piece is 'base' or 'u<strength>' such as 'u2'")
        return Move(args[0], args[1], piece)
    if cls is Stop:
        return STOP
    if cls is EndTurn:
        return END
    return cls(*args)
