"""Human playtests beside simulated ones: the finished games of a web table imported into a results folder.

:func:`import_games` reads a web table's database read-only
(:mod:`astrarium.lab.tabledb`), rebuilds every finished game by replaying its
stored actions through the game API, and writes what ``lab run`` writes: a
row of ``games.parquet`` a game (the same columns, and the :data:`~astrarium.lab.store.PLAYTEST`
ones: who held each seat, the players' fun and words) and its compressed
record. Every metric and the report then read the folder like any other.

```python
from astrarium import lab
people = lab.import_games("data/astrarium.db", game="orbital-combat", out="results/people")
people.added, people.unfinished, people.skipped      # what this import found
lab.metrics(people, replay=True).get("LeadChange")
```
"""

from __future__ import annotations

import gzip
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from astrarium.core.data import check_path
from astrarium.core.errors import AstrariumError, RecordError, short
from astrarium.core.game import RECORD_FORMAT, RECORD_VERSION, State
from astrarium.core.outcome import Outcome
from astrarium.core.records import replay
from astrarium.lab.play import ended_by, final_round, game_metrics
from astrarium.lab.runner import BATCH, Results
from astrarium.lab.store import MANIFEST, open_folder, read_manifest, read_parts

if TYPE_CHECKING:
    from astrarium.lab.tabledb import TableGame

#: How an imported folder's line-up names every seat: whoever held it at the web table (``kinds`` says who).
TABLE_SEAT = "web table"
PERSON = "person"


@dataclass
class Imported(Results):
    """The results folder after an import, and what this import found."""

    added: int = 0
    known: int = 0
    """Finished games already in the folder (left as they were)."""
    unfinished: int = 0
    other_players: int = 0
    """Finished games of the same game with another player count (left out: a folder holds one player count)."""
    skipped: dict[str, str] = field(default_factory=dict)
    """The web table's id of each game left out, and why (it no longer replays, ...)."""


def is_playtest(manifest: Mapping[str, Any]) -> bool:
    """Whether a results folder's manifest is that of an import from the web table."""
    return "imported" in manifest.get("experiment", {})


def seat_label(kind: str, spec: str | None, handed: str | None) -> str:
    """What the ``seats`` column says of a seat: ``person`` (and the level it was handed to), or the computer's player spec."""
    if kind != PERSON:
        return spec or kind
    return PERSON if handed is None else f"{PERSON} (handed to {handed})"


def import_games(
    db: str | Path,
    game: str | None = None,
    *,
    out: str | Path,
    players: int | None = None,
    command: str | None = None,
) -> Imported:
    """Import the finished games of a web table's database (an SQLite file, ``sqlite:///FILE``, ``postgresql://...``) into ``out``.

    ``game`` and ``players`` choose the games (each may be left out when the
    database holds one only). Games already in the folder are not read again,
    so importing again adds only the games finished since. A game whose stored
    actions no longer replay (the rules changed) is left out and named in
    ``skipped``; unfinished games are counted, never imported. Bad input
    raises a ValueError (a DataError naming the database or the folder).
    """
    try:
        from astrarium.lab.tabledb import read_finished
    except ImportError as exc:  # the web table's database drivers come with its extra
        raise AstrariumError(f"astrarium lab import needs the 'web' extra ({exc.name or exc}): pip install 'astrarium[web]'") from None

    folder = check_path(out, "results folder")
    found = read_finished(db, game, players, _tables_in(folder))
    identity = {"game": found.game, "players": found.players, "lineup": [TABLE_SEAT] * found.players, "imported": found.shown}
    words = ["astrarium", "lab", "import", "--db", found.shown, "--game", found.game, "--players", str(found.players), "--out", str(folder)]
    source = f"the web table's database {found.shown}"
    store = open_folder(folder, identity, source=source, command=command or shlex.join(words), games=found.known + len(found.games))
    imported = Imported(store.table(), store.folder, store.manifest, known=found.known, unfinished=found.unfinished)
    imported.other_players = found.other_players
    waiting: list[dict[str, Any]] = []
    taken = {seed for seed, _rotation in store.done}  # a person's game keeps its seats: rotation 0, one game a seed
    for stored in found.games:
        if stored.seed in taken:
            imported.skipped[stored.id] = f"its seed {stored.seed} is another game's in this folder"
            continue
        try:
            row, record = rebuild(stored, len(taken))
        except RecordError as exc:
            imported.skipped[stored.id] = str(exc)
            continue
        store.save_record((stored.seed, 0), record)
        taken.add(stored.seed)
        waiting.append(row)
        imported.added += 1
        if len(waiting) >= BATCH:
            store.append(waiting)
            waiting = []
    store.append(waiting)
    imported.table = store.table()
    return imported


def _tables_in(folder: Path) -> set[str]:
    """The web table's ids of the games an earlier import put in ``folder`` (none when it is new or holds no import)."""
    if not (folder / MANIFEST).exists():
        return set()
    manifest = read_manifest(folder)
    if not is_playtest(manifest):
        return set()
    table = read_parts(folder, manifest["parts"])
    return set(table.column("table").to_pylist()) if "table" in table.column_names else set()


def rebuild(stored: TableGame, index: int) -> tuple[dict[str, Any], bytes]:
    """A stored game replayed through the game API: its row and its compressed record (a RecordError if it does not replay)."""
    notations = [move.notation for move in stored.moves]
    start = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": stored.game,
        "players": stored.players,
        "seed": stored.seed,
        "options": stored.options,
        "actions": notations,
    }
    state = replay(start)
    outcome = _check_end(state, stored)
    labels = [seat_label(s.kind, s.spec, s.handed) for s in stored.seats]
    entries = list(range(stored.players))
    record = state.to_record()
    record["seats"] = {str(seat): label for seat, label in enumerate(labels)}
    record["table"] = stored.id
    record["feedback"] = [{"seat": seat, "fun": fun, "text": text} for seat, (fun, text) in sorted(stored.feedback.items())]
    record["lab"] = {"game_index": index, "entries": entries, "rotation": 0}
    row = {
        "seed": stored.seed,
        "game_index": index,
        "rotation": 0,
        "seats": labels,
        "entries": entries,
        "returns": [float(r) for r in state.returns()],
        "winners": list(outcome.winners),
        "scores": None if outcome.scores is None else [float(s) for s in outcome.scores],
        "reason": outcome.reason,
        "ended_by": ended_by(outcome.reason),
        "moves": len(notations),
        "rounds": final_round(state),
        "moves_by_seat": [sum(m.seat == seat for m in stored.moves) for seat in range(stored.players)],
        "think_seconds": think_seconds(stored),
        **_playtest_columns(stored),
        **game_metrics(state),
    }
    return row, gzip.compress(json.dumps(record).encode("utf-8"), mtime=0)


def _check_end(state: State, stored: TableGame) -> Outcome:
    """The replayed game's outcome, which must be the one the web table stored (else the rules changed under it)."""
    outcome = state.outcome
    if outcome is None:
        raise RecordError(f"its {len(stored.moves):,} stored actions replay to a game that is not over")
    stored_returns = [float(r) for r in stored.result.get("returns", [])]
    if stored_returns != [float(r) for r in state.returns()]:
        raise RecordError(f"it replays to returns {state.returns()}, not the stored {short(str(stored_returns), 60)}")
    return outcome


def think_seconds(stored: TableGame) -> list[float]:
    """Each seat's time to choose: from the action before (or the game's start) to its own, as the web table stored them."""
    seconds = [0.0] * stored.players
    before = stored.created_at
    for move in stored.moves:
        if move.seat is not None and 0 <= move.seat < stored.players:
            seconds[move.seat] += max(0.0, (move.at - before).total_seconds())
        before = move.at
    return seconds


def _playtest_columns(stored: TableGame) -> dict[str, Any]:
    """The :data:`~astrarium.lab.store.PLAYTEST` columns of a game: who held each seat, the feedback, the options, the end."""
    seats = range(stored.players)
    by_seat = {s.seat: s for s in stored.seats}
    columns = {
        "table": stored.id,
        "kinds": [by_seat[s].kind if s in by_seat else None for s in seats],
        "levels": [by_seat[s].level if s in by_seat else None for s in seats],
        "handed": [by_seat[s].handed if s in by_seat else None for s in seats],
        "fun": [stored.feedback[s][0] if s in stored.feedback else None for s in seats],
        "comments": [stored.feedback[s][1] if s in stored.feedback else None for s in seats],
        "options": json.dumps(stored.options, sort_keys=True),
        "finished_at": stored.finished_at,
    }
    return columns


def plural(count: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def import_lines(imported: Imported) -> list[str]:
    """What an import did, in words: games added and already there, games left out and why."""
    identity = imported.manifest["experiment"]
    lines = [
        f"{plural(imported.added, 'new game')} of {identity['game']} ({identity['players']} players) imported from "
        f"{identity['imported']} into {imported.folder}; {imported.known:,} already there, {imported.table.num_rows:,} in all."
    ]
    left = [plural(imported.unfinished, "unfinished game")] if imported.unfinished else []
    if imported.other_players:
        left.append(f"{plural(imported.other_players, 'finished game')} of another player count (--players)")
    if left:
        lines.append("Left out: " + "; ".join(left) + ".")
    lines += [f"Game {table} skipped: {why}" for table, why in imported.skipped.items()]
    return lines
