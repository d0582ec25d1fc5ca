"""What Connected Worlds arena records show beyond the arena's table: how games ended, how long, who reached three worlds.

Usage: ``python scripts/cw_records.py DIR [DIR ...]``, each DIR saved by
``astrarium arena connected-worlds ... --records DIR``. For each directory it prints
the games, the share ended by play (by the victory condition or by elimination, not by
the round limit or an empty map) with its 95% Wilson interval, the mean length in
rounds (± 1.96 standard errors) over all games and over those ended by play, and for
each line-up entry the games in which it held bases on the worlds the expansion victory
needs at some point, the games ended by play whose loser held no base before their
last round, and the bases each seat lost, captured or destroyed (replayed action by action).

``python scripts/cw_records.py --paired FIRST SECOND`` compares the lengths of two runs
game by game, by seed (the same deal, for instance in two victory modes): the mean
difference SECOND minus FIRST in actions and in rounds, ± 1.96 standard errors, and how
many games were longer, as long, shorter.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

from astrarium.core.records import load_record, replay


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_and_margin(values: list[int]) -> tuple[float, float]:
    """The mean and 1.96 standard errors."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, 1.96 * spread / math.sqrt(n)


def by_play(reason: str) -> bool:
    """Ended by the victory condition or by elimination (not the round limit, not an empty map)."""
    return "round limit" not in reason and "no base is left" not in reason


def rounds_of(record: dict[str, object], reason: str) -> int:
    found = re.search(r"round (\d+)", reason)
    if found:
        return int(found.group(1))
    options = record["options"]
    assert isinstance(options, dict)
    return int(options["round_limit"])


def replayed(record: dict[str, object]) -> tuple[set[int], bool, list[int]]:
    """Replayed action by action: the seats that held bases on the worlds the expansion victory needs at some point,
    whether a sole loser of a game ended by play held no base before the game's last round (its last units were
    hunted down after), and how many bases each seat lost (captured or destroyed)."""
    actions = record["actions"]
    assert isinstance(actions, list)
    result = record["result"]
    assert isinstance(result, dict)
    winners = result["winners"]
    loser = 1 - winners[0] if len(winners) == 1 and record["players"] == 2 and by_play(str(result["reason"])) else None
    reached: set[int] = set()
    state = replay(record, upto=0)
    needed = state.worlds_needed  # type: ignore[attr-defined]
    baseless_round = None
    lost = [0] * state.players
    held = owned_bases(state)
    for action in actions:
        state.apply(action)
        now = owned_bases(state)
        for seat in range(state.players):
            lost[seat] += max(0, held[seat] - now[seat])
            if seat not in reached and len(state.worlds_with_base(seat)) >= needed:  # type: ignore[attr-defined]
                reached.add(seat)
        held = now
        bases = state.bases.values()  # type: ignore[attr-defined]
        if loser is not None and baseless_round is None and state.phase != 0 and all(o != loser for o, _ in bases):  # type: ignore[attr-defined]
            baseless_round = state.full_view()["round"]
    return reached, baseless_round is not None and baseless_round < state.full_view()["round"], lost


def owned_bases(state: object) -> list[int]:
    """How many bases each seat has on the map (a base that moves keeps its count; one captured or destroyed lowers it)."""
    counts = [0] * state.players  # type: ignore[attr-defined]
    for owner, _ in state.bases.values():  # type: ignore[attr-defined]
        counts[owner] += 1
    return counts


def report(folder: Path) -> None:
    records = [load_record(path) for path in sorted(folder.glob("*.json"))]
    if not records:
        print(f"{folder}: no records")
        return
    reasons = [str(r["result"]["reason"]) for r in records]  # type: ignore[index]
    played = [by_play(reason) for reason in reasons]
    lengths = [rounds_of(r, reason) for r, reason in zip(records, reasons, strict=True)]
    n, k = len(records), sum(played)
    low, high = wilson(k, n)
    mean, margin = mean_and_margin(lengths)
    mean_play, margin_play = mean_and_margin([length for length, p in zip(lengths, played, strict=True) if p])
    print(f"{folder}: {n} games")
    print(f"  ended by play: {k} ({100 * k / n:.1f}%, {100 * low:.1f}-{100 * high:.1f})")
    print(f"  mean length: {mean:.1f} ± {margin:.1f} rounds; ended by play: {mean_play:.1f} ± {margin_play:.1f}")
    worlds = [0] * int(records[0]["players"])  # type: ignore[call-overload]
    hunted = 0
    lost_by_seat = [0] * len(worlds)
    for record in records:
        entries = record["arena"]["entries"]  # type: ignore[index]
        reached, early, lost = replayed(record)
        for seat in reached:
            worlds[entries[seat]] += 1
        hunted += early
        lost_by_seat = [a + b for a, b in zip(lost_by_seat, lost, strict=True)]
    for entry, count in enumerate(worlds):
        print(f"  entry {entry} held bases on the needed worlds in {count} of {n} games")
    print(f"  the loser held no base before the last round (its units hunted down after) in {hunted} of {k} games ended by play")
    print(f"  bases lost (captured or destroyed), by seat: {', '.join(str(n) for n in lost_by_seat)}")


def paired(first: Path, second: Path) -> None:
    """The difference in length, game by game over the seeds both folders hold, of ``second`` against ``first``."""

    def lengths(folder: Path) -> dict[int, tuple[int, int]]:
        out = {}
        for path in sorted(folder.glob("*.json")):
            record = load_record(path)
            actions = record["actions"]
            assert isinstance(actions, list)
            out[int(record["seed"])] = (len(actions), rounds_of(record, str(record["result"]["reason"])))  # type: ignore[index, call-overload]
        return out

    a, b = lengths(first), lengths(second)
    seeds = sorted(set(a) & set(b))
    print(f"{second} against {first}: {len(seeds)} seeds in both")
    for index, unit in ((0, "actions"), (1, "rounds")):
        diffs = [b[s][index] - a[s][index] for s in seeds]
        mean, margin = mean_and_margin(diffs)
        longer, same = sum(d > 0 for d in diffs), sum(d == 0 for d in diffs)
        print(f"  {unit}: {mean:+.2f} ± {margin:.2f}; longer in {longer}, as long in {same}, shorter in {len(diffs) - longer - same}")


def main(argv: list[str]) -> int:
    if not argv or (argv[0] == "--paired" and len(argv) != 3):
        print(__doc__)
        return 2
    if argv[0] == "--paired":
        paired(Path(argv[1]), Path(argv[2]))
        return 0
    for name in argv:
        report(Path(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
