"""The cards: kinds as small integers, their names, and the starting deck.

Cards of one kind are interchangeable, so a pile is a list of kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.games.streamlines.board import EAST, NORTH, WEST, rotate_cw

# Power cards (kept by a ship).
ACTION, CARGO, PICKUP, EXTRA_MOVE, ENGINEERING = 0, 1, 2, 3, 4
# Streamline cards (cargo; laid on the board in one of four orientations).
STRAIGHT, LINE, CORNER, TEE = 5, 6, 7, 8
# Other cargo and events.
REFUGEE, COLLAPSE = 9, 10
# Gate cards: GATE + pair index (pair 0 is "A", pair 1 is "B", ...).
GATE = 11
MAX_GATE_PAIRS = 4
KINDS = GATE + MAX_GATE_PAIRS

POWERS = frozenset({ACTION, CARGO, PICKUP, EXTRA_MOVE, ENGINEERING})
STREAMLINES = frozenset({STRAIGHT, LINE, CORNER, TEE})
GATES = frozenset(range(GATE, GATE + MAX_GATE_PAIRS))
#: What fills a cargo slot.
CARGO_KINDS = STREAMLINES | GATES | {REFUGEE}
#: What can be laid on a square.
LAYABLE = STREAMLINES | GATES

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


def unknown_card_names(names: list[Any]) -> str | None:
    """The problem with a stacked deck's card names (for the ``deck`` option), or None."""
    bad = [n for n in names if not isinstance(n, str) or n not in KIND_OF_NAME]
    if bad:
        return f"unknown card name(s) {', '.join(map(repr, bad))}; known: {', '.join(sorted(KIND_OF_NAME))}"
    return None


def card_counts(options: Mapping[str, Any], scenario_collapse: int) -> list[int]:
    """How many cards of each kind the game uses (gates: two per pair); pre-laid streamlines not included.

    ``collapse_cards`` may be None in the options: then the scenario's number is used.
    A stacked ``deck`` (a list of card names) replaces all the counts.
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
    return counts
