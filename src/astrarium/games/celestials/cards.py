"""Celestials decks as data: cards, phases and the small effect vocabulary.

A deck file (TOML or JSON) names its character, the character's phases and its
cards. Cards carry their effects as data (``effect``, ``amount``, ``target``)
that the engine interprets; no card has its own code path.

The file's shape is declared once, as the pydantic schema :class:`DeckFile`
(bounded numbers and lengths, unknown keys refused); :func:`parse_deck` adds
by hand only what ties fields together (a spell has no health, a target needs
the card's location, the phases a card lists exist). Every problem raises
:class:`DataError` naming the file and the entry
(``cards.tail-burn.on_play.#1.effect``). The limits are in rules.md, "Data
files and limits".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from astrarium.core import DataError
from astrarium.core.data import DataModel, parse_data, read_data, read_text_file, validate

#: The seed: every deck holds three Advance Phase cards and two copies of each listed card.
ADVANCE_COPIES = 3
COPIES = 2
ADVANCE_KEY = "advance"

#: Limits of a deck file, well above the shipped decks (9 cards, 3-4 phases, amounts up to 4)
#: and small enough that a game stays small: a deck holds at most 3 + 2 x 30 = 63 cards.
MAX_CARDS = 30  # distinct cards listed in one deck
MAX_PHASES = 8  # phases of a character
MAX_STEPS = 8  # effects in one list (on_play, on_activate, on_turn_start, a phase start or enter)
MAX_AMOUNT = 20  # the amount of one effect (damage, heal, mend, cards drawn)
MAX_STAT = 99  # a card's Damage and Health
MAX_NAME = 40  # characters of a name (character, card, phase)
MAX_KEY = 30  # characters of a card key
MAX_PURPOSE = 300  # characters of a card's purpose line


class Kind(Enum):
    CREATURE = "creature"
    STRUCTURE = "structure"
    SPELL = "spell"
    ADVANCE = "advance"


class PhaseKind(Enum):
    SETUP = "setup"
    DAMAGE = "damage"
    FALLOFF = "falloff"


class Effect(Enum):
    DAMAGE = "damage"  # remove health
    HEAL = "heal"  # add health (may pass the maximum)
    MEND = "mend"  # add health, but not above the card's maximum (the seed's "unless the contrary is specified")
    DRAW = "draw"  # the owner draws cards (hand limit holds)
    EXHAUST = "exhaust"  # the target card is exhausted (until the end of its owner's next turn)
    ADVANCE = "advance"  # the owner moves to the next phase; like an Advance Phase card, it ends the plays of the turn


class Target(Enum):
    SELF = "self"  # the card itself
    CHOSEN_ENEMY = "chosen_enemy"  # one enemy card anywhere, chosen when played
    CHOSEN_FRIEND = "chosen_friend"  # one friendly card anywhere, chosen
    CHOSEN_ADJACENT_ENEMY = "chosen_adjacent_enemy"  # one orthogonally adjacent enemy card, chosen
    ADJACENT_ENEMIES = "adjacent_enemies"  # every orthogonally adjacent enemy card
    ADJACENT_FRIENDS = "adjacent_friends"
    LANE_ENEMIES = "lane_enemies"  # every enemy card in the card's lane pair
    LANE_FRIENDS = "lane_friends"
    ALL_ENEMIES = "all_enemies"  # every enemy card on the board
    ALL_FRIENDS = "all_friends"
    ENEMY_PLAYER = "enemy_player"
    OWN_PLAYER = "own_player"


CHOSEN = frozenset({Target.CHOSEN_ENEMY, Target.CHOSEN_FRIEND, Target.CHOSEN_ADJACENT_ENEMY})
#: Targets measured from the card's own location (no location: spells, phases).
PLACED = frozenset(
    {
        Target.SELF,
        Target.CHOSEN_ADJACENT_ENEMY,
        Target.ADJACENT_ENEMIES,
        Target.ADJACENT_FRIENDS,
        Target.LANE_ENEMIES,
        Target.LANE_FRIENDS,
    }
)
PLAYERS = frozenset({Target.ENEMY_PLAYER, Target.OWN_PLAYER})


@dataclass(frozen=True, slots=True)
class Step:
    """One effect of a card: ``effect`` of ``amount`` on ``target``."""

    effect: Effect
    amount: int
    target: Target

    def describe(self) -> str:
        words = self.target.value.replace("_", " ")
        if self.effect is Effect.DRAW:
            return f"draw {self.amount}"
        if self.effect is Effect.ADVANCE:
            return "advance the phase (ends the plays)"
        if self.effect is Effect.EXHAUST:
            return f"{self.effect.value} {words}"
        return f"{self.effect.value} {self.amount} {words}"


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a character's cycle.

    ``start`` happens at the start of each of its owner's turns spent in it;
    ``enter`` happens once, when its owner moves into it (an Advance Phase card
    or a card's ``advance``), so a designer can give a phase a one-off effect
    that does not repeat while the player stays.
    """

    name: str
    kind: PhaseKind
    start: tuple[Step, ...] = ()
    enter: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    key: str
    name: str
    kind: Kind
    damage: int = 0
    health: int = 0
    phases: frozenset[int] | None = None  # phase indexes it may be played in; None: any
    on_play: tuple[Step, ...] = ()
    on_activate: tuple[Step, ...] | None = None  # None: the default attack
    on_turn_start: tuple[Step, ...] = ()
    purpose: str = ""

    @property
    def chooses(self) -> Target | None:
        """The chosen target of its play (spells) or its activation, if any."""
        steps = self.on_play if self.kind is Kind.SPELL else (self.on_activate or ())
        for s in steps:
            if s.target in CHOSEN:
                return s.target
        return None


@dataclass(frozen=True, slots=True)
class Deck:
    file: str
    character: str
    phases: tuple[Phase, ...]
    cards: tuple[Card, ...]  # the distinct cards, Advance Phase first

    def cards_list(self) -> list[int]:
        """The whole deck as indexes into ``cards``: 3 Advance Phase cards, 2 of each other."""
        out = [0] * ADVANCE_COPIES
        for i in range(1, len(self.cards)):
            out += [i] * COPIES
        return out


ADVANCE = Card(ADVANCE_KEY, "Advance Phase", Kind.ADVANCE, purpose="move to the next phase; ends the turn")


# -- the deck file's schema -----------------------------------------------------------------------

#: Words a player reads: one line, no control characters, no ``[``/``]`` (the board is drawn as Rich markup).
Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME, pattern=r"^[^\x00-\x1f\x7f\[\]]+$")]
#: A phase name is typed in the ``position`` option (``sun phase Full Moon``): words split by single
#: spaces, without ``;`` (which ends a statement), so what is shown can be typed back.
PhaseName = Annotated[str, StringConstraints(max_length=MAX_NAME, pattern=r"^[^\s\x00-\x1f\x7f;\[\]]+( [^\s\x00-\x1f\x7f;\[\]]+)*$")]
#: A card key is notation (``play solar-lion B1``): lowercase ASCII words joined by hyphens.
Key = Annotated[str, StringConstraints(max_length=MAX_KEY, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
Stat = Annotated[int, Field(ge=0, le=MAX_STAT)]
# Enums are read from their text value (the schema is otherwise strict: no 1.0 for 1, no "3" for 3).
EffectName = Annotated[Effect, Field(strict=False)]
TargetName = Annotated[Target, Field(strict=False)]
PhaseKindName = Annotated[PhaseKind, Field(strict=False)]


class StepData(DataModel):
    """``{ effect = E, amount = N, target = T }``."""

    effect: EffectName
    amount: Annotated[int, Field(ge=1, le=MAX_AMOUNT)] = 1
    target: TargetName = Target.OWN_PLAYER


Effects = Annotated[list[StepData], Field(max_length=MAX_STEPS)]


class PhaseData(DataModel):
    """One phase of the character: ``{ name = "Dusk", kind = "falloff", start = [...], enter = [...] }``."""

    name: PhaseName
    kind: PhaseKindName
    start: Effects = []
    enter: Effects = []


class CardData(DataModel):
    """One ``[cards.<key>]`` table."""

    name: Name
    type: Literal["creature", "structure", "spell"]
    copies: int
    damage: Stat | None = None  # None: not given (0 on the board; a spell gives none)
    health: Annotated[int, Field(ge=1, le=MAX_STAT)] | None = None
    phases: Annotated[list[PhaseName], Field(min_length=1, max_length=MAX_PHASES)] | None = None
    on_play: Effects = []
    on_activate: Effects | None = None
    on_turn_start: Effects = []
    #: Required: every card states in one line why it is in the deck (what a player uses it for).
    purpose: Annotated[
        str, StringConstraints(min_length=1, max_length=MAX_PURPOSE, pattern=r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$")
    ]


class DeckHead(DataModel):
    """The ``[deck]`` table: the character and its phases, in order."""

    character: Name
    phases: Annotated[list[PhaseData], Field(min_length=1, max_length=MAX_PHASES)]


class DeckFile(DataModel):
    """A whole deck file."""

    deck: DeckHead
    cards: Annotated[dict[Key, CardData], Field(min_length=1, max_length=MAX_CARDS)]


# -- the cross-checks a schema cannot state, and the rules' values ----------------------------------


def effects_problem(steps: list[StepData], where: str, *, placed: bool, chosen: bool) -> tuple[str, str] | None:
    """What is wrong with an effect list where it stands, as (``#N`` of the effect, problem); None: nothing.

    ``placed``: the list belongs to a card on the board, so targets measured from
    its location exist; ``chosen``: the action names a target (a spell's play, an
    activation), and one effect list chooses at most one kind of target.
    ``advance`` may stand only in ``on_play``: the seed lets a player advance by
    *playing* a card, and that play ends the turn.
    """
    chosen_target: Target | None = None
    for i, step in enumerate(steps, 1):
        at, target = f"#{i}", step.target.value
        if step.effect is Effect.DRAW and step.target is not Target.OWN_PLAYER:
            return at, f"draw always targets own_player, not {target!r}"
        if step.effect is Effect.ADVANCE:
            if step.target is not Target.OWN_PLAYER:
                return at, f"advance always targets own_player, not {target!r}"
            if where != "on_play":
                return at, f"advance is allowed only in on_play (a card played to move the phase on), not in {where}"
            if step.amount != 1:
                return at, f"advance moves exactly one phase on, not {step.amount}"
        if step.effect is Effect.EXHAUST and step.target in PLAYERS:
            return at, f"exhaust needs a card target, not {target!r}"
        if step.target in PLACED and not placed:
            return at, f"target {target!r} needs the card's own location, which {where} has not"
        if step.target in CHOSEN:
            if not chosen:
                return at, f"target {target!r} cannot be chosen in {where}"
            if chosen_target is not None and chosen_target is not step.target:
                return at, f"{where} may choose only one kind of target"
            chosen_target = step.target
    return None


def card_problem(c: CardData, phases: list[str]) -> tuple[str, str] | None:
    """What is wrong with a card beyond its fields' own shapes, as (field, problem); None: nothing."""
    if c.copies != COPIES:
        return "copies", f"has {c.copies} copies; a deck holds exactly two copies of each listed card"
    unknown = [p for p in c.phases or () if p not in phases]
    if unknown:
        return "phases", f"{', '.join(map(repr, unknown))} not among the character's phases ({', '.join(phases)})"
    spell = c.type == "spell"
    if spell:
        for name in ("health", "damage", "on_activate"):
            if getattr(c, name) is not None:
                return name, "a spell has no health, damage or activation (it acts once, when played)"
        if c.on_turn_start or not c.on_play:
            return "on_play", "a spell has exactly its on_play effects: at least one, and no on_turn_start"
    elif c.health is None:
        return "health", f"a {c.type} needs a health value"
    lists = (("on_play", c.on_play, spell), ("on_activate", c.on_activate or [], True), ("on_turn_start", c.on_turn_start, False))
    for where, steps, chosen in lists:
        problem = effects_problem(steps, where, placed=not spell, chosen=chosen)
        if problem:
            return f"{where}.{problem[0]}", problem[1]
    return None


def _steps(steps: list[StepData] | None) -> tuple[Step, ...]:
    return tuple(Step(s.effect, s.amount, s.target) for s in steps or ())


def parse_deck(data: Any, file: str) -> Deck:
    """The deck in parsed file ``data``; every problem raises DataError naming the file and the entry.

    The schema checks each entry's shape and bounds; what remains here is what
    ties fields together: phase names are distinct and one is a Damage phase, a
    card fits its type and lists only its character's phases, and each effect's
    target makes sense where the effect stands.
    """
    model = validate(DeckFile, data, file=file)
    names = [p.name for p in model.deck.phases]
    if len({n.lower() for n in names}) != len(names):  # the position option finds phases ignoring case
        raise DataError(file, "deck.phases", f"phase names repeat: {', '.join(names)}")
    if not any(p.kind is PhaseKind.DAMAGE for p in model.deck.phases):
        raise DataError(file, "deck.phases", "a character needs a damage phase")
    for i, p in enumerate(model.deck.phases, 1):
        for where, steps in (("start", p.start), ("enter", p.enter)):
            problem = effects_problem(steps, f"a phase {where}", placed=False, chosen=False)
            if problem:
                raise DataError(file, f"deck.phases.#{i}.{where}.{problem[0]}", problem[1])
    cards = [ADVANCE]
    for key, c in model.cards.items():
        if key == ADVANCE_KEY:
            raise DataError(file, f"cards.{key}", "the key 'advance' is reserved: the rules add the Advance Phase cards")
        fault = card_problem(c, names)
        if fault:
            raise DataError(file, f"cards.{key}.{fault[0]}", fault[1])
        card = Card(
            key,
            c.name,
            Kind(c.type),
            damage=c.damage or 0,
            health=c.health or 0,
            phases=None if c.phases is None else frozenset(names.index(p) for p in c.phases),
            on_play=_steps(c.on_play),
            on_activate=None if c.on_activate is None else _steps(c.on_activate),
            on_turn_start=_steps(c.on_turn_start),
            purpose=c.purpose,
        )
        cards.append(card)
    phases = tuple(Phase(p.name, p.kind, _steps(p.start), _steps(p.enter)) for p in model.deck.phases)
    return Deck(file, model.deck.character, phases, tuple(cards))


@lru_cache(maxsize=8)
def builtin_deck(name: str) -> Deck:
    """A deck shipped in the package (``sun`` or ``moon``)."""
    label, data = read_data(__package__, f"{name}.toml")
    return parse_deck(data, label)


@lru_cache(maxsize=16)
def _deck_from_text(label: str, text: str, suffix: str) -> Deck:
    """A deck parsed from a file's text: cached on the text itself, so an edited file is read anew."""
    return parse_deck(parse_data(text, label, suffix=suffix), label)


def load_deck(path: str, default: str) -> Deck:
    """The deck at ``path`` (a designer's own file), or the built-in ``default`` when path is empty.

    The file is read every time (bounded, regular files only); parsing and
    validating are cached by its content.
    """
    if not path:
        return builtin_deck(default)
    label, text = read_text_file(path)
    return _deck_from_text(label, text, Path(path).suffix)
