"""Streamlines for learning agents: a fixed index for every action, and the observation of one seat.

**Actions.** A move is indexed by where it ends: the legal moves of a position
are one per end square and gate jump (``moves_from`` offers the first path to
each), so ``move`` takes 2 x 81 indices, ``81 * jump + square``, whatever path
the notation writes. The other actions are listed by their notation:
``draw``; ``dump`` of each cargo card (9); ``lay`` of each arrow mask of one to
three arrows (14) and of each gate (4); ``drop``, which must always have its
index since it is the only way to win; ``give`` of each cargo card to each seat
(9 x players, seats as numbered at the table: an action names its seat);
``pickup``, ``extra``, ``engineer cw``, ``engineer ccw`` and ``end``. With 4
players the space has 162 + 1 + 9 + 18 + 1 + 36 + 5 = 232 indices.

**Observation.** A flat vector built from ``view(seat)`` alone (everything
but the deck's order): 81 squares x :data:`SQUARE_PLANES` (arrows, laid cards,
planets and their stages, escapes) and one plane per ship, the observer's own
first; then each ship (afloat, to move, powers, cargo), the turn's counters and
the card counts of the deck, the discard pile and the cards out of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from astrarium.core.contract import Learning
from astrarium.core.errors import IllegalAction, short
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.board import DIRECTIONS, SQUARES, parse_arrows, parse_square, square_name
from astrarium.games.streamlines.cards import (
    ACTION,
    CARGO,
    CARGO_KINDS,
    GATES,
    KIND_OF_NAME,
    KINDS,
    NAMES,
    REFUGEE,
    checked_setup,
    shape_of,
)
from astrarium.games.streamlines.state import POWER_ORDER, STAGES, StreamlinesState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The planes of each square, before the ships' planes.
SQUARE_PLANES = (
    "arrow_n",
    "arrow_e",
    "arrow_s",
    "arrow_w",
    "streamline",
    *(NAMES[g] for g in sorted(GATES)),
    *(f"planet_{stage.replace(' ', '_')}" for stage in STAGES),
    "planet_turns_left",
    "escape",
)
#: The cargo cards in index order.
CARGO_ORDER = tuple(sorted(CARGO_KINDS))
#: How many of one card kind is a full count (the card-count options go up to 20; refugees and collapses to 40 and 24).
_FULL_COUNT = 20.0
#: The turn's counters, after the ships.
TURN_FEATURES = ("actions_left", "free_moves", "bonus_draw", "must_dump", "gate_stopped", "rescued", "required", "deck")


def _labels(players: int) -> list[str]:
    labels = [f"move to {square_name(sq)}" for sq in range(SQUARES)]
    labels += [f"move to {square_name(sq)} through a gate" for sq in range(SQUARES)]
    labels.append(str(act.DRAW))
    labels += [str(act.DUMPS[kind]) for kind in CARGO_ORDER]
    labels += [str(act.Lay(shape_of(mask), mask)) for mask in range(1, 15)]
    labels += [str(act.Lay(kind, 0)) for kind in sorted(GATES)]
    labels.append(str(act.DROP))
    labels += [str(act.Give(kind, seat)) for seat in range(players) for kind in CARGO_ORDER]
    labels += [str(a) for a in (act.PICKUP_ACTION, act.EXTRA_ACTION, act.ENGINEER_CW, act.ENGINEER_CCW, act.END)]
    return labels


class StreamlinesSpace:
    """Every action of a game of ``players`` ships as one index; a move by its end square and whether it jumps a gate."""

    def __init__(self, players: int) -> None:
        self.labels: tuple[str, ...] = tuple(_labels(players))
        self._by_label = {label: i for i, label in enumerate(self.labels) if i >= 2 * SQUARES}

    @property
    def size(self) -> int:
        """How many indices the space has."""
        return len(self.labels)

    def index(self, action: Any) -> int:
        """The index of ``action`` (a value or its notation); ValueError for one outside the space."""
        if isinstance(action, str):
            action = act.parse(action)
        if type(action) is act.Move:
            if act.problem(action) is not None:
                raise ValueError(f"{short(repr(action))} is outside the action space")
            return SQUARES * action.jump + action.path[-1]
        found = self._by_label.get(str(action))
        if found is None:
            raise ValueError(f"{short(str(action))!r} is outside the action space ({self.size} actions)")
        return found

    def action(self, index: int, state: StreamlinesState) -> Any:
        """The legal action of ``state`` at ``index`` (IllegalAction when it is not legal there)."""
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise IllegalAction(f"action index {short(repr(index))} is outside the action space (0 to {self.size - 1})")
        for legal in state.legal_actions():
            if self.index(legal) == index:
                return legal
        raise IllegalAction(f"action index {index} ({self.labels[index]!r}) is not legal now")


class StreamlinesEncoder:
    """The encoding of one configuration: the action space and the observation layout for ``players`` ships."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.actions = StreamlinesSpace(players)
        ship = 2 + len(POWER_ORDER) + len(CARGO_ORDER)  # afloat, to move, powers, cargo
        parts = [
            ("squares", SQUARES * (len(SQUARE_PLANES) + players)),
            ("ships", players * ship),
            ("turn", len(TURN_FEATURES)),
            ("deck_contents", KINDS),
            ("discard", KINDS),
            ("lost", KINDS),
        ]
        self.layout: dict[str, slice] = {}
        at = 0
        for name, length in parts:
            self.layout[name] = slice(at, at + length)
            at += length
        self.observation_shape: tuple[int, ...] = (at,)
        self.global_shape: tuple[int, ...] = (at + KINDS,)
        self.observation_bounds = self._bounds(options)
        self.episode_limit = episode_limit(players, options)

    def _bounds(self, options: Mapping[str, Any]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Every feature's true range, from the configuration's card counts: a ship holds at most every Power card of a
        kind and as much cargo as every Cargo card makes room for; a pile at most every card of a kind."""
        import numpy as np

        _, counts = checked_setup(self.players, options)
        total = sum(counts)
        powers = [counts[KIND_OF_NAME[name]] / 10.0 for name in POWER_ORDER]
        cargo = [min(counts[kind], counts[CARGO]) / 4.0 for kind in CARGO_ORDER]
        piles = [n / _FULL_COUNT for n in counts]
        high = np.concatenate(
            [
                np.ones(self.layout["squares"].stop, np.float32),
                np.tile(np.array([1.0, 1.0, *powers, *cargo], np.float32), self.players),
                # actions left, free moves (each from a card), three flags, rescued / required, required / 40, deck / 100
                np.array([counts[ACTION] / 10.0, total / 10.0, 1.0, 1.0, 1.0, counts[REFUGEE], counts[REFUGEE] / 40.0, total / 100.0]),
                np.tile(np.array(piles, np.float32), 3),
            ]
        ).astype(np.float32)
        return np.zeros_like(high), high

    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation, from its view alone."""
        import numpy as np

        out = np.zeros(self.observation_shape, dtype=np.float32)
        planes = len(SQUARE_PLANES) + self.players
        board = np.zeros((SQUARES, planes), dtype=np.float32)
        for name, text in view["streamlines"].items():
            sq = parse_square(name)
            kind, _, arrows = text.partition(" ")
            if arrows:
                mask = parse_arrows(arrows)
                board[sq, :4] = [float(bool(mask & d)) for d in DIRECTIONS]
                board[sq, 4] = 1.0
            else:
                board[sq, 5 + sorted(GATES).index(KIND_OF_NAME[kind])] = 1.0
        stage_at = 5 + len(GATES)
        for planet in view["planets"]:
            sq = parse_square(planet["square"])
            board[sq, stage_at + STAGES.index(planet["stage"])] = 1.0
            left = planet["turns_left"]
            board[sq, stage_at + len(STAGES)] = 0.0 if left is None else left / (self.players + 1)
        for name in view["escapes"]:
            board[parse_square(name), len(SQUARE_PLANES) - 1] = 1.0
        ships = view["ships"]
        rows = []
        for k in range(self.players):
            who = (seat + k) % self.players
            ship = ships[who]
            if ship["square"] is not None:
                board[parse_square(ship["square"]), len(SQUARE_PLANES) + k] = 1.0
            powers = [ship["powers"].get(name, 0) / 10.0 for name in POWER_ORDER]
            cargo = [ship["cargo"].count(NAMES[kind]) / 4.0 for kind in CARGO_ORDER]
            rows += [float(ship["square"] is not None), float(view["turn"] == who), *powers, *cargo]
        out[self.layout["squares"]] = board.reshape(-1)
        out[self.layout["ships"]] = rows
        required = max(int(view["required"]), 1)
        out[self.layout["turn"]] = [
            max(view["actions_left"], 0) / 10.0,  # a lost ship's count may fall below 0
            view["free_moves"] / 10.0,
            float(view["bonus_draw"]),
            float(view["must_dump"]),
            float(view["gate_stopped"]),
            view["rescued"] / required,
            required / 40.0,
            view["deck"] / 100.0,
        ]
        for part in ("deck_contents", "discard", "lost"):
            out[self.layout[part]] = _counts(view[part])
        return out

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """Seat 0's observation and the next card of the deck (one-hot; none when the deck is empty)."""
        import numpy as np

        order = full_view.get("deck_order", [])
        top = [0.0] * KINDS
        if order:
            top[KIND_OF_NAME[order[-1]]] = 1.0
        return np.concatenate([self.observe(full_view, 0), np.asarray(top, dtype=np.float32)])


def _counts(counts: Mapping[str, int]) -> list[float]:
    row = [0.0] * KINDS
    for name, n in counts.items():
        row[KIND_OF_NAME[name]] = n / _FULL_COUNT
    return row


def episode_limit(players: int, options: Mapping[str, Any]) -> int:
    """The actions after which the learning environments truncate an episode: a limit, not a bound.

    The true bound (``max_moves``, rules.md "Why every game ends") multiplies the turns the Clock may take by every
    action a turn could hold, and no game comes near it. The limit is two of that argument's windows of turns (within
    one window of 2N + players + 3 turns some planet must move on a stage), each turn holding a ship's share of the
    Action cards and two more (a free action, ``end``). It grows with the deck and the Action cards as the games do;
    docs/learning.md ("The bound on a game's length") sets it beside the lengths of played games.
    """
    _, counts = checked_setup(players, options)
    return 2 * (2 * sum(counts) + players + 3) * (counts[ACTION] // players + 2)


def encoder(players: int, options: Mapping[str, Any]) -> StreamlinesEncoder:
    """The encoder for ``players`` ships (the options change nothing in the shapes: the board is always 9 x 9)."""
    return StreamlinesEncoder(players, options)


def is_out(state: StreamlinesState, seat: int) -> bool:
    """A lost ship (flown into or swallowed by a black hole) is out: its turns pass and it never comes back."""
    return state.pos[seat] < 0


LEARNING = Learning(encoder=encoder, is_out=is_out)
