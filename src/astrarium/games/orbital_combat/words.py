"""Orbital Combat actions told in words, from two picture views of one seat.

``describe(before, notation, after)`` gives an allocation as a player would
say it (``Ship B (seat 1) burns prograde hard: leaves ring 4 for ring 6;
weapons 5 at ship A, defense 3.``), then what the turn or the round did:
arrivals, transfers begun, mass scooped, collisions and shots with their
damage, the hull every ship lost, ships destroyed, the next round and the end.

Everything in Orbital Combat is public. With round resolution (the default)
an allocation only plans: the ships move and fire together when the last ship
of the round has allocated, and that action's description tells the whole
round. With turn resolution every allocation is resolved at once. Which of the
two happened is read from the views (``resolution``, and whether the mover's
allocation is still waiting: ``allocated_this_round``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from astrarium.core.words import as_int as _int
from astrarium.core.words import as_list as _list
from astrarium.core.words import by_ship, entries, entry, mark, next_line, outcome_lines, round_line, seat_count, seats_named
from astrarium.core.words import join_words as _join
from astrarium.core.words import ship_who as who

DIRECTIONS = {
    "pro": "prograde",
    "prograde": "prograde",
    "out": "prograde",
    "retro": "retrograde",
    "retrograde": "retrograde",
    "in": "retrograde",
}
INTENSITIES = {"soft": 1, "standard": 1, "1": 1, "hard": 2, "2": 2, "extreme": 3, "3": 3}
INTENSITY_WORDS = {1: "soft", 2: "hard", 3: "extreme"}

_SEAT = re.compile(r"\bseat (\d)\b")
_FIRES = re.compile(r"seat (\d) fires (\d+) at seat (\d) \((\d+) mm\): (\d+) damage")
_COLLIDES = re.compile(r"seat (\d) collides with seat (\d)")


def ship_names(text: str) -> str:
    """``text`` with every ``seat 0`` the rules write named as the ship players see: ``ship A``."""
    return seats_named(text, _SEAT, "ship ")


# -- the allocation ------------------------------------------------------------------------------
class Plan:
    """An allocation read from its notation (leniently: what cannot be read is left out)."""

    def __init__(self, notation: str) -> None:
        tokens = notation.lower().split()
        self.rotate = "rot" in tokens or "rotate" in tokens
        self.scoop = "scoop" in tokens
        self.direction = ""
        self.intensity = 0
        if "burn" in tokens:
            i = tokens.index("burn")
            self.direction = DIRECTIONS.get(tokens[i + 1], "") if i + 1 < len(tokens) else ""
            self.intensity = INTENSITIES.get(tokens[i + 2], 0) if i + 2 < len(tokens) else 0
        self.weapons = self._number(tokens, "w")
        self.defense = self._number(tokens, "d")
        self.target = self._number(tokens, "@")

    @staticmethod
    def _number(tokens: list[str], letter: str) -> int | None:
        for token in tokens:
            if token.startswith(letter) and token[1:].isascii() and token[1:].isdigit() and len(token) <= 4:
                return int(token[1:])
        return None

    @property
    def burns(self) -> bool:
        return bool(self.direction and self.intensity)

    def destination(self, ring: int | None) -> int | None:
        """The ring a burn from ``ring`` goes to (prograde outward, retrograde inward)."""
        if ring is None or not self.burns:
            return None
        return ring + self.intensity if self.direction == "prograde" else ring - self.intensity

    def fire(self, seat: int | None, view: Mapping[str, Any]) -> str:
        """``weapons 5 at ship B, defense 3`` (the target named, or implied when one opponent is left)."""
        parts = []
        if self.weapons:
            target = self.target if self.target is not None else _only_opponent(seat, view)
            at = f" at ship {mark(target)}" if target is not None else ""
            parts.append(f"weapons {self.weapons}{at}")
        else:
            parts.append("no weapons")
        if self.defense is not None:
            parts.append(f"defense {self.defense}")
        return ", ".join(parts)


def _only_opponent(seat: int | None, view: Mapping[str, Any]) -> int | None:
    flying = [s for s, ship in enumerate(entries(view, "ships")) if ship.get("alive") is not False and s != seat]
    return flying[0] if len(flying) == 1 else None


def _start_ring(before: Mapping[str, Any], seat: int | None) -> int | None:
    """The ring the ship burns from this turn: where it arrives first when in transfer."""
    ship = entry(before, "ships", seat)
    return _int(ship.get("in_transfer_to")) or _int(ship.get("ring"))


def _resolved_now(seat: int | None, after: Mapping[str, Any]) -> bool:
    """Whether this action resolved movement and fire (turn resolution, or the round's last allocation).

    A view without ``resolution`` comes from a game that resolves each turn at once.
    """
    if after.get("resolution", "turn") != "round":
        return True
    return entry(after, "ships", seat).get("allocated_this_round") is not True


def _first_line(name: str, plan: Plan, seat: int | None, before: Mapping[str, Any], resolved_alone: bool) -> str:
    start = _start_ring(before, seat)
    dest = plan.destination(start)
    if resolved_alone:
        arriving = _int(entry(before, "ships", seat).get("in_transfer_to"))
        verbs = [f"arrives in ring {arriving}"] if arriving is not None else []
        if plan.rotate:
            verbs.append("turns about")
        verbs.append(f"burns {plan.direction} {INTENSITY_WORDS[plan.intensity]}" if plan.burns else "coasts")
        if plan.scoop:
            verbs.append("scoops")
        where = f": leaves ring {start} for ring {dest}" if dest is not None and start is not None else ""
        return f"{name} {_join(verbs)}{where}; {plan.fire(seat, before)}."
    parts = ["turn about"] if plan.rotate else []
    if plan.burns:
        course = f" (ring {start} to ring {dest})" if dest is not None and start is not None else ""
        parts.append(f"burn {plan.direction} {INTENSITY_WORDS[plan.intensity]}{course}")
    else:
        parts.append("coast")
    if plan.scoop:
        parts.append("scoop")
    return f"{name} allocates: {_join(parts)}; {plan.fire(seat, before)}."


# -- what a resolution did -------------------------------------------------------------------------
def _movement_lines(before: Mapping[str, Any], after: Mapping[str, Any], skip: int | None) -> list[str]:
    """Arrivals and transfers begun (except ``skip``'s, told in the first line), and mass scooped."""
    lines = []
    for s, (b, a) in enumerate(zip(entries(before, "ships"), entries(after, "ships"), strict=False)):
        if b.get("alive") is False:
            continue
        going_b, going_a = _int(b.get("in_transfer_to")), _int(a.get("in_transfer_to"))
        ring_b, ring_a = _int(b.get("ring")), _int(a.get("ring"))
        if going_b is not None and ring_a == going_b and ring_b != ring_a and s != skip:
            lines.append(f"Ship {mark(s)} arrives in ring {ring_a}.")
        if going_a is not None and (going_b is None or ring_a == going_b) and going_a != going_b and s != skip:
            lines.append(f"Ship {mark(s)} leaves ring {ring_a} for ring {going_a}.")
        mass_b, mass_a = _int(b.get("mass")), _int(a.get("mass"))
        if mass_b is not None and mass_a is not None and mass_a > mass_b:
            lines.append(f"Ship {mark(s)} scoops {mass_a - mass_b} reaction mass ({mass_b} → {mass_a}).")
    return lines


def event_words(event: str) -> str:
    """A shot or a collision for players; other events are told from the ships themselves."""
    m = _FIRES.fullmatch(event)
    if m:
        shooter, strength, target, distance, damage = (int(g) for g in m.groups())
        return f"Ship {mark(shooter)} fires weapons {strength} at ship {mark(target)}, {distance} mm away: {damage} damage."
    m = _COLLIDES.fullmatch(event)
    if m:
        return f"Ship {mark(int(m.group(1)))} collides with ship {mark(int(m.group(2)))}."
    if "arrives in ring" in event or event.endswith("is destroyed"):
        return ""
    text = ship_names(event.strip())
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _hull_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for s, (b, a) in enumerate(zip(entries(before, "ships"), entries(after, "ships"), strict=False)):
        hull_b, hull_a = _int(b.get("hull")), _int(a.get("hull"))
        destroyed = b.get("alive") is not False and a.get("alive") is False
        if hull_b is not None and hull_a is not None and hull_a < hull_b:
            line = f"Ship {mark(s)} loses {hull_b - hull_a} hull ({hull_b} → {hull_a})"
            lines.append(line + (" and is destroyed." if destroyed else "."))
        elif destroyed:
            lines.append(f"Ship {mark(s)} is destroyed.")
    return lines


def _zone_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The closing zone moving in: where it stands now and what it costs to be outside it."""
    zone_b, zone_a = before.get("zone"), after.get("zone")
    if not isinstance(zone_b, Mapping) or not isinstance(zone_a, Mapping) or after.get("outcome"):
        return []
    edge_b, edge_a, nxt = _int(zone_b.get("safe_to_ring")), _int(zone_a.get("safe_to_ring")), _int(zone_a.get("next_round_safe_to_ring"))
    lines = []
    if edge_a is not None and edge_b is not None and edge_a < edge_b:
        lines.append(
            f"The zone closes to rings 1-{edge_a}: a ship beyond them loses {_int(zone_a.get('damage'))} hull at the end of the round."
        )
    if nxt is not None and edge_a is not None and nxt < edge_a:
        lines.append(f"Next round the zone closes to rings 1-{nxt}.")
    return lines


def _next_lines(seat: int | None, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    if after.get("outcome"):
        return []
    nxt = _int(after.get("to_move"))
    first = f"; {who(nxt, start=False)} allocates first" if nxt is not None else ""
    return [round_line(before, after, "round_limit", first) or next_line(seat, after, by_ship)]


# -- the whole description ---------------------------------------------------------------------
def describe(before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The allocation in words, then one line per consequence the two views show."""
    seat = _int(before.get("to_move"))
    name = who(seat)
    plan = Plan(notation)
    resolved = _resolved_now(seat, after)
    alone = resolved and after.get("resolution", "turn") != "round"
    if not notation.split() or not any(t in notation.lower().split() for t in ("coast", "burn")):
        lines = [f"{name}: {notation}"]
    else:
        lines = [_first_line(name, plan, seat, before, alone)]
    if resolved:
        if not alone:
            fire = ", then fires in the round's turn order" if after.get("fire_order") == "initiative" else " and fires"
            lines.append(f"The round resolves: every ship moves{fire}.")
        lines += _movement_lines(before, after, seat if alone else None)
        lines += [event_words(e) for e in _list(after.get("events")) if isinstance(e, str)]
        lines += _hull_lines(before, after)
        lines += _zone_lines(before, after)
    lines += _next_lines(seat, before, after)
    lines += outcome_lines(before, after, seat_count(after, "ships"), naming=by_ship, reason=ship_names)
    return [line for line in lines if line]
