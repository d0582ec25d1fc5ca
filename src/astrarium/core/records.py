"""Game records: a finished or unfinished game as JSON, and replaying one."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from astrarium.core.errors import AstrariumError, IllegalAction, RecordError
from astrarium.core.game import RECORD_FORMAT, RECORD_VERSION, State
from astrarium.core.registry import get_game

_REQUIRED = ("game", "players", "seed", "actions")


def replay(record: Mapping[str, Any], upto: int | None = None) -> State:
    """Rebuild the state a record describes (its first ``upto`` actions, or all of them).

    Raises RecordError for a record of the wrong format or version, an unknown
    game, options the game refuses, or an action that is illegal, naming the move.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError(f"not an astrarium record (format {fmt!r})")
    version = record.get("version")
    if version != RECORD_VERSION:
        raise RecordError(f"record version {version!r} is not supported (this astrarium reads version {RECORD_VERSION})")
    missing = [key for key in _REQUIRED if key not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record 'actions' must be a list of action notations")
    try:
        game = get_game(record["game"])
        state = game.new_game(record["players"], record["seed"], record.get("options") or None)
    except AstrariumError as exc:
        raise RecordError(f"cannot start the recorded game: {exc}") from exc
    count = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for number, notation in enumerate(actions[:count], start=1):
        try:
            state.apply(notation)
        except IllegalAction as exc:
            raise RecordError(f"move {number} ({notation!r}) does not replay: {exc}") from exc
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON), with errors that name the file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data


def save_record(state: State, path: str | Path, **extra: Any) -> Path:
    """Write ``state.to_record()`` (plus ``extra`` keys such as who sat where) to ``path``."""
    path = Path(path)
    record = state.to_record()
    record.update(extra)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path
