"""The Celestials rules: one position and how actions move it on.

Seat 0 is the Sun, seat 1 the Moon. A turn has three steps the seat walks
through: ``DRAW`` (draw a card or not), ``MAIN`` (play, activate, manoeuvre;
it ends with ``advance`` or ``end``) and ``DISCARD`` (discard a card and draw
one, or keep). When the last card of both draw piles is drawn, the players
answer ``reshuffle yes|no`` in turn before play goes on.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from astrarium.core import Outcome, Rng, State
from astrarium.games.celestials import actions as A
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Card, Deck, Effect, Kind, PhaseKind, Step, Target, load_deck
from astrarium.games.celestials.position import deal, parse_position

#: The turn steps, and EMPTY (no card on a location). ``Final``: a compiled build makes them C constants, where a
#: plain module global is a dictionary look-up on every read (and EMPTY is read in every loop over the board).
DRAW: Final = 0
MAIN: Final = 1
DISCARD: Final = 2
NEXT: Final = 3
STEP_NAMES = ("draw", "main", "discard", "turn over")
EMPTY: Final = -1
#: The enum members, board tables and shared action objects the rules read on every step, as module constants: a
#: compiled build keeps them in C variables, where each ``Effect.X`` would be an attribute look-up through the
#: enum's metaclass, and each ``A.X`` or ``B.X`` a look-up of the module and then of its attribute.
E_ADVANCE: Final = Effect.ADVANCE
E_DAMAGE: Final = Effect.DAMAGE
E_DRAW: Final = Effect.DRAW
E_HEAL: Final = Effect.HEAL
E_MEND: Final = Effect.MEND
K_ADVANCE: Final = Kind.ADVANCE
K_CREATURE: Final = Kind.CREATURE
K_SPELL: Final = Kind.SPELL
K_STRUCTURE: Final = Kind.STRUCTURE
PK_DAMAGE: Final = PhaseKind.DAMAGE
T_ADJACENT_ENEMIES: Final = Target.ADJACENT_ENEMIES
T_ADJACENT_FRIENDS: Final = Target.ADJACENT_FRIENDS
T_ALL_FRIENDS: Final = Target.ALL_FRIENDS
T_CHOSEN_ADJACENT_ENEMY: Final = Target.CHOSEN_ADJACENT_ENEMY
T_CHOSEN_FRIEND: Final = Target.CHOSEN_FRIEND
T_ENEMY_PLAYER: Final = Target.ENEMY_PLAYER
T_LANE_ENEMIES: Final = Target.LANE_ENEMIES
T_LANE_FRIENDS: Final = Target.LANE_FRIENDS
T_OWN_PLAYER: Final = Target.OWN_PLAYER
T_SELF: Final = Target.SELF
T_CHOSEN_ENEMY: Final = Target.CHOSEN_ENEMY
FACE: Final = A.FACE
SIZE: Final = B.SIZE
EVERY_CELL: Final = tuple(range(B.SIZE))
ADJACENT: Final = B.ADJACENT
LANE_CELLS: Final = B.LANE_CELLS
BOARD_MOVES: Final = B.MOVES
DEFENCE_CELLS: Final = B.DEFENCE_CELLS
STRUCTURE_CELLS: Final = B.STRUCTURE_CELLS
FACE_GUARD: Final = B.FACE_GUARD
MOVE_ACTIONS: Final = A.MOVES
ACTIVATIONS: Final = A.ACTIVATIONS
ACTIVATE_ALONE: Final = A.ACTIVATE_ALONE
RESHUFFLE_ACTIONS: Final = A.RESHUFFLE
DRAW_ACTION: Final = A.DRAW
NO_DRAW_ACTION: Final = A.NO_DRAW
ADVANCE_ACTION: Final = A.ADVANCE
END_ACTION: Final = A.END
KEEP_ACTION: Final = A.KEEP
RESHUFFLE_TYPE: Final = A.Reshuffle
DRAW_TYPE: Final = A.Draw
NO_DRAW_TYPE: Final = A.NoDraw
PLAY_TYPE: Final = A.Play
ACTIVATE_TYPE: Final = A.Activate
MOVE_TYPE: Final = A.Move
ADVANCE_TYPE: Final = A.Advance
END_TYPE: Final = A.End
DISCARD_TYPE: Final = A.Discard
KEEP_TYPE: Final = A.Keep


class RuleStep:
    """One effect as the rules run it: a card's or phase's :class:`Step`, copied into a class of this module.

    A compiled build reads a field of a class compiled with it from a native slot; a field of
    the cards module's classes (interpreted: they are built from a pydantic schema) costs a
    generic attribute look-up on every read.
    """

    def __init__(self, effect: Effect, amount: int, target: Target) -> None:
        self.effect: Effect = effect
        self.amount: int = amount
        self.target: Target = target


def rule_steps(steps: tuple[Step, ...] | None) -> tuple[RuleStep, ...]:
    return tuple(RuleStep(s.effect, s.amount, s.target) for s in steps or ())


# Effects that wait for the reshuffle question: (steps, seat, source, chosen, card). ``card`` is the card that
# must still stand on ``source`` for them to resolve (a card's turn-start effect), or EMPTY.
Pending = tuple[tuple[RuleStep, ...], int, int, int, int]


class CardRules:
    """What the rules read of a catalog card while playing, as :class:`RuleStep` does for one effect (same reason)."""

    def __init__(self, card: Card) -> None:
        self.kind: Kind = card.kind
        self.damage: int = card.damage
        self.health: int = card.health
        self.phases: frozenset[int] | None = card.phases
        self.on_play: tuple[RuleStep, ...] = rule_steps(card.on_play)
        self.activates: bool = card.on_activate is not None  # False: the default attack
        self.on_activate: tuple[RuleStep, ...] = rule_steps(card.on_activate)
        self.on_turn_start: tuple[RuleStep, ...] = rule_steps(card.on_turn_start)


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game's decks and options make of the cards: one catalog for both seats, shared by every copy of a state.

    It also holds the card actions the rules can offer, made once (``plays``,
    ``discards``), so that a legal-action list only picks them out, and the
    options the rules read on every step (``hand_limit``, ``turn_limit``,
    ``health``): typed fields are read from native slots in a compiled build,
    where the options mapping costs a dictionary look-up by name, and here they
    cost a copy of a state nothing.
    """

    decks: tuple[Deck, Deck]
    catalog: tuple[Card, ...]  # every distinct card of both decks
    owner: tuple[int, ...]  # seat of each catalog entry
    index: tuple[dict[str, int], dict[str, int]]  # per seat: card key -> catalog index
    advance: tuple[int, int]  # catalog index of each seat's Advance Phase card
    damage_phase: tuple[tuple[bool, ...], tuple[bool, ...]]
    plays: tuple[tuple[A.Play, ...], ...]  # plays[c][at + 1]: play catalog card c at location at (index 0: no location)
    discards: tuple[A.Discard, ...]  # discards[c]: discard catalog card c
    chooses: tuple[Target | None, ...]  # chooses[c]: what catalog card c's play or activation chooses (Card.chooses)
    cards: tuple[CardRules, ...]  # cards[c]: what the rules read of catalog card c while playing
    phase_start: tuple[tuple[tuple[RuleStep, ...], ...], ...]  # phase_start[seat][phase]: that phase's start effects
    phase_enter: tuple[tuple[tuple[RuleStep, ...], ...], ...]  # phase_enter[seat][phase]: its enter effects
    hand_limit: int  # the options of the same names
    turn_limit: int
    health: int  # each player's starting health, also the most a player is healed to


#: Rules already made, by the identity of their two decks and the three options (decks are cached objects, kept alive by the entry).
_RULES: dict[tuple[int, int, int, int, int], Rules] = {}
_RULES_KEPT = 16


def make_rules(sun: Deck, moon: Deck, hand_limit: int, turn_limit: int, health: int) -> Rules:
    """The rules of a game between these two decks with these options (made once per pair of deck objects and options, then shared)."""
    key = (id(sun), id(moon), hand_limit, turn_limit, health)
    rules = _RULES.get(key)
    if rules is not None and rules.decks[0] is sun and rules.decks[1] is moon:
        return rules
    rules = _build_rules(sun, moon, hand_limit, turn_limit, health)
    if len(_RULES) >= _RULES_KEPT:
        _RULES.clear()
    _RULES[key] = rules
    return rules


def _build_rules(sun: Deck, moon: Deck, hand_limit: int, turn_limit: int, health: int) -> Rules:
    catalog: list[Card] = []
    owner: list[int] = []
    index: list[dict[str, int]] = [{}, {}]
    for seat, deck in enumerate((sun, moon)):
        for card in deck.cards:
            index[seat][card.key] = len(catalog)
            catalog.append(card)
            owner.append(seat)
    damage = tuple(tuple(p.kind is PK_DAMAGE for p in d.phases) for d in (sun, moon))
    plays = tuple((A.Play(card.key), *[A.Play(card.key, at) for at in range(SIZE)]) for card in catalog)
    return Rules(
        (sun, moon),
        tuple(catalog),
        tuple(owner),
        (index[0], index[1]),
        (index[0]["advance"], index[1]["advance"]),
        damage,  # type: ignore[arg-type]
        plays,
        tuple(A.Discard(card.key) for card in catalog),
        tuple(card.chooses for card in catalog),
        tuple(CardRules(card) for card in catalog),
        tuple(tuple(rule_steps(p.start) for p in d.phases) for d in (sun, moon)),
        tuple(tuple(rule_steps(p.enter) for p in d.phases) for d in (sun, moon)),
        hand_limit,
        turn_limit,
        health,
    )


def rules_for(options: Any) -> Rules:
    sun, moon = load_deck(options["sun_deck"], "sun"), load_deck(options["moon_deck"], "moon")
    return make_rules(sun, moon, options["hand_limit"], options["turn_limit"], options["health"])


class CelestialsState(State):
    rules: Rules
    hp: list[int]
    phase: list[int]
    hands: list[list[int]]
    piles: list[list[int]]  # draw piles, top card last
    discards: list[list[int]]
    graves: list[list[int]]
    cell_card: list[int]  # catalog index on each location, EMPTY when none
    cell_hp: list[int]
    cell_exh: list[bool]
    turn: int
    step: int
    turns_done: int
    votes: list[int]  # seats still to answer the reshuffle question, in order
    pending: list[Pending]  # the rest of the effects a draw interrupted with the question, resolved once it is answered
    reshuffle_open: bool
    # What everyone knows of each hand besides its size, from what happened in the open (rules.md, "Hidden information"):
    known: list[list[int]]  # cards certainly in the hand, sorted: all of it after a reshuffle, a hand the position lists, ...
    open_pile: list[bool]  # the draw pile's order is public (listed by the position option, not shuffled since)

    # -- setup ----------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        self.rules = rules_for(o)
        pools = [[self.rules.advance[seat] + i for i in deck.cards_list()] for seat, deck in enumerate(self.rules.decks)]
        sides = parse_position(o["position"], self.rules, pools, o)
        self.hp = [sides[s].health or o["health"] for s in (0, 1)]
        self.phase = [sides[0].phase, sides[1].phase]
        self.hands, self.piles, self.discards = [[], []], [[], []], [[], []]
        self.graves = [list(sides[0].grave), list(sides[1].grave)]
        for seat in (0, 1):
            self.hands[seat], self.piles[seat], self.discards[seat] = deal(sides[seat], pools[seat], o["start_hand"], self.rng)
        # The position option is public: a hand it lists, or deals from a pile it lists in order, is known.
        self.open_pile = [sides[s].pile is not None for s in (0, 1)]
        self.known = [self.hands[s].copy() if sides[s].hand is not None or self.open_pile[s] else [] for s in (0, 1)]
        self.cell_card = [EMPTY] * SIZE
        self.cell_hp = [0] * SIZE
        self.cell_exh = [False] * SIZE
        for side in sides:
            for at, c, health, exhausted in side.board:
                self.cell_card[at], self.cell_hp[at], self.cell_exh[at] = c, health, exhausted
        self.turn = 0 if o["first"] == "sun" else 1
        self.turns_done = 0
        self.votes = []
        self.pending = []
        self.reshuffle_open = True
        self.step = NEXT
        self._settle()

    def _share_native_fields(self, new: State) -> None:
        """Compiled build only (``State.clone``): the fields ``_copy_fields`` does not copy, stored directly.

        The core's default copies each of them by name, a generic look-up and store per field;
        these are native stores. Every field of the class is stored here or in ``_copy_fields``.
        """
        # ``clone`` makes ``new`` with ``type(self)``; declared as this class, a compiled build stores natively.
        n: CelestialsState = new  # type: ignore[assignment]
        n.rules = self.rules
        n.turn = self.turn
        n.step = self.step
        n.turns_done = self.turns_done
        n.reshuffle_open = self.reshuffle_open

    def _copy_fields(self, new: State) -> None:
        # See ``_share_native_fields``: the declared type makes the stores native in a compiled build, free in pure Python.
        n: CelestialsState = new  # type: ignore[assignment]
        n.hp = self.hp.copy()
        n.phase = self.phase.copy()
        n.hands = [self.hands[0].copy(), self.hands[1].copy()]
        n.piles = [self.piles[0].copy(), self.piles[1].copy()]
        n.discards = [self.discards[0].copy(), self.discards[1].copy()]
        n.graves = [self.graves[0].copy(), self.graves[1].copy()]
        n.cell_card = self.cell_card.copy()
        n.cell_hp = self.cell_hp.copy()
        n.cell_exh = self.cell_exh.copy()
        n.votes = self.votes.copy()
        n.pending = self.pending.copy()
        n.known = [self.known[0].copy(), self.known[1].copy()]
        n.open_pile = self.open_pile.copy()

    # -- small queries ----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self._outcome is not None:
            return None
        return self.votes[0] if self.votes else self.turn

    def owner_at(self, at: int) -> int:
        """The seat whose card is on ``at`` (EMPTY when none)."""
        c = self.cell_card[at]
        return EMPTY if c == EMPTY else self.rules.owner[c]

    def card_at(self, at: int) -> Card | None:
        c = self.cell_card[at]
        return None if c == EMPTY else self.rules.catalog[c]

    def can_draw(self, seat: int) -> bool:
        return len(self.hands[seat]) < self.rules.hand_limit and bool(self.piles[seat])

    def in_damage_phase(self, seat: int) -> bool:
        return self.rules.damage_phase[seat][self.phase[seat]]

    def phase_name(self, seat: int) -> str:
        return self.rules.decks[seat].phases[self.phase[seat]].name

    # -- legal actions ----------------------------------------------------------
    def _legal_actions(self) -> list[Any]:
        if self.votes:
            return list(RESHUFFLE_ACTIONS)
        seat = self.turn
        if self.step == DRAW:
            return [DRAW_ACTION, NO_DRAW_ACTION]
        if self.step == DISCARD:
            discards = self.rules.discards
            out: list[Any] = [KEEP_ACTION]
            last = EMPTY
            for c in self.hands[seat]:
                if c != last:
                    out.append(discards[c])
                    last = c
            return out
        return self._main_actions(seat)

    def _main_actions(self, seat: int) -> list[Any]:
        rules = self.rules
        cards = rules.cards
        cell_card = self.cell_card
        owner = rules.owner
        # One pass over the board: the locations of each side's cards, in board order, which is the order every
        # chosen target is offered in; the loops below read these instead of scanning the 24 locations again.
        mine: list[int] = []
        theirs: list[int] = []
        for at in range(SIZE):
            c = cell_card[at]
            if c != EMPTY:
                if owner[c] == seat:
                    mine.append(at)
                else:
                    theirs.append(at)
        out: list[Any] = []
        phase = self.phase[seat]
        last = EMPTY
        advance = False
        for c in self.hands[seat]:
            if c == last:
                continue
            last = c
            card = cards[c]
            kind = card.kind
            if kind is K_ADVANCE:
                advance = True
                continue
            if card.phases is not None and phase not in card.phases:
                continue
            plays = rules.plays[c]
            if kind is K_SPELL:
                chosen = rules.chooses[c]
                if chosen is None:
                    out.append(plays[0])
                else:
                    # plain loops rather than comprehensions here and below: a comprehension is a function call of its own
                    for t in self._targets(chosen, seat, EMPTY, mine, theirs):
                        out.append(plays[t + 1])
            else:
                for at in DEFENCE_CELLS[seat] if kind is K_CREATURE else STRUCTURE_CELLS[seat]:
                    if cell_card[at] == EMPTY:
                        out.append(plays[at + 1])
        damage = rules.damage_phase[seat][phase]
        exh = self.cell_exh
        moves = BOARD_MOVES[seat]
        for at in mine:
            if exh[at]:
                continue
            c = cell_card[at]
            card = cards[c]
            if damage:
                self._activations(card, c, at, seat, mine, theirs, out)
            if card.kind is K_CREATURE:
                move = MOVE_ACTIONS[at]
                for d in moves[at]:
                    if cell_card[d] == EMPTY:
                        out.append(move[d])
        if advance:
            out.append(ADVANCE_ACTION)
        out.append(END_ACTION)
        return out

    def _targets(self, target: Target, seat: int, source: int, mine: list[int], theirs: list[int]) -> list[int]:
        """The locations a card of ``seat`` on ``source`` may choose as ``target``, in board order, given the locations
        of ``seat``'s cards (``mine``) and of the opponent's (``theirs``)."""
        if target is T_CHOSEN_FRIEND:
            return mine
        if target is not T_CHOSEN_ADJACENT_ENEMY:
            return theirs
        cell_card, owner = self.cell_card, self.rules.owner
        out: list[int] = []
        for t in ADJACENT[source]:
            c = cell_card[t]
            if c != EMPTY and owner[c] == 1 - seat:
                out.append(t)
        return out

    def _activations(self, card: CardRules, c: int, at: int, seat: int, mine: list[int], theirs: list[int], out: list[Any]) -> None:
        """Add the activations of ``card`` (catalog card ``c``) on ``at`` to ``out`` (the shared action objects), given the
        locations of each side's cards."""
        activate = ACTIVATIONS[at]
        if card.activates:
            chosen = self.rules.chooses[c]
            if chosen is None:
                out.append(ACTIVATE_ALONE[at])
            else:
                for t in self._targets(chosen, seat, at, mine, theirs):
                    out.append(activate[t - FACE])
        elif card.damage > 0:  # the seed: "any orthogonally neighbouring card", friend or enemy
            cell_card = self.cell_card
            for t in ADJACENT[at]:
                if cell_card[t] != EMPTY:
                    out.append(activate[t - FACE])
        if card.kind is K_CREATURE and card.damage > 0 and self._can_strike_face(at, seat):
            out.append(activate[0])

    def _can_strike_face(self, at: int, seat: int) -> bool:
        """The seed: a creature on the opponent's defensive position, in a lane without an opposing structure."""
        back = FACE_GUARD[seat][at]
        if back < 0:  # not on the opponent's defensive position
            return False
        guard = self.cell_card[back]
        return guard == EMPTY or self.rules.cards[guard].kind is not K_STRUCTURE or self.rules.owner[guard] != 1 - seat

    def random_playout(self, rand: Callable[[], float], depth: int | None = None) -> int:
        """``State.random_playout``, the same actions drawn alike, with this class's own methods called directly.

        A search's rollouts are most of its time. The core's loop calls the rules
        through bound methods of the game's class; compiled, this one's calls are
        native calls within the class.
        """
        played = 0
        limit = -1 if depth is None else depth
        record = self._actions
        while self._outcome is None and played != limit:
            legal = self._legal_actions()
            action = legal[int(rand() * len(legal))]
            self._apply(action)
            record.append(action)
            played += 1
        self._legal = None
        return played

    # -- applying actions --------------------------------------------------------
    def _apply(self, action: Any) -> None:
        kind = type(action)
        seat = self.turn
        if kind is RESHUFFLE_TYPE:
            self._answer(action.yes)
        elif kind is DRAW_TYPE:
            self.step = MAIN
            self._draw(seat)
        elif kind is NO_DRAW_TYPE:
            self.step = MAIN
        elif kind is PLAY_TYPE:
            at = action.at
            self._play(seat, self.rules.index[seat][action.card], EMPTY if at is None else at)
        elif kind is ACTIVATE_TYPE:
            target = action.target
            self._activate(seat, action.at, EMPTY if target is None else target)
        elif kind is MOVE_TYPE:
            src, dst = action.src, action.dst  # read once: an action's field is a generic attribute look-up here
            self.cell_card[dst] = self.cell_card[src]
            self.cell_hp[dst] = self.cell_hp[src]
            self.cell_exh[dst] = True
            self.cell_card[src] = EMPTY
            self.cell_exh[src] = False
        elif kind is ADVANCE_TYPE:
            c = self.rules.advance[seat]
            self._leave_hand(seat, c)
            self.discards[seat].append(c)
            self._next_phase(seat)
            self._to_discard_step()
        elif kind is END_TYPE:
            self._to_discard_step()
        elif kind is DISCARD_TYPE:
            c = self.rules.index[seat][action.card]
            self._leave_hand(seat, c)
            self.discards[seat].append(c)
            self._draw(seat)
            self._end_turn()
        elif kind is KEEP_TYPE:
            self._end_turn()
        self._settle()

    def _settle(self) -> None:
        """After an action: run the turn on while nobody has a choice to make."""
        if self._outcome is not None and self.votes:  # a game that ends asks nothing more
            self.votes = []
            self.pending = []
        while self._outcome is None and not self.votes:
            if self.step == NEXT:
                self._begin_turn()
            elif self.step == DRAW and not self.can_draw(self.turn):
                self.step = MAIN
            elif self.step == DISCARD and not self.hands[self.turn]:
                self._end_turn()
            else:
                return

    def _to_discard_step(self) -> None:
        self.step = DISCARD

    def _end_turn(self) -> None:
        seat = self.turn
        owner, cell_card, exh = self.rules.owner, self.cell_card, self.cell_exh
        for at in range(SIZE):
            if cell_card[at] != EMPTY and owner[cell_card[at]] == seat:
                exh[at] = False
        self.turns_done += 1
        if self.turns_done >= 2 * self.rules.turn_limit:
            self._finish_by_limit()
            return
        self.turn = 1 - seat
        self.step = NEXT  # the new turn begins once any reshuffle question is answered

    def _begin_turn(self) -> None:
        seat = self.turn
        self.step = DRAW
        rules = self.rules
        start = rules.phase_start[seat][self.phase[seat]]
        if start:
            self._resolve(start, seat, EMPTY, EMPTY)
        cards, owner = rules.cards, rules.owner
        starters = [(at, c) for at, c in enumerate(self.cell_card) if c != EMPTY and owner[c] == seat and cards[c].on_turn_start]
        for at, c in starters:
            if self._outcome is not None:
                return
            if self.votes:  # the start's draw asked the question: the cards' effects wait for the answer
                self.pending.append((cards[c].on_turn_start, seat, at, EMPTY, c))
            elif self.cell_card[at] == c:
                self._resolve(cards[c].on_turn_start, seat, at, EMPTY)

    def _next_phase(self, seat: int) -> None:
        """Move ``seat`` on one phase (looping to the first) and resolve the new phase's ``enter`` effects at once."""
        phases = self.rules.phase_enter[seat]
        self.phase[seat] = (self.phase[seat] + 1) % len(phases)
        enter = phases[self.phase[seat]]
        if enter:
            self._resolve(enter, seat, EMPTY, EMPTY)

    def _draw(self, seat: int) -> None:
        if not self.can_draw(seat):
            return
        pile = self.piles[seat]
        hand = self.hands[seat]
        c = pile.pop()
        hand.append(c)
        hand.sort()
        if self.open_pile[seat]:  # everyone knows the order, so everyone knows the card drawn
            insort(self.known[seat], c)
        if not pile and not self.piles[1 - seat] and self.reshuffle_open and (self.discards[0] or self.discards[1]):
            self.votes = [seat, 1 - seat]

    def _answer(self, yes: bool) -> None:
        if not yes:
            self.votes = []
            self.reshuffle_open = False  # the decision is final
            self._resume()
            return
        self.votes.pop(0)
        if not self.votes:
            for seat in (0, 1):
                pile = self.piles[seat]
                pile += self.discards[seat]
                self.discards[seat] = []
                self.rng.shuffle(pile)
                # Both piles were empty, so every hand is what its deck minus the public piles and the
                # board leaves, and the new draw pile is the discard pile everyone saw, in a secret order.
                self.known[seat] = self.hands[seat].copy()
                self.open_pile[seat] = False
            self._resume()

    def _resume(self) -> None:
        """The question is answered: resolve, in order, the effects it interrupted (they may ask it again)."""
        todo = self.pending
        self.pending = []
        for j in range(len(todo)):
            if self._outcome is not None:
                return
            steps, seat, source, chosen, card = todo[j]
            if self.votes:
                self.pending.extend(todo[j:])
                return
            if card == EMPTY or self.cell_card[source] == card:
                self._resolve(steps, seat, source, chosen)

    def _leave_hand(self, seat: int, c: int) -> None:
        """Card ``c`` leaves ``seat``'s hand in the open (played or discarded)."""
        self.hands[seat].remove(c)
        known = self.known[seat]
        if known and c in known:  # the copy played may have been the known one: only the rest stays certain
            known.remove(c)

    def _play(self, seat: int, c: int, at: int) -> None:
        """Play card ``c``: a spell at its chosen target ``at`` (EMPTY: none), a creature or structure onto ``at``."""
        card = self.rules.cards[c]
        self._leave_hand(seat, c)
        if card.kind is K_SPELL:
            self.graves[seat].append(c)
            self._resolve(card.on_play, seat, EMPTY, at)
            return
        self.cell_card[at] = c
        self.cell_hp[at] = card.health
        self.cell_exh[at] = False
        if card.on_play:
            self._resolve(card.on_play, seat, at, EMPTY)

    def _activate(self, seat: int, at: int, target: int) -> None:
        """Activate the card on ``at``; ``target`` is a location, FACE, or EMPTY (no chosen target)."""
        card = self.rules.cards[self.cell_card[at]]
        self.cell_exh[at] = True
        if target == FACE:
            self._hurt_player(1 - seat, card.damage)
        elif card.activates:
            self._resolve(card.on_activate, seat, at, target)
        else:
            self._hurt_card(target, card.damage)

    # -- effects ------------------------------------------------------------------
    def _resolve(self, steps: tuple[RuleStep, ...], seat: int, source: int, chosen: int) -> None:
        """Apply a card's or phase's effects in order for ``seat``.

        A draw that asks the reshuffle question stops play: the effects after it wait in ``pending``
        until the question is answered (rules.md, "Reshuffle").
        """
        for i in range(len(steps)):
            if self._outcome is not None:
                return
            if self.votes:
                self.pending.append((steps[i:], seat, source, chosen, EMPTY))
                return
            s = steps[i]
            t = s.target
            if s.effect is E_DRAW:
                for k in range(s.amount):
                    if not self.can_draw(seat):
                        break
                    self._draw(seat)
                    if self.votes:
                        rest = steps[i + 1 :]
                        if k + 1 < s.amount:
                            rest = (RuleStep(E_DRAW, s.amount - k - 1, t),) + rest
                        if rest:
                            self.pending.append((rest, seat, source, chosen, EMPTY))
                        return
                continue
            if s.effect is E_ADVANCE:  # only in on_play (cards.py): the seed's "playing one of these cards will end your turn"
                self._next_phase(seat)
                self._to_discard_step()
                continue
            if t is T_OWN_PLAYER or t is T_ENEMY_PLAYER:
                who = seat if t is T_OWN_PLAYER else 1 - seat
                if s.effect is E_DAMAGE:
                    self._hurt_player(who, s.amount)
                else:  # a player is never healed above the starting health (cards may pass their maximum)
                    self.hp[who] = max(self.hp[who], min(self.hp[who] + s.amount, self.rules.health))
                continue
            for cell in self._cells(t, seat, source, chosen):
                if s.effect is E_DAMAGE:
                    self._hurt_card(cell, s.amount)
                elif s.effect is E_HEAL:
                    self.cell_hp[cell] += s.amount
                elif s.effect is E_MEND:
                    top = max(self.cell_hp[cell], self.rules.cards[self.cell_card[cell]].health)
                    self.cell_hp[cell] = min(self.cell_hp[cell] + s.amount, top)
                else:
                    self.cell_exh[cell] = True

    def _cells(self, t: Target, seat: int, source: int, chosen: int) -> list[int]:
        # Identity tests, not ``in``: an enum member's hash is a Python-level method, and ``in`` a tuple compares with ==.
        if t is T_CHOSEN_ENEMY or t is T_CHOSEN_FRIEND or t is T_CHOSEN_ADJACENT_ENEMY:  # cards.CHOSEN
            return [chosen] if chosen != EMPTY and self.cell_card[chosen] != EMPTY else []
        if t is T_SELF:
            return [source] if self.cell_card[source] != EMPTY else []
        # The cells as a tuple of ints whatever the target: compiled, a loop over a typed tuple reads native ints, where
        # a loop over a value typed ``Any`` (a tuple or a range) goes through the generic iterator.
        if t is T_ADJACENT_ENEMIES or t is T_ADJACENT_FRIENDS:
            cells: tuple[int, ...] = ADJACENT[source]
        elif t is T_LANE_ENEMIES or t is T_LANE_FRIENDS:
            cells = LANE_CELLS[source]
        else:
            cells = EVERY_CELL
        want = seat if t is T_ADJACENT_FRIENDS or t is T_LANE_FRIENDS or t is T_ALL_FRIENDS else 1 - seat
        owner, cell_card = self.rules.owner, self.cell_card
        out: list[int] = []
        for at in cells:
            c = cell_card[at]
            if c != EMPTY and owner[c] == want:
                out.append(at)
        return out

    def _hurt_card(self, at: int, amount: int) -> None:
        self.cell_hp[at] -= amount
        if self.cell_hp[at] <= 0:  # a card dies when its health drops to 0
            c = self.cell_card[at]
            self.graves[self.rules.owner[c]].append(c)
            self.cell_card[at] = EMPTY
            self.cell_hp[at] = 0
            self.cell_exh[at] = False

    def _hurt_player(self, seat: int, amount: int) -> None:
        self.hp[seat] -= amount
        if self.hp[seat] <= 0:
            name = self.rules.decks[seat].character
            other = self.rules.decks[1 - seat].character
            self._outcome = Outcome((1 - seat,), f"{name} fell to 0 health: {other} wins", (self.hp[0], self.hp[1]))

    def board_health(self, seat: int) -> int:
        owner = self.rules.owner
        return sum(h for c, h in zip(self.cell_card, self.cell_hp, strict=True) if c != EMPTY and owner[c] == seat)

    def _finish_by_limit(self) -> None:
        limit = self.options["turn_limit"]
        names = [d.character for d in self.rules.decks]
        scores = (self.hp[0], self.hp[1])
        if self.hp[0] != self.hp[1]:
            w = 0 if self.hp[0] > self.hp[1] else 1
            reason = f"turn limit ({limit} turns each): {names[w]} has more health"
        else:
            b0, b1 = self.board_health(0), self.board_health(1)
            if b0 == b1:
                self._outcome = Outcome((0, 1), f"turn limit ({limit} turns each): equal health, a draw", scores)
                return
            w = 0 if b0 > b1 else 1
            reason = f"turn limit ({limit} turns each): equal health, {names[w]} has more health on the board"
        self._outcome = Outcome((w,), reason, scores)

    # -- notation and reasons ------------------------------------------------------
    def parse_action(self, text: str) -> Any:
        return A.parse(text)

    # -- hidden information ---------------------------------------------------------
    def determinize(self, seat: int | None, rng: Rng) -> State:
        """A world ``seat`` cannot tell from this one: what it has not seen is re-dealt.

        Of another player's hand only the cards everyone knows to be there
        (``known``: after a reshuffle, or dealt in the open) stay; the rest of the
        hand is re-dealt together with the draw pile, whose cards are the deck
        minus everything public. A draw pile whose order is public keeps it.
        """
        new: CelestialsState = self.clone()  # type: ignore[assignment]
        for s in (0, 1):
            if new.open_pile[s]:  # its order and so the whole hand are public
                continue
            if s == seat:
                rng.shuffle(new.piles[s])
                continue
            hidden = new.hands[s].copy()
            for c in new.known[s]:
                hidden.remove(c)
            pool = hidden + new.piles[s]
            rng.shuffle(pool)
            n = len(hidden)
            new.hands[s] = sorted(new.known[s] + pool[:n])
            new.piles[s] = pool[n:]
        new.rng = rng.spawn()
        return new

    # -- views ------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self._view(seat, full=False)

    def full_view(self) -> dict[str, Any]:
        return self._view(None, full=True)

    def _view(self, seat: int | None, full: bool) -> dict[str, Any]:
        catalog = self.rules.catalog
        players = []
        for s, deck in enumerate(self.rules.decks):
            p: dict[str, Any] = {
                "character": deck.character,
                "health": self.hp[s],
                "phase": self.phase_name(s),
                "hand_size": len(self.hands[s]),
                "draw_pile": len(self.piles[s]),
                "discard": [catalog[c].key for c in self.discards[s]],
                "graveyard": [catalog[c].key for c in self.graves[s]],
                "known_hand": [catalog[c].key for c in self.known[s]],
            }
            if full or s == seat:
                p["hand"] = [catalog[c].key for c in self.hands[s]]
            if full:
                p["draw_order"] = [catalog[c].key for c in self.piles[s]]
            players.append(p)
        cells = [
            {
                "at": B.NAMES[at],
                "card": catalog[c].key,
                "owner": self.rules.owner[c],
                "health": self.cell_hp[at],
                "exhausted": self.cell_exh[at],
            }
            for at, c in enumerate(self.cell_card)
            if c != EMPTY
        ]
        return {
            "seat": seat,
            "turn": self.turn,
            "step": STEP_NAMES[self.step],
            "turns_done": self.turns_done,
            "turn_limit": self.options["turn_limit"],
            "current_player": self.current_player,
            "votes": list(self.votes),
            "reshuffle_open": self.reshuffle_open,
            "players": players,
            "board": cells,
            "start_health": self.options["health"],
            "decks": [_deck_faces(deck) for deck in self.rules.decks],
        }


#: Each deck's faces by the deck's identity (the entry keeps the deck, so its id is not reused while cached): hashing a
#: deck hashes every card, which cost a quarter of a view.
_FACES: dict[int, tuple[Deck, dict[str, Any]]] = {}


def _deck_faces(deck: Deck) -> dict[str, Any]:
    """What every player may read of a deck: its phase cycle and each card's face and text (cached; never mutate it)."""
    found = _FACES.get(id(deck))
    if found is None or found[0] is not deck:
        from astrarium.games.celestials.svg import deck_summary

        if len(_FACES) >= 32:
            _FACES.clear()
        found = _FACES[id(deck)] = (deck, deck_summary(deck))
    return found[1]
