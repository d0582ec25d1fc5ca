"""The rules of Streamlines: one position and how actions move it on."""

from __future__ import annotations

from typing import Any, Final

from astrarium.core import Outcome, Rng, State
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import Dump, Engineer, Give, Lay, Move
from astrarium.games.streamlines.board import (
    SIZE,
    SQUARES,
    Scenario,
    arrows_text,
    rotate_ccw,
    rotate_cw,
    square_name,
)
from astrarium.games.streamlines.cards import (
    ACTION,
    CALM_STAR,
    CARGO,
    COLLAPSE,
    DESIGNED_EVENTS,
    ENGINEERING,
    EXTRA_MOVE,
    GATE,
    GATES,
    ION_STORM,
    KIND_OF_NAME,
    KINDS,
    MAX_GATE_PAIRS,
    NAMES,
    PICKUP,
    POWERS,
    REFUGEE,
    SALVAGE,
    STREAMLINES,
    TAILWIND,
    checked_setup,
    orientations,
    shape_of,
)
from astrarium.games.streamlines.movement import moves_from, same_move, why_path_illegal
from astrarium.games.streamlines.words import KEPT_AT_TURN_START

#: Planet stages: untouched, warned (one Collapse on it), collapsing (two), black hole.
CALM: Final = 0
WARNED: Final = 1
COLLAPSING: Final = 2
BLACK_HOLE: Final = 3
STAGE_NAMES = ("calm", "warned", "collapsing", "black hole")
_LAYS: Final[dict[tuple[int, int], Lay]] = {}
_GIVES: Final[dict[tuple[int, int], Give]] = {}

# What the rules read on every step, as ``Final`` module values: compiled, mypyc keeps them in C
# variables, where a name imported from an interpreted module (the cards, the board, the actions)
# is looked up in this module's dictionary on every use, and ``act.X`` in the actions module's too.
_POWERS: Final = POWERS
_STREAMLINES: Final = STREAMLINES
_GATES: Final = GATES
_DESIGNED_EVENTS: Final = DESIGNED_EVENTS
_NAMES: Final = NAMES
#: Square names by square (what ``square_name`` gives for the squares of the board).
_SQUARE_NAMES: Final = tuple(square_name(sq) for sq in range(SQUARES))
#: Names of a planet's stages and of the powers, as the view writes them.
STAGES = ("calm", "warned", "collapsing", "black hole")
POWER_ORDER = ("action", "cargo", "pickup", "extra-move", "engineering")
#: An arrow mask turned clockwise and anticlockwise, by mask.
_CW: Final = tuple(rotate_cw(mask) for mask in range(16))
_CCW: Final = tuple(rotate_ccw(mask) for mask in range(16))
#: The arrow masks each streamline card can be laid with.
_LAY_MASKS: Final = {kind: orientations(kind) for kind in STREAMLINES}
_DUMPS: Final = act.DUMPS
_DRAW: Final = act.DRAW
_DROP: Final = act.DROP
_PICKUP_ACTION: Final = act.PICKUP_ACTION
_EXTRA_ACTION: Final = act.EXTRA_ACTION
_ENGINEER_CW: Final = act.ENGINEER_CW
_ENGINEER_CCW: Final = act.ENGINEER_CCW
_END: Final = act.END
_DUMP: Final = Dump
_DRAW_CLASS: Final = act.Draw
_END_CLASS: Final = act.EndTurn
_MOVE: Final = Move
_LAY: Final = Lay
_DROP_CLASS: Final = act.DropOff
_GIVE: Final = Give
_PICKUP_CLASS: Final = act.UsePickup
_EXTRA_CLASS: Final = act.UseExtraMove
_ENGINEER: Final = Engineer


class StreamlinesState(State):
    """A position of Streamlines (all fields are plain lists and ints; see rules.md)."""

    scenario: Scenario
    required: int
    planet_at: tuple[int, ...]  # square -> planet index or -1
    escape: tuple[bool, ...]
    arrows: list[int]  # square -> streamline arrow mask
    laid: list[int]  # square -> card kind laid there, or -1
    gate_pos: list[int]  # 2 per pair: the squares where that pair's gates lie, or -1
    deck: list[int]  # the top is the end of the list
    discard: list[int]
    lost: list[int]
    rescued: int
    pos: list[int]  # seat -> ship square, or -1 when the ship is lost
    powers: list[list[int]]  # seat -> counts of ACTION .. ENGINEERING
    cargo: list[list[int]]
    stage: list[int]  # planet -> CALM .. BLACK_HOLE
    timer: list[int]  # planet -> turn ends left before a collapsing planet becomes a black hole
    turn: int
    turn_number: int
    used: int  # actions spent this turn
    free_moves: int
    bonus_draw: bool  # the next draw is free (after a Power or an Event, while the deck has cards)
    pending_dump: bool
    gate_stopped: bool
    events: list[str]
    carried_against: bool  # the ``movement=carried`` reading: an arrow may carry a ship in against a streamline
    free_lay: bool  # the ``free_lay`` house rule: laying a card costs no action

    # -- setup -------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        scn, counts = checked_setup(self.players, o)
        self.scenario = scn
        self.carried_against = o["movement"] == "carried"
        self.free_lay = o["free_lay"]
        self.required = o["required"] if o["required"] is not None else scn.required[self.players]
        planet_at = [-1] * SQUARES
        for i, sq in enumerate(scn.planets):
            planet_at[sq] = i
        self.planet_at = tuple(planet_at)
        self.escape = tuple(sq in scn.escapes for sq in range(SQUARES))
        self.arrows = [0] * SQUARES
        self.laid = [-1] * SQUARES
        for sq, mask in scn.streamlines:
            self.arrows[sq] = mask
            self.laid[sq] = shape_of(mask)
        self.gate_pos = [-1] * (2 * MAX_GATE_PAIRS)
        self.powers = [[0] * 5 for _ in range(self.players)]
        if o["deck"]:
            stacked = [KIND_OF_NAME[name] for name in o["deck"]]
            for seat in range(self.players):
                for kind in stacked[4 * seat : 4 * seat + 4]:
                    self.powers[seat][kind] += 1
            deck = stacked[4 * self.players :][::-1]
        else:
            deck = self._deal(counts)
        self.deck = deck
        self.discard = []
        self.lost = []
        self.rescued = 0
        self.pos = [scn.starts[seat % len(scn.starts)] for seat in range(self.players)]
        self.cargo = [[] for _ in range(self.players)]
        self.stage = [CALM] * len(scn.planets)
        self.timer = [0] * len(scn.planets)
        self.turn = 0
        self.turn_number = 0
        self.events = []
        self._start_turn(0)

    def _deal(self, counts: list[int]) -> list[int]:
        """Each ship: one Action, one Cargo, two Powers at random; the rest shuffled into the deck."""
        pool: list[int] = []
        for kind in sorted(POWERS):
            pool += [kind] * counts[kind]
        for seat in range(self.players):
            pool.remove(ACTION)
            pool.remove(CARGO)
            self.powers[seat][ACTION] += 1
            self.powers[seat][CARGO] += 1
        self.rng.shuffle(pool)
        for seat in range(self.players):
            for _ in range(2):
                self.powers[seat][pool.pop()] += 1
        deck = pool
        for kind in range(KINDS):
            if kind not in POWERS:
                deck += [kind] * counts[kind]
        self.rng.shuffle(deck)
        return deck

    def _share_native_fields(self, new: State) -> None:
        """Compiled build only (``State.clone``): the fields ``_copy_fields`` does not copy, stored directly.

        The core's default copies each of them by name, a generic look-up and store per field;
        these are native stores. Every field of the class is stored here or in ``_copy_fields``
        (a test checks a copy against the original field by field).
        """
        # ``clone`` makes ``new`` with ``type(self)``; declared as this class, a compiled build stores natively.
        n: StreamlinesState = new  # type: ignore[assignment]
        n.scenario = self.scenario
        n.required = self.required
        n.planet_at = self.planet_at
        n.escape = self.escape
        n.rescued = self.rescued
        n.turn = self.turn
        n.turn_number = self.turn_number
        n.used = self.used
        n.free_moves = self.free_moves
        n.bonus_draw = self.bonus_draw
        n.pending_dump = self.pending_dump
        n.gate_stopped = self.gate_stopped
        n.carried_against = self.carried_against
        n.free_lay = self.free_lay

    def _copy_fields(self, new: State) -> None:
        # See ``_share_native_fields``: the declared type makes the stores native in a compiled build, free in pure Python.
        n: StreamlinesState = new  # type: ignore[assignment]
        n.arrows = self.arrows.copy()
        n.laid = self.laid.copy()
        n.gate_pos = self.gate_pos.copy()
        n.deck = self.deck.copy()
        n.discard = self.discard.copy()
        n.lost = self.lost.copy()
        n.pos = self.pos.copy()
        n.powers = [p.copy() for p in self.powers]
        n.cargo = [c.copy() for c in self.cargo]
        n.stage = self.stage.copy()
        n.timer = self.timer.copy()
        n.events = self.events.copy()

    # -- small queries -------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def actions_left(self) -> int:
        return self.powers[self.turn][ACTION] - self.used

    def capacity(self, seat: int) -> int:
        return self.powers[seat][CARGO]

    def is_black_hole(self, sq: int) -> bool:
        p = self.planet_at[sq]
        return p >= 0 and self.stage[p] == BLACK_HOLE

    def gate_partner(self, sq: int) -> int:
        kind = self.laid[sq]
        if kind not in GATES:
            return -1
        i = 2 * (kind - GATE)
        a, b = self.gate_pos[i], self.gate_pos[i + 1]
        return b if a == sq else a

    def refugees_in_play(self) -> int:
        """Refugees rescued, or still able to be: in the deck, the discard pile and ships' holds."""
        aboard = sum(c.count(REFUGEE) for s, c in enumerate(self.cargo) if self.pos[s] >= 0)
        return self.rescued + self.deck.count(REFUGEE) + self.discard.count(REFUGEE) + aboard

    # -- movement (rules in movement.py) -------------------------------------------
    def moves_from(self, start: int) -> list[Move]:
        return moves_from(self, start)

    def why_path_illegal(self, start: int, path: tuple[int, ...], jump: bool) -> str:
        return why_path_illegal(self, start, path, jump)

    # -- legal actions -----------------------------------------------------------
    def _legal_actions(self) -> list[Any]:
        seat = self.turn
        cargo = self.cargo[seat]
        if self.pending_dump:
            return [_DUMPS[k] for k in sorted(set(cargo))]
        sq = self.pos[seat]
        powers = self.powers[seat]
        left = powers[ACTION] - self.used
        out: list[Any] = []
        if (left > 0 or self.free_moves > 0) and not self.gate_stopped:
            out += self.moves_from(sq)
        planet = self.planet_at[sq]
        can_draw = self.bonus_draw or (left > 0 and (self.deck or self.discard))
        if planet >= 0 and self.stage[planet] != BLACK_HOLE and can_draw:
            out.append(_DRAW)
        if (left > 0 or self.free_lay) and cargo:
            self._cargo_actions(seat, sq, planet, left, cargo, out)
        if powers[PICKUP] and self.laid[sq] >= 0 and len(cargo) < powers[CARGO]:
            out.append(_PICKUP_ACTION)
        if powers[EXTRA_MOVE] and not self.gate_stopped:
            out.append(_EXTRA_ACTION)
        if powers[ENGINEERING] and self.laid[sq] in _STREAMLINES:
            out.append(_ENGINEER_CW)
            if _CW[self.arrows[sq]] != _CCW[self.arrows[sq]]:
                out.append(_ENGINEER_CCW)
        out.append(_END)
        return out

    def _cargo_actions(self, seat: int, sq: int, planet: int, left: int, cargo: list[int], out: list[Any]) -> None:
        """Add what the ship on ``sq`` can do with its cargo: lay a card on its empty square (a streamline every way it
        can point, a gate), and with an action left drop refugees at an escape or give a card to a ship beside it with
        room in its hold."""
        kinds = sorted(set(cargo))
        if self.laid[sq] < 0 and planet < 0 and not self.escape[sq]:
            for kind in kinds:
                if kind in _STREAMLINES:
                    out += [_lay(kind, mask) for mask in _LAY_MASKS[kind]]
                elif kind in _GATES:
                    out.append(_lay(kind, 0))
        if left > 0 and self.escape[sq] and REFUGEE in cargo:
            out.append(_DROP)
        for other in range(self.players if left > 0 else 0):
            if other != seat and self.pos[other] == sq and len(self.cargo[other]) < self.powers[other][CARGO]:
                out += [_give(kind, other) for kind in kinds]

    def parse_action(self, text: str) -> Any:
        """The action ``text`` names. A move may be written by any whole path to an offered end square:
        it is that move (rules.md, Decisions 5), and the record writes the offered path."""
        action = act.parse(text)
        if isinstance(action, Move) and self._outcome is None and not self.pending_dump:
            legal = self.legal_actions()
            if action not in legal:
                same = self.same_move(action)
                if same is not None and same in legal:
                    return same
        return action

    def same_move(self, move: Move) -> Move | None:
        """The offered move that ``move`` is another whole path of, or None."""
        return same_move(self, self.pos[self.turn], move)

    # -- playing -------------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        mark = len(self.events)
        turn = self.turn_number
        self._play(action)
        if self.turn_number != turn:
            # A turn started: keep the last KEPT_AT_TURN_START events from before this action and every event of it (when
            # lost ships' turns pass in one action, several turns start; trimming at each dropped the action's own).
            self.events = self.events[max(0, mark - KEPT_AT_TURN_START) :]

    def _play(self, action: Any) -> None:
        seat = self.turn
        cls = type(action)
        if cls is _DUMP:
            self._dump(seat, action.kind)
            return
        if cls is _DRAW_CLASS:
            self._draw(seat)
            return
        self.bonus_draw = False
        if cls is _END_CLASS:
            self._end_turn()
        elif cls is _MOVE:
            self._do_move(seat, action)
        elif cls is _LAY:
            if not self.free_lay:
                self.used += 1
            sq = self.pos[seat]
            self.cargo[seat].remove(action.kind)
            self.laid[sq] = action.kind
            if action.kind in _GATES:
                i = 2 * (action.kind - GATE)
                self.gate_pos[i if self.gate_pos[i] < 0 else i + 1] = sq
            else:
                self.arrows[sq] = action.mask
        elif cls is _DROP_CLASS:
            self.used += 1
            cargo = self.cargo[seat]
            n = cargo.count(REFUGEE)
            self.cargo[seat] = [k for k in cargo if k != REFUGEE]
            self.rescued += n
            if self.rescued >= self.required:
                self._outcome = Outcome(
                    tuple(range(self.players)),
                    f"the team rescued {self.rescued} of the {self.required} refugees needed",
                    (float(self.rescued),) * self.players,
                )
        elif cls is _GIVE:
            self.used += 1
            self.cargo[seat].remove(action.kind)
            self.cargo[action.seat].append(action.kind)
        elif cls is _PICKUP_CLASS:
            self._spend_power(seat, PICKUP)
            sq = self.pos[seat]
            kind = self.laid[sq]
            self.laid[sq] = -1
            self.arrows[sq] = 0
            if kind in _GATES:
                i = 2 * (kind - GATE)
                self.gate_pos[i if self.gate_pos[i] == sq else i + 1] = -1
            self.cargo[seat].append(kind)
        elif cls is _EXTRA_CLASS:
            self._spend_power(seat, EXTRA_MOVE)
            self.free_moves += 1
        elif cls is _ENGINEER:
            self._spend_power(seat, ENGINEERING)
            sq = self.pos[seat]
            self.arrows[sq] = _CW[self.arrows[sq]] if action.clockwise else _CCW[self.arrows[sq]]

    def _spend_power(self, seat: int, kind: int) -> None:
        self.powers[seat][kind] -= 1
        self.discard.append(kind)

    def _do_move(self, seat: int, move: Move) -> None:
        if self.free_moves > 0:
            self.free_moves -= 1
        else:
            self.used += 1
        end = move.path[-1]
        self.pos[seat] = end
        if move.jump:
            self.gate_stopped = True
        if self.is_black_hole(end):
            self._lose_ship(seat, f"ship {seat} flew into the black hole at {_SQUARE_NAMES[end]} and is lost")
            if self._outcome is None:
                self._end_turn()

    def _take(self, reshuffle: bool = True) -> int:
        """The top card of the deck (the discard pile is shuffled in when the deck is dry); -1 if none."""
        if not self.deck:
            if not reshuffle or not self.discard:
                return -1
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.events.append("the discard pile was shuffled into a new deck")
        return self.deck.pop()

    def _draw(self, seat: int) -> None:
        # Whether this draw is free is settled here and the flag cleared either way: a paid
        # draw (one that reshuffles the discard pile) must not leave an earlier free draw behind.
        if not self.bonus_draw:
            self.used += 1
        self.bonus_draw = False
        card = self._take()
        sq = self.pos[seat]
        self.events.append(f"ship {seat} drew {_NAMES[card]} at {_SQUARE_NAMES[sq]}")
        if card in _POWERS:
            self.powers[seat][card] += 1
            self.bonus_draw = bool(self.deck)  # a free draw never reshuffles (Decisions 12)
        elif card == COLLAPSE:
            self._collapse(self.planet_at[sq])
            self.bonus_draw = bool(self.deck)
        elif card in _DESIGNED_EVENTS:
            self._event(card, self.planet_at[sq])
            self.bonus_draw = bool(self.deck)
        else:
            self.cargo[seat].append(card)
            if len(self.cargo[seat]) > self.powers[seat][CARGO]:
                self.pending_dump = True

    def _dump(self, seat: int, kind: int) -> None:
        self.cargo[seat].remove(kind)
        self.pending_dump = False
        self.events.append(f"ship {seat} dumped {_NAMES[kind]} into space")
        if kind == REFUGEE:
            self.lost.append(kind)
            self._check_hope()
        else:
            self.discard.append(kind)

    def _collapse(self, planet: int) -> None:
        where = _SQUARE_NAMES[self.scenario.planets[planet]]
        stage = self.stage[planet]
        if stage == CALM:
            self.stage[planet] = WARNED
            self.events.append(f"Collapse at {where}: a warning")
        elif stage == WARNED:
            self.stage[planet] = COLLAPSING
            self.timer[planet] = self.players + 1
            self.events.append(f"Collapse at {where}: the planet becomes a black hole after every player's next turn")
        else:
            self.discard.append(COLLAPSE)
            self.events.append(f"Collapse at {where}: no further effect, discarded")

    def _event(self, card: int, planet: int) -> None:
        """A designed Event card drawn for ``planet`` (rules.md, "Events"); it acts on the ship to act.

        Good news leaves the game once drawn (a Calm Star that came back could undo warnings
        for ever, and no game would be sure to end); Ion Storm goes to the discard pile.
        """
        seat = self.turn
        alive = self.pos[seat] >= 0
        where = _SQUARE_NAMES[self.scenario.planets[planet]]
        if card == CALM_STAR:
            if self.stage[planet] == WARNED:
                self.stage[planet] = CALM
                self.discard.append(COLLAPSE)
                self.events.append(f"Calm Star at {where}: the warning is lifted")
            else:
                self.events.append(f"Calm Star at {where}: no warning to lift")
        elif card == TAILWIND:
            if alive:
                self.free_moves += 1
            self.events.append(f"Tailwind at {where}: " + (f"ship {seat} has a free move this turn" if alive else "no ship to carry"))
        elif card == SALVAGE:
            found = next((i for i in range(len(self.discard) - 1, -1, -1) if self.discard[i] in _STREAMLINES), -1)
            if alive and found >= 0 and len(self.cargo[seat]) < self.powers[seat][CARGO]:
                kind = self.discard.pop(found)
                self.cargo[seat].append(kind)
                self.events.append(f"Salvage at {where}: ship {seat} takes a {_NAMES[kind]} card from the discard pile")
            else:
                self.events.append(f"Salvage at {where}: nothing to salvage, or no room in the hold")
        elif card == ION_STORM:
            if alive:
                self.used = min(self.powers[seat][ACTION], self.used + 1)
            self.events.append(f"Ion Storm at {where}: ship {seat} loses an action this turn")
        if card == ION_STORM:
            self.discard.append(card)
        else:
            self.lost.append(card)

    def _lose_ship(self, seat: int, why: str) -> None:
        self.pos[seat] = -1
        self.lost += self.cargo[seat]
        self.cargo[seat] = []
        for kind, n in enumerate(self.powers[seat]):
            self.lost += [kind] * n
        self.powers[seat] = [0] * 5
        self.events.append(why)
        if all(p < 0 for p in self.pos):
            self._outcome = Outcome((), "every ship is lost", (float(self.rescued),) * self.players)
        else:
            self._check_hope()

    def _check_hope(self) -> None:
        if self._outcome is None and self.refugees_in_play() < self.required:
            self._outcome = Outcome(
                (),
                f"too few refugees are left to reach {self.required} (rescued {self.rescued})",
                (float(self.rescued),) * self.players,
            )

    def _end_turn(self) -> None:
        while True:
            for p, sq in enumerate(self.scenario.planets):
                if self.stage[p] == COLLAPSING:
                    self.timer[p] -= 1
                    if self.timer[p] == 0:
                        self.stage[p] = BLACK_HOLE
                        self.events.append(f"the planet at {_SQUARE_NAMES[sq]} is now a black hole")
                        for s in range(self.players):
                            if self.pos[s] == sq:
                                self._lose_ship(s, f"ship {s} was swallowed by the black hole at {_SQUARE_NAMES[sq]}")
            if self._outcome is None and all(st == BLACK_HOLE for st in self.stage):
                self._outcome = Outcome((), "every planet is a black hole", (float(self.rescued),) * self.players)
            if self._outcome is not None:
                return
            self._start_turn((self.turn + 1) % self.players)
            if self.pos[self.turn] >= 0:
                return
            self.events.append(f"ship {self.turn} is lost: the turn passes after the Clock phase")

    def _start_turn(self, seat: int) -> None:
        """The Clock Is Ticking phase: one card for each planet that is not a black hole."""
        self.turn = seat
        self.turn_number += 1
        self.used = 0
        self.free_moves = 0
        self.bonus_draw = False
        self.pending_dump = False
        self.gate_stopped = False
        for p, sq in enumerate(self.scenario.planets):
            if self.stage[p] == BLACK_HOLE:
                continue
            card = self._take()
            if card < 0:
                break
            if card == COLLAPSE:
                self._collapse(p)
            elif card in _DESIGNED_EVENTS:
                self._event(card, p)
            else:
                self.events.append(f"clock for {_SQUARE_NAMES[sq]}: {_NAMES[card]}, discarded")
                self.discard.append(card)

    # -- chance and views -------------------------------------------------------
    def determinize(self, seat: int | None, rng: Rng) -> State:
        new: StreamlinesState = self.clone()  # type: ignore[assignment]
        rng.shuffle(new.deck)
        new.rng = rng.spawn()
        return new

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything but the order of the deck (its contents follow from what is in sight)."""
        s = self
        squares = {}
        for sq in range(SIZE * SIZE):
            kind = s.laid[sq]
            if kind >= 0:
                squares[square_name(sq)] = NAMES[kind] if kind in GATES else f"{NAMES[kind]} {arrows_text(s.arrows[sq])}"
        return {
            "scenario": s.scenario.name,
            "turn": s.turn,
            "turn_number": s.turn_number,
            "actions_left": s.actions_left(),
            "free_moves": s.free_moves,
            "bonus_draw": s.bonus_draw,
            "must_dump": s.pending_dump,
            "gate_stopped": s.gate_stopped,
            "rescued": s.rescued,
            "required": s.required,
            "planets": [
                {
                    "square": square_name(sq),
                    "stage": STAGES[s.stage[p]],
                    "collapse_cards": min(s.stage[p], 2),
                    "turns_left": s.timer[p] if s.stage[p] == 2 else None,
                }
                for p, sq in enumerate(s.scenario.planets)
            ],
            "escapes": [square_name(sq) for sq in s.scenario.escapes],
            "streamlines": squares,
            "ships": [
                {
                    "square": square_name(s.pos[seat]) if s.pos[seat] >= 0 else None,
                    "powers": {POWER_ORDER[k]: n for k, n in enumerate(s.powers[seat]) if n},
                    "cargo": sorted(NAMES[k] for k in s.cargo[seat]),
                }
                for seat in range(s.players)
            ],
            "deck": len(s.deck),
            "deck_contents": _counts(s.deck),
            "discard": _counts(s.discard),
            "lost": _counts(s.lost),
            "events": list(s.events),
        }

    def full_view(self) -> dict[str, Any]:
        data = self.view(None)
        data["deck_order"] = [NAMES[k] for k in self.deck]
        data["discard_order"] = [NAMES[k] for k in self.discard]
        return data


def _lay(kind: int, mask: int) -> Lay:
    key = (kind, mask)
    a = _LAYS.get(key)
    if a is None:
        a = _LAYS[key] = Lay(kind, mask)
    return a


def _give(kind: int, seat: int) -> Give:
    key = (kind, seat)
    a = _GIVES.get(key)
    if a is None:
        a = _GIVES[key] = Give(kind, seat)
    return a


__all__ = ["STAGE_NAMES", "StreamlinesState"]


def _counts(cards: list[int]) -> dict[str, int]:
    counts = [0] * KINDS
    for k in cards:
        counts[k] += 1
    return {NAMES[k]: n for k, n in enumerate(counts) if n}
