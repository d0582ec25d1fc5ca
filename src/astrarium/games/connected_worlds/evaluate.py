"""The heuristic value of a Connected Worlds position for computer players (``state.evaluate``).

Each player gets a few measures of how far they are towards the game's victory
condition; the value for a seat is its weighted *share* of each measure (its value
over the sum over all players), mapped to [-1, 1] so that equal players score 0.
The measures, all read from what every seat can see:

* ``worlds``: worlds with a base of the player (at most ``worlds_needed``), plus a
  part of a world for a base on its way to one: a *spare* base (in space, or on a world
  where the player has another base) counts ``0.6 × (1 − d / 6)`` of a world when it is
  ``d`` movement points (:func:`.plan.hops`) from the nearest world the player has no
  base on. This is what lets one-step look-ahead fly a base across space, step by step.
* ``territory``: hexes controlled (the expansion victory needs strictly the most).
* ``bases``: the player's bases, each counting ``1 + strength / 4`` (capture is won by
  holding every base; a strong base is hard to take).
* ``power``: strength on the map (bases and units) plus half the strength of the unit
  cards the player owns but has not deployed (hand, deck and discard: an army bought is
  an army on its way).
* ``reach``: each unit's strength times ``1 − d / 8`` for the map distance ``d`` to the
  nearest enemy piece (an attacker's units closing in).
* ``guard``: the player's own bases, each counting ``1 + strength / 4``, less those the
  enemy could take this turn or the next (:func:`_guard`): a defence measure in every
  mode, so that a unit put on a threatened base counts, and, as a share, an enemy base
  left open counts for the attacker.
* ``economy``: half the resources in the pool (they win nothing until spent), plus the
  resources the player's gathering cards bring each time they are played (a bought
  Excavater keeps paying; the cards played this turn count too, so gathering with a card
  is worth its resources and moving with it costs them).

Besides the shares, each player pays on their own (up to :data:`ROOM`, in capture and
annihilation) for bases within reach of the enemy (:func:`_room`): distance is the same
both ways, so as a share it could never make a player found or keep their bases away
from the enemy.

The weights depend on the victory mode (table :data:`WEIGHTS`). Combat is fought at the
end of a turn, so a position in the middle of a turn is first *projected*: every hex
where the player to move has entered or deployed onto enemy pieces is fought out on a
copy of the pieces (the rules' own :func:`.combat.resolve`) and the measures are taken
after it; a search thus sees a capture when the unit steps in, not only at ``end``.
"""

from __future__ import annotations

import math

from astrarium.games.connected_worlds.combat import BaseFate, base_falls, resolve
from astrarium.games.connected_worlds.data import Special
from astrarium.games.connected_worlds.plan import FAR, hops
from astrarium.games.connected_worlds.state import ConnectedWorldsState

#: The weight of each measure by victory mode; each row sums to 1.
WEIGHTS: dict[str, dict[str, float]] = {
    "expansion": {
        "worlds": 0.40,
        "territory": 0.20,
        "bases": 0.0,
        "power": 0.15,
        "reach": 0.0,
        "siege": 0.0,
        "guard": 0.10,
        "economy": 0.15,
    },
    "capture": {
        "worlds": 0.0,
        "territory": 0.05,
        "bases": 0.20,
        "power": 0.25,
        "reach": 0.05,
        "siege": 0.15,
        "guard": 0.15,
        "economy": 0.15,
    },
    "annihilation": {
        "worlds": 0.0,
        "territory": 0.05,
        "bases": 0.10,
        "power": 0.35,
        "reach": 0.10,
        "siege": 0.10,
        "guard": 0.15,
        "economy": 0.15,
    },
}
#: A spare base this many movement points from a new world is worth nothing; next to it, TRANSIT of a world.
TRANSIT_RANGE = 6
TRANSIT = 0.6
#: Without a spare base, owning a base card (to deploy and send off) is worth this part of a world.
BASE_CARD = 0.2
#: Added to every player's measure before shares are taken (see :func:`values`).
OFFSET: dict[str, float] = {
    "worlds": 0.5,
    "territory": 7.0,
    "bases": 1.0,
    "power": 3.0,
    "reach": 1.0,
    "siege": 0.5,
    "guard": 0.5,
    "economy": 5.0,
}
#: Bonus for meeting the victory condition in the projected position (it wins at the end of the round unless undone).
WON = 0.5
#: The value is ``tanh(SCALE × lead)``: a search compares values with a fixed exploration constant, and a lead of a
#: tenth of the shares must count for about half a win, not a twentieth, or the search only explores.
SCALE = 5.0
#: An undeployed unit card counts this part of the unit it would put on the map.
RESERVE = 0.5
#: Resources in the pool count this much each in ``economy``: they win nothing until spent, so a player who can buy
#: a strong unit should rather than hoard (at 1 a search kept 30 or more resources unspent for rounds).
HOARD = 0.5
#: Units this many movement points from an enemy base (or nearer) count as besieging it.
SIEGE_RANGE = 3
#: A unit this many movement points from the nearest enemy piece adds nothing to ``reach``.
REACH_RANGE = 8
#: Enemy units this many movement points from a base (or nearer) can take it this turn or the next; within
#: THREAT_NOW of it, this turn (a planet is at most 4 steps across; from another world a unit needs two turns, as
#: landing where its player holds no territory is a beachhead).
THREAT_NOW = 4
THREAT_SOON = 7
#: How much of a base ``guard`` keeps when it would fall this turn, and when it would fall only next turn.
FALLS_NOW = 0.0
FALLS_SOON = 0.5
#: ``room`` counts a base's distance from the nearest enemy up to this many movement points; a player whose bases all
#: stand nearer loses up to ROOM[mode] from their value (their own, not a share: see :func:`values`). Not in expansion,
#: where every base flown to a new world comes nearer the enemy: there it held the searching player off the third
#: world (it won its game against greedy on the tie-break instead of by expansion in round 5).
ROOM_RANGE = 8
ROOM: dict[str, float] = {"expansion": 0.0, "capture": 0.04, "annihilation": 0.04}


def projected(st: ConnectedWorldsState) -> tuple[dict[int, tuple[int, int]], list[tuple[int, int, int]]]:
    """Bases and units (cell, owner, strength) once the turn's pending combats are fought out."""
    p = st.turn
    bases = dict(st.bases)
    units = [(c, o, s) for c, o, s, _ in st.units]
    if st.phase == 0 or st.on_entry:  # setup, or combat already fought on entry
        return bases, units
    enemy = st.enemy_cells(p)
    fights = {c for c, o, _ in units if o == p and c in enemy}
    for cell in fights:
        units = _fought_out(cell, p, bases, units)
    return bases, units


def _fought_out(cell: int, p: int, bases: dict[int, tuple[int, int]], units: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The units after player ``p``'s attack on ``cell`` is fought (the rules' own :func:`.combat.resolve`); a base
    destroyed or captured there is taken off or handed over in ``bases``."""
    here = [u for u in units if u[0] == cell]
    attackers = [s for _, o, s in here if o == p]
    defenders = sorted((s, o) for _, o, s in here if o != p)
    base = bases.get(cell)
    base_strength = base[1] if base is not None and base[0] != p else 0
    result = resolve(attackers, [d[0] for d in defenders], base_strength)
    units = [u for u in units if u[0] != cell]
    units += [(cell, p, s) for s in result.attackers]
    held = defenders[len(defenders) - len(result.defenders) :]
    units += [(cell, o, s) for s, o in held]
    if result.base is BaseFate.DESTROYED:
        del bases[cell]
    elif result.base is BaseFate.CAPTURED:
        bases[cell] = (p, base_strength)
    return units


_Values = tuple[tuple[float, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _card_values(st: ConnectedWorldsState) -> _Values:
    """Per card index: what an undeployed card adds to ``power``, a gathering card's resources, 1 for a base card,
    and a fighting unit card's strength (0 for every other card)."""
    cards = st.cards
    entry = _CARD_VALUES.get(id(cards))
    if entry is None or entry[0] is not cards:
        reserve = tuple((c.strength if c.is_base else c.strength * c.strength / 2.0) * RESERVE if c.is_unit else 0.0 for c in cards.cards)
        gather = tuple(c.resources if c.special is Special.GATHER_RESOURCES else 0 for c in cards.cards)
        base = tuple(1 if c.is_base else 0 for c in cards.cards)
        fighter = tuple(c.strength if c.is_unit and not c.is_base else 0 for c in cards.cards)
        if len(_CARD_VALUES) >= 64:
            _CARD_VALUES.clear()
        entry = _CARD_VALUES[id(cards)] = (cards, (reserve, gather, base, fighter))
    return entry[1]


_CARD_VALUES: dict[int, tuple[object, _Values]] = {}


def strongest_fighters(st: ConnectedWorldsState) -> list[int]:
    """Per player, the strength of the strongest fighting unit card they own undeployed (0: none).

    Public knowledge: every card bought is announced and a deployed card leaves the game, so the cards a
    player owns are known; only where they lie (hand, deck or discard pile) is secret, and they are read
    here as one pile.
    """
    fighter_of = _card_values(st)[3]
    strongest = [0] * st.players
    for p in range(st.players):
        for pile in (st.hands[p], st.decks[p], st.discards[p]):
            for i in pile:
                if fighter_of[i] > strongest[p]:
                    strongest[p] = fighter_of[i]
    return strongest


def _guard(
    table: tuple[tuple[int, ...], ...],
    mine: list[tuple[int, int]],
    my_units: list[tuple[int, int]],
    foes: list[tuple[int, int]],
    foe_sources: list[tuple[list[int], int]],
) -> float:
    """The part of a player's bases (each ``1 + strength / 4``) that the enemy could not take this turn or the next.

    ``foes`` are the enemy units (hex, strength); ``foe_sources`` are, for each enemy, the
    hexes of their bases and the strongest fighting unit card they hold undeployed: it can
    be deployed in the territory of the nearest of those bases, next to it, and move on.
    A base falls *now* to the enemy force within :data:`THREAT_NOW` movement points, *soon*
    to the force within :data:`THREAT_SOON`, each fought (by the combat rules) against the
    units standing on the base and the base itself; a base falling now keeps
    :data:`FALLS_NOW` of its worth, one falling soon :data:`FALLS_SOON`. So a unit put on a
    threatened base, or a base kept out of reach, is worth its saving.
    """
    guard = 0.0
    for cb, sb in mine:
        worth = 1.0 + sb / 4.0
        row = table[cb]
        near: list[int] = []
        soon: list[int] = []
        for c, s in foes:
            d = row[c]
            if d <= THREAT_SOON:
                soon.append(s)
                if d <= THREAT_NOW:
                    near.append(s)
        for cells, s in foe_sources:
            d = min(row[c] for c in cells) - 1
            if d <= THREAT_SOON:
                soon.append(s)
                if d <= THREAT_NOW:
                    near.append(s)
        if not soon:
            guard += worth
            continue
        defenders = [s for c, s in my_units if c == cb]
        if base_falls(near, defenders, sb):
            guard += worth * FALLS_NOW
        elif base_falls(soon, defenders, sb):
            guard += worth * FALLS_SOON
        else:
            guard += worth
    return guard


def _room(table: tuple[tuple[int, ...], ...], mine: list[tuple[int, int]], enemy: list[int]) -> float:
    """The mean over the player's bases, weighted by worth (``1 + strength / 4``), of the distance from the nearest of
    ``enemy`` (up to :data:`ROOM_RANGE`) over ROOM_RANGE: 1 when every base is out of reach, 0 when all touch the enemy."""
    if not enemy or not mine:
        return 1.0
    room = total = 0.0
    for cb, sb in mine:
        row = table[cb]
        d = min(row[e] for e in enemy)
        worth = 1.0 + sb / 4.0
        room += worth * min(d, ROOM_RANGE) / ROOM_RANGE
        total += worth
    return room / total


_Table = tuple[tuple[int, ...], ...]
_Pieces = list[list[tuple[int, int]]]


def measures(st: ConnectedWorldsState) -> list[dict[str, float]]:
    """Every player's measures (see the module docstring) on the projected position; those the mode weighs 0 stay 0."""
    n = st.players
    weights = WEIGHTS[st.victory.value]
    bases, units = projected(st)
    table = hops(st.board)
    bases_of, units_of = _by_owner(n, bases, units)
    strongest = strongest_fighters(st)
    holdings = _holdings(st, bases_of)
    owned = _cards_owned(st)
    want_worlds, want_reach = weights["worlds"] > 0, weights["reach"] > 0
    want_siege, want_guard = weights["siege"] > 0, weights["guard"] > 0
    out: list[dict[str, float]] = []
    for p in range(n):
        mine = bases_of[p]
        my_units = units_of[p]
        terr, per_world = holdings[p]
        reserve, gather, base_cards = owned[p]
        enemy = _enemy_cells(p, bases_of, units_of)
        has_worlds = len(per_world) - (1 if 0 in per_world else 0)
        worlds = _worlds(st, table, mine, per_world, has_worlds, base_cards) if want_worlds else 0.0
        power = float(sum(s for _, s in mine)) + sum(s * s / 2.0 for _, s in my_units)
        reach = _reach(table, my_units, enemy) if want_reach and my_units else 0.0
        siege = _siege(table, p, bases_of, units_of) if want_siege and my_units else 0.0
        guard = _guard_of(table, p, bases_of, units_of, strongest) if want_guard and mine else 0.0
        out.append(
            {
                "worlds": worlds,
                "guard": guard,
                "room": _room_of(st, table, p, mine, enemy) if mine else 1.0,
                "territory": float(len(terr)),
                "bases": sum(1.0 + s / 4.0 for _, s in mine),
                "power": power + reserve,
                "reach": reach,
                "siege": siege,
                "economy": st.resources[p] * HOARD + gather,
                "won": 0.0,
                "has_worlds": float(has_worlds),
            }
        )
    _mark_winners(st, out, bases, units)
    return out


def _by_owner(n: int, bases: dict[int, tuple[int, int]], units: list[tuple[int, int, int]]) -> tuple[_Pieces, _Pieces]:
    """The projected bases and units as ``(cell, strength)`` lists per player, so that each measure reads its own."""
    bases_of: _Pieces = [[] for _ in range(n)]
    for c, (o, s) in bases.items():
        bases_of[o].append((c, s))
    units_of: _Pieces = [[] for _ in range(n)]
    for c, o, s in units:
        units_of[o].append((c, s))
    return bases_of, units_of


def _holdings(st: ConnectedWorldsState, bases_of: _Pieces) -> list[tuple[set[int], dict[int, int]]]:
    """Per player, the hexes their bases control, and how many of their bases stand on each world (0: in space)."""
    terr_of = st.board.territory
    board_of = st.board.board_of
    out: list[tuple[set[int], dict[int, int]]] = []
    for mine in bases_of:
        terr: set[int] = set()
        per_world: dict[int, int] = {}
        for c, _ in mine:
            terr.update(terr_of[c])
            k = board_of[c]
            per_world[k] = per_world.get(k, 0) + 1
        out.append((terr, per_world))
    return out


def _cards_owned(st: ConnectedWorldsState) -> list[tuple[float, int, int]]:
    """Per player, what their cards add: their undeployed strength to ``power``, their gathering, and their base cards.

    The cards played this turn count too (they go to the discard pile at its end), so that a card played for its
    movement costs what it would have gathered, and one played to gather costs nothing.
    """
    reserve_of, gather_of, is_base, _ = _card_values(st)
    out: list[tuple[float, int, int]] = []
    for p in range(st.players):
        piles = (st.hands[p], st.decks[p], st.discards[p], st.played) if p == st.turn else (st.hands[p], st.decks[p], st.discards[p])
        reserve = 0.0
        gather = base_cards = 0
        for pile in piles:
            for i in pile:
                reserve += reserve_of[i]
                gather += gather_of[i]
                base_cards += is_base[i]
        out.append((reserve, gather, base_cards))
    return out


def _worlds(
    st: ConnectedWorldsState, table: _Table, mine: list[tuple[int, int]], per_world: dict[int, int], have: int, base_cards: int
) -> float:
    """``worlds``: the worlds held (at most the number needed), plus a part of one for a spare base on its way to a
    world the player has no base on, or for a base card in hand when no base is spare."""
    needed = st.worlds_needed
    worlds = float(min(have, needed))
    if have >= needed:
        return worlds
    board = st.board
    board_of = board.board_of
    spare = [c for c, _ in mine if not board_of[c] or per_world[board_of[c]] > 1]
    if not spare:
        return worlds + BASE_CARD if base_cards else worlds
    targets = [w.space_cell for k, w in enumerate(board.worlds, start=1) if k not in per_world]
    d = FAR
    for c in spare:
        row = table[c]
        for t in targets:
            d = min(d, row[t] + 1)
    return worlds + TRANSIT * max(0.0, 1.0 - d / TRANSIT_RANGE)


def _enemy_cells(p: int, bases_of: _Pieces, units_of: _Pieces) -> list[int]:
    """The cells of every other player's bases, then of their units."""
    others = [q for q in range(len(bases_of)) if q != p]
    return [c for q in others for c, _ in bases_of[q]] + [c for q in others for c, _ in units_of[q]]


def _reach(table: _Table, my_units: list[tuple[int, int]], enemy: list[int]) -> float:
    """``reach``: each unit's strength, scaled down with its distance to the nearest enemy piece."""
    reach = 0.0
    if not enemy:
        return reach
    for c, s in my_units:
        row = table[c]
        d = min(row[e] for e in enemy)
        if d < REACH_RANGE:
            reach += s * (1.0 - d / REACH_RANGE)
    return reach


def _siege(table: _Table, p: int, bases_of: _Pieces, units_of: _Pieces) -> float:
    """``siege``: for each enemy base within reach of player ``p``'s units, 1 if they would take it now, else the
    part of its defence their strength makes up (at most a half)."""
    my_units = units_of[p]
    siege = 0.0
    for q in range(len(bases_of)):
        if q == p:
            continue
        for cb, sb in bases_of[q]:
            attackers = [s for c, s in my_units if table[c][cb] <= SIEGE_RANGE]
            if not attackers:
                continue
            defenders = [s for c, s in units_of[q] if c == cb]
            result = resolve(attackers, defenders, sb)
            if result.base is BaseFate.CAPTURED or result.base is BaseFate.DESTROYED:
                siege += 1.0
            else:
                siege += 0.5 * min(1.0, sum(attackers) / (sb + sum(defenders) + 1.0))
    return siege


def _guard_of(table: _Table, p: int, bases_of: _Pieces, units_of: _Pieces, strongest: list[int]) -> float:
    """``guard`` of player ``p``'s bases against the other players' units and the fighters they could deploy."""
    others = [q for q in range(len(bases_of)) if q != p]
    foes = [u for q in others for u in units_of[q]]
    sources = [([c for c, _ in bases_of[q]], strongest[q]) for q in others if strongest[q] and bases_of[q]]
    return _guard(table, bases_of[p], units_of[p], foes, sources)


def _room_of(st: ConnectedWorldsState, table: _Table, p: int, mine: list[tuple[int, int]], enemy: list[int]) -> float:
    """``room`` of player ``p``'s bases from the enemy's pieces, or, in setup before any other player has founded,
    from the other seats' player worlds (where they will most likely found: the map's player worlds in seat order)."""
    if not enemy and st.phase == 0:
        n = st.players
        players = [w for w in st.board.worlds if w.kind == "player"]
        enemy = [w.space_cell for i, w in enumerate(players) if i % n != p]
    return _room(table, mine, enemy)


def _mark_winners(
    st: ConnectedWorldsState, rows: list[dict[str, float]], bases: dict[int, tuple[int, int]], units: list[tuple[int, int, int]]
) -> None:
    """Set ``won`` for the one player (if any) who meets the victory condition in the projected position."""
    if st.phase == 0:
        return  # setup: the first bases are still being founded, nobody has won anything
    mode = st.victory.value
    n = st.players
    if mode == "expansion":
        terr = [row["territory"] for row in rows]
        winners = [p for p in range(n) if rows[p]["has_worlds"] >= st.worlds_needed and all(terr[p] > terr[q] for q in range(n) if q != p)]
    else:
        owners = {o for o, _ in bases.values()}
        if mode == "annihilation":
            owners.update(o for _, o, _ in units)
        winners = list(owners) if len(owners) == 1 else []
    if len(winners) == 1:
        rows[winners[0]]["won"] = 1.0


def values(st: ConnectedWorldsState) -> list[float]:
    """Every seat's value: its weighted share of every measure, mapped to [-1, 1] (0: level with the others).

    Each share is taken with a small offset (:data:`OFFSET`, in each measure's own units) added to
    every player, so that the first steps away from nothing (the first base, the first unit)
    count by their size, not all alike; the player who meets the victory condition right now
    gets :data:`WON` more.
    """
    n = st.players
    rows = measures(st)
    room_weight = ROOM[st.victory.value]
    xs = [0.0] * n
    for name, weight in WEIGHTS[st.victory.value].items():
        if not weight:
            continue
        offset = OFFSET[name]
        total = sum(row[name] for row in rows) + n * offset
        for seat in range(n):
            xs[seat] += weight * ((rows[seat][name] + offset) / total if total else 1.0 / n)
    out = []
    for seat in range(n):
        v = (xs[seat] * n - 1.0) / (n - 1)
        v += WON * (rows[seat]["won"] - max(rows[q]["won"] for q in range(n) if q != seat))
        # Distance is the same both ways, so as a share it could never tell one founding from another; each player
        # pays on their own for bases within the enemy's reach (a first strike the counts above do not see).
        v -= room_weight * (1.0 - rows[seat]["room"])
        out.append(math.tanh(SCALE * v))
    return out


def evaluate(st: ConnectedWorldsState, seat: int) -> float:
    """The game's return once over; before, :func:`values` for one seat, computed once per position (a search asks
    every seat in turn).

    It is described for players in rules.md, "How the computer players judge a position".
    """
    if st.is_over:
        return st.returns()[seat]
    key = st.move_number
    cached = st._values
    if cached is None or cached[0] != key:
        cached = st._values = (key, values(st))
    return cached[1][seat]
