"""What each part of an Orbital Combat allocation and of the board means, in a player's words.

The rings are described from the game's ring table (a designer's table given
as the ``ring_table`` option is described as it is). Orbital Combat has no
cards; every front end shows these texts (the terminal's ``info THING``, the
web table).
"""

from __future__ import annotations

from typing import Any

from astrarium.games.orbital_combat.rings import RingTable, load_ring_table


def _table(state: Any) -> RingTable:
    table = getattr(state, "table", None)
    return table if isinstance(table, RingTable) else load_ring_table()


def things(state: Any = None) -> dict[str, str]:
    """The rings, the systems a ship allocates energy to, and the words of the screen."""
    table = _table(state)
    out = {
        f"ring {n}": f"ring {n} of {table.count}: a ship on it moves {table.velocity[n]} of its {table.sectors[n]} sectors a round, "
        f"{table.radius[n]:g} mm from the black hole."
        for n in range(1, table.count + 1)
    }
    out.update(
        {
            "energy": "10 points every turn, all of them allocated: rotation, engines, scoop, weapons (wN) and defense (dN).",
            "rot": "rotational thrusters, 1 energy: flip the ship between prograde and retrograde before it burns.",
            "coast": "no burn: the ship stays on its ring.",
            "burn": "fusion torch: 'burn pro' moves outward, 'burn retro' inward, soft/hard/extreme 1/2/3 rings for 1/2/3 energy "
            "and 1/2/3 reaction mass. The ship must face that way (use 'rot' first), and arrives next round.",
            "scoop": "fuel scoop, 5 energy, only when not burning: recovers reaction mass equal to the sectors moved this round.",
            "weapons": "wN: a shot of strength N at an opponent within 150 mm, one point weaker per full 50 mm of distance.",
            "defense": "dN: each point stops 2 points of every shot at you this round, but never more than 3/4 of a shot.",
            "mass": "reaction mass: spent by burns (1-3), recovered by the scoop, at most 24.",
            "hull": "a ship starts with 24; at 0 it is destroyed. The last ship flying wins.",
            "facing": "prograde (pro, the start) or retrograde (retro); a burn goes the way the ship faces.",
            "transfer": "a ship that burned is between rings: it arrives on its new ring at the start of the next round.",
            "collision": "ships whose paths come within 10 mm during a round collide; each loses 2 hull.",
            "round": "every ship allocates in turn, then the round resolves for all at once: arrivals, burns, scoops, "
            "movement, then every shot.",
            "sector": "a ring's places, numbered from 1; the table shows each ship's ring and sector.",
            "zone": _zone_text(state),
            "initiative": "the round's shots land one by one in its turn order: a ship destroyed by an earlier shot does not fire "
            "(option fire_order = initiative, the default; 'together': all at once).",
        }
    )
    return out


def _zone_text(state: Any) -> str:
    """The closing zone as the game's options set it (the defaults without a position)."""
    start, ring, damage = (getattr(state, name, None) for name in ("zone_round", "zone_ring", "zone_damage"))
    if not isinstance(start, int) or not isinstance(ring, int) or not isinstance(damage, int):
        start, ring, damage = 12, 3, 2
    if not start:
        return "the safe zone never closes in this game (option zone_round = 0)."
    return (
        f"from round {start} the safe zone closes, one ring a round from the outside, down to ring {ring}; "
        f"a ship beyond it at the end of a round loses {damage} hull (defense does not help)."
    )
