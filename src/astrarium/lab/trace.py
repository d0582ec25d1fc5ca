"""Replaying a results folder's records for the metrics that need every position, cached in the folder.

Each record (``records/<seed>.json.gz``, ``<seed>-<rotation>.json.gz`` when paired) is replayed move by move: before
every move the legal actions are counted (BranchingFactor, DecisionFactor)
and their kinds and cards noted against the one chosen (usage); after every
move but the last the game's declared evaluation (``State.evaluate``, the
contract's ``evaluate``) is read for each seat (LeadChange, Drama). A game's
:class:`Trace` depends only on its record, so the traces are kept in
``DIR/metrics/replay.json.gz``, each under its record's name, and a later
call replays only games not in it.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from astrarium.core.errors import DataError, RecordError, short
from astrarium.core.game import State
from astrarium.core.records import replay
from astrarium.lab.play import RECORD_SUFFIX, record_path, write_atomic

if TYPE_CHECKING:
    from astrarium.lab.runner import Results

#: Where the traces are cached, inside a results folder.
CACHE = Path("metrics") / "replay.json.gz"
#: Changed whenever a trace is computed differently: an older cache is then ignored and rebuilt.
TRACE_VERSION = 1


@dataclass(slots=True)
class Trace:
    """What one game's replay found.

    ``decisions``: positions where a seat chose; ``legal``: their legal actions
    in all; ``choices``/``legal_choices``: the same for positions with two or
    more legal actions; ``lead_changes``: how often the evaluation's strict
    leader changed; ``drama``: the winner's mean deficit while another led
    (None unless one seat won); ``usage``: per seat, ``name -> [legal, chosen]``
    for every action kind (``action:move``) and card (``card:phoenix``).
    """

    seed: int
    moves: int = 0
    decisions: int = 0
    legal: int = 0
    choices: int = 0
    legal_choices: int = 0
    lead_changes: int = 0
    drama: float | None = None
    usage: list[dict[str, list[int]]] = field(default_factory=list)


def things_named(notation: str, cards: frozenset[str]) -> set[str]:
    """The action kind (the notation's first word) and the cards a notation names, as usage names."""
    words = notation.split()
    found = {f"card:{word}" for word in words if word in cards}
    if words:
        found.add(f"action:{words[0]}")
    return found


def trace_record(record: Mapping[str, Any], seed: int) -> Trace:
    """Replay ``record`` and measure every position (RecordError if it does not replay)."""
    state = replay(record, upto=0)
    cards = frozenset(state.game.cards(state))
    trace = Trace(seed, usage=[{} for _ in range(state.players)])
    evaluations: list[list[float]] = []
    actions: list[str] = list(record["actions"])
    for number, notation in enumerate(actions, start=1):
        _choose(state, notation, number, cards, trace)
        if number < len(actions):
            evaluations.append([state.evaluate(seat) for seat in range(state.players)])
    trace.moves = len(actions)
    winners = state.outcome.winners if state.outcome is not None else ()
    trace.lead_changes, trace.drama = _leads(evaluations, winners[0] if len(winners) == 1 else None)
    return trace


def _choose(state: State, notation: str, number: int, cards: frozenset[str], trace: Trace) -> None:
    """Count the position's legal actions and the usage of what they name, then play ``notation``."""
    legal = state.legal_actions()
    notations = [str(action) for action in legal]
    try:
        chosen = notations.index(notation)
    except ValueError:
        raise RecordError(f"move {number} ({short(notation)!r}) does not replay: not among the legal actions") from None
    trace.decisions += 1
    trace.legal += len(legal)
    if len(legal) > 1:
        trace.choices += 1
        trace.legal_choices += len(legal)
    mover = state.current_player
    if mover is not None:
        counts = trace.usage[mover]
        named = things_named(notation, cards)
        for name in set().union(*(things_named(n, cards) for n in notations)):
            entry = counts.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += name in named
    state.apply_unchecked(legal[chosen])


def _leads(evaluations: Sequence[Sequence[float]], winner: int | None) -> tuple[int, float | None]:
    """How often the strict leader changed, and the winner's mean deficit to the leader while another led."""
    changes = 0
    leader: int | None = None
    deficits: list[float] = []
    for values in evaluations:
        best = max(values)
        first = [seat for seat, value in enumerate(values) if value == best]
        if len(first) != 1:
            continue
        if leader is not None and first[0] != leader:
            changes += 1
        leader = first[0]
        if winner is not None and leader != winner:
            deficits.append(best - values[winner])
    if winner is None:
        return changes, None
    return changes, sum(deficits) / len(deficits) if deficits else 0.0


def read_record(folder: Path, seed: int, rotation: int | None = None) -> dict[str, Any]:
    """The record of a game in a results folder, by seed (and rotation when paired); a DataError if it is missing or unreadable."""
    return read_record_file(record_path(folder, seed, rotation))


def read_record_file(path: Path) -> dict[str, Any]:
    """A compressed record of a results folder (a DataError if it is missing or unreadable)."""
    try:
        record: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, ValueError) as exc:
        raise DataError(short(str(path), 200), "file", f"cannot read the record: {exc}") from None
    return record


def _read_cache(folder: Path) -> dict[str, Trace]:
    path = folder / CACHE
    try:
        cached = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, ValueError):
        return {}
    if not isinstance(cached, dict) or cached.get("version") != TRACE_VERSION:
        return {}
    return {str(name): Trace(**trace) for name, trace in cached.get("games", {}).items()}


def _write_cache(folder: Path, traces: Mapping[str, Trace]) -> None:
    data = {"version": TRACE_VERSION, "games": {name: asdict(trace) for name, trace in sorted(traces.items())}}
    (folder / CACHE).parent.mkdir(exist_ok=True)
    write_atomic(folder / CACHE, gzip.compress(json.dumps(data).encode("utf-8"), mtime=0))


def traces_of(results: Results) -> list[Trace]:
    """Every game's trace, in the table's order: read from the folder's cache, the missing ones replayed and added to it.

    A trace is cached under its record's name (``<seed>``, or ``<seed>-<rotation>`` when paired).
    """
    folder = results.folder
    cached = _read_cache(folder)
    paths = [results.record_path(row) for row in results.table.select(["seed", "rotation"]).to_pylist()]
    names = [path.name.removesuffix(RECORD_SUFFIX) for path in paths]
    missing = [(name, path) for name, path in zip(names, paths, strict=True) if name not in cached]
    for name, path in missing:
        try:
            record = read_record_file(path)
            cached[name] = trace_record(record, int(record["seed"]))
        except RecordError as exc:
            raise DataError(short(str(path), 200), "record", str(exc)) from None
    if missing:
        _write_cache(folder, cached)
    return [cached[name] for name in names]
