"""Combat in one hex, exactly as the seed's "Combat rules" bullets, as a pure function.

* Combat is between two units at a time; several units fight in waves.
* On each side the lowest-strength unit fights first.
* Equal strengths: both units are lost.
* Unequal strengths: the weaker is lost, the stronger takes no damage and fights the next wave.
* A defending base fights last, against the whole surviving attacking force (the sum of
  its strengths): equal to the base's strength destroys the base and the force with it
  (as equal units destroy each other); greater captures the base undamaged (an enemy
  stands on it after combat, so its ownership changes); smaller is lost against the base.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class BaseFate(Enum):
    NONE = "no base"
    HELD = "held"
    DESTROYED = "destroyed"
    CAPTURED = "captured"


@dataclass(frozen=True, slots=True)
class CombatResult:
    attackers: tuple[int, ...]  # surviving attacker strengths, ascending
    defenders: tuple[int, ...]  # surviving defending unit strengths, ascending
    base: BaseFate


def resolve(attackers: list[int], defenders: list[int], base_strength: int = 0) -> CombatResult:
    """Fight ``attackers`` against ``defenders`` (unit strengths) and a defending base (0: none)."""
    a = sorted(attackers)
    d = sorted(defenders)
    i = j = 0
    while i < len(a) and j < len(d):
        if a[i] == d[j]:
            i += 1
            j += 1
        elif a[i] > d[j]:
            j += 1
        else:
            i += 1
    survivors, held = a[i:], d[j:]
    fate = BaseFate.NONE
    if base_strength:
        fate = BaseFate.HELD
        if survivors:
            force = sum(survivors)
            if force == base_strength:
                fate, survivors = BaseFate.DESTROYED, []
            elif force > base_strength:
                fate = BaseFate.CAPTURED
            else:
                survivors = []
    return CombatResult(tuple(survivors), tuple(held), fate)


def base_falls(attackers: list[int], defenders: list[int], base_strength: int) -> bool:
    """Whether a base of ``base_strength`` with ``defenders`` on it is captured or destroyed by ``attackers`` together."""
    if not attackers:
        return False
    fate = resolve(attackers, defenders, base_strength).base
    return fate is BaseFate.CAPTURED or fate is BaseFate.DESTROYED
