"""The cards: kinds as small integers, their names, and the starting deck.

Cards of one kind are interchangeable, so a pile is a list of kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from astrarium.core.errors import OptionError, short
from astrarium.games.streamlines.board import EAST, NORTH, WEST, Scenario, load_scenario, rotate_cw
from astrarium.games.streamlines.events import EFFECTS, designed_events

# The kinds are ``Final`` literals: the compiled rules then use them as numbers in the machine code,
# where a plain module constant is looked up by name in this module's dictionary on every use.
# Power cards (kept by a ship).
ACTION: Final = 0
CARGO: Final = 1
PICKUP: Final = 2
EXTRA_MOVE: Final = 3
ENGINEERING: Final = 4
# Streamline cards (cargo; laid on the board in one of four orientations).
STRAIGHT: Final = 5
LINE: Final = 6
CORNER: Final = 7
TEE: Final = 8
# Other cargo and events.
REFUGEE: Final = 9
COLLAPSE: Final = 10
# Gate cards: GATE + pair index (pair 0 is "A", pair 1 is "B", ...).
GATE: Final = 11
MAX_GATE_PAIRS: Final = 4
# The designed Event cards (events.toml), in the order of ``events.EFFECTS``: the kinds after the gates.
CALM_STAR: Final = 15
TAILWIND: Final = 16
SALVAGE: Final = 17
ION_STORM: Final = 18
KINDS: Final = 19
assert CALM_STAR == GATE + MAX_GATE_PAIRS and KINDS == ION_STORM + 1

POWERS = frozenset({ACTION, CARGO, PICKUP, EXTRA_MOVE, ENGINEERING})
STREAMLINES = frozenset({STRAIGHT, LINE, CORNER, TEE})
GATES = frozenset(range(GATE, GATE + MAX_GATE_PAIRS))
#: What fills a cargo slot.
CARGO_KINDS = STREAMLINES | GATES | {REFUGEE}
#: What can be laid on a square.
LAYABLE = STREAMLINES | GATES
#: The designed Event cards (Collapse is the seed's own event).
DESIGNED_EVENTS = frozenset({CALM_STAR, TAILWIND, SALVAGE, ION_STORM})
EVENTS = DESIGNED_EVENTS | {COLLAPSE}
KIND_OF_EFFECT = dict(zip(EFFECTS, (CALM_STAR, TAILWIND, SALVAGE, ION_STORM), strict=True))

#: The seed's four shapes, drawn as it draws them (the arrows pointing up, left, right).
SHAPE_MASK = {STRAIGHT: NORTH, LINE: EAST | WEST, CORNER: NORTH | WEST, TEE: NORTH | EAST | WEST}

_NAMES = {
    ACTION: "action",
    CARGO: "cargo",
    PICKUP: "pickup",
    EXTRA_MOVE: "extra-move",
    ENGINEERING: "engineering",
    STRAIGHT: "straight",
    LINE: "line",
    CORNER: "corner",
    TEE: "tee",
    REFUGEE: "refugee",
    COLLAPSE: "collapse",
    CALM_STAR: "calm-star",
    TAILWIND: "tailwind",
    SALVAGE: "salvage",
    ION_STORM: "ion-storm",
}
for _pair in range(MAX_GATE_PAIRS):
    _NAMES[GATE + _pair] = f"gate-{'abcd'[_pair]}"
NAMES: dict[int, str] = dict(_NAMES)
KIND_OF_NAME: dict[str, int] = {v: k for k, v in NAMES.items()}


def shape_of(mask: int) -> int:
    """The streamline card whose arrows, in some orientation, make ``mask``."""
    count = bin(mask).count("1")
    if count == 1:
        return STRAIGHT
    if count == 3:
        return TEE
    return LINE if mask in (5, 10) else CORNER


def _orientations(kind: int) -> tuple[int, ...]:
    masks: list[int] = []
    mask = SHAPE_MASK[kind]
    for _ in range(4):
        if mask not in masks:
            masks.append(mask)
        mask = rotate_cw(mask)
    return tuple(sorted(masks))


_ORIENTATIONS = {kind: _orientations(kind) for kind in SHAPE_MASK}


def orientations(kind: int) -> tuple[int, ...]:
    """The distinct arrow masks of a streamline card turned to each of the four orientations."""
    return _ORIENTATIONS[kind]


#: The options that count the cards of each kind, with the kind they count.
COUNT_OPTIONS: dict[str, int] = {
    "action_cards": ACTION,
    "cargo_cards": CARGO,
    "pickup_cards": PICKUP,
    "extra_move_cards": EXTRA_MOVE,
    "engineering_cards": ENGINEERING,
    "straight_cards": STRAIGHT,
    "line_cards": LINE,
    "corner_cards": CORNER,
    "tee_cards": TEE,
    "refugee_cards": REFUGEE,
    "collapse_cards": COLLAPSE,
}


#: The longest stacked ``deck`` option, in cards (the default game has 88; every count option
#: at its maximum gives 222).
MAX_DECK = 400


def unknown_card_names(names: list[Any]) -> str | None:
    """The problem with a stacked deck's card names (for the ``deck`` option), or None."""
    bad = [i for i, n in enumerate(names) if not isinstance(n, str) or n not in KIND_OF_NAME]
    if bad:
        first = names[bad[0]]
        shown = short(first, 30) if isinstance(first, str) else f"a {type(first).__name__}"
        more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
        return f"card {bad[0] + 1} is {shown!r}{more}, not a card name; known: {', '.join(sorted(KIND_OF_NAME))}"
    return None


def card_counts(options: Mapping[str, Any], scenario_collapse: int) -> list[int]:
    """How many cards of each kind the game uses (gates: two per pair); pre-laid streamlines not included.

    ``collapse_cards`` may be None in the options: then the scenario's number is used.
    A stacked ``deck`` (a list of card names) replaces all the counts. The designed Event
    cards come from ``events.toml`` under ``events = "designed"``; ``"collapse"`` is the
    seed's deck, whose only event is Collapse.
    """
    counts = [0] * KINDS
    if options.get("deck"):
        for name in options["deck"]:
            counts[KIND_OF_NAME[name]] += 1
        return counts
    for name, kind in COUNT_OPTIONS.items():
        counts[kind] = options[name]
    if counts[COLLAPSE] is None:
        counts[COLLAPSE] = scenario_collapse
    for pair in range(options["gate_pairs"]):
        counts[GATE + pair] = 2
    if options["events"] == "designed":
        for card in designed_events():
            counts[KIND_OF_EFFECT[card.effect]] = card.cards
    return counts


def good_news(counts: list[int]) -> tuple[int, int]:
    """(good-news cards, bad-news cards) in a deck with these counts; Collapse is bad news."""
    good = {KIND_OF_EFFECT[c.effect] for c in designed_events() if c.good}
    return sum(counts[k] for k in good), sum(counts[k] for k in EVENTS - good)


def checked_setup(players: int, options: Mapping[str, Any]) -> tuple[Scenario, list[int]]:
    """The scenario and the card counts a game starts from, after every check that involves several options.

    Both the option check and the set-up of a state call this, so a designer's scenario
    file edited between the two can never give a game the checks did not see.
    """
    scenario = load_scenario(options["scenario"], options["scenario_file"])
    counts = card_counts(options, scenario.collapse_cards)
    if options["deck"]:
        _check_stacked_deck(players, options["deck"])
    if counts[ACTION] < players:
        raise OptionError("action_cards", f"each of the {players} ships starts with an Action card")
    if counts[CARGO] < players:
        raise OptionError("cargo_cards", f"each of the {players} ships starts with a Cargo card")
    powers = sum(counts[k] for k in POWERS)
    if powers < 4 * players:
        raise OptionError("action_cards", f"{players} ships are dealt 4 Power cards each, but there are {powers}")
    planets = len(scenario.planets)
    if counts[COLLAPSE] < 2 * planets:
        where = "deck" if options["deck"] else "collapse_cards"
        raise OptionError(where, f"{scenario.name} has {planets} planets: the game needs at least {2 * planets} Collapse cards")
    required = options["required"] if options["required"] is not None else scenario.required[players]
    if counts[REFUGEE] < required:
        where = "deck" if options["deck"] else "refugee_cards"
        raise OptionError(where, f"the team must rescue {required} refugees, but there are only {counts[REFUGEE]}")
    return scenario, counts


def _check_stacked_deck(players: int, names: list[str]) -> None:
    if len(names) < 4 * players:
        raise OptionError("deck", f"the first {4 * players} cards are the ships' Powers; the list has {len(names)}")
    for seat in range(players):
        group = names[4 * seat : 4 * seat + 4]
        if "action" not in group or "cargo" not in group or any(KIND_OF_NAME[n] not in POWERS for n in group):
            raise OptionError(
                "deck",
                f"cards {4 * seat + 1}-{4 * seat + 4} (ship {seat}'s Powers) must be Power "
                f"cards with an action and a cargo among them, not {group}",
            )
    for kind in GATES:
        name = NAMES[kind]
        if names.count(name) not in (0, 2):
            raise OptionError("deck", f"Gate cards come in matching pairs: {names.count(name)} {name}")
