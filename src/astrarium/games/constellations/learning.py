"""Constellations for learning agents: a fixed action space and observation tensors (docs/learning.md, "Constellations").

The action space, for a board of ``height x width`` cells and the ``V``
distinct cards of the configuration's deck (the ``deck`` option, the designer's
``deck_file`` or the shipped deck), sorted:

* ``0 .. H*W-1``: ``rot <cell>``, the cell ``row * width + col`` (``rot a1``, ``rot b1``, ...);
* ``H*W``: ``pass``; ``H*W+1``: ``end``;
* then ``play <card>`` for each card of the vocabulary, then ``swap <card>`` (the variant).

The observation is flat (float32), read from the seat's view alone: the board
one-hot per cell, the seat's hand as counts per card, the public log of played
and swapped cards as counts per card, then the phase, the seat to move, the
scores, hand sizes (each seat-relative: this seat first), the deck left and
the round. The global tensor puts every hand and the deck's remaining
composition beside the same public facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from astrarium.core.contract import Learning
from astrarium.core.learning import NotationSpace, Segments
from astrarium.games.constellations.board import EMPTY, OBJECTS, cell_name, parse_board
from astrarium.games.constellations.cards import Card, load_deck_file, shipped_deck

if TYPE_CHECKING:  # numpy comes with the rl extra: imported where the arrays are made, so the game loads without it
    import numpy as np
    import numpy.typing as npt

#: What a board cell may hold, one plane each: empty, then the objects (planet, gas giant, ..., comet).
CELL_LETTERS: tuple[str, ...] = (EMPTY, *OBJECTS)
#: Scales that keep the numbers near [0, 1]: points, cards.
SCORE_SCALE = 1 / 50
_PHASES = ("rotate", "play")


def deck_cards(options: Mapping[str, Any]) -> list[Card]:
    """Every card of the configuration's deck, with repeats (the ``deck`` option, a designer's file or the shipped deck)."""
    if options.get("deck") is not None:
        return [Card.parse(text) for text in options["deck"]]
    if options.get("deck_file"):
        return list(load_deck_file(options["deck_file"]))
    return list(shipped_deck())


def board_size(options: Mapping[str, Any]) -> tuple[int, int]:
    """(height, width) of the configuration's board."""
    if options.get("board") is not None:
        height, width, _ = parse_board(options["board"])
        return height, width
    return int(options["height"]), int(options["width"])


class ConstellationsEncoder:
    """The action space and tensors of one configuration (player count, board size, deck)."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.height, self.width = board_size(options)
        cards = deck_cards(options)
        #: The card vocabulary: every distinct card of the deck, as its notation (``ryw/3``), sorted.
        self.vocabulary: tuple[str, ...] = tuple(str(c) for c in sorted(set(cards)))
        self.card_index = {name: i for i, name in enumerate(self.vocabulary)}
        self.deck_total = max(1, len(cards))
        self.hand_size = int(options["hand_size"])
        self.max_rounds = int(options["max_rounds"])
        cells = self.height * self.width
        labels = [f"rot {cell_name(*divmod(cell, self.width))}" for cell in range(cells)]
        labels += ["pass", "end"]
        labels += [f"play {name}" for name in self.vocabulary]
        labels += [f"swap {name}" for name in self.vocabulary]
        self.actions = NotationSpace(labels)
        v = len(self.vocabulary)
        public = [
            ("board", cells * len(CELL_LETTERS)),
            ("played", v),
            ("swapped", v),
            ("phase", len(_PHASES)),
            ("to_move", players),
            ("scores", players),
            ("hand_sizes", players),
            ("deck", 1),
            ("round", 1),
        ]
        self.segments = Segments([("hand", v), *public])
        self.world = Segments([("hands", players * v), ("deck_cards", v), *public])
        self.observation_shape: tuple[int, ...] = (self.segments.size,)
        self.global_shape: tuple[int, ...] = (self.world.size,)
        import numpy as np

        table = np.full(256, -1, dtype=np.int64)
        for i, letter in enumerate(CELL_LETTERS):
            table[ord(letter)] = i
        self._letter_plane = table
        self._cell_offsets = np.arange(cells, dtype=np.int64) * len(CELL_LETTERS)
        copies = np.array([sum(str(c) == name for c in cards) for name in self.vocabulary], dtype=np.float32)
        #: The true range of every feature: counts up to the deck's copies of a card; a score has no maximum the rules
        #: state short of counting every line a board can hold, so its high is infinite.
        self.observation_bounds = self.segments.bounds(
            {
                "hand": (0.0, np.minimum(copies, self.hand_size)),
                "board": (0.0, 1.0),
                "played": (0.0, copies),
                "swapped": (0.0, copies),
                "phase": (0.0, 1.0),
                "to_move": (0.0, 1.0),
                "scores": (0.0, np.inf),
                "hand_sizes": (0.0, 1.0),
                "deck": (0.0, 1.0),
                "round": (0.0, 1.0),
            }
        )

    # -- the pieces ---------------------------------------------------------------------------------
    def _counts(self, out: npt.NDArray[np.float32], at: slice, names: Any, scale: float = 1.0) -> None:
        index = self.card_index
        start = at.start
        for name in names:
            out[start + index[name]] += scale

    def _public(self, out: npt.NDArray[np.float32], segments: Segments, view: Mapping[str, Any], seat: int) -> None:
        """Write what every seat sees, seat-relative to ``seat`` (the global tensor: seat 0)."""
        import numpy as np

        cells = np.frombuffer(view["board"].replace("\n", "").encode("ascii"), dtype=np.uint8)
        board = segments.slice("board")
        out[board.start + self._cell_offsets + self._letter_plane[cells]] = 1.0
        self._counts(out, segments.slice("played"), (entry[1] for entry in view["played"]))
        self._counts(out, segments.slice("swapped"), (entry[1] for entry in view["swapped"]))
        out[segments.slice("phase").start + _PHASES.index(view["phase"])] = 1.0
        players = self.players
        out[segments.slice("to_move").start + (view["turn"] - seat) % players] = 1.0
        scores, sizes = segments.slice("scores").start, segments.slice("hand_sizes").start
        for s in range(players):
            rel = (s - seat) % players
            out[scores + rel] = view["scores"][s] * SCORE_SCALE
            out[sizes + rel] = view["hand_sizes"][s] / self.hand_size
        out[segments.slice("deck").start] = view["deck"] / self.deck_total
        out[segments.slice("round").start] = view["round"] / self.max_rounds

    # -- the Encoder protocol -----------------------------------------------------------------------
    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation from ``state.view(seat)``: its hand, then the public position seen from it."""
        out = self.segments.zeros()
        self._counts(out, self.segments.slice("hand"), view["hand"] or ())
        self._public(out, self.segments, view, seat)
        return out

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The whole position from ``state.full_view()``: every hand (seat 0 first), the deck's cards, the public position."""
        out = self.world.zeros()
        hands = self.world.slice("hands").start
        v = len(self.vocabulary)
        for s, hand in enumerate(full_view["hands"]):
            self._counts(out, slice(hands + s * v, hands + (s + 1) * v), hand)
        self._counts(out, self.world.slice("deck_cards"), full_view["deck_order"])
        self._public(out, self.world, full_view, 0)
        return out


def encoder(players: int, options: Mapping[str, Any]) -> ConstellationsEncoder:
    """The encoder of one configuration (built once per configuration by ``core.learning``)."""
    return ConstellationsEncoder(players, options)


LEARNING = Learning(encoder=encoder)
