"""Fixed Connected Worlds strategies: the cheap plans a good rule set must not reward.

Each player follows one plan whatever the other side does. They are kept as named
players so that the balance of the game's house rules stays a regression test
(the game's ``rules.md``, "Design notes" and "Balance"): the searching player must
hold them off, and neither may win most games against the other.

- ``cw-rusher``: every fighting unit at once towards the nearest enemy base (then the
  nearest enemy unit), by the shortest route the rules allow: launch, cross space, land,
  attack. It attacks only where its force there would win, builds the strongest unit it
  can pay for, and gathers with the cards movement did not need.
- ``cw-expander``: the three-world plan. It sends bases to the nearest worlds where it
  has none, deploys every base card where it adds the most territory, buys Standard
  Bases and gathers, and never leaves its territory to attack. With ``guard=true`` (the
  default) it deploys its fighting units on its base nearest to an enemy, strikes at
  enemy pieces inside its territory next to its units when it would win, and once it
  holds the worlds the expansion victory needs (in capture and annihilation, where
  expansion wins nothing: two worlds) it buys the strongest unit it can pay for instead
  of bases.

They read the legal actions, their own seat's view and the public map (through the
game's :mod:`~astrarium.games.connected_worlds.plan` distances), never another hand.

Each takes ``ties``: how it picks among moves its plan values alike (two hexes as near a target, two
cards that both cover a distance). ``first`` (the default) takes the first in the map's order of hexes
and worlds and the cards' order, an order that mirror-image places on a map do not share; ``random``
takes one of them uniformly, drawn from the player's own generator (``random.Random(seed)``), so a game
with the same seeds is played the same way again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from astrarium.agents.search import check_flag, seat_to_act
from astrarium.core.errors import short
from astrarium.core.game import State
from astrarium.games.connected_worlds import actions as A
from astrarium.games.connected_worlds.combat import BaseFate, base_falls, resolve
from astrarium.games.connected_worlds.evaluate import strongest_fighters
from astrarium.games.connected_worlds.plan import FAR, distances, distances_to, hops

GAME_ID = "connected-worlds"

T = TypeVar("T")


class Ties(StrEnum):
    """How a scripted player picks among the moves its plan values alike."""

    FIRST = "first"
    RANDOM = "random"


class TieBreak:
    """Picks the best of some moves by a value; where several share the best value, the first (``first``: by the order
    given, as ``min`` and ``max`` do) or one drawn uniformly from the player's generator (``random``)."""

    __slots__ = ("rng",)

    def __init__(self, ties: Ties | str, seed: int) -> None:
        if not isinstance(ties, str) or ties not in set(Ties):
            raise ValueError(f"ties must be one of {', '.join(Ties)}, not {short(repr(ties), 40)}")
        self.rng = random.Random(seed) if Ties(ties) is Ties.RANDOM else None

    def least(self, items: Sequence[T], value: Callable[[T], Any], order: Callable[[T], Any] | None = None) -> T:
        """The item of the least ``value``; ``first`` breaks ties by ``order`` (else by position)."""
        if self.rng is None:
            return min(items, key=value if order is None else lambda a: (value(a), order(a)))
        best = min(value(a) for a in items)
        return self.any([a for a in items if value(a) == best])

    def most(self, items: Sequence[T], value: Callable[[T], Any], order: Callable[[T], Any] | None = None) -> T:
        """The item of the greatest ``value``; ``first`` breaks ties by the greatest ``order`` (else by position)."""
        if self.rng is None:
            return max(items, key=value if order is None else lambda a: (value(a), order(a)))
        best = max(value(a) for a in items)
        return self.any([a for a in items if value(a) == best])

    def any(self, items: Sequence[T]) -> T:
        """One of ``items``, all valued alike: the first, or one drawn."""
        return items[0] if self.rng is None else self.rng.choice(items)


@dataclass(slots=True)
class _Seen:
    """What the seat to play sees, read once per decision: its view, the public map and pieces; and how the player
    breaks ties between moves it values alike."""

    state: Any
    seat: int
    view: dict[str, Any]
    bases: dict[int, tuple[int, int]]
    units: list[tuple[int, int, int, bool]]
    ties: TieBreak

    @classmethod
    def read(cls, state: State, ties: TieBreak) -> _Seen:
        if state.game.id != GAME_ID:
            raise ValueError(f"this player plays only {GAME_ID}, not {state.game.id}")
        seat = seat_to_act(state)
        view = state.view(seat)
        ids = state.board.cell_ids  # type: ignore[attr-defined]
        bases = {ids[name]: (owner, strength) for name, owner, strength in view["bases"]}
        units = [(ids[name], owner, strength, engaged) for name, owner, strength, engaged in view["units"]]
        return cls(state, seat, view, bases, units, ties)

    @property
    def board(self) -> Any:
        return self.state.board

    def cell(self, name: str) -> int:
        return int(self.board.cell_ids[name])

    def card(self, slug: str) -> Any:
        table = self.state.cards
        return table.cards[table.by_slug[slug]]

    def my_bases(self) -> list[int]:
        return sorted(c for c, (o, _) in self.bases.items() if o == self.seat)

    def territory(self, seat: int) -> set[int]:
        terr = self.board.territory
        out: set[int] = set()
        for cell, (owner, _) in self.bases.items():
            if owner == seat:
                out.update(terr[cell])
        return out

    def enemy_bases(self) -> list[int]:
        return sorted(c for c, (o, _) in self.bases.items() if o != self.seat)

    def enemy_units(self) -> list[int]:
        return sorted({c for c, o, _, _ in self.units if o != self.seat})

    def worlds_with_base(self) -> set[int]:
        board_of = self.board.board_of
        return {board_of[c] for c in self.my_bases() if board_of[c]}

    def would_win(self, cell: int, strength: int, helpers: tuple[int, ...] = ()) -> bool:
        """Whether a unit of ``strength`` entering ``cell`` wins there, with the seat's units already in it (and ``helpers``)."""
        mine = [s for c, o, s, _ in self.units if c == cell and o == self.seat]
        theirs = [s for c, o, s, _ in self.units if c == cell and o != self.seat]
        base = self.bases.get(cell)
        base_strength = base[1] if base is not None and base[0] != self.seat else 0
        result = resolve([*mine, strength, *helpers], theirs, base_strength)
        if base_strength:
            return result.base in (BaseFate.CAPTURED, BaseFate.DESTROYED)
        return not result.defenders

    def can_take(self, cell: int, strength: int, mover: int, *, played: bool) -> bool:
        """Whether a unit of ``strength`` entering ``cell`` wins there this turn, helped if need be by the seat's other
        free units next to it, as many as the movement cards left in the hand can bring in (combat waits for the turn's end).

        ``mover`` is the hex the unit comes from; ``played``: its card has left the hand already.
        """
        if self.would_win(cell, strength):
            return True
        cards = self.state.cards
        hand = self.view["players"][self.seat].get("hand", [])
        movers = sum(1 for slug in hand if not cards.cards[cards.by_slug[slug]].is_unit and cards.cards[cards.by_slug[slug]].movement)
        if not played:
            movers -= 1
        near = set(self.board.neighbours[cell])
        held = {(self.cell(name), s) for name, o, s in self.view["held"] if o == self.seat}
        enemy = self.state.enemy_cells(self.seat)
        helpers: list[int] = []
        skipped = False
        for c, o, s, engaged in sorted(self.units, key=lambda u: -u[2]):
            if o != self.seat or engaged or (c, s) in held or c not in near or c in enemy:
                continue
            if c == mover and s == strength and not skipped:
                skipped = True  # the moving unit itself
                continue
            if len(helpers) >= movers:
                break
            helpers.append(s)
            if self.would_win(cell, strength, tuple(helpers)):
                return True
        return False


def _home_found(seen: _Seen, legal: list[Any]) -> Any:
    """Setup: the centre of the seat's own player world (the map's player worlds in order), else the first free hex."""
    worlds = [w for w in seen.board.worlds if w.kind == "player"] or list(seen.board.worlds)
    home = worlds[seen.seat % len(worlds)]
    names = [seen.board.cell_names[c] for c in home.cells]
    by_cell = {a.cell: a for a in legal}
    centre = f"{home.key}:0,0"
    if centre in by_cell:
        return by_cell[centre]
    for name in names:
        if name in by_cell:
            return by_cell[name]
    return legal[0]


def _nearest(dist: dict[int, int], targets: list[int] | set[int]) -> int:
    return min((dist[t] for t in targets if t in dist), default=FAR)


def _card_for(moves: list[Any], seen: _Seen, need: int) -> Any:
    """The move whose card's movement just covers ``need`` (the smallest that does), else the longest."""
    movement = {a: seen.card(a.card).movement for a in moves}
    enough = [a for a in moves if movement[a] >= need]
    if enough:
        return seen.ties.least(enough, movement.__getitem__, lambda a: a.card)
    return seen.ties.most(moves, movement.__getitem__, lambda a: a.card)


def _economy(seen: _Seen, legal: list[Any], *, unit_buy: str | None, research: str | None) -> Any:
    """Gather with every gathering card left, then buy (the strongest fighting unit, or a named card), else end."""
    for a in legal:
        if type(a) is A.Gather:
            return a
    builds = [a for a in legal if type(a) is A.Build]
    if builds:
        if unit_buy is not None:
            wanted = [a for a in builds if a.buy == unit_buy]
            if wanted:
                return seen.ties.any(wanted)
        else:
            fighters = [a for a in builds if not seen.card(a.buy).is_base]
            if fighters:
                return seen.ties.most(fighters, lambda a: seen.card(a.buy).strength, lambda a: a.buy)
    if research is not None:
        for a in legal:
            if type(a) is A.Research and a.buy == research:
                return a
    return A.END


def _spread_deploy(seen: _Seen, deploys: list[Any]) -> Any:
    """The base deployment that adds the most new territory (ties: the first hex in map order)."""
    mine = seen.territory(seen.seat)
    terr = seen.board.territory

    def gain(a: Any) -> int:
        return sum(1 for c in terr[seen.cell(a.cell)] if c not in mine)

    return seen.ties.most(deploys, gain, lambda a: -seen.cell(a.cell))


def _spare_moves(seen: _Seen, legal: list[Any], guards: dict[tuple[int, int], int]) -> list[Any]:
    """``legal`` without the moves of units their base needs: a unit may leave only if more of its kind stand there
    than its base's ``guards`` keep."""
    count: dict[tuple[int, int], int] = {}
    for c, o, s, _ in seen.units:
        if o == seen.seat:
            count[(c, s)] = count.get((c, s), 0) + 1
    spare = {key: n - guards.get(key, 0) for key, n in count.items()}
    return [a for a in legal if not (type(a) is A.Move and a.piece > 0 and spare.get((seen.cell(a.cell), a.piece), 0) <= 0)]


class _ScriptedConnected:
    """Base of the fixed strategies: built like every player (a seed and keyword options); the seed draws among equal
    moves under ``ties = random``."""

    name = "cw-scripted"
    games = (GAME_ID,)
    #: It picks whole moves, portals and deployments: under ``choices = steps`` it plays them a part at a time.
    chooses_whole = True

    def __init__(self, seed: int = 0, *, ties: Ties | str = Ties.FIRST) -> None:
        self.seed = seed
        self.ties = TieBreak(ties, seed)

    def choose(self, state: State) -> Any:
        seen = _Seen.read(state, self.ties)
        legal = state.legal_actions()
        phase = seen.view["phase"]
        if phase == "setup":
            return _home_found(seen, legal)
        return self._play(seen, legal, phase)

    def _play(self, seen: _Seen, legal: list[Any], phase: str) -> Any:
        """The plan's action after setup (``phase``: ``play`` or ``moving``)."""
        raise NotImplementedError


class RusherPlayer(_ScriptedConnected):
    """All fighting units at the nearest enemy base by the shortest legal route; attacks only where it would win."""

    name = "cw-rusher"

    def _play(self, seen: _Seen, legal: list[Any], phase: str) -> Any:
        targets = seen.enemy_bases() or seen.enemy_units()
        if phase == "moving":
            return self._step(seen, legal, targets, distances_to(seen.state, targets, 1, seen.seat) if targets else {})
        deploys = [a for a in legal if type(a) is A.Deploy]
        fighters = [a for a in deploys if not seen.card(a.card).is_base]
        to_target = distances_to(seen.state, targets, 1, seen.seat) if targets else {}
        if fighters and targets:
            strongest = max(seen.card(a.card).strength for a in fighters)
            best = [a for a in fighters if seen.card(a.card).strength == strongest]
            return seen.ties.least(best, lambda a: to_target.get(seen.cell(a.cell), FAR), lambda a: a.cell)
        move = self._move(seen, legal, to_target, targets)
        if move is not None:
            return move
        bases = [a for a in deploys if seen.card(a.card).is_base]
        if bases:
            return _spread_deploy(seen, bases)
        return _economy(seen, legal, unit_buy=None, research="harvester")

    def _move(self, seen: _Seen, legal: list[Any], to_target: dict[int, int], targets: list[int]) -> Any:
        """The unit nearest to a target that can make progress, with the card that just covers the distance (None: none can).

        Progress is a step nearer the target onto a hex without enemy pieces, or into a target it can take this turn; a
        unit that could only wait next to a base it cannot take keeps its card for gathering and building.
        """
        if not to_target:
            return None
        moves = [a for a in legal if type(a) is A.Move and a.piece > 0]
        by_distance: dict[int, list[tuple[str, int]]] = {}
        for cell_name, piece in sorted({(a.cell, a.piece) for a in moves}):
            d = to_target.get(seen.cell(cell_name), FAR)
            if 0 < d < FAR:
                by_distance.setdefault(d, []).append((cell_name, piece))
        for d in sorted(by_distance):
            able = [(c, p) for c, p in by_distance[d] if self._progress(seen, seen.cell(c), p, to_target, targets)]
            if able:
                cell_name, piece = seen.ties.any(able)
                return _card_for([a for a in moves if a.cell == cell_name and a.piece == piece], seen, d)
        return None

    def _progress(self, seen: _Seen, cell: int, piece: int, to_target: dict[int, int], targets: list[int]) -> bool:
        """Whether the unit on ``cell`` has a step worth a card: nearer a target on a free hex, or into a target it takes."""
        enemy = seen.state.enemy_cells(seen.seat)
        now = to_target.get(cell, FAR)
        for t in seen.state.step_targets(cell, piece, seen.seat):
            if t in enemy:
                if t in targets and seen.can_take(t, piece, cell, played=False):
                    return True
            elif to_target.get(t, FAR) < now:
                return True
        return False

    def _step(self, seen: _Seen, legal: list[Any], targets: list[int], to_target: dict[int, int]) -> Any:
        """One step nearer the nearest target, entering an enemy hex only where the unit would win."""
        moving = seen.view["moving"]
        here = seen.cell(moving["at"])
        piece = 0 if moving["piece"] == "base" else int(moving["piece"][1:])
        if not piece:
            return A.STOP
        now = to_target.get(here, FAR)
        enemy = seen.state.enemy_cells(seen.seat)
        steps = [a for a in legal if type(a) is A.Step]
        attacks = [a for a in steps if seen.cell(a.cell) in enemy and (not targets or seen.cell(a.cell) in targets)]
        attacks = [a for a in attacks if seen.can_take(seen.cell(a.cell), piece, here, played=True)]
        if attacks:
            return seen.ties.any(attacks)
        nearer = [a for a in steps if seen.cell(a.cell) not in enemy and to_target.get(seen.cell(a.cell), FAR) < now]
        if not nearer:
            return A.STOP
        return seen.ties.least(nearer, lambda a: to_target.get(seen.cell(a.cell), FAR))


class ExpanderPlayer(_ScriptedConnected):
    """Bases to three worlds and the most territory; with ``guard`` its fighting units sit on its most exposed base."""

    name = "cw-expander"

    def __init__(self, seed: int = 0, *, guard: bool = True, ties: Ties | str = Ties.FIRST) -> None:
        super().__init__(seed, ties=ties)
        self.guard = check_flag("guard", guard)

    def _play(self, seen: _Seen, legal: list[Any], phase: str) -> Any:
        if phase == "moving":
            return self._step(seen, legal)
        deploy = self._deploy(seen, legal)
        if deploy is not None:
            return deploy
        if self.guard:
            strike = self._strike(seen, legal)
            if strike is not None:
                return strike
        move = self._move(seen, legal)
        if move is not None:
            return move
        # Standard Bases until it holds the worlds it needs; then, guarding, the strongest unit it can pay for. Where
        # expansion does not win (capture, annihilation), a guard arms once it has bases on two worlds.
        worlds = len(seen.worlds_with_base())
        settled = worlds >= seen.state.worlds_needed or (seen.view["victory"] != "expansion" and worlds >= 2)
        buy = None if settled and self.guard else "standard-base"
        return _economy(seen, legal, unit_buy=buy, research="harvester")

    def _deploy(self, seen: _Seen, legal: list[Any]) -> Any | None:
        """A base card where it adds the most territory; guarding, else the strongest fighter onto the base nearest the
        enemy. None when there is neither."""
        deploys = [a for a in legal if type(a) is A.Deploy]
        bases = [a for a in deploys if seen.card(a.card).is_base]
        if bases:
            return _spread_deploy(seen, bases)
        fighters = [a for a in deploys if not seen.card(a.card).is_base]
        if not fighters or not self.guard:
            return None
        guarded = self._exposed_base(seen)
        on_base = [a for a in fighters if seen.cell(a.cell) == guarded]
        return seen.ties.most(on_base, lambda a: seen.card(a.card).strength) if on_base else None

    def _intruders(self, seen: _Seen, cell: int, strength: int) -> list[int]:
        """Hexes of the seat's territory next to ``cell`` holding enemy pieces that a unit of ``strength`` would beat."""
        mine = seen.territory(seen.seat)
        enemy = seen.state.enemy_cells(seen.seat)
        return [t for t in seen.board.neighbours[cell] if t in mine and t in enemy and seen.would_win(t, strength)]

    def _strike(self, seen: _Seen, legal: list[Any]) -> Any:
        """Guarding: a unit next to an intruder in the seat's territory that it would beat moves to fight it (None: none)."""
        held = {(seen.cell(name), s) for name, o, s in seen.view["held"] if o == seen.seat}
        moves = [a for a in legal if type(a) is A.Move and a.piece > 0]
        units = list(dict.fromkeys((a.cell, a.piece) for a in moves))
        able = [(c, p) for c, p in units if (seen.cell(c), p) not in held and self._intruders(seen, seen.cell(c), p)]
        if not able:
            return None
        cell_name, piece = seen.ties.any(able)
        return _card_for([a for a in moves if a.cell == cell_name and a.piece == piece], seen, 1)

    def _exposed_base(self, seen: _Seen) -> int | None:
        """The seat's base nearest (by map distance) to any enemy piece."""
        table = hops(seen.board)
        enemy = seen.state.enemy_cells(seen.seat)
        mine = seen.my_bases()
        if not mine:
            return None
        return seen.ties.least(mine, lambda c: min((table[e][c] for e in enemy), default=FAR), lambda c: c)

    def _goal(self, seen: _Seen, dist: dict[int, int]) -> int | None:
        """The hex to send a base to: on the nearest world without a base of the seat, the one adding most territory."""
        have = seen.worlds_with_base()
        board = seen.board
        near: dict[int, int] = {}
        for cell, d in dist.items():
            k = board.board_of[cell]
            if not k or k in have or cell in seen.bases or d == 0:
                continue
            near[cell] = d
        if not near:
            return None
        # only the nearest hexes can be the least (distance first), so only they have their new territory counted
        closest = min(near.values())
        enemy_terr: set[int] = set()
        for p in range(seen.state.players):
            if p != seen.seat:
                enemy_terr |= seen.territory(p)
        value = {cell: (d, -sum(1 for c in board.territory[cell] if c not in enemy_terr)) for cell, d in near.items() if d == closest}
        return seen.ties.least(sorted(value), value.__getitem__)

    def _spare_bases(self, seen: _Seen) -> list[int]:
        """Bases the seat can send away: in space, or sharing a world with another of its bases."""
        board_of = seen.board.board_of
        mine = seen.my_bases()
        per_world: dict[int, int] = {}
        for c in mine:
            per_world[board_of[c]] = per_world.get(board_of[c], 0) + 1
        return [c for c in mine if board_of[c] == 0 or per_world[board_of[c]] > 1]

    def _move(self, seen: _Seen, legal: list[Any]) -> Any:
        if len(seen.worlds_with_base()) >= seen.state.worlds_needed:
            return None
        moves = [a for a in legal if type(a) is A.Move and a.piece == 0]
        reach: dict[int, int] = {}
        for cell in self._spare_bases(seen):
            dist = distances(seen.state, cell, 0, seen.seat)
            goal = self._goal(seen, dist)
            if goal is not None:
                reach[cell] = dist[goal]
        if not reach:
            return None
        cell = seen.ties.least(list(reach), reach.__getitem__)
        name = seen.board.cell_names[cell]
        mine = [a for a in moves if a.cell == name]
        return _card_for(mine, seen, reach[cell]) if mine else None

    def _step(self, seen: _Seen, legal: list[Any]) -> Any:
        moving = seen.view["moving"]
        here = seen.cell(moving["at"])
        if moving["piece"] != "base":
            targets = self._intruders(seen, here, int(moving["piece"][1:])) if self.guard else []
            strikes = [a for a in legal if type(a) is A.Step and seen.cell(a.cell) in targets]
            return seen.ties.any(strikes) if strikes else A.STOP
        dist = distances(seen.state, here, 0, seen.seat)
        board_of = seen.board.board_of
        if board_of[here] and board_of[here] not in self._worlds_without(seen, here):
            return A.STOP  # arrived on a world that had no other base of the seat
        goal = self._goal(seen, dist)
        if goal is None:
            return A.STOP
        to_goal = distances_to(seen.state, [goal], 0, seen.seat)
        nearer = [a for a in legal if type(a) is A.Step and to_goal.get(seen.cell(a.cell), FAR) < dist[goal]]
        if not nearer:
            return A.STOP
        return seen.ties.least(nearer, lambda a: to_goal.get(seen.cell(a.cell), FAR))

    def _worlds_without(self, seen: _Seen, here: int) -> set[int]:
        """Worlds the moving base still has to leave: those where the seat has another base besides it."""
        board_of = seen.board.board_of
        return {board_of[c] for c in seen.my_bases() if c != here and board_of[c]}


#: Enemy units on a base's board this many map steps from it (or nearer) can strike it in their next turn (a planet is
#: at most 4 steps across; a turn's movement cards seldom carry one unit further than 6).
STRIKE_RANGE = 6


class GeneralPlayer(_ScriptedConnected):
    """Guard what is threatened, strike with the rest: the expander's defence and economy with the rusher's attack.

    Each base keeps on it the units it needs to hold against the enemy units within
    reach of its next turn (:meth:`_threat`); every other unit (the *surplus*) moves as the rusher
    does, at the nearest of the enemy bases its surplus could take (else the nearest enemy base),
    and attacks only where it would win. Fighting unit cards are deployed on the base that needs them most
    (else where the rusher would deploy them), base cards where they add the most territory. In
    expansion it sends spare bases to new worlds and buys Standard Bases until it holds the
    worlds it needs; otherwise it buys the strongest unit it can pay for.
    """

    name = "cw-general"

    def __init__(self, seed: int = 0, *, ties: Ties | str = Ties.FIRST) -> None:
        super().__init__(seed, ties=ties)
        # its parts play with the general's own view of the position (:class:`_Seen`), ties and generator included
        self._rusher = RusherPlayer(seed)
        self._expander = ExpanderPlayer(seed, guard=True)

    def _play(self, seen: _Seen, legal: list[Any], phase: str) -> Any:
        guards, needs = self._defence(seen)
        targets = self._targets(seen, guards)
        to_target = distances_to(seen.state, targets, 1, seen.seat) if targets else {}
        if phase == "moving":
            return self._moving_step(seen, legal, targets, to_target)
        action = self._deploy(seen, legal, needs, to_target)
        if action is None:
            action = self._expander._strike(seen, legal)
        if action is None:
            action = self._advance(seen, legal, guards, targets, to_target)
        if action is not None:
            return action
        worlds = len(seen.worlds_with_base())
        expanding = seen.view["victory"] == "expansion" and worlds < seen.state.worlds_needed
        return _economy(seen, legal, unit_buy="standard-base" if expanding and not needs else None, research="harvester")

    def _moving_step(self, seen: _Seen, legal: list[Any], targets: list[int], to_target: dict[int, int]) -> Any:
        """The moving piece's next step: a base, or a unit with intruders on its board to meet, steps as the expander
        does; any other unit heads for the targets as the rusher does."""
        moving = seen.view["moving"]
        if moving["piece"] == "base":
            return self._expander._step(seen, legal)
        here = seen.cell(moving["at"])
        strength = int(moving["piece"][1:])
        if self._expander._intruders(seen, here, strength):
            return self._expander._step(seen, legal)
        return self._rusher._step(seen, legal, targets, to_target)

    def _deploy(self, seen: _Seen, legal: list[Any], needs: dict[int, int], to_target: dict[int, int]) -> Any | None:
        """A deployment, if any: a base card where it adds the most territory; else the strongest fighter, on the
        base that needs the most force, else nearest the targets. None when no card can be deployed."""
        deploys = [a for a in legal if type(a) is A.Deploy]
        bases = [a for a in deploys if seen.card(a.card).is_base]
        if bases:
            return _spread_deploy(seen, bases)
        fighters = [a for a in deploys if not seen.card(a.card).is_base]
        if not fighters:
            return None
        strongest = max(seen.card(a.card).strength for a in fighters)
        best = [a for a in fighters if seen.card(a.card).strength == strongest]
        on_base = [a for a in best if seen.cell(a.cell) in needs]
        if on_base:
            return seen.ties.least(on_base, lambda a: -needs[seen.cell(a.cell)], lambda a: a.cell)
        return seen.ties.least(best, lambda a: to_target.get(seen.cell(a.cell), FAR), lambda a: a.cell)

    def _advance(
        self, seen: _Seen, legal: list[Any], guards: dict[tuple[int, int], int], targets: list[int], to_target: dict[int, int]
    ) -> Any | None:
        """A move towards the targets with a unit its base can spare (as the rusher moves), else, in expansion, a move
        as the expander makes; None when there is neither."""
        if targets:
            move = self._rusher._move(seen, _spare_moves(seen, legal, guards), to_target, targets)
            if move is not None:
                return move
        if seen.view["victory"] == "expansion":
            return self._expander._move(seen, legal)
        return None

    def _targets(self, seen: _Seen, guards: dict[tuple[int, int], int]) -> list[int]:
        """The enemy bases the seat's surplus units together could take, else every enemy base (else every enemy unit)."""
        bases = seen.enemy_bases()
        if not bases:
            return seen.enemy_units()
        surplus: list[int] = []
        left = dict(guards)
        for c, o, s, _ in seen.units:
            if o != seen.seat:
                continue
            if left.get((c, s), 0) > 0:
                left[(c, s)] -= 1
            else:
                surplus.append(s)
        weak = [b for b in bases if base_falls(surplus, [s for c, o, s, _ in seen.units if c == b and o != seen.seat], seen.bases[b][1])]
        return weak or bases

    def _defence(self, seen: _Seen) -> tuple[dict[tuple[int, int], int], dict[int, int]]:
        """What each of the seat's bases needs against the enemy's next turn (:meth:`_threat`).

        Returns the *guards*, how many units of each (hex, strength) must stay on their base to hold
        it (the strongest first), and the *needs*, the bases that would fall with the units now on
        them, each with the force it lacks.
        """
        guards: dict[tuple[int, int], int] = {}
        needs: dict[int, int] = {}
        reserves = strongest_fighters(seen.state)
        for cell in seen.my_bases():
            threat = self._threat(seen, cell, reserves)
            if not threat:
                continue
            strength = seen.bases[cell][1]
            here = sorted((s for c, o, s, _ in seen.units if c == cell and o == seen.seat), reverse=True)
            if base_falls(threat, here, strength):
                needs[cell] = max(1, sum(threat) - sum(here) - strength)
            kept: list[int] = []
            for s in here:
                if not base_falls(threat, kept, strength):
                    break
                kept.append(s)
                guards[(cell, s)] = guards.get((cell, s), 0) + 1
        return guards, needs

    def _threat(self, seen: _Seen, cell: int, reserves: list[int]) -> list[int]:
        """The enemy force that could strike the base on ``cell`` in the enemy's next turn.

        A unit reaches a base in one turn only from the same board (landing where its player holds no territory is a
        beachhead, which ends its move), so the threat is the enemy units on the base's board within
        :data:`STRIKE_RANGE` map steps, with each enemy's strongest unit card (``reserves``, per player) when that
        enemy has a base on the board (a card is deployed in its territory and may move on).
        """
        board_of = seen.board.board_of
        row = hops(seen.board)[cell]
        here = board_of[cell]
        force = [s for c, o, s, _ in seen.units if o != seen.seat and board_of[c] == here and row[c] <= STRIKE_RANGE]
        owners = {o for c, (o, _) in seen.bases.items() if o != seen.seat and board_of[c] == here}
        force += [reserves[o] for o in sorted(owners) if reserves[o]]
        return force
