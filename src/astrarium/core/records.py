"""Game records: a finished or unfinished game as JSON, and replaying one.

A record comes from outside (a file, a browser), so its shape is checked
field by field before anything is built from it, and a record file is read
with the same limits as a data file (regular files of at most
:data:`MAX_RECORD_BYTES`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from astrarium.core.data import MAX_NESTING, nesting, read_text_file, write_text_file
from astrarium.core.errors import AstrariumError, DataError, IllegalAction, RecordError, short
from astrarium.core.game import RECORD_FORMAT, RECORD_VERSION, State
from astrarium.core.registry import get_game

#: The largest record file read, in bytes: 16 MiB (a long game is well under 1 MiB).
MAX_RECORD_BYTES = 16 << 20


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_record(record: Any) -> dict[str, Any]:
    """The record's fields, checked for shape; a RecordError names the first bad field."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if nesting(record) > MAX_NESTING:
        raise RecordError(f"the record is nested more than {MAX_NESTING} levels deep")
    public = _check_kind(record)
    _check_fields(record, public)
    if public:
        views = record.get("views")
        if not isinstance(views, list) or not all(isinstance(v, Mapping) for v in views) or len(views) != len(record["actions"]) + 1:
            raise RecordError("a public record's 'views' must be a list of one view per position (the start and after each move)")
    return dict(record)


def _check_kind(record: Mapping[str, Any]) -> bool:
    """Checks what kind of record this is (the format, the version, public or full); returns whether it is public."""
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT or not isinstance(fmt, str):
        raise RecordError(f"not an astrarium record (format {short(repr(fmt), 40)})")
    version = record.get("version")
    if not _whole(version) or version != RECORD_VERSION:
        raise RecordError(f"record version {short(repr(version), 40)} is not supported (this astrarium reads version {RECORD_VERSION})")
    public = record.get("public", False)
    if not isinstance(public, bool):
        raise RecordError(f"record field 'public' must be true or false, not {short(repr(public), 40)}")
    return public


def _check_fields(record: Mapping[str, Any], public: bool) -> None:
    """Checks the game's fields: every one required is there (a public record has no seed), each of its type."""
    required = ("game", "players", "actions") + (() if public else ("seed",))
    missing = [key for key in required if key not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}")
    if not isinstance(record["game"], str):
        raise RecordError(f"record field 'game' must be a game id (text), not {short(repr(record['game']), 40)}")
    if not _whole(record["players"]):
        raise RecordError(f"record field 'players' must be a whole number, not {short(repr(record['players']), 40)}")
    if not public and not _whole(record["seed"]):
        raise RecordError(f"record field 'seed' must be a whole number, not {short(repr(record['seed']), 40)}")
    options = record.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise RecordError(f"record field 'options' must be an object of option names and values, not {short(repr(options), 40)}")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record field 'actions' must be a list of action notations (text)")


def replay(record: Mapping[str, Any], upto: int | None = None) -> State:
    """Rebuild the state a record describes (its first ``upto`` actions, or all of them).

    Raises RecordError for a record of the wrong shape, format or version, an
    unknown game, options the game refuses, a public record (it has no seed),
    or an action that is illegal, naming the move.
    """
    checked = check_record(record)
    if upto is not None and not _whole(upto):
        raise RecordError(f"upto must be a whole number of moves, not {short(repr(upto), 40)}")
    if checked.get("public"):
        raise RecordError("a public record has no seed and cannot be replayed; it can only be shown position by position")
    actions: list[str] = checked["actions"]
    try:
        game = get_game(checked["game"])
        state = game.new_game(checked["players"], checked["seed"], checked.get("options") or None)
        bound = game.max_moves(state.players, state.options)
    except AstrariumError as exc:
        raise RecordError(f"cannot start the recorded game: {exc}") from exc
    if len(actions) > bound:
        raise RecordError(f"record has {len(actions):,} actions; a game of {game.title} lasts at most {bound:,}")
    count = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for number, notation in enumerate(actions[:count], start=1):
        try:
            state.apply(notation)
        except IllegalAction as exc:
            raise RecordError(f"move {number} ({short(notation)!r}) does not replay: {exc}") from exc
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON), with errors that name the file; the shape is checked too."""
    try:
        label, text = read_text_file(path, limit=MAX_RECORD_BYTES)
    except DataError as exc:
        raise RecordError(str(exc)) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{label}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise RecordError(f"{label}: nested more than {MAX_NESTING} levels deep") from exc
    try:
        return check_record(data)
    except RecordError as exc:
        raise RecordError(f"{label}: {exc}") from exc


def save_record(state: State, path: str | Path, public: bool = False, **extra: Any) -> Path:
    """Write ``state.to_record(public)`` (plus ``extra`` keys such as who sat where) to ``path``."""
    record = state.to_record(public=public)
    record.update(extra)
    try:
        return write_text_file(path, json.dumps(record, indent=1) + "\n")
    except DataError as exc:
        raise RecordError(str(exc)) from exc
