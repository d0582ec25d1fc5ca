"""A results folder: ``games.parquet`` written in parts as games finish, a manifest, the records.

```
DIR/manifest.json          the experiment, the command, the parts that count
DIR/games.parquet/         part-000000.parquet, part-000001.parquet, ... one row a game
DIR/records/<seed>.json.gz every game's record (astrarium.replay); <seed>-<rotation>.json.gz when paired
```

A game is known by its key, its seed and its rotation (``rotation``: the
seat of line-up entry 0). A part is written to a temporary name and renamed,
then the manifest (also replaced atomically) lists it: only parts the
manifest lists count, so a run stopped at any instant (Ctrl-C, SIGKILL, a
lost worker) leaves either a part that counts or a file that the next run
removes. The next run with the same experiment reads the games already
played and plays only the missing ones. Parts written before the
``rotation`` column existed (one game a seed) get it from their ``entries``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from astrarium.core.data import check_path
from astrarium.core.errors import DataError, short
from astrarium.lab.experiment import PAIRED, Experiment
from astrarium.lab.play import METRIC_PREFIX, RECORDS, GameKey, record_path, rotation_of, row_key, save_record, write_atomic

FORMAT = "astrarium-lab-results"
VERSION = 1
MANIFEST = "manifest.json"
GAMES = "games.parquet"

#: One row a game. Lists hold one entry per seat, seat 0 first.
SCHEMA = pa.schema(
    [
        pa.field("seed", pa.int64(), nullable=False),
        pa.field("game_index", pa.int64(), nullable=False),
        pa.field("rotation", pa.int32(), nullable=False),
        pa.field("seats", pa.list_(pa.string()), nullable=False),
        pa.field("entries", pa.list_(pa.int32()), nullable=False),
        pa.field("returns", pa.list_(pa.float64()), nullable=False),
        pa.field("winners", pa.list_(pa.int32()), nullable=False),
        pa.field("scores", pa.list_(pa.float64())),
        pa.field("reason", pa.string(), nullable=False),
        pa.field("ended_by", pa.string(), nullable=False),
        pa.field("moves", pa.int64(), nullable=False),
        pa.field("rounds", pa.int64()),
        pa.field("moves_by_seat", pa.list_(pa.int64()), nullable=False),
        pa.field("think_seconds", pa.list_(pa.float64()), nullable=False),
    ]
)


#: What a game imported from the web table adds (:mod:`astrarium.lab.playtests`): the table's game id, who held each
#: seat (``person`` or ``computer``, the computer's level, the level a person's seat was handed to), the players' feedback
#: (fun 1-5 and their words, null where a seat gave none), the game's options (JSON) and when it ended.
PLAYTEST = pa.schema(
    [
        pa.field("table", pa.string()),
        pa.field("kinds", pa.list_(pa.string())),
        pa.field("levels", pa.list_(pa.string())),
        pa.field("handed", pa.list_(pa.string())),
        pa.field("fun", pa.list_(pa.int32())),
        pa.field("comments", pa.list_(pa.string())),
        pa.field("options", pa.string()),
        pa.field("finished_at", pa.timestamp("us", tz="UTC")),
    ]
)


def schema_for(names: Iterable[str]) -> pa.Schema:
    """:data:`SCHEMA`, the :data:`PLAYTEST` columns among ``names``, then a nullable float column for each of the game's own metrics."""
    present = set(names)
    metrics = sorted(name for name in present if name.startswith(METRIC_PREFIX))
    playtest = [column for column in PLAYTEST if column.name in present]
    return pa.schema([*SCHEMA, *playtest, *(pa.field(name, pa.float64()) for name in metrics)])


def _conform(table: pa.Table, path: Path) -> pa.Table:
    """A part's table with :data:`SCHEMA`'s columns (of its types) then its metric columns; a DataError if one is missing.

    A part written before the ``rotation`` column existed gets it from each game's ``entries``.
    """
    if "rotation" not in table.column_names and "entries" in table.column_names:
        rotations = [rotation_of(entries) for entries in table.column("entries").to_pylist()]
        table = table.append_column("rotation", pa.array(rotations, pa.int32()))
    schema = schema_for(table.column_names)
    missing = [name for name in schema.names if name not in table.column_names]
    if missing:
        raise DataError(short(str(path), 200), "file", f"cannot read: no column {missing[0]!r}")
    return table.select(schema.names).cast(schema)


@dataclass
class Store:
    """An open results folder: what is done, and how to add to it."""

    folder: Path
    manifest: dict[str, Any]
    done: set[GameKey] = field(default_factory=set)
    """The keys (seed, rotation) of the games that count."""

    @property
    def parts(self) -> list[str]:
        return list(self.manifest["parts"])

    @property
    def paired(self) -> bool:
        """Whether the folder holds every seed in every rotation (its records named by seed and rotation)."""
        return is_paired(self.manifest)

    def save_record(self, key: GameKey, data: bytes) -> None:
        """Write a game's compressed record under its name in this folder."""
        seed, rotation = key
        save_record(self.folder, seed, data, rotation if self.paired else None)

    def append(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Add finished games: one new part file, then the manifest that lists it."""
        if not rows:
            return
        schema = schema_for(name for row in rows for name in row)
        table = pa.Table.from_pylist(list(rows), schema=schema).replace_schema_metadata(_metadata(self.manifest))
        name = f"part-{len(self.manifest['parts']):06d}.parquet"
        path = self.folder / GAMES / name
        temporary = path.with_name(f".{name}.tmp")
        pq.write_table(table, temporary)
        os.replace(temporary, path)
        self.manifest["parts"].append(name)
        self.manifest["games_done"] = len(self.done) + len(rows)
        _write_manifest(self.folder, self.manifest)
        self.done.update(row_key(r) for r in rows)

    def drop_unsaved_records(self) -> None:
        """Remove the records of games whose rows were not saved: a local worker writes its game's record itself,
        so a run stopped early may leave one for a game it never counted (played again when the run resumes), or
        the temporary file of one it was writing when it was ended."""
        paired = self.paired
        kept = {record_path(self.folder, seed, rotation if paired else None).name for seed, rotation in self.done}
        for child in (self.folder / RECORDS).glob("*.json.gz"):
            if child.name not in kept:
                child.unlink()
        _remove_temporaries(self.folder / RECORDS)

    def table(self) -> pa.Table:
        """Every game that counts, sorted by seed and rotation."""
        return read_parts(self.folder, self.parts)


def is_paired(manifest: Mapping[str, Any]) -> bool:
    """Whether a results folder's experiment plays every seed in every rotation (``rotate = "paired"``)."""
    return bool(manifest.get("experiment", {}).get("rotate") == PAIRED)


def game_record_path(folder: Path, manifest: Mapping[str, Any], row: Mapping[str, Any]) -> Path:
    """Where the record of the game of ``row`` is kept in a results folder (by seed, or by seed and rotation when paired)."""
    seed, rotation = row_key(row)
    return record_path(folder, seed, rotation if is_paired(manifest) else None)


def open_store(folder: str | Path, experiment: Experiment, command: str) -> Store:
    """The results folder for ``experiment``: made if new, checked and tidied if it holds an earlier run.

    A folder that holds another experiment's results (another game, line-up,
    seed, options or rotation) is refused with a DataError; a larger game count
    goes on from where the earlier run stopped.
    """
    return open_folder(folder, experiment.identity(), source=experiment.source, command=command, games=experiment.games)


def open_folder(folder: str | Path, identity: Mapping[str, Any], *, source: str | None, command: str, games: int) -> Store:
    """The results folder of what ``identity`` names (an experiment, an import): made if new, checked and tidied if not.

    A folder that holds another identity's results is refused with a DataError.
    """
    path = check_path(folder, "results folder")
    identity = _plain(identity)
    manifest = read_manifest(path) if (path / MANIFEST).exists() else None
    if manifest is None:
        _make_folders(path)
        manifest = {"format": FORMAT, "version": VERSION, "experiment": identity, "parts": [], "games_done": 0}
    elif manifest["experiment"] != identity:
        shown = short(str(path / MANIFEST), 200)
        raise DataError(
            shown,
            "experiment",
            f"this folder holds the results of another experiment ({_describe(manifest['experiment'])}); use another --out",
        )
    _make_folders(path)
    _remove_strays(path, set(manifest["parts"]))
    manifest["games"] = max(int(manifest.get("games", 0)), games)
    manifest["source"] = source
    manifest["command"] = command
    _write_manifest(path, manifest)
    return Store(path, manifest, set(keys(read_parts(path, manifest["parts"]))))


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a results folder; a DataError says what is wrong with it."""
    shown = short(str(folder / MANIFEST), 200)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(short(str(folder), 200), "folder", f"no {MANIFEST}: not a results folder of 'astrarium lab run'") from None
    except (OSError, ValueError) as exc:
        raise DataError(shown, "file", f"cannot read: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DataError(shown, "format", f"not a results manifest of 'astrarium lab run' (format {FORMAT!r})")
    if manifest.get("version") != VERSION:
        raise DataError(shown, "version", f"version {short(repr(manifest.get('version')), 20)} is not {VERSION}")
    parts = manifest.get("parts")
    if not isinstance(parts, list) or not all(isinstance(p, str) and _is_part_name(p) for p in parts):
        raise DataError(shown, "parts", "should list the part files of games.parquet")
    if not isinstance(manifest.get("experiment"), dict):
        raise DataError(shown, "experiment", "missing")
    return manifest


def read_parts(folder: Path, parts: Iterable[str]) -> pa.Table:
    """The listed parts as one table sorted by seed and rotation; a DataError if one is missing or a game is counted twice."""
    tables = []
    for name in parts:
        path = folder / GAMES / name
        try:
            tables.append(_conform(pq.read_table(path), path))
        except (OSError, pa.ArrowException) as exc:
            raise DataError(short(str(path), 200), "file", f"cannot read: {exc}") from None
    table = pa.concat_tables(tables, promote_options="default") if tables else SCHEMA.empty_table()
    table = table.sort_by([("seed", "ascending"), ("rotation", "ascending")])
    found = keys(table)
    if len(set(found)) != len(found):
        seed, rotation = next(key for key in found if found.count(key) > 1)
        raise DataError(short(str(folder / MANIFEST), 200), "parts", f"a game (seed {seed}, rotation {rotation}) is counted twice")
    return table


def keys(table: pa.Table) -> list[GameKey]:
    """The keys (seed, rotation) of a results table's games, in its order."""
    return list(zip(table.column("seed").to_pylist(), table.column("rotation").to_pylist(), strict=True))


def _make_folders(path: Path) -> None:
    try:
        (path / GAMES).mkdir(parents=True, exist_ok=True)
        (path / RECORDS).mkdir(exist_ok=True)
    except OSError as exc:
        raise DataError(short(str(path), 200), "folder", f"cannot make the results folder: {exc.strerror or exc}") from None


def _remove_strays(path: Path, parts: set[str]) -> None:
    """Drop what a stopped run left half-done: parts the manifest never listed, temporary files."""
    for child in (path / GAMES).iterdir():
        if child.name not in parts:
            child.unlink()
    _remove_temporaries(path / RECORDS)


def _remove_temporaries(records: Path) -> None:
    """Drop the temporary files of records whose writing was cut short (a worker ended before its rename)."""
    for child in records.glob(".*.tmp"):
        child.unlink(missing_ok=True)


def _is_part_name(name: str) -> bool:
    return name.startswith("part-") and name.endswith(".parquet") and "/" not in name and "\\" not in name


def _write_manifest(folder: Path, manifest: Mapping[str, Any]) -> None:
    write_atomic(folder / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))


def _metadata(manifest: Mapping[str, Any]) -> dict[bytes, bytes]:
    """What each part says about where it came from: the experiment and the command."""
    about = {"experiment": manifest["experiment"], "source": manifest.get("source"), "command": manifest.get("command")}
    return {b"astrarium.lab": json.dumps(about).encode("utf-8")}


def _plain(data: Any) -> Any:
    """``data`` as JSON gives it back (tuples as lists), so a manifest compares equal to what it stores."""
    return json.loads(json.dumps(data))


def _describe(identity: Mapping[str, Any]) -> str:
    lineup = " vs ".join(map(str, identity.get("lineup", [])))
    where = f"imported from {identity['imported']}" if "imported" in identity else f"seed {identity.get('seed')}"
    return short(f"{identity.get('game')}: {lineup}, {where}", 120)
