"""The position and the rules of Connected Worlds.

The state is flat data indexed by cell id (see :mod:`.data`): ``bases`` maps a
cell to ``(owner, strength)``, ``units`` is a sorted list of
``(cell, owner, strength, engaged)`` tuples (engaged: FREE, ENGAGED or HELD), portals are sorted cell pairs, and
each player's cards are lists of card indices (a deck's top card is its last).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from typing import Any, Final

from astrarium.core import IllegalAction, Outcome, Rng, State
from astrarium.core.errors import short
from astrarium.games.connected_worlds import actions as A
from astrarium.games.connected_worlds.combat import BaseFate, resolve
from astrarium.games.connected_worlds.data import (
    Board,
    Card,
    CardTable,
    Special,
    boards_json,
    cards_json,
    load_cards,
    load_map,
    public_data,
)
from astrarium.games.connected_worlds.scenario import load_scenario

FOUND, MAIN, MOVING = 0, 1, 2  # phases: setup (found a base), playing cards, a piece is moving
# A unit's last field: free to move, engaged (entered or was deployed onto enemy pieces: it fights at the end of
# the turn), or held (landed on a beachhead, or deployed with ``deploy_moves`` off: it may not move until next turn).
FREE, ENGAGED, HELD = 0, 1, 2


class Victory(Enum):
    """The three winning conditions of the seed (option ``victory``)."""

    EXPANSION = "expansion"
    CAPTURE = "capture"
    ANNIHILATION = "annihilation"


PHASE_NAMES = ("setup", "main", "moving")

#: Card kinds in the legal-action tables (``_CardInfo.kind``): unit cards, and the specials of action cards (Research and
#: Build Units differ only in what they may buy, ``_CardInfo.buys``).
K_UNIT: Final = 0
K_GATHER: Final = 1
K_BUY: Final = 2
K_CONNECT: Final = 3
_KINDS: Final = {
    Special.GATHER_RESOURCES: K_GATHER,
    Special.RESEARCH: K_BUY,
    Special.BUILD_UNITS: K_BUY,
    Special.CONNECT_BASES: K_CONNECT,
}
#: A piece as one number, ``cell * PIECE_SLOTS + strength`` (0: the base): orders as the pair (cell, strength), since a
#: strength is below PIECE_SLOTS (at most MAX_STRENGTH; combat never raises one).
PIECE_SLOTS: Final = 128
#: The action classes and fixed actions, as names of this module (``Final``: a compiled build keeps them in C variables
#: instead of looking them up in the actions module on every use).
FOUND_ACTION: Final = A.Found
STEP_ACTION: Final = A.Step
STOP_ACTION: Final = A.Stop
END_ACTION: Final = A.EndTurn
DEPLOY_ACTION: Final = A.Deploy
MOVE_ACTION: Final = A.Move
GATHER_ACTION: Final = A.Gather
RESEARCH_ACTION: Final = A.Research
BUILD_ACTION: Final = A.Build
CONNECT_ACTION: Final = A.Connect
HEAD_ACTION: Final = A.Head
AT_ACTION: Final = A.At
PIECE_ACTION: Final = A.Piece
STOP: Final = A.STOP
END: Final = A.END
EXPANSION: Final = Victory.EXPANSION
CAPTURE: Final = Victory.CAPTURE
ANNIHILATION: Final = Victory.ANNIHILATION


class _CardInfo:
    """What the legal-action list needs of one card type, and the actions that play it (made once, then shared).

    Plain typed fields: a compiled build reads them directly, where a ``Card`` (a dataclass of the interpreted data
    module) is read through Python attribute look-ups. Actions are made on first use and kept: building a frozen
    dataclass costs far more than a list or dict look-up.
    """

    def __init__(self, card: Card, cards: CardTable, names: tuple[str, ...]) -> None:
        self.slug: str = card.slug
        self.names = names
        self.is_unit: bool = card.is_unit
        self.is_base: bool = card.is_base
        self.movement: int = card.movement
        special = card.special
        self.kind: int = K_UNIT if card.is_unit or special is None else _KINDS[special]
        #: deploy[cell]: "deploy <card> <cell>" (unit cards), made on first use.
        self.deploy: list[Any] = [None] * len(names) if card.is_unit else []
        #: moves[cell][strength]: "move <card> <cell> <piece>" (strength 0: the base), rows made on first use; indexed
        #: by plain numbers, which a compiled build does not turn into Python ints as it would for dictionary keys.
        self.moves: list[list[Any]] = [[] for _ in names] if card.movement else []
        #: connects[a * cells + b]: "connect <card> <a> <b>", made on first use.
        self.connects: dict[int, Any] = {}
        self.gather: Any = A.Gather(card.slug) if self.kind == K_GATHER else None
        #: ``choices = steps``: the head of each kind of action this card is played for ("move harvester", ...).
        self.heads: dict[str, Any] = {verb: A.Head(verb, card.slug) for verb in A.HEAD_VERBS}
        #: Research / Build Units: the cards it may buy, in table order, with their costs.
        self.buy_costs: list[int] = []
        self.buys: list[Any] = []
        if self.kind == K_BUY:
            want_unit = special is Special.BUILD_UNITS
            cls = A.Build if want_unit else A.Research
            for c in cards.cards:
                if c.is_unit == want_unit:
                    self.buy_costs.append(c.cost)
                    self.buys.append(cls(card.slug, c.slug))

    def deploy_at(self, cell: int) -> Any:
        action = self.deploy[cell]
        if action is None:
            action = self.deploy[cell] = DEPLOY_ACTION(self.slug, self.names[cell])
        return action

    def move(self, piece: int) -> Any:
        """The action that plays this card as movement for ``piece`` (``cell * PIECE_SLOTS + strength``)."""
        cell = piece // PIECE_SLOTS
        strength = piece % PIECE_SLOTS
        row = self.moves[cell]
        if strength >= len(row):
            row.extend([None] * (strength + 1 - len(row)))
        action = row[strength]
        if action is None:
            action = row[strength] = MOVE_ACTION(self.slug, self.names[cell], strength)
        return action

    def connect(self, a: int, b: int) -> Any:
        key = a * len(self.names) + b
        action = self.connects.get(key)
        if action is None:
            action = self.connects[key] = CONNECT_ACTION(self.slug, self.names[a], self.names[b])
        return action


class _Tables:
    """One map and card table as the rules read them on every step: typed lists by cell id, and every action made once.

    A compiled build reads these fields and lists directly; the ``Board`` and ``Card`` dataclasses of the data module
    are interpreted classes, read through Python attribute look-ups.
    """

    def __init__(self, board: Board, cards: CardTable) -> None:
        self.board = board
        self.cards = cards
        names = board.cell_names
        self.board_of: list[int] = list(board.board_of)
        self.neighbours: list[tuple[int, ...]] = list(board.neighbours)
        self.territory: list[tuple[int, ...]] = list(board.territory)
        self.world_below: list[int] = list(board.world_below)
        self.space_cell: list[int] = [w.space_cell for w in board.worlds]  # by world k - 1
        self.world_cells: list[tuple[int, ...]] = [w.cells for w in board.worlds]
        back: list[set[int]] = [set() for _ in range(board.size)]
        for cell, around in enumerate(self.neighbours):
            for nxt in around:
                back[nxt].add(cell)
        #: The hexes a step to a neighbour reaches each hex from, by increasing hex (the map's part of ``step_sources``).
        self.neighbours_back: dict[int, tuple[int, ...]] = {c: tuple(sorted(b)) for c, b in enumerate(back) if b}
        #: The hexes in space above a world, with that world's number (where a piece may land from).
        self.landing_from: list[tuple[int, int]] = [(c, w) for c, w in enumerate(self.world_below) if w and not self.board_of[c]]
        self.found: list[Any] = [FOUND_ACTION(name) for name in names]
        self.step: list[Any] = [STEP_ACTION(name) for name in names]
        self.at: list[Any] = [AT_ACTION(name) for name in names]
        #: ``choices = steps``: "piece base" and "piece u<strength>", by strength (0: the base), made on first use.
        self.pieces: dict[int, Any] = {}
        self.info: list[_CardInfo] = [_CardInfo(card, cards, names) for card in cards.cards]


# One table per (map, card table). Each entry holds its map and card table, so their ids cannot be reused by other
# objects while it lives; the oldest entries are dropped once there are many (designers' files are re-read when
# edited, so new maps and tables keep coming in a long-running process).
_TABLES: dict[tuple[int, int], _Tables] = {}
_MAX_TABLES = 64


def _tables_for(board: Board, cards: CardTable) -> _Tables:
    key = (id(board), id(cards))
    entry = _TABLES.get(key)
    if entry is None or entry.board is not board or entry.cards is not cards:
        while len(_TABLES) >= _MAX_TABLES:
            del _TABLES[next(iter(_TABLES))]
        entry = _TABLES[key] = _Tables(board, cards)
    return entry


class ConnectedWorldsState(State):
    board: Board
    cards: CardTable
    #: The heuristic values of every seat and the move number they were computed at (``evaluate.evaluate``'s cache);
    #: a declared field, since a compiled state has no ``__dict__`` to keep it in.
    _values: tuple[int, list[float]] | None

    # -- setup ------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        self.board = board = load_map(o["map"], self.players)
        self.cards = cards = load_cards(o["cards"])
        self._tables = _tables_for(board, cards)
        self.hand_size: int = o["hand_size"]
        self.round_limit: int = o["round_limit"]
        self.victory = Victory(o["victory"])
        self.on_entry: bool = o["combat"] == "on-entry"
        self.landing_free: bool = o["landing"] == "territory-or-any"
        self.beachhead: bool = o["landing"] == "beachhead"
        self.launch_anywhere: bool = o["launch"] == "anywhere"
        self.worlds_needed: int = o["worlds_needed"]
        self.gather_needs_base: bool = o["gather"] == "base"
        self.elimination: bool = o["elimination"]
        self.deploy_moves: bool = o["deploy_moves"]
        # With choices = "steps": a move, portal or deployment is chosen a part at a time; ``pending`` holds the words
        # of the whole notation chosen so far (verb, card, hexes), its card held aside from the hand (a tuple).
        self.steps: bool = o["choices"] == "steps"
        self.pending: tuple[str, ...] = ()
        self.answered: bool = o["victory_check"] == "answered"
        # With victory_check = "answered": the seat that met the victory condition at the end of a turn and the seats
        # that have still to take a turn before it wins (a tuple, never mutated in place).
        self.claim: tuple[int, tuple[int, ...]] | None = None
        # With tiebreak = "own-turn": each player's tie-break figures at the end of their own turn in the last round
        # (None until then); a tuple, never mutated in place.
        self.own_turn_tiebreak: bool = o["tiebreak"] == "own-turn"
        # The seats in the order they play this round (option turn_order: "fixed", seat 0 first; "rotating", round r
        # begins with seat (r - 1) mod players; "drawn", at random), set as each round begins; a tuple, never mutated.
        self.turn_order: str = o["turn_order"]
        self.order: tuple[int, ...] = tuple(range(self.players))
        self.final_keys: tuple[tuple[int, int, int] | None, ...] = (None,) * self.players
        start = cards.starting_deck
        if board.deck is not None:
            start = cards.deck_from(board.deck, file=board.file, entry="deck")
        self.first_base_strength: int = o["first_base"]
        n = self.players
        self.resources: list[int] = [0] * n
        self.removed: list[int] = [0] * n
        self.bought: list[int] = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = [list(start) for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        # Cards every seat knows to be in a player's hand: those drawn from a deck the draw emptied
        # (its contents were public: everything the player owns less the face-up discard pile).
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.played: list[int] = []
        self.bases: dict[int, tuple[int, int]] = {}
        self.units: list[tuple[int, int, int, int]] = []
        self.portals: list[tuple[int, int]] = []
        self.moving: tuple[int, int, int] | None = None  # (cell, piece: 0 base / n strength, movement left)
        # Bases that landed on a beachhead this turn (they may not move again until the next turn); never mutated in place.
        self.held_bases: tuple[int, ...] = ()
        self.events: tuple[str, ...] = ()
        self.turn = 0
        self.round = 1
        self.phase = FOUND
        self._values = None
        for deck in self.decks:  # setup step 5: each player shuffles their starting deck
            self.rng.shuffle(deck)
        if o["scenario"] is not None:
            self._load_scenario(o["scenario"])
            if self.turn_order == "rotating":  # a scenario's round is played in seat order unless the order rotates
                self._order_round()
        for p in range(n):
            if not self.hands[p]:
                self._draw(p)

    def _load_scenario(self, text: str) -> None:
        sc = load_scenario(text, self.board, self.cards, self.players, self.hand_size)
        self.round, self.turn, self.phase = sc.round, sc.turn, MAIN
        self.bases = {cell: (owner, strength) for cell, owner, strength in sc.bases}
        self.units = sorted((cell, owner, strength, 0) for cell, owner, strength in sc.units)
        self.portals = sorted(set(sc.portals))
        if sc.players is not None:
            for p, ps in enumerate(sc.players):
                self.resources[p] = ps.resources
                if ps.hand is not None or ps.deck is not None:
                    self.hands[p] = sorted(ps.hand or ())
                    self.decks[p] = list(reversed(ps.deck or ()))
                self.discards[p] = list(ps.discard)

    def _draw(self, p: int) -> None:
        """Draw up to the hand size; when the deck runs out, shuffle the discard pile into a new deck.

        The hand is empty when a draw starts, so the deck holds exactly the player's cards
        less the face-up discard pile, which everyone can count. A draw that takes the whole
        deck therefore shows everyone those cards are in the hand (``known``), and
        ``determinize`` keeps them there.
        """
        hand, deck = self.hands[p], self.decks[p]
        self.known[p] = sorted(deck) if 0 < len(deck) <= self.hand_size - len(hand) else []
        while len(hand) < self.hand_size:
            if not deck:
                discard = self.discards[p]
                if not discard:
                    break
                deck.extend(discard)
                discard.clear()
                self.rng.shuffle(deck)
            hand.append(deck.pop())
        hand.sort()

    # -- queries ----------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def territory(self, p: int) -> set[int]:
        """The hexes player ``p`` controls: each of their bases' hex and the hexes around it."""
        terr = self._tables.territory
        out: set[int] = set()
        for cell, (owner, _) in self.bases.items():
            if owner == p:
                out.update(terr[cell])
        return out

    def _in_territory(self, cell: int, p: int) -> bool:
        """Whether ``cell`` is in ``p``'s territory: a base of ``p`` on it or next to it on the same board.

        The same as ``cell in self.territory(p)`` (a hex's territory is itself and its neighbours on its board, a
        relation that goes both ways), without building the whole territory.
        """
        bases = self.bases
        for c in self._tables.territory[cell]:
            base = bases.get(c)
            if base is not None and base[0] == p:
                return True
        return False

    def worlds_with_base(self, p: int) -> set[int]:
        board_of = self._tables.board_of
        return {board_of[c] for c, (o, _) in self.bases.items() if o == p and board_of[c]}

    def _enemy_cells(self, p: int) -> set[int]:
        cells = {c for c, (o, _) in self.bases.items() if o != p}
        cells.update(u[0] for u in self.units if u[1] != p)
        return cells

    def enemy_cells(self, p: int) -> set[int]:
        """The hexes holding a base or unit of another player than ``p`` (public: the map is seen by all)."""
        return self._enemy_cells(p)

    def step_targets(self, cell: int, piece: int, p: int, terr: set[int] | None = None, enemy: set[int] | None = None) -> list[int]:
        """Where a piece of player ``p`` on ``cell`` may go for one movement point (``piece``: 0 a base, else a unit).

        The same rule the ``step`` actions follow, offered to planners (scripted players,
        :mod:`.plan`) so they need not copy it. A hex may be listed twice. A planner asking for many hexes of one
        position may pass ``p``'s territory and :meth:`enemy_cells` once, as ``terr`` and ``enemy``.
        """
        return self._steps(cell, piece, p, terr, enemy)

    def _landing(self, world_cells: tuple[int, ...], p: int, terr: set[int] | None = None, enemy: set[int] | None = None) -> list[int]:
        """Where a piece in space may land on the world below: its territory there, else as the options allow.

        ``terr`` and ``enemy``, when given, are ``p``'s territory and :meth:`_enemy_cells`, computed once by a caller
        that asks for many hexes.
        """
        if terr is None:
            terr = self.territory(p)
        landing = [c for c in world_cells if c in terr]
        if landing:
            return landing
        if self.landing_free:
            return list(world_cells)
        if self.beachhead:
            if enemy is None:
                enemy = self._enemy_cells(p)
            return [c for c in world_cells if c not in enemy]
        return []

    def _portal_ends(self, cell: int) -> list[int]:
        """The far ends of the portals at ``cell``."""
        ends: list[int] = []
        for a, b in self.portals:
            if a == cell:
                ends.append(b)
            elif b == cell:
                ends.append(a)
        return ends

    def strength_on_map(self, p: int) -> int:
        return sum(s for o, s in self.bases.values() if o == p) + sum(u[2] for u in self.units if u[1] == p)

    def step_sources(self, piece: int, p: int) -> dict[int, Sequence[int]]:
        """The step graph backwards: for each hex, the hexes from which a piece of ``p`` reaches it in one step.

        The same steps as :meth:`step_targets` from every hex of the map (the property tests check it): first the
        neighbours a step reaches the hex from, then the hexes launching, landing or a portal reach it from (a hex may
        be listed twice); hexes no step reaches are left out. Planners search it backwards from their goals
        (:func:`.plan.distances_to`).
        """
        tables = self._tables
        enemy = self._enemy_cells(p)
        terr = self.territory(p)
        # the steps _steps adds to the map's neighbours: launching, landing and (for a unit) portals
        more: dict[int, list[int]] = {}
        for k, cells in enumerate(tables.world_cells):
            up = [c for c in cells if self.launch_anywhere or c in terr]
            if up:
                more.setdefault(tables.space_cell[k], []).extend(up)
        for space, w in tables.landing_from:
            for c in self._landing(tables.world_cells[w - 1], p, terr, enemy):
                more.setdefault(c, []).append(space)
        if piece:
            for cell, (owner, _) in self.bases.items():
                if owner == p:
                    for far in self._portal_ends(cell):
                        more.setdefault(far, []).append(cell)
        before: dict[int, Sequence[int]] = dict(tables.neighbours_back)
        for cell, sources in more.items():
            before[cell] = [*before.get(cell, ()), *sources]
        if not piece:
            # a base never steps onto a hex with a base or an enemy piece
            for cell in self.bases:
                before.pop(cell, None)
            for cell in enemy:
                before.pop(cell, None)
        return before

    def _steps(self, cell: int, piece: int, p: int, terr: set[int] | None = None, enemy: set[int] | None = None) -> list[int]:
        """Where the moving piece may go for one movement point (deterministic order).

        ``terr`` and ``enemy``, when given, are ``p``'s territory and :meth:`_enemy_cells` (see :meth:`_landing`).
        """
        tables = self._tables
        targets = list(tables.neighbours[cell])
        k = tables.board_of[cell]
        if k:
            if self.launch_anywhere or (cell in terr if terr is not None else self._in_territory(cell, p)):
                targets.append(tables.space_cell[k - 1])
        else:
            w = tables.world_below[cell]
            if w:
                targets += self._landing(tables.world_cells[w - 1], p, terr, enemy)
        if piece:
            base = self.bases.get(cell)
            if base is not None and base[0] == p:
                targets += self._portal_ends(cell)
            return targets
        if enemy is None:
            enemy = self._enemy_cells(p)
        bases = self.bases
        return [t for t in targets if t not in bases and t not in enemy]

    # -- legal actions ----------------------------------------------------------
    def _legal_actions(self) -> list[Any]:
        p = self.turn
        # Every action is made once per map and card set (``_Tables``, ``_CardInfo``) and found by cell, card and piece.
        tables = self._tables
        if self.phase == FOUND:
            board_of, found, bases = tables.board_of, tables.found, self.bases
            return [found[c] for c in range(len(board_of)) if board_of[c] and c not in bases]
        if self.phase == MOVING:
            return self._step_actions(p)
        if self.pending:
            return self._next_parts(p)
        out = self._card_actions(p)
        return self._heads(out) if self.steps else out

    def _card_actions(self, p: int) -> list[Any]:
        """Every whole action of the main phase: each card of the hand played every way it may be, then ``end``."""
        info = self._tables.info
        out: list[Any] = []
        pieces: list[int] | None = None
        terr: list[int] | None = None
        for index in sorted(set(self.hands[p])):
            card = info[index]
            if card.is_unit:
                if terr is None:
                    terr = sorted(self.territory(p))
                self._deploy_actions(card, p, terr, out)
                continue
            if card.movement:
                if pieces is None:
                    pieces = self._pieces(p)
                for piece in pieces:
                    out.append(card.move(piece))
            kind = card.kind
            if kind == K_GATHER:
                if not self.gather_needs_base or self.has_base(p):
                    out.append(card.gather)
            elif kind == K_BUY:
                self._buy_actions(card, self.resources[p], out)
            elif kind == K_CONNECT:
                self._connect_actions(card, p, out)
        out.append(END)
        return out

    def _heads(self, whole: list[Any]) -> list[Any]:
        """``choices = steps``: the whole actions with each move, portal and deployment replaced by its head, once."""
        info, by_slug = self._tables.info, self.cards.by_slug
        out: list[Any] = []
        seen: set[Any] = set()
        for action in whole:
            cls = type(action)
            if cls is MOVE_ACTION or cls is CONNECT_ACTION or cls is DEPLOY_ACTION:
                verb = "move" if cls is MOVE_ACTION else "connect" if cls is CONNECT_ACTION else "deploy"
                head = info[by_slug[action.card]].heads[verb]
                if head not in seen:
                    seen.add(head)
                    out.append(head)
            else:
                out.append(action)
        return out

    def _whole_of(self, p: int, verb: str, slug: str) -> list[Any]:
        """The whole actions that play card ``slug`` for ``verb`` (move, connect, deploy), as if it were in the hand."""
        card = self._tables.info[self.cards.by_slug[slug]]
        out: list[Any] = []
        if verb == "move":
            out = [card.move(piece) for piece in self._pieces(p)]
        elif verb == "deploy":
            self._deploy_actions(card, p, sorted(self.territory(p)), out)
        else:
            self._connect_actions(card, p, out)
        return out

    def _next_parts(self, p: int) -> list[Any]:
        """``choices = steps``: the next part of the pending action, one for each next word of the whole actions it may become."""
        pending = self.pending
        k = len(pending)
        tables = self._tables
        out: list[Any] = []
        seen: set[str] = set()
        for action in self._whole_of(p, pending[0], pending[1]):
            words = str(action).split()
            if tuple(words[:k]) != pending or words[k] in seen:
                continue
            word = words[k]
            seen.add(word)
            if pending[0] == "move" and k == 3:
                out.append(self._piece_part(action.piece))
            else:
                out.append(tables.at[self.board.cell_ids[word]])
        return out

    def _piece_part(self, piece: int) -> Any:
        pieces = self._tables.pieces
        found = pieces.get(piece)
        if found is None:
            found = pieces[piece] = PIECE_ACTION(piece)
        return found

    def pending_next(self) -> str | None:
        """``choices = steps``: what the pending action asks for next, ``at`` (a hex) or ``piece``; None when none is pending."""
        if not self.pending:
            return None
        return "piece" if self.pending[0] == "move" and len(self.pending) == 3 else "at"

    def _step_actions(self, p: int) -> list[Any]:
        """A step of the moving piece to each hex it may go to (once each, in :meth:`_steps` order), then ``stop``."""
        cell, piece, _ = self.moving  # type: ignore[misc]
        step = self._tables.step
        seen: set[int] = set()
        out: list[Any] = []
        for t in self._steps(cell, piece, p):
            if t not in seen:
                seen.add(t)
                out.append(step[t])
        out.append(STOP)
        return out

    def _deploy_actions(self, card: _CardInfo, p: int, terr: list[int], out: list[Any]) -> None:
        """Add the deployments of unit card ``card`` into ``p``'s territory ``terr``: a fighter anywhere there, a base
        only on a hex without a base or enemy pieces."""
        if not card.is_base:
            for c in terr:
                out.append(card.deploy_at(c))
            return
        bases = self.bases
        blocked = self._enemy_cells(p)
        for c in terr:
            if c not in bases and c not in blocked:
                out.append(card.deploy_at(c))

    def _buy_actions(self, card: _CardInfo, res: int, out: list[Any]) -> None:
        """Add the buys of research or build card ``card`` that the resources ``res`` pay for."""
        costs, buys = card.buy_costs, card.buys
        for i in range(len(buys)):
            if costs[i] <= res:
                out.append(buys[i])

    def _connect_actions(self, card: _CardInfo, p: int, out: list[Any]) -> None:
        """Add a portal with ``card`` for every two of ``p``'s bases not yet joined, hexes in map order."""
        mine = sorted([c for c, (o, _) in self.bases.items() if o == p])
        portals = self.portals
        for i in range(len(mine)):
            a = mine[i]
            for j in range(i + 1, len(mine)):
                b = mine[j]
                if (a, b) not in portals:
                    out.append(card.connect(a, b))

    def _pieces(self, p: int) -> list[int]:
        """``p``'s pieces that may move, as numbers ``cell * PIECE_SLOTS + strength`` (0: the base), sorted and distinct.

        Free units and the bases that did not land on a beachhead this turn.
        """
        found = {c * PIECE_SLOTS + s for c, o, s, e in self.units if o == p and not e}
        held = self.held_bases
        for c, (o, _) in self.bases.items():
            if o == p and c not in held:
                found.add(c * PIECE_SLOTS)
        return sorted(found)

    # -- parsing and explaining -------------------------------------------------
    def parse_action(self, text: str) -> Any:
        action = A.parse(text)
        shown = short(text.strip())
        for name in ("cell", "a", "b"):
            value = getattr(action, name, None)
            if value is not None and value not in self.board.cell_ids:
                raise IllegalAction(f"{shown!r}: there is no hex {short(value, 20)} on the map {self.board.name!r}")
        for name in ("card", "buy"):
            value = getattr(action, name, None)
            if value is None:
                continue
            index = self.cards.by_slug.get(value)
            if index is None:
                raise IllegalAction(f"{shown!r}: there is no card called {short(value, 40)!r}")
            slug = self.cards.cards[index].slug
            if slug != value:  # a card written by its printed name: the notation's own spelling is the slug
                action = dataclasses.replace(action, **{name: slug})
        return action

    # -- applying ---------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        p = self.turn
        cls = type(action)
        ids = self.board.cell_ids
        if cls is STEP_ACTION:
            self._step(p, ids[action.cell])
            return
        if cls is STOP_ACTION:
            self.moving = None
            self.phase = MAIN
            return
        if cls is END_ACTION:
            self._end_turn(p)
            return
        if cls is FOUND_ACTION:
            self.bases[ids[action.cell]] = (p, self.first_base_strength)
            if p + 1 < self.players:
                self.turn = p + 1
            else:
                self.phase = MAIN
                self._order_round()
                self.turn = self.order[0]
            return
        if cls is AT_ACTION or cls is PIECE_ACTION:
            self._choose(p, action.cell if cls is AT_ACTION else A.piece_word(action.piece))
            return
        index = self.cards.by_slug[action.card]
        self.hands[p].remove(index)
        known = self.known[p]
        if index in known:  # the card played may be the known copy; any other copy still counts as unknown
            known.remove(index)
        if cls is HEAD_ACTION:
            self.pending = (action.verb, action.card)
            return
        self._play(p, action, index)

    def _choose(self, p: int, word: str) -> None:
        """``choices = steps``: add ``word`` to the pending action; once it names a whole action, play that."""
        chosen = (*self.pending, word)
        for action in self._whole_of(p, chosen[0], chosen[1]):
            if tuple(str(action).split()) == chosen:
                self.pending = ()
                self._play(p, action, self.cards.by_slug[chosen[1]])
                return
        self.pending = chosen

    def _play(self, p: int, action: Any, index: int) -> None:
        """Play card ``index`` (already out of the hand) as ``action``: a deployment, a move, or a card's special."""
        cls = type(action)
        ids = self.board.cell_ids
        card = self.cards.cards[index]
        if cls is DEPLOY_ACTION:
            self.removed[p] += 1
            cell = ids[action.cell]
            if card.is_base:
                self.bases[cell] = (p, card.strength)
                return
            engaged = ENGAGED if cell in self._enemy_cells(p) else 0 if self.deploy_moves else HELD
            self._add_unit((cell, p, card.strength, engaged))
            if engaged == ENGAGED and self.on_entry:
                self._fight(cell, p)
            return
        self.played.append(index)
        if cls is MOVE_ACTION:
            self.moving = (ids[action.cell], action.piece, card.movement)
            self.phase = MOVING
        elif cls is GATHER_ACTION:
            self.resources[p] += card.resources
        elif cls is RESEARCH_ACTION or cls is BUILD_ACTION:
            buy = self.cards.by_slug[action.buy]
            self.resources[p] -= self.cards.cards[buy].cost
            self.discards[p].append(buy)
            self.bought[p] += 1
        elif cls is CONNECT_ACTION:
            a, b = sorted((ids[action.a], ids[action.b]))
            self.portals.append((a, b))
            self.portals.sort()

    def _add_unit(self, unit: tuple[int, int, int, int]) -> None:
        units = self.units
        units.append(unit)
        units.sort()

    def _step(self, p: int, target: int) -> None:
        cell, piece, left = self.moving  # type: ignore[misc]
        board_of = self._tables.board_of
        # A landing outside one's own territory is a beachhead: the piece may not move again this turn.
        beachhead = self.beachhead and not board_of[cell] and board_of[target] and not self._in_territory(target, p)
        if beachhead:
            left = 1
        if piece == 0:
            self.bases[target] = self.bases.pop(cell)
            self.portals = sorted(tuple(sorted((target if a == cell else a, target if b == cell else b))) for a, b in self.portals)  # type: ignore[misc]
            engaged = 0
            if beachhead:
                self.held_bases = (*self.held_bases, target)
        else:
            self.units.remove((cell, p, piece, 0))
            engaged = ENGAGED if target in self._enemy_cells(p) else HELD if beachhead else 0
            self._add_unit((target, p, piece, engaged))
        left -= 1
        if engaged or left == 0:
            self.moving = None
            self.phase = MAIN
            if engaged == ENGAGED and self.on_entry:
                self._fight(target, p)
        else:
            self.moving = (target, piece, left)

    def _fight(self, cell: int, p: int) -> None:
        """Resolve combat in ``cell``: ``p``'s units attack every other piece there."""
        here = [u for u in self.units if u[0] == cell]
        attackers = [u[2] for u in here if u[1] == p]
        defenders = sorted((u[2], u[1]) for u in here if u[1] != p)
        base = self.bases.get(cell)
        base_strength = base[1] if base is not None and base[0] != p else 0
        result = resolve(attackers, [d[0] for d in defenders], base_strength)
        kept = [u for u in self.units if u[0] != cell]
        kept += [(cell, p, s, 1) for s in result.attackers]
        held = defenders[len(defenders) - len(result.defenders) :]
        kept += [(cell, o, s, 0) for s, o in held]
        kept.sort()
        self.units = kept
        name = self.board.cell_names[cell]
        text = f"combat at {name}: seat {p} {sorted(attackers)} vs {[d[0] for d in defenders]}"
        if base_strength:
            text += f" and base {base_strength} of seat {base[0]}"  # type: ignore[index]
        if result.base is BaseFate.DESTROYED:
            del self.bases[cell]
            self.portals = [pt for pt in self.portals if cell not in pt]
        elif result.base is BaseFate.CAPTURED:
            self.bases[cell] = (p, base_strength)
            self.portals = [pt for pt in self.portals if cell not in pt]
        text += f" -> attackers left {list(result.attackers)}, defenders left {list(result.defenders)}"
        if base_strength:
            text += f", base {result.base.value}"
        self.events = (*self.events[-5:], text)

    def _end_turn(self, p: int) -> None:
        # The turn's combat: every hex where p's units stand with an enemy piece.
        enemy = self._enemy_cells(p)
        for cell in sorted({u[0] for u in self.units if u[1] == p and u[0] in enemy}):
            self._fight(cell, p)
        self.units = sorted((c, o, s, 0) for c, o, s, _ in self.units)
        self.held_bases = ()
        # Steps 3-5: hand and played cards to the discard pile; reshuffle an empty deck; draw up to the hand size.
        discard = self.discards[p]
        discard += self.hands[p]
        discard += self.played
        self.hands[p] = []
        self.played = []
        if not self.decks[p] and discard:
            self.decks[p] = discard[:]
            discard.clear()
            self.rng.shuffle(self.decks[p])
        self._draw(p)
        self.moving = None
        self.phase = MAIN
        if self.own_turn_tiebreak and self.round >= self.round_limit:
            keys = list(self.final_keys)
            keys[p] = key = self.tiebreak_key(p)
            self.final_keys = tuple(keys)
            text = f"seat {p}'s tie-break figures are taken: territory {key[0]}, strength {key[1]}, resources {key[2]}"
            self.events = (*self.events[-5:], text)
        if self.answered:
            self._check_claim(p)
            if self._outcome is not None:
                return
        following = self._next_seat(self.order.index(p) + 1)
        if following is not None:
            self.turn = following
            return
        self._end_round()
        if self._outcome is None:
            first = self._next_seat(0)
            self.turn = first if first is not None else self.order[0]

    def _order_round(self) -> None:
        """Set the order of play of the round that begins (option turn_order); players out stay in it and are skipped."""
        n = self.players
        if self.turn_order == "rotating":
            first = (self.round - 1) % n
            self.order = tuple((first + i) % n for i in range(n))
        elif self.turn_order == "drawn":
            order = list(range(n))
            self.rng.shuffle(order)
            self.order = tuple(order)

    def _next_seat(self, q: int) -> int | None:
        """The first seat from place ``q`` of this round's order on that takes a turn this round (with ``elimination``,
        players without pieces take none)."""
        order = self.order
        while q < len(order):
            if not self.elimination or self.has_pieces(order[q]):
                return order[q]
            q += 1
        return None

    def has_base(self, p: int) -> bool:
        return any(o == p for o, _ in self.bases.values())

    def has_pieces(self, p: int) -> bool:
        """Whether player ``p`` has a base or a unit on the map (without either they can never act on it again)."""
        return self.has_base(p) or any(u[1] == p for u in self.units)

    # -- victory ----------------------------------------------------------------
    def _check_claim(self, p: int) -> None:
        """Option victory_check = "answered", at the end of ``p``'s turn: a victory stands once every other player has answered it.

        A player who meets the victory condition at the end of a turn claims the victory; the claim holds while
        they meet it at the end of every following turn, and wins once every other player with pieces has taken a
        turn since. So the last seat of a round no longer has the last word: whoever meets the condition, each
        opponent gets exactly one turn to undo it.
        """
        winners = self.winners_now()
        now = winners[0] if len(winners) == 1 else None
        claim = self.claim
        if claim is not None:
            claim = (claim[0], tuple(q for q in claim[1] if q != p and self.has_pieces(q))) if now == claim[0] else None
        if claim is None and now is not None:
            claim = (now, tuple(q for q in range(self.players) if q != now and self.has_pieces(q)))
            waiting = ", ".join(f"seat {q}" for q in claim[1])
            if waiting:
                text = f"seat {now} meets the {self.victory.value} condition: it wins if it still does after the turn of {waiting}"
                self.events = (*self.events[-5:], text)
        self.claim = claim
        if claim is not None and not claim[1]:
            w = claim[0]
            why = f"seat {w} wins by {self.victory.value} in round {self.round}, every other player having had a turn to answer"
            self._outcome = Outcome((w,), why, self._scores())

    def _end_round(self) -> None:
        winners = [] if self.answered else self.winners_now()
        if len(winners) == 1:
            w = winners[0]
            self._outcome = Outcome((w,), f"seat {w} wins by {self.victory.value} at the end of round {self.round}", self._scores())
            return
        if self.victory is not ANNIHILATION and not self.bases:
            self._finish_by_tiebreak(f"no base is left at the end of round {self.round}")
            return
        if self.elimination:
            alive = [p for p in range(self.players) if self.has_pieces(p)]
            if len(alive) == 1:
                w = alive[0]
                why = f"seat {w} wins: only seat {w} has pieces left at the end of round {self.round}"
                self._outcome = Outcome((w,), why, self._scores())
                return
        if self.round >= self.round_limit:
            if self.own_turn_tiebreak:
                # Each player's figures as they stood at the end of their own last turn: the last seat's turn can add
                # to its own figures but no longer take from the others' (a player who took no turn: as they stand).
                keys = [key if key is not None else self.tiebreak_key(p) for p, key in enumerate(self.final_keys)]
                why = f"the round limit ({self.round_limit}) was reached (figures at the end of each player's own last turn)"
                self._finish_by_tiebreak(why, keys)
            else:
                self._finish_by_tiebreak(f"the round limit ({self.round_limit}) was reached")
            return
        self.round += 1
        self._order_round()

    def winners_now(self) -> list[int]:
        """The seats that meet the victory condition now (the game ends only when exactly one does)."""
        n = self.players
        if self.victory is EXPANSION:
            terr = [len(self.territory(p)) for p in range(n)]
            return [
                p
                for p in range(n)
                if len(self.worlds_with_base(p)) >= self.worlds_needed and all(terr[p] > terr[q] for q in range(n) if q != p)
            ]
        owners = {o for o, _ in self.bases.values()}
        if self.victory is CAPTURE:
            return list(owners) if len(owners) == 1 else []
        owners.update(u[1] for u in self.units)
        return list(owners) if len(owners) == 1 else []

    def _scores(self) -> tuple[float, ...]:
        return tuple(float(len(self.territory(p))) for p in range(self.players))

    def tiebreak_key(self, p: int) -> tuple[int, int, int]:
        return (len(self.territory(p)), self.strength_on_map(p), self.resources[p])

    def _finish_by_tiebreak(self, why: str, keys: list[tuple[int, int, int]] | None = None) -> None:
        if keys is None:
            keys = [self.tiebreak_key(p) for p in range(self.players)]
        best = max(keys)
        winners = tuple(p for p in range(self.players) if keys[p] == best)
        who = f"seat {winners[0]} wins" if len(winners) == 1 else "seats " + ", ".join(map(str, winners)) + " share the win"
        self._outcome = Outcome(winners, f"{why}: {who} on territory, then strength on the map, then resources", self._scores())

    # -- copying, hidden information, views -------------------------------------
    def _share_native_fields(self, new: State) -> None:
        """Compiled build only (``State.clone``): the fields ``_copy_fields`` does not copy, stored directly.

        Every field of the class is stored here or in ``_copy_fields`` (a test checks a copy against
        the original field by field).
        """
        # ``clone`` makes ``new`` with ``type(self)``; declared as this class, a compiled build stores natively.
        n: ConnectedWorldsState = new  # type: ignore[assignment]
        n.board = self.board
        n.cards = self.cards
        n._tables = self._tables
        n._values = self._values
        n.hand_size = self.hand_size
        n.round_limit = self.round_limit
        n.victory = self.victory
        n.on_entry = self.on_entry
        n.landing_free = self.landing_free
        n.beachhead = self.beachhead
        n.launch_anywhere = self.launch_anywhere
        n.worlds_needed = self.worlds_needed
        n.gather_needs_base = self.gather_needs_base
        n.elimination = self.elimination
        n.deploy_moves = self.deploy_moves
        n.steps = self.steps
        n.pending = self.pending
        n.answered = self.answered
        n.claim = self.claim
        n.own_turn_tiebreak = self.own_turn_tiebreak
        n.turn_order = self.turn_order
        n.order = self.order
        n.final_keys = self.final_keys
        n.first_base_strength = self.first_base_strength
        n.moving = self.moving
        n.held_bases = self.held_bases
        n.events = self.events
        n.turn = self.turn
        n.round = self.round
        n.phase = self.phase

    def _copy_fields(self, new: State) -> None:
        # See ``_share_native_fields``: the declared type makes the stores native in a compiled build, free in pure Python.
        n: ConnectedWorldsState = new  # type: ignore[assignment]
        n.resources = self.resources.copy()
        n.removed = self.removed.copy()
        n.bought = self.bought.copy()
        n.hands = [h.copy() for h in self.hands]
        n.decks = [d.copy() for d in self.decks]
        n.discards = [d.copy() for d in self.discards]
        n.known = [k.copy() for k in self.known]
        n.played = self.played.copy()
        n.bases = self.bases.copy()
        n.units = self.units.copy()
        n.portals = self.portals.copy()

    def determinize(self, seat: int | None, rng: Rng) -> State:
        """Re-deal every other player's hand and every deck from the same cards; keep ``seat``'s hand.

        Cards everyone knows to be in a hand (``known``: drawn from a deck the draw emptied)
        stay in it; only the rest of the hand is re-dealt with the deck.
        """
        new: Any = self.clone()
        for p in range(self.players):
            if p == seat:
                rng.shuffle(new.decks[p])
                continue
            unknown = list(new.hands[p])
            for card in new.known[p]:
                unknown.remove(card)
            pool = unknown + new.decks[p]
            rng.shuffle(pool)
            size = len(unknown)
            new.hands[p] = sorted(new.known[p] + pool[:size])
            new.decks[p] = pool[size:]
        new.rng = rng.spawn()
        return new

    # -- views ------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` sees: the maps and every pool are public, a hand only its player's, no deck's order.

        Discard piles are face up, and so are the cards a draw that emptied a
        deck put into a hand (``known_in_hand``).
        """
        return self._view(seat, full=False)

    def full_view(self) -> dict[str, Any]:
        return self._view(None, full=True)

    def _view(self, seat: int | None, full: bool) -> dict[str, Any]:
        st = self
        names = st.board.cell_names
        players = []
        for p in range(st.players):
            row: dict[str, Any] = {
                "resources": st.resources[p],
                "deck": len(st.decks[p]),
                "hand_size": len(st.hands[p]),
                "known_in_hand": [st.cards.cards[i].slug for i in st.known[p]],
                "discard": _card_counts(st, st.discards[p]),
                "deployed": st.removed[p],
                "bought": st.bought[p],
                "territory": len(st.territory(p)),
                "worlds": sorted(st.board.board_key(k) for k in st.worlds_with_base(p)),
            }
            if full or p == seat:
                row["hand"] = [st.cards.cards[i].slug for i in st.hands[p]]
            if full:
                row["deck_order"] = [st.cards.cards[i].slug for i in reversed(st.decks[p])]
            players.append(row)
        moving = None
        if st.moving is not None:
            cell, piece, left = st.moving
            moving = {"at": names[cell], "piece": "base" if piece == 0 else f"u{piece}", "movement_left": left}
        view: dict[str, Any] = {
            "map": st.board.name,
            "victory": st.victory.value,
            "round": st.round,
            "round_limit": st.round_limit,
            "turn": st.turn,
            "phase": PHASE_NAMES[st.phase],
            "played": [st.cards.cards[i].slug for i in st.played],
            "moving": moving,
            "bases": [[names[c], o, s] for c, (o, s) in sorted(st.bases.items())],
            "units": [[names[c], o, s, e == 1] for c, o, s, e in st.units],
            # Pieces that may not move again this turn without being in combat: they landed on a beachhead
            # (or a unit was deployed while the option deploy_moves is off).
            "held": [[names[c], o, s] for c, o, s, e in st.units if e == 2],
            "held_bases": [names[c] for c in st.held_bases],
            "portals": [[names[a], names[b]] for a, b in st.portals],
            "players": players,
            "events": list(st.events),
            "over": st._outcome.to_json() if st._outcome is not None else None,
            "worlds_needed": st.worlds_needed,
            "boards": public_data(st.board, lambda: boards_json(st.board)),
            "cards": public_data(st.cards, lambda: cards_json(st.cards)),
        }
        if st.turn_order != "fixed":
            view["order"] = list(st.order)  # who plays this round, first to last
        if st.steps:
            view["choices"] = "steps"
            view["pending"] = _pending_view(st)
        return view


def _pending_view(st: ConnectedWorldsState) -> dict[str, Any] | None:
    """The action being chosen a part at a time (public, as the whole action would be): verb, card, hexes chosen, what is next."""
    if not st.pending:
        return None
    verb, card, *chosen = st.pending
    return {"verb": verb, "card": card, "chosen": chosen, "next": st.pending_next(), "notation": " ".join(st.pending)}


def _card_counts(st: ConnectedWorldsState, cards: list[int]) -> dict[str, int]:
    table = st.cards.cards
    return {table[i].slug: n for i, n in sorted(Counter(cards).items())}
