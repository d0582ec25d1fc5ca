"""Celestials for learning agents: a fixed action space and observation tensors (docs/learning.md, "Celestials").

The card vocabulary is every distinct card key of the two decks of the
configuration (``sun_deck``, ``moon_deck``: the built-in ones or a designer's),
sorted; the 24 locations are ``A0`` .. ``D5`` (``lane * 6 + position``). The
action space, in index order:

* ``draw``, ``nodraw``, ``advance``, ``end``, ``keep``, ``reshuffle yes``, ``reshuffle no``;
* for each card: ``play CARD`` (a spell without a target), then ``play CARD LOC`` for the 24 locations;
* ``discard CARD`` for each card;
* for each location: ``activate LOC``, ``activate LOC face``, then ``activate LOC LOC2`` for the 24 locations;
* ``move LOC LOC2`` for every pair of different locations.

The board keeps its absolute orientation (so do the actions, which name
locations); the observation says which side the seat plays and puts its own
things first: the board per location (whose card, which card, its health,
exhausted), the seat's hand, then per player (this seat first) health, phase,
hand and pile sizes, the public discard pile, graveyard and known cards of
the hand, then the turn's step, who moves, who is asked about the reshuffle
and how many turns are done.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from astrarium.core.contract import Learning
from astrarium.core.learning import NotationSpace, Segments
from astrarium.games.celestials import actions as A
from astrarium.games.celestials.board import NAMES, SIZE
from astrarium.games.celestials.cards import ADVANCE_COPIES, COPIES
from astrarium.games.celestials.state import STEP_NAMES, rules_for

if TYPE_CHECKING:  # numpy comes with the rl extra: imported where the arrays are made, so the game loads without it
    import numpy as np
    import numpy.typing as npt

#: Scales that keep the numbers near [0, 1]: a card's health, cards in a hand.
HEALTH_SCALE = 1 / 10
HAND_SCALE = 1 / 10
#: The highest card health the observation tells apart (``heal`` may take a card past its maximum, without a limit).
MAX_HEALTH = 99
#: Per location: mine, the other seat's, health, exhausted; then one plane per card of the vocabulary.
_CELL_FLAGS = 4


def action_labels(vocabulary: tuple[str, ...]) -> list[str]:
    """The notation of every index of the action space, in order (made from the action values themselves)."""
    actions: list[Any] = [A.DRAW, A.NO_DRAW, A.ADVANCE, A.END, A.KEEP, *A.RESHUFFLE]
    for key in vocabulary:
        actions += [A.Play(key), *(A.Play(key, at) for at in range(SIZE))]
    actions += [A.Discard(key) for key in vocabulary]
    for at in range(SIZE):
        actions += [A.Activate(at), A.Activate(at, A.FACE), *(A.Activate(at, t) for t in range(SIZE))]
    actions += [A.Move(src, dst) for src in range(SIZE) for dst in range(SIZE) if src != dst]
    return [str(a) for a in actions]


class CelestialsEncoder:
    """The action space and tensors of one configuration (its two decks and options)."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        rules = rules_for(options)
        self.players = players
        #: The card vocabulary: every distinct card key of both decks, sorted.
        self.vocabulary: tuple[str, ...] = tuple(sorted({card.key for card in rules.catalog}))
        self.card_index = {key: i for i, key in enumerate(self.vocabulary)}
        self.decks = rules.decks
        self.phase_names = [tuple(p.name for p in deck.phases) for deck in rules.decks]
        self.phases = max(len(names) for names in self.phase_names)
        self.deck_sizes = [ADVANCE_COPIES + COPIES * (len(deck.cards) - 1) for deck in rules.decks]
        self.health = int(options["health"])
        self.turn_limit = int(options["turn_limit"])
        self.actions = NotationSpace(action_labels(self.vocabulary))
        v = len(self.vocabulary)
        per_player = [("health", 1), ("phase", self.phases), ("sizes", 2), ("discard", v), ("graveyard", v), ("known", v)]
        public: list[tuple[str, int]] = [("side", 2), ("board", SIZE * (_CELL_FLAGS + v))]
        for rel in range(2):
            public += [(f"p{rel}_{name}", size) for name, size in per_player]
        public += [("step", len(STEP_NAMES)), ("to_move", 2), ("asked", 2), ("reshuffle_open", 1), ("turns", 1)]
        self.segments = Segments([*public, ("hand", v)])
        self.world = Segments([*public, ("hands", 2 * v), ("piles", 2 * v)])
        self.observation_shape: tuple[int, ...] = (self.segments.size,)
        self.global_shape: tuple[int, ...] = (self.world.size,)
        self._location = {name: at for at, name in enumerate(NAMES)}
        self.observation_bounds = self._bounds(options)

    def _bounds(self, options: Mapping[str, Any]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Every feature's true range: flags 0/1, counts up to a card's copies in the larger deck, a card's health up to
        ``MAX_HEALTH`` (the feature is capped there: ``heal`` may pass a card's maximum), a player's up to the start."""
        import numpy as np

        v = len(self.vocabulary)
        copies = np.max(
            [[sum(deck.cards[i].key == key for i in deck.cards_list()) for key in self.vocabulary] for deck in self.decks], axis=0
        )
        cell = np.ones(_CELL_FLAGS + v, np.float32)
        cell[2] = MAX_HEALTH * HEALTH_SCALE
        hand = max(int(options["start_hand"]), int(options["hand_limit"]))
        ranges: dict[str, tuple[Any, Any]] = {"side": (0.0, 1.0), "board": (0.0, np.tile(cell, SIZE))}
        for rel in range(2):
            ranges |= {
                f"p{rel}_health": (0.0, 1.0),
                f"p{rel}_phase": (0.0, 1.0),
                f"p{rel}_sizes": (0.0, np.array([hand * HAND_SCALE, 1.0])),
                f"p{rel}_discard": (0.0, copies / COPIES),
                f"p{rel}_graveyard": (0.0, copies / COPIES),
                f"p{rel}_known": (0.0, copies / COPIES),
            }
        ranges |= {name: (0.0, 1.0) for name in ("step", "to_move", "asked", "reshuffle_open", "turns")}
        ranges["hand"] = (0.0, copies / COPIES)
        return self.segments.bounds(ranges)

    def _counts(self, out: npt.NDArray[np.float32], start: int, keys: Any, scale: float = 1.0) -> None:
        index = self.card_index
        for key in keys:
            out[start + index[key]] += scale

    def _public(self, out: npt.NDArray[np.float32], segments: Segments, view: Mapping[str, Any], seat: int) -> None:
        """Write what both seats see, with ``seat``'s own things first (the global tensor: seat 0)."""
        v = len(self.vocabulary)
        out[segments.slice("side").start + seat] = 1.0
        board = segments.slice("board").start
        width = _CELL_FLAGS + v
        for cell in view["board"]:
            at = board + self._location[cell["at"]] * width
            out[at + (0 if cell["owner"] == seat else 1)] = 1.0
            out[at + 2] = min(cell["health"], MAX_HEALTH) * HEALTH_SCALE
            out[at + 3] = 1.0 if cell["exhausted"] else 0.0
            out[at + _CELL_FLAGS + self.card_index[cell["card"]]] = 1.0
        for rel in range(2):
            s = (seat + rel) % 2
            p = view["players"][s]
            out[segments.slice(f"p{rel}_health").start] = max(p["health"], 0) / self.health  # a last blow may pass 0
            out[segments.slice(f"p{rel}_phase").start + self.phase_names[s].index(p["phase"])] = 1.0
            sizes = segments.slice(f"p{rel}_sizes").start
            out[sizes] = p["hand_size"] * HAND_SCALE
            out[sizes + 1] = p["draw_pile"] / self.deck_sizes[s]
            self._counts(out, segments.slice(f"p{rel}_discard").start, p["discard"], 1 / COPIES)
            self._counts(out, segments.slice(f"p{rel}_graveyard").start, p["graveyard"], 1 / COPIES)
            self._counts(out, segments.slice(f"p{rel}_known").start, p["known_hand"], 1 / COPIES)
        out[segments.slice("step").start + STEP_NAMES.index(view["step"])] = 1.0
        mover = view["current_player"]
        if mover is not None:
            out[segments.slice("to_move").start + (mover - seat) % 2] = 1.0
        for asked in view["votes"]:
            out[segments.slice("asked").start + (asked - seat) % 2] = 1.0
        out[segments.slice("reshuffle_open").start] = 1.0 if view["reshuffle_open"] else 0.0
        out[segments.slice("turns").start] = view["turns_done"] / (2 * self.turn_limit)

    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation from ``state.view(seat)``: the public position seen from it, then its hand."""
        out = self.segments.zeros()
        self._public(out, self.segments, view, seat)
        self._counts(out, self.segments.slice("hand").start, view["players"][seat]["hand"], 1 / COPIES)
        return out

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The whole position from ``state.full_view()``: the public position (seat 0 first), both hands and both piles."""
        out = self.world.zeros()
        self._public(out, self.world, full_view, 0)
        v = len(self.vocabulary)
        hands, piles = self.world.slice("hands").start, self.world.slice("piles").start
        for s, p in enumerate(full_view["players"]):
            self._counts(out, hands + s * v, p["hand"], 1 / COPIES)
            self._counts(out, piles + s * v, p["draw_order"], 1 / COPIES)
        return out


def encoder(players: int, options: Mapping[str, Any]) -> CelestialsEncoder:
    """The encoder of one configuration (built once per configuration by ``core.learning``)."""
    return CelestialsEncoder(players, options)


LEARNING = Learning(encoder=encoder)
