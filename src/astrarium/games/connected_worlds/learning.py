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
card, cards known to be in its hand), who moves, the phase, the round and the
victory mode. Seats are relative: the observer first, then the others in turn
order. The global tensor adds every hand and every deck by card.
"""

from __future__ import annotations

from collections import Counter
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
                ("phase", len(PHASE_NAMES)),
                ("round", 2),
                ("victory", len(_VICTORIES) + 1),
            ]
        )
        self.observation_shape: tuple[int, ...] = (self.segments.size,)
        self.global_shape: tuple[int, ...] = (self.segments.size + 2 * p * v,)

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

    def _counts(self, slugs: Sequence[str] | Mapping[str, int]) -> list[float]:
        row = [0.0] * len(self.cards.cards)
        items = slugs.items() if isinstance(slugs, Mapping) else Counter(slugs).items()
        for slug, count in items:
            row[self.card_at[slug]] = count / _CARDS
        return row

    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation, from its view alone."""
        out = self.segments.zeros()
        seg = self.segments.slice
        out[seg("hexes")] = self._hexes(view, seat).reshape(-1)
        me = view["players"][seat]
        out[seg("hand")] = self._counts(me.get("hand", ()))
        out[seg("pending")] = self._pending(view.get("pending"))
        moving = view["moving"]
        if moving is not None:
            out[seg("moving")] = [float(moving["piece"] == "base"), moving["movement_left"] / self.movement]
        out[seg("played")] = self._counts(view["played"])
        out[seg("seats")] = self._seats(view, seat)
        out[seg("to_move")] = _one_hot(self._relative(view["turn"], seat), self.players)
        out[seg("phase")] = _one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        limit = max(int(view["round_limit"]), 1)
        out[seg("round")] = [view["round"] / limit, (limit - view["round"]) / limit]
        out[seg("victory")] = [*_one_hot(_VICTORIES.index(view["victory"]), len(_VICTORIES)), view["worlds_needed"] / 8.0]
        return out

    def _hexes(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """Every hex as :data:`HEX_FEATURES`, then the base's owner, the units' strength and the territory of each seat."""
        import numpy as np

        board, ids, p = self.board, self.board.cell_ids, self.players
        grid = np.zeros((board.size, self.hex_planes), dtype=np.float32)
        owner_at, units_at, terr_at = len(HEX_FEATURES), len(HEX_FEATURES) + p, len(HEX_FEATURES) + 2 * p
        for c in range(board.size):
            grid[c, 0 if board.board_of[c] == 0 else 1] = 1.0
            grid[c, 2] = float(board.world_below[c] != 0)
        for name, owner, strength in view["bases"]:
            c, rel = ids[name], self._relative(owner, seat)
            grid[c, 3] = strength / _STRENGTH
            grid[c, owner_at + rel] = 1.0
            for t in board.territory[c]:
                grid[t, terr_at + rel] = 1.0
        for name, owner, strength, engaged in view["units"]:
            c = ids[name]
            grid[c, units_at + self._relative(owner, seat)] += strength / _STRENGTH
            grid[c, 4] = max(grid[c, 4], float(engaged))
        for name, _owner, _strength in view["held"]:
            grid[ids[name], 5] = 1.0
        for name in view["held_bases"]:
            grid[ids[name], 5] = 1.0
        for a, b in view["portals"]:
            grid[ids[a], 6] += 1.0 / _PORTALS
            grid[ids[b], 6] += 1.0 / _PORTALS
        if view["moving"] is not None:
            grid[ids[view["moving"]["at"]], 7] = 1.0
        pending = view.get("pending")
        for name in pending["chosen"] if pending else ():
            grid[ids[name], 8] = 1.0
        return grid

    def _pending(self, pending: Mapping[str, Any] | None) -> list[float]:
        """The action being chosen: its verb, its card, and whether a hex or the piece comes next (all zeros: none)."""
        verbs, v = tuple(HEAD_VERBS), len(self.cards.cards)
        if not pending:
            return [0.0] * (len(verbs) + v + 2)
        card = _one_hot(self.card_at[pending["card"]], v)
        return [*_one_hot(verbs.index(pending["verb"]), len(verbs)), *card, *_one_hot(pending["next"] == "piece", 2)]

    def _seats(self, view: Mapping[str, Any], seat: int) -> list[float]:
        """Each seat's public counts, the observer first: :data:`SEAT_FEATURES`, its discard pile, its known cards."""
        pieces = {b[1] for b in view["bases"]} | {u[1] for u in view["units"]}
        cells = float(self.board.size)
        out: list[float] = []
        for k in range(self.players):
            who = (seat + k) % self.players
            row = view["players"][who]
            out += [
                row["resources"] / _RESOURCES,
                row["deck"] / _DECK,
                row["hand_size"] / self.hand_size,
                row["deployed"] / _STRENGTH,
                row["bought"] / _STRENGTH,
                row["territory"] / cells,
                len(row["worlds"]) / self.worlds_needed,
                float(who in pieces),
            ]
            out += self._counts(row["discard"])
            out += self._counts(row["known_in_hand"])
        return out

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """Seat 0's observation, then every seat's hand and deck by card (the deck's order left out)."""
        import numpy as np

        extra: list[float] = []
        for row in full_view["players"]:
            extra += self._counts(row["hand"])
        for row in full_view["players"]:
            extra += self._counts(row["deck_order"])
        return np.concatenate([self.observe(full_view, 0), np.asarray(extra, dtype=np.float32)])


def _one_hot(i: int, n: int) -> list[float]:
    row = [0.0] * n
    row[int(i)] = 1.0
    return row


def encoder(players: int, options: Mapping[str, Any]) -> ConnectedWorldsEncoder:
    """The encoder for ``players`` seats and the resolved ``options`` (the map, the card table and a scenario shape it)."""
    return ConnectedWorldsEncoder(players, options)


def is_out(state: ConnectedWorldsState, seat: int) -> bool:
    """With ``elimination`` on, a player left without a base or a unit once every first base is founded takes no more turns."""
    return state.elimination and state.phase != FOUND and not state.has_pieces(seat)


LEARNING = Learning(encoder=encoder, is_out=is_out)
