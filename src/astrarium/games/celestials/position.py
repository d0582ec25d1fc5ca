"""A starting position written as text (the ``position`` option), for scenarios and tests.

Statements are separated by ``;``; each begins with a character (``sun`` or
``moon``) and says one thing about that side::

    sun phase Zenith; sun health 12; sun hand sunspear advance
    sun board B1 solar-lion; moon board B2 night-wolf 2 exhausted
    moon pile moonbeam eclipse; moon discard moth-swarm

``hand`` and ``pile`` (top card first) list cards exactly; ``board LOC CARD
[HEALTH] [exhausted]`` places a card; ``discard`` and ``graveyard`` fill those
piles. Every card comes out of that side's deck, so cards stay conserved: the
cards a statement does not place make up the rest of the draw pile (shuffled),
or, when ``pile`` is given, go to the discard pile. A side whose ``hand`` is not
given is dealt its starting hand from its draw pile as usual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from astrarium.core import OptionError, Rng
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Deck, Kind

if TYPE_CHECKING:
    from astrarium.games.celestials.state import Rules

SEATS = {"sun": 0, "moon": 1}


@dataclass(slots=True)
class Side:
    hand: list[int] | None = None
    pile: list[int] | None = None  # top card first, as written
    discard: list[int] = field(default_factory=list)
    grave: list[int] = field(default_factory=list)
    board: list[tuple[int, int, int, bool]] = field(default_factory=list)  # (location, card, health, exhausted)
    phase: int = 0
    health: int | None = None


def _fail(text: str, problem: str) -> OptionError:
    return OptionError("position", f"{text.strip()!r}: {problem}")


def parse_position(text: str, rules: Rules, pools: list[list[int]]) -> list[Side]:
    """Read the statements; takes the cards they name out of ``pools`` (each side's whole deck)."""
    sides = [Side(), Side()]
    for statement in text.split(";"):
        words = statement.split()
        if not words:
            continue
        if len(words) < 2 or words[0].lower() not in SEATS:
            raise _fail(statement, "a statement starts with 'sun' or 'moon' and says what to set")
        seat = SEATS[words[0].lower()]
        what, args = words[1].lower(), words[2:]
        side = sides[seat]
        deck = rules.decks[seat]
        index = rules.index[seat]

        def take(key: str, statement: str = statement, seat: int = seat, index: dict = index, deck: Deck = deck) -> int:
            c = index.get(key.lower())
            if c is None:
                raise _fail(statement, f"the {deck.character} deck has no card {key!r}")
            if c not in pools[seat]:
                raise _fail(statement, f"no copy of {key!r} is left in the {deck.character} deck")
            pools[seat].remove(c)
            return c

        if what == "phase":
            names = [p.name.lower() for p in deck.phases]
            wanted = " ".join(args).lower()
            if wanted not in names:
                raise _fail(statement, f"{deck.character}'s phases are {', '.join(p.name for p in deck.phases)}")
            side.phase = names.index(wanted)
        elif what == "health":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
                raise _fail(statement, "health takes one positive whole number")
            side.health = int(args[0])
        elif what in ("hand", "pile", "discard", "graveyard"):
            cards = [take(k) for k in args]
            if what == "hand":
                side.hand = (side.hand or []) + cards
            elif what == "pile":
                side.pile = (side.pile or []) + cards
            elif what == "discard":
                side.discard += cards
            else:
                side.grave += cards
        elif what == "board":
            if not 2 <= len(args) <= 4:
                raise _fail(statement, "write 'board LOC CARD [HEALTH] [exhausted]'")
            at = B.parse_location(args[0])
            if at is None:
                raise _fail(statement, f"{args[0]!r} is not a location (A0..D5)")
            c = take(args[1])
            card = rules.catalog[c]
            if card.kind in (Kind.SPELL, Kind.ADVANCE):
                raise _fail(statement, f"{card.name} cannot stand on the board")
            if card.kind is Kind.STRUCTURE and not B.is_structure_slot(at):
                raise _fail(statement, "structures stand only at the back of a lane (position 0 or 5)")
            if any(at == placed[0] for s in sides for placed in s.board):
                raise _fail(statement, f"{args[0].upper()} is already occupied")
            rest = [a.lower() for a in args[2:]]
            exhausted = "exhausted" in rest
            numbers = [a for a in rest if a != "exhausted"]
            if len(numbers) > 1 or (numbers and (not numbers[0].isdigit() or int(numbers[0]) < 1)):
                raise _fail(statement, "health on the board is one positive whole number")
            health = int(numbers[0]) if numbers else card.health
            side.board.append((at, c, health, exhausted))
        else:
            raise _fail(statement, "say phase, health, hand, pile, discard, graveyard or board")
    return sides


def deal(side: Side, pool: list[int], start_hand: int, rng: Rng) -> tuple[list[int], list[int], list[int]]:
    """The hand, draw pile (top card last) and discard pile of a side once its statements are placed."""
    discard = list(side.discard)
    rng.shuffle(pool)
    if side.pile is not None:
        pile = list(reversed(side.pile))
        discard += pool
    else:
        pile = pool
    if side.hand is not None:
        hand = side.hand
    else:
        hand = [pile.pop() for _ in range(min(start_hand, len(pile)))]
    return sorted(hand), pile, discard
