"""Connected Worlds for learning agents: a fixed index for every choice, and the observation of one seat.

**Actions.** A whole move, portal or deployment (``move CARD HEX PIECE``,
``connect CARD HEX HEX``, ``deploy CARD HEX``) is one of thousands, so the
encoding needs the option ``choices = steps``, under which the game itself
offers them a part at a time (``move CARD``, ``at HEX``, ``piece PIECE``); an
index is then a function of the action alone, and the games reachable are the
same as with whole actions. The space is the notation of every choice
(:class:`~astrarium.core.learning.NotationSpace`), in this order: ``found HEX``
for each world hex; ``step HEX`` for each hex; ``stop``, ``end``; for each card
of the table in its order, ``gather CARD``, ``research CARD BUY`` and
``build CARD BUY`` for each card it may buy, and the heads ``move CARD``,
``connect CARD``, ``deploy CARD`` it may be played for; ``at HEX`` for each hex;
``piece base`` and ``piece u1`` up to the strongest unit of the card table and
the scenario. Hexes are in the map's order (``Board.cell_names``). The encoder
also says which whole actions the parts offered can still make
(``whole_actions``) and the parts of one (``parts``), so a player of whole
actions (the scripted players, through ``agents.base.WholeChoices``) plays its
choice a part at a time.

**Observation.** A flat vector from ``view(seat)`` alone (the map and card
table are the configuration's, public): every hex (its board, the base and its
owner, each seat's units and territory, portals, the moving piece, hexes chosen
so far), the seat's own hand and the card being chosen for, the cards played
this turn, each seat's public counts (resources, deck, hand, discard pile by
card, cards known to be in its hand), who moves, the round's order of play,
the phase, the round and the victory mode. Seats are relative: the observer
first, then the others in seat order. The order of play is one-hot, like who
moves (a place is a rank, not a quantity): for each seat its place in this
round's order (the view's ``order``; without it, under ``turn_order = fixed``,
seat order), then for each seat whether its turn this round is past (it comes
before the seat to move in that order: it has played, or was passed over as
out). The global tensor adds every hand and every deck by card.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from astrarium.core.contract import Learning
from astrarium.core.errors import ContractError
from astrarium.core.learning import NotationSpace, Segments
from astrarium.games.connected_worlds.actions import HEAD_VERBS, piece_word, split
from astrarium.games.connected_worlds.data import Board, CardTable, Special, load_cards, load_map
from astrarium.games.connected_worlds.scenario import load_scenario
from astrarium.games.connected_worlds.state import FOUND, MAIN, PHASE_NAMES, ConnectedWorldsState, Victory

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: An observation's buffer: a ``memoryview`` of float32 written a float at a time (typeshed types a memoryview's
#: items as whole numbers, whatever its format, so it is declared loosely here).
Cells = Any

#: The numbers of each hex besides the seats' planes: its board, its base's strength, engaged and held units,
#: portal ends, the moving piece, a hex chosen for the pending action.
HEX_FEATURES = ("space", "world", "over_world", "base_strength", "engaged", "held", "portals", "moving", "chosen")
#: The numbers of each seat besides its discard pile and known cards.
SEAT_FEATURES = ("resources", "deck", "hand", "deployed", "bought", "territory", "worlds", "has_pieces")
#: Scales that keep the counts near 0 to 1 (a count past its scale is kept, not cut).
_STRENGTH, _CARDS, _RESOURCES, _DECK, _PORTALS = 10.0, 5.0, 20.0, 20.0, 3.0
_VICTORIES = tuple(v.value for v in Victory)
_GAME_ID = "connected-worlds"


def _labels(board: Board, cards: CardTable, strongest: int) -> list[str]:
    names = board.cell_names
    labels = [f"found {names[c]}" for c in range(board.size) if board.board_of[c]]
    labels += [f"step {name}" for name in names]
    labels += ["stop", "end"]
    for card in cards.cards:
        labels += _card_labels(card, cards)
    labels += [f"at {name}" for name in names]
    labels += [f"piece {piece_word(s)}" for s in range(strongest + 1)]
    return labels


def _card_labels(card: Any, cards: CardTable) -> list[str]:
    """Every choice that plays ``card``: its special (gather, and a buy of each card it may buy), then its heads."""
    if card.is_unit:
        return [f"deploy {card.slug}"]
    out: list[str] = []
    if card.special is Special.GATHER_RESOURCES:
        out.append(f"gather {card.slug}")
    elif card.special in (Special.RESEARCH, Special.BUILD_UNITS):
        verb, units = ("build", True) if card.special is Special.BUILD_UNITS else ("research", False)
        out += [f"{verb} {card.slug} {c.slug}" for c in cards.cards if c.is_unit == units]
    if card.movement:
        out.append(f"move {card.slug}")
    if card.special is Special.CONNECT_BASES:
        out.append(f"connect {card.slug}")
    return out


class ConnectedWorldsEncoder:
    """The encoding of one configuration: a map for the player count, a card table, and the options that shape them."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        if options.get("choices") != "steps":
            raise ContractError(
                _GAME_ID,
                "learning",
                "the action space needs the option choices=steps (a move, portal or deployment chosen a part at a time; "
                "the same game): pass options={'choices': 'steps'}",
            )
        self.players = players
        self.board = board = load_map(options["map"], players)
        self.cards = cards = load_cards(options["cards"])
        self.card_at = {c.slug: i for i, c in enumerate(cards.cards)}
        self.hand_size = float(options["hand_size"])
        self.worlds_needed = float(options["worlds_needed"])
        self.movement = float(max((c.movement for c in cards.cards), default=1) or 1)
        strongest = max((c.strength for c in cards.cards if c.is_unit), default=1)
        if options["scenario"] is not None:
            scenario = load_scenario(options["scenario"], board, cards, players, options["hand_size"])
            strongest = max([strongest, *(strength for _, _, strength in scenario.units)])
        self.actions = NotationSpace(_labels(board, cards, strongest))
        n, v, p = board.size, len(cards.cards), players
        self.hex_planes = len(HEX_FEATURES) + 3 * p  # the features, then base owner, units' strength, territory by seat
        self.segments = Segments(
            [
                ("hexes", n * self.hex_planes),
                ("hand", v),
                ("pending", len(HEAD_VERBS) + v + 2),
                ("moving", 2),
                ("played", v),
                ("seats", p * (len(SEAT_FEATURES) + 2 * v)),
                ("to_move", p),
                ("order", p * p),
                ("has_played", p),
                ("phase", len(PHASE_NAMES)),
                ("round", 2),
                ("victory", len(_VICTORIES) + 1),
            ]
        )
        self.observation_shape: tuple[int, ...] = (self.segments.size,)
        self.global_shape: tuple[int, ...] = (self.segments.size + 2 * p * v,)
        self._place()

    def whole_actions(self, state: ConnectedWorldsState) -> list[Any] | None:
        """The whole actions the seat to move may still make where its choice is split into parts (None: it is not split).

        Before a part is chosen, the main phase's whole actions (a move, portal or deployment whole, beside the actions
        that are never split); once some are, the whole actions that begin with them. The setup and a piece's movement
        steps are chosen whole anyway (None).
        """
        if not state.steps or state.phase != MAIN or state.is_over:
            return None
        seat, pending = state.turn, state.pending
        if not pending:
            return state._card_actions(seat)
        return [a for a in state._whole_of(seat, pending[0], pending[1]) if tuple(str(a).split()[: len(pending)]) == pending]

    def parts(self, action: Any) -> list[str]:
        """The notations of the parts ``action`` is chosen in, in order (an action that is not split: its own)."""
        return [str(part) for part in split(action)]

    def _relative(self, owner: Any, seat: int) -> int:
        return (int(owner) - seat) % self.players

    def _place(self) -> None:
        """Where every feature lies in the flat observation, worked out once for the configuration.

        A hex's features are found by its name (the view's words) as the offset of its row; the map's own planes
        (space, world, over a world) never change, so they are kept as a template each observation starts from.
        """
        board, p, planes, v = self.board, self.players, self.hex_planes, len(self.cards.cards)
        at = {name: self.segments.slice(name).start for name, _ in self.segments.parts}
        first, names = at["hexes"], board.cell_names
        self._row = {names[c]: first + c * planes for c in range(board.size)}
        owner_at, territory_at = len(HEX_FEATURES), len(HEX_FEATURES) + 2 * p
        # A base of the seat ``rel`` places after the observer: its owner's plane on its hex, its territory around it.
        self._base_ones = [
            {
                names[c]: (first + c * planes + owner_at + rel, *(first + t * planes + territory_at + rel for t in board.territory[c]))
                for c in range(board.size)
            }
            for rel in range(p)
        ]
        self._map_planes = [first + c * planes + (0 if board.board_of[c] == 0 else 1) for c in range(board.size)]
        self._map_planes += [first + c * planes + 2 for c in range(board.size) if board.world_below[c] != 0]
        self._template: npt.NDArray[np.float32] | None = None  # numpy is imported only once an observation is asked for
        self._hand, self._played, self._moving = at["hand"], at["played"], at["moving"]
        verbs = at["pending"]
        self._verb = {verb: verbs + i for i, verb in enumerate(HEAD_VERBS)}
        self._pending_card, self._next_part = verbs + len(HEAD_VERBS), verbs + len(HEAD_VERBS) + v
        self._to_move, self._round, self._victory = at["to_move"], at["round"], at["victory"]
        # The segments order and has_played lie together: one slice written from a block per observer, seat to move and
        # order (at most players x players x players! of them), each worked out the first time it is seen.
        self._order, self._order_end = at["order"], at["has_played"] + p
        self._seat_order: tuple[int, ...] = tuple(range(p))
        self._order_blocks: dict[tuple[int, ...], memoryview] = {}
        self._phase = {name: at["phase"] + i for i, name in enumerate(PHASE_NAMES)}
        self._victory_mode = {name: at["victory"] + i for i, name in enumerate(_VICTORIES)}
        # Each seat's row, the observer's first: where its features, its discard pile and its known cards begin.
        row, features = len(SEAT_FEATURES) + 2 * v, len(SEAT_FEATURES)
        self._seat_rows = [(at["seats"] + k * row, at["seats"] + k * row + features) for k in range(p)]
        # A unit's strength as the float32 number its hex's sum adds, by strength.
        self._strength: dict[int, float] = {}

    def _blank(self) -> npt.NDArray[np.float32]:
        """A new observation holding only the map's planes."""
        if self._template is None:
            template = self.segments.zeros()
            template[self._map_planes] = 1.0
            self._template = template
        return self._template.copy()

    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation, from its view alone.

        Each feature is written in place through the array's buffer (a ``memoryview`` of float32, which rounds
        a number as numpy's assignment does); sums over a hex's pieces add float32 numbers, as a float32 array does.
        """
        out = self._blank()
        cells = out.data
        self._hexes(view, seat, cells)
        self._cards(view, seat, cells)
        self._seats(view, seat, cells)
        self._turn(view, seat, cells)
        return out

    def _hexes(self, view: Mapping[str, Any], seat: int, out: Cells) -> None:
        """Every hex's :data:`HEX_FEATURES`, then the base's owner, the units' strength and the territory of each seat."""
        row, base_ones, p = self._row, self._base_ones, self.players
        units_at = len(HEX_FEATURES) + p
        for name, owner, strength in view["bases"]:
            out[row[name] + 3] = strength / _STRENGTH
            for i in base_ones[(owner - seat) % p][name]:
                out[i] = 1.0
        for name, owner, strength, engaged in view["units"]:
            c = row[name]
            out[c + units_at + (owner - seat) % p] += self._strength.get(strength) or self._addend(strength)
            if engaged:
                out[c + 4] = 1.0
        for held in view["held"]:
            out[row[held[0]] + 5] = 1.0
        for name in view["held_bases"]:
            out[row[name] + 5] = 1.0
        for a, b in view["portals"]:
            out[row[a] + 6] += _PORTAL_END
            out[row[b] + 6] += _PORTAL_END
        if view["moving"] is not None:
            out[row[view["moving"]["at"]] + 7] = 1.0
        pending = view.get("pending")
        if pending:
            for name in pending["chosen"]:
                out[row[name] + 8] = 1.0

    def _addend(self, strength: int) -> float:
        """A unit's strength over its scale, rounded to float32 (so that adding it on a float32 buffer is float32 addition)."""
        self._strength[strength] = found = _float32(strength / _STRENGTH)
        return found

    def _cards(self, view: Mapping[str, Any], seat: int, out: Cells) -> None:
        """The seat's hand, the moving piece and the cards played this turn."""
        _tally(view["players"][seat].get("hand", ()), self._hand, self.card_at, out)
        _tally(view["played"], self._played, self.card_at, out)
        moving = view["moving"]
        if moving is not None:
            out[self._moving] = float(moving["piece"] == "base")
            out[self._moving + 1] = moving["movement_left"] / self.movement

    def _seats(self, view: Mapping[str, Any], seat: int, out: Cells) -> None:
        """Each seat's public counts, the observer first: :data:`SEAT_FEATURES`, its discard pile, its known cards."""
        pieces = {b[1] for b in view["bases"]} | {u[1] for u in view["units"]}
        cells, card_at, v, p = float(self.board.size), self.card_at, len(self.cards.cards), self.players
        rows = view["players"]
        for k, (first, discard) in enumerate(self._seat_rows):
            who = (seat + k) % p
            row = rows[who]
            out[first : first + len(SEAT_FEATURES)] = _floats(
                row["resources"] / _RESOURCES,
                row["deck"] / _DECK,
                row["hand_size"] / self.hand_size,
                row["deployed"] / _STRENGTH,
                row["bought"] / _STRENGTH,
                row["territory"] / cells,
                len(row["worlds"]) / self.worlds_needed,
                float(who in pieces),
            )
            for slug, count in row["discard"].items():
                out[discard + card_at[slug]] = count / _CARDS
            if row["known_in_hand"]:
                _tally(row["known_in_hand"], discard + v, card_at, out)

    def _turn(self, view: Mapping[str, Any], seat: int, out: Cells) -> None:
        """The action being chosen, who moves, the round's order of play, the phase, the round and the victory mode."""
        pending = view.get("pending")
        if pending:
            out[self._verb[pending["verb"]]] = 1.0
            out[self._pending_card + self.card_at[pending["card"]]] = 1.0
            out[self._next_part + (pending["next"] == "piece")] = 1.0
        turn = view["turn"]
        out[self._to_move + (turn - seat) % self.players] = 1.0
        key = (seat, turn, *view.get("order", self._seat_order))
        block = self._order_blocks.get(key)
        out[self._order : self._order_end] = block if block is not None else self._order_block(key)
        out[self._phase[view["phase"]]] = 1.0
        limit = max(int(view["round_limit"]), 1)
        out[self._round] = view["round"] / limit
        out[self._round + 1] = (limit - view["round"]) / limit
        out[self._victory_mode[view["victory"]]] = 1.0
        out[self._victory + len(_VICTORIES)] = view["worlds_needed"] / 8.0

    def _order_block(self, key: tuple[int, ...]) -> memoryview:
        """The segments order and has_played for ``key`` (the observer, the seat to move, then the round's order)."""
        seat, turn, *order = key
        p = self.players
        block = [0.0] * (p * p + p)
        past = order.index(turn)
        for place, who in enumerate(order):
            rel = (who - seat) % p
            block[rel * p + place] = 1.0
            if place < past:
                block[p * p + rel] = 1.0
        self._order_blocks[key] = found = _floats(*block)
        return found

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """Seat 0's observation, then every seat's hand and deck by card (the deck's order left out)."""
        import numpy as np

        v, rows = len(self.cards.cards), full_view["players"]
        extra = np.zeros(2 * len(rows) * v, dtype=np.float32)
        cells = extra.data
        for k, row in enumerate(rows):
            _tally(row["hand"], k * v, self.card_at, cells)
            _tally(row["deck_order"], (len(rows) + k) * v, self.card_at, cells)
        return np.concatenate([self.observe(full_view, 0), extra])


def _tally(slugs: Sequence[str], first: int, card_at: Mapping[str, int], out: Cells) -> None:
    """Each card of ``slugs`` counted at ``first`` plus its place in the card table, as a count over five cards."""
    counts: dict[int, int] = {}
    for slug in slugs:
        i = first + card_at[slug]
        counts[i] = counts.get(i, 0) + 1
    for i, n in counts.items():
        out[i] = n / _CARDS


def _float32(number: float) -> float:
    """``number`` rounded to the nearest float32."""
    return struct.unpack("f", struct.pack("f", number))[0]  # type: ignore[no-any-return]


_PORTAL_END = _float32(1.0 / _PORTALS)


def _floats(*numbers: float) -> memoryview:
    """``numbers`` as a buffer of float32 (rounded to nearest, as numpy's assignment rounds), for a slice write."""
    return memoryview(array("f", numbers))


def encoder(players: int, options: Mapping[str, Any]) -> ConnectedWorldsEncoder:
    """The encoder for ``players`` seats and the resolved ``options`` (the map, the card table and a scenario shape it)."""
    return ConnectedWorldsEncoder(players, options)


def is_out(state: ConnectedWorldsState, seat: int) -> bool:
    """With ``elimination`` on, a player left without a base or a unit once every first base is founded takes no more turns."""
    return state.elimination and state.phase != FOUND and not state.has_pieces(seat)


LEARNING = Learning(encoder=encoder, is_out=is_out)
