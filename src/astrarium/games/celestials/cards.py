"""Celestials decks as data: cards, phases and the small effect vocabulary.

A deck file (TOML) names its character, the character's phases and its cards.
Cards carry their effects as data (``effect``, ``amount``, ``target``) that the
engine interprets; no card has its own code path. Loading validates everything
and raises :class:`DataError` naming the file and the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from astrarium.core import DataError
from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file

#: The seed: every deck holds three Advance Phase cards and two copies of each listed card.
ADVANCE_COPIES = 3
COPIES = 2
ADVANCE_KEY = "advance"


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
        if self.effect is Effect.EXHAUST:
            return f"{self.effect.value} {words}"
        return f"{self.effect.value} {self.amount} {words}"


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    kind: PhaseKind
    start: tuple[Step, ...] = ()


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

_DECK_FIELDS = frozenset({"character", "phases"})
_PHASE_FIELDS = frozenset({"name", "kind", "start"})
_CARD_FIELDS = frozenset({"name", "type", "copies", "damage", "health", "phases", "on_play", "on_activate", "on_turn_start", "purpose"})
_STEP_FIELDS = frozenset({"effect", "amount", "target"})


def _steps(raw: Any, *, file: str, entry: str, where: str, placed: bool, chosen: bool) -> tuple[Step, ...]:
    if not isinstance(raw, list):
        raise DataError(file, entry, f"{where} should be a list of effects, got {raw!r}")
    steps = []
    chosen_target: Target | None = None
    for table in raw:
        no_unknown_fields(table, _STEP_FIELDS, file=file, entry=entry)
        name = field(table, "effect", str, file=file, entry=entry)
        try:
            effect = Effect(name)
        except ValueError:
            known = ", ".join(e.value for e in Effect)
            raise DataError(file, entry, f"unknown effect {name!r} in {where} (known: {known})") from None
        tname = field(table, "target", str, file=file, entry=entry, default="own_player")
        try:
            target = Target(tname)
        except ValueError:
            known = ", ".join(t.value for t in Target)
            raise DataError(file, entry, f"unknown target {tname!r} in {where} (known: {known})") from None
        amount = field(table, "amount", int, file=file, entry=entry, default=1)
        if amount < 1:
            raise DataError(file, entry, f"{name} amount must be at least 1, got {amount}")
        if effect is Effect.DRAW and target is not Target.OWN_PLAYER:
            raise DataError(file, entry, f"draw always targets own_player, not {tname!r}")
        if effect is Effect.EXHAUST and target in PLAYERS:
            raise DataError(file, entry, f"{name} needs a card target, not {tname!r}")
        if target in PLACED and not placed:
            raise DataError(file, entry, f"target {tname!r} needs the card's own location, which {where} has not")
        if target in CHOSEN:
            if not chosen:
                raise DataError(file, entry, f"target {tname!r} cannot be chosen in {where}")
            if chosen_target is not None and chosen_target is not target:
                raise DataError(file, entry, f"{where} may choose only one kind of target")
            chosen_target = target
        steps.append(Step(effect, amount, target))
    return tuple(steps)


def parse_deck(data: Any, file: str) -> Deck:
    """Validate a parsed deck file; every problem raises DataError naming the file and the card."""
    if not isinstance(data, dict):
        raise DataError(file, "file", "expected tables [deck] and [cards.<key>]")
    no_unknown_fields(data, {"deck", "cards"}, file=file, entry="file")
    head = field(data, "deck", dict, file=file, entry="[deck]")
    no_unknown_fields(head, _DECK_FIELDS, file=file, entry="[deck]")
    character = field(head, "character", str, file=file, entry="[deck]")
    raw_phases = field(head, "phases", list, file=file, entry="[deck]")
    if not raw_phases:
        raise DataError(file, "[deck]", "a character needs at least one phase")
    phases = []
    for i, table in enumerate(raw_phases):
        entry = f"phase {i + 1}"
        no_unknown_fields(table, _PHASE_FIELDS, file=file, entry=entry)
        pname = field(table, "name", str, file=file, entry=entry)
        kname = field(table, "kind", str, file=file, entry=entry)
        try:
            pkind = PhaseKind(kname)
        except ValueError:
            raise DataError(file, entry, f"phase kind {kname!r} is not setup, damage or falloff") from None
        start = _steps(
            field(table, "start", list, file=file, entry=entry, default=[]),
            file=file,
            entry=entry,
            where="a phase start",
            placed=False,
            chosen=False,
        )
        phases.append(Phase(pname, pkind, start))
    names = [p.name for p in phases]
    if len(set(names)) != len(names):
        raise DataError(file, "[deck]", f"phase names repeat: {names}")
    if not any(p.kind is PhaseKind.DAMAGE for p in phases):
        raise DataError(file, "[deck]", "a character needs a damage phase")

    raw_cards = field(data, "cards", dict, file=file, entry="[cards]")
    if not raw_cards:
        raise DataError(file, "[cards]", "the deck lists no cards")
    cards = [ADVANCE]
    for key, table in raw_cards.items():
        entry = f"card {key!r}"
        if key == ADVANCE_KEY or not key.replace("-", "").isalnum() or key != key.lower():
            raise DataError(file, entry, "card keys are lowercase words with hyphens, and 'advance' is reserved")
        no_unknown_fields(table, _CARD_FIELDS, file=file, entry=entry)
        tname = field(table, "type", str, file=file, entry=entry)
        try:
            kind = Kind(tname)
        except ValueError:
            raise DataError(file, entry, f"type {tname!r} is not creature, structure or spell") from None
        if kind is Kind.ADVANCE:
            raise DataError(file, entry, "Advance Phase cards are added by the rules, not listed")
        copies = field(table, "copies", int, file=file, entry=entry)
        if copies != COPIES:
            raise DataError(file, entry, f"has {copies} copies; a deck holds exactly two copies of each listed card")
        placed = kind is not Kind.SPELL
        if placed:
            if "health" not in table:
                raise DataError(file, entry, f"a {kind.value} needs a health value")
            health = field(table, "health", int, file=file, entry=entry)
            if health < 1:
                raise DataError(file, entry, f"health must be at least 1, got {health}")
        else:
            if "health" in table or "damage" in table or "on_activate" in table or "on_turn_start" in table:
                raise DataError(file, entry, "a spell has no health, damage, activation or turn-start effect")
            health = 0
        damage = field(table, "damage", int, file=file, entry=entry, default=0)
        if damage < 0:
            raise DataError(file, entry, f"damage cannot be negative, got {damage}")
        allowed = field(table, "phases", list, file=file, entry=entry, default=None) if "phases" in table else None
        phase_set = None
        if allowed is not None:
            unknown = [p for p in allowed if p not in names]
            if unknown or not allowed:
                raise DataError(file, entry, f"phases {unknown or allowed!r} are not among {names}")
            phase_set = frozenset(names.index(p) for p in allowed)
        on_play = _steps(
            field(table, "on_play", list, file=file, entry=entry, default=[]),
            file=file,
            entry=entry,
            where="on_play",
            placed=placed,
            chosen=not placed,
        )
        if not placed and not on_play:
            raise DataError(file, entry, "a spell needs at least one on_play effect")
        on_activate = None
        if "on_activate" in table:
            on_activate = _steps(
                field(table, "on_activate", list, file=file, entry=entry),
                file=file,
                entry=entry,
                where="on_activate",
                placed=True,
                chosen=True,
            )
        on_turn_start = _steps(
            field(table, "on_turn_start", list, file=file, entry=entry, default=[]),
            file=file,
            entry=entry,
            where="on_turn_start",
            placed=True,
            chosen=False,
        )
        purpose = field(table, "purpose", str, file=file, entry=entry, default="")
        name = field(table, "name", str, file=file, entry=entry)
        cards.append(Card(key, name, kind, damage, health, phase_set, on_play, on_activate, on_turn_start, purpose))
    return Deck(file, character, tuple(phases), tuple(cards))


@lru_cache(maxsize=8)
def builtin_deck(name: str) -> Deck:
    """A deck shipped in the package (``sun`` or ``moon``)."""
    label, data = read_data(__package__, f"{name}.toml")
    return parse_deck(data, label)


def load_deck(path: str, default: str) -> Deck:
    """The deck at ``path`` (a designer's own file), or the built-in ``default`` when path is empty."""
    if not path:
        return builtin_deck(default)
    label, data = read_data_file(path)
    return parse_deck(data, label)
