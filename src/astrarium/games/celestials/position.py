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

Reading happens in three steps: :func:`_statements` splits the text into a
table per side (the grammar), :class:`PositionSpec` checks that table's shape
and bounds (the schema), and :func:`_place` checks it against the decks and the
rules (what a schema cannot say: which cards exist and how many copies are left,
where a card may stand, and that normal play can reach the position).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Protocol

from pydantic import Field, StringConstraints

from astrarium.core import DataError, OptionError, Rng
from astrarium.core.data import DataModel, validate
from astrarium.core.errors import short
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import (
    ADVANCE_COPIES,
    COPIES,
    MAX_CARDS,
    MAX_KEY,
    MAX_NAME,
    MAX_STAT,
    Card,
    Deck,
    Effect,
    Kind,
    Target,
)


class Rules(Protocol):
    """What a position reads of the rules its decks and options make (``state.Rules``): decks, cards and their indexes."""

    @property
    def decks(self) -> tuple[Deck, Deck]: ...

    @property
    def catalog(self) -> tuple[Card, ...]: ...

    @property
    def index(self) -> tuple[dict[str, int], dict[str, int]]: ...

    @property
    def advance(self) -> tuple[int, int]: ...


SEATS = ("sun", "moon")
#: The longest position text read: room for every card of two full decks, several times over.
MAX_POSITION_CHARS = 10_000
#: The most cards one list of a side may name (a whole deck of the largest size).
MAX_LIST = ADVANCE_COPIES + COPIES * MAX_CARDS
#: A card's health on the board: it may pass its maximum through healing, never without bound.
MAX_CARD_HEALTH = 999
_NUMBER = re.compile(r"[0-9]{1,6}")  # ASCII digits only: '²' passes str.isdigit() but not int()
_STATEMENTS = ("phase", "health", "hand", "pile", "discard", "graveyard", "board")
#: Targets through which a `heal` reaches other friendly cards (and so takes them past their maximum).
_FRIENDS = frozenset({Target.CHOSEN_FRIEND, Target.ADJACENT_FRIENDS, Target.LANE_FRIENDS, Target.ALL_FRIENDS})


@dataclass(slots=True)
class Side:
    """One side as the position sets it, in catalog indexes."""

    hand: list[int] | None = None
    pile: list[int] | None = None  # top card first, as written
    discard: list[int] = field(default_factory=list)
    grave: list[int] = field(default_factory=list)
    board: list[tuple[int, int, int, bool]] = field(default_factory=list)  # (location, card, health, exhausted)
    phase: int = 0
    health: int | None = None


# -- the schema of the statements, once split into tables -------------------------------------------

CardKey = Annotated[str, StringConstraints(min_length=1, max_length=MAX_KEY)]
CardList = Annotated[list[CardKey], Field(max_length=MAX_LIST)]


class Placement(DataModel):
    """``board LOC CARD [HEALTH] [exhausted]``."""

    at: Annotated[str, StringConstraints(pattern=r"^[A-D][0-5]$")]
    card: CardKey
    health: Annotated[int, Field(ge=1, le=MAX_CARD_HEALTH)] | None = None
    exhausted: bool = False


class SideSpec(DataModel):
    """Everything the statements of one side say."""

    phase: Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)] | None = None
    health: Annotated[int, Field(ge=1, le=MAX_STAT)] | None = None
    hand: CardList | None = None
    pile: CardList | None = None
    discard: CardList = []
    graveyard: CardList = []
    board: Annotated[list[Placement], Field(max_length=B.SIZE)] = []


class PositionSpec(DataModel):
    sun: SideSpec = SideSpec()
    moon: SideSpec = SideSpec()


def _fail(problem: str) -> OptionError:
    return OptionError("position", problem)


def _number(word: str) -> int | str:
    """A count written in ASCII digits as an int; any other word stays text (the schema then refuses it)."""
    return int(word) if _NUMBER.fullmatch(word) else word


def _statements(text: str) -> dict[str, dict[str, Any]]:
    """The grammar: each statement's words, put into a table per side for :class:`PositionSpec`."""
    sides: dict[str, dict[str, Any]] = {seat: {} for seat in SEATS}
    for statement in text.split(";"):
        words = statement.split()
        if not words:
            continue
        said = f"{short(statement.strip(), 60)!r}"
        if len(words) < 2 or words[0].lower() not in sides or words[1].lower() not in _STATEMENTS:
            raise _fail(f"{said}: a statement is 'sun' or 'moon' and then {', '.join(_STATEMENTS)}")
        side, what, args = sides[words[0].lower()], words[1].lower(), words[2:]
        if what == "phase":
            side["phase"] = " ".join(args)
        elif what == "health":
            if len(args) != 1:
                raise _fail(f"{said}: health takes one positive whole number")
            side["health"] = _number(args[0])
        elif what == "board":
            side.setdefault("board", []).append(_placement(args, said))
        else:
            side.setdefault(what, []).extend(a.lower() for a in args)
    return sides


def _placement(args: list[str], said: str) -> dict[str, Any]:
    if len(args) < 2:
        raise _fail(f"{said}: write 'board LOC CARD [HEALTH] [exhausted]'")
    placed: dict[str, Any] = {"at": args[0].upper(), "card": args[1].lower()}
    for word in args[2:]:
        key = "exhausted" if word.lower() == "exhausted" else "health"
        if key in placed:
            raise _fail(f"{said}: write 'board LOC CARD [HEALTH] [exhausted]'")
        placed[key] = True if key == "exhausted" else _number(word)
    return placed


def parse_position(text: str, rules: Rules, pools: list[list[int]], options: Mapping[str, Any]) -> list[Side]:
    """Read the statements; takes the cards they name out of ``pools`` (each side's whole deck).

    Any problem raises OptionError naming the option and the statement or entry.
    """
    if len(text) > MAX_POSITION_CHARS:
        raise _fail(f"a position is at most {MAX_POSITION_CHARS:,} characters, got {len(text):,}")
    try:
        spec = validate(PositionSpec, _statements(text), file="position")
    except DataError as exc:  # the schema's words, said of the option
        raise _fail(str(exc).removeprefix(f"{exc.file}: ")) from None
    sides = [_place(getattr(spec, name), seat, rules, pools[seat], options) for seat, name in enumerate(SEATS)]
    taken: dict[int, int] = {}
    for seat, side in enumerate(sides):
        for at, _, _, _ in side.board:
            if at in taken:
                raise _fail(f"{SEATS[seat]} board {B.NAMES[at]}: {B.NAMES[at]} is already occupied")
            taken[at] = seat
    return sides


class _Taker:
    """One side's deck while the statements take its cards out, so cards stay conserved."""

    def __init__(self, seat: int, rules: Rules, pool: list[int]) -> None:
        self.who, self.rules, self.seat, self.pool = SEATS[seat], rules, seat, pool
        self.deck = rules.decks[seat]

    def take(self, key: str, what: str) -> int:
        c = self.rules.index[self.seat].get(key)
        if c is None:
            raise _fail(f"{self.who} {what}: the {self.deck.character} deck has no card {key!r}")
        if c not in self.pool:
            raise _fail(f"{self.who} {what}: no copy of {key!r} is left in the {self.deck.character} deck")
        self.pool.remove(c)
        return c


def _place(spec: SideSpec, seat: int, rules: Rules, pool: list[int], options: Mapping[str, Any]) -> Side:
    """The cross-checks for one side: the cards exist and are left in its deck, and play can reach the position."""
    t = _Taker(seat, rules, pool)
    side = Side(health=spec.health)
    if spec.phase is not None:
        names = [p.name.lower() for p in t.deck.phases]
        if spec.phase.lower() not in names:
            raise _fail(f"{t.who} phase: {t.deck.character}'s phases are {', '.join(p.name for p in t.deck.phases)}")
        side.phase = names.index(spec.phase.lower())
    if spec.health is not None and spec.health > options["health"]:  # a player is never healed above the starting health
        raise _fail(f"{t.who} health: {spec.health} is above the starting health {options['health']}, which no play reaches")
    if spec.hand is not None:
        most = max(options["start_hand"], options["hand_limit"])
        if len(spec.hand) > most:
            raise _fail(f"{t.who} hand: {len(spec.hand)} cards; a hand never holds more than {most} (start_hand, hand_limit)")
        side.hand = [t.take(k, "hand") for k in spec.hand]
    if spec.pile is not None:
        side.pile = [t.take(k, "pile") for k in spec.pile]
    side.discard = [t.take(k, "discard") for k in spec.discard]
    side.grave = [t.take(k, "graveyard") for k in spec.graveyard]
    if rules.advance[seat] in side.grave:
        raise _fail(f"{t.who} graveyard: a played Advance Phase card goes to the discard pile, never the graveyard")
    side.board = [_stand(placed, t) for placed in spec.board]
    return side


def _stand(placed: Placement, t: _Taker) -> tuple[int, int, int, bool]:
    """A card on the board as (location, card, health, exhausted), where play can put it."""
    said = f"{t.who} board {placed.at}"
    at = B.parse_location(placed.at)
    if at is None:  # the schema's pattern admits only locations; this keeps the type checker sure of it
        raise _fail(f"{said}: not a location")
    c = t.take(placed.card, f"board {placed.at}")
    card = t.rules.catalog[c]
    if card.kind in (Kind.SPELL, Kind.ADVANCE):
        raise _fail(f"{said}: {card.name} cannot stand on the board")
    if card.kind is Kind.STRUCTURE and at not in B.STRUCTURE_CELLS[t.seat]:
        back = B.STRUCTURE_POS[t.seat]
        raise _fail(f"{said}: the {t.deck.character}'s structures stand only at the back of her lanes (position {back})")
    health = card.health if placed.health is None else placed.health
    if health > card.health and not _heals_past_maximum(t.deck, card):
        raise _fail(f"{said}: {card.name} has at most {card.health} health; no card of the {t.deck.character} heals past that")
    return at, c, health, placed.exhausted


def _heals_past_maximum(deck: Deck, card: Card) -> bool:
    """Whether some effect of the deck can heal ``card`` (``heal``, unlike ``mend``, passes the maximum)."""
    steps = [s for p in deck.phases for s in (*p.start, *p.enter)]
    for c in deck.cards:
        steps += [*c.on_play, *(c.on_activate or ()), *c.on_turn_start]
    own = [s for s in (*card.on_play, *(card.on_activate or ()), *card.on_turn_start) if s.target is Target.SELF]
    return any(s.effect is Effect.HEAL and s.target in _FRIENDS for s in steps) or any(s.effect is Effect.HEAL for s in own)


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
