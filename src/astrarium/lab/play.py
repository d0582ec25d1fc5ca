"""One game of an experiment, played by the arena and turned into a row of ``games.parquet``.

:func:`play_game` runs in a worker (a local process or a Ray task): it plays
the game with the arena's :func:`~astrarium.agents.arena.play_out` and hands
back the game's row and its record, gzip-compressed, as bytes; it touches no
disk, and the main process writes the record (``records/<seed>.json.gz``, or
``records/<seed>-<rotation>.json.gz`` where every seed is played in every
rotation, replaced atomically) before the row can reach the results, so a
worker needs no shared disk (Ray). Local worker processes share the disk:
:func:`play_into` writes the record itself and hands back only the row, which
spares the main process (a third process on the workers' processors) the
writing and the record's trip through the pipe. Either way the record is in
place before its row is saved.

A game is known by its key, its seed and its rotation (:func:`rotation_of`):
a folder of one game a seed has one rotation a seed, so there the seed
alone names it.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from astrarium.agents.arena import Match, play_out
from astrarium.core.game import State

#: How a game says it ended at its turn or round limit, in the words of its outcome.
#: Outcome carries no flag for it (a new field would change every game's equivalence
#: fingerprint), so the lab reads the reason: celestials "turn limit (30 turns each): ...",
#: orbital-combat "round limit 40 reached: ...", connected-worlds "the round limit (30) was
#: reached ...", constellations "12 rounds were played; top score ..." (its max_rounds).
#: Streamlines has no limit: the team wins or loses in play.
LIMIT_REASON = re.compile(r"\b(?:turn|round) limit\b|^\d+ rounds? (?:was|were) played\b")

RECORDS = "records"
RECORD_SUFFIX = ".json.gz"
#: The columns a game's own measurements become (``metric_hull_0``): see ``Parts.metrics``.
METRIC_PREFIX = "metric_"


def ended_by(reason: str) -> str:
    """``"limit"`` when the game ended at its turn or round limit, else ``"play"``."""
    return "limit" if LIMIT_REASON.search(reason) else "play"


def final_round(state: State) -> int | None:
    """The round number the final position shows (its ``full_view()["round"]``), None for a game without rounds."""
    value = state.full_view().get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: A game's key in a results folder: its seed and its rotation.
GameKey = tuple[int, int]


def rotation_of(entries: Sequence[int]) -> int:
    """The rotation of a seating: the seat of line-up entry 0 (entry ``k`` sits at seat ``(k + rotation) % players``).

    The arena's game ``g`` has rotation ``g % players``; seats kept in place have rotation 0.
    """
    return list(entries).index(0)


def match_key(match: Match) -> GameKey:
    """The key of a game to play: its seed and its rotation."""
    return match.seed, rotation_of(match.entries)


def row_key(row: Mapping[str, Any]) -> GameKey:
    """The key of a played game, from its row of ``games.parquet``."""
    return int(row["seed"]), int(row["rotation"])


def record_name(seed: int, rotation: int | None = None) -> str:
    """A record's name without its suffix: ``<seed>``, or ``<seed>-<rotation>`` in a folder of several rotations a seed."""
    return str(seed) if rotation is None else f"{seed}-{rotation}"


def record_path(folder: str | Path, seed: int, rotation: int | None = None) -> Path:
    """Where the record of a game is kept: by its seed, or by seed and rotation where a seed has several (paired)."""
    return Path(folder) / RECORDS / f"{record_name(seed, rotation)}{RECORD_SUFFIX}"


def game_metrics(state: State) -> dict[str, float | None]:
    """The game's own measurements of the finished game (its contract's ``metrics``), as ``metric_<name>`` columns."""
    declared = state.game.parts.metrics
    if declared is None:
        return {}
    return {f"{METRIC_PREFIX}{name}": None if value is None else float(value) for name, value in declared(state).items()}


#: A finished game as a worker hands it back: its row and its gzip-compressed JSON record (None: already written).
Played = tuple[dict[str, Any], bytes | None]


def play_game(match: Match) -> tuple[dict[str, Any], bytes]:
    """Play ``match`` and return its row (see :mod:`astrarium.lab.store`) and its compressed record; no disk is touched."""
    state, result = play_out(match)
    record = state.to_record()
    record["seats"] = {str(s): spec for s, spec in enumerate(match.seats)}
    record["lab"] = {"game_index": match.index, "entries": list(match.entries), "rotation": rotation_of(match.entries)}
    data = gzip.compress(json.dumps(record).encode("utf-8"), mtime=0)
    outcome = state.outcome
    scores = None if outcome is None or outcome.scores is None else [float(s) for s in outcome.scores]
    row = {
        "seed": result.seed,
        "game_index": result.index,
        "rotation": rotation_of(result.entries),
        "seats": result.seats,
        "entries": result.entries,
        "returns": [float(r) for r in result.returns],
        "winners": result.winners,
        "scores": scores,
        "reason": result.reason,
        "ended_by": ended_by(result.reason),
        "moves": result.length,
        "rounds": final_round(state),
        "moves_by_seat": result.moves_by_seat,
        "think_seconds": result.think_seconds,
        **game_metrics(state),
    }
    return row, data


def play_into(folder: Path, paired: bool, match: Match) -> Played:
    """Play ``match`` and write its record into the results ``folder`` (named by seed, and rotation when ``paired``); the row and None."""
    row, data = play_game(match)
    save_record(folder, row["seed"], data, row["rotation"] if paired else None)
    return row, None


def save_record(folder: str | Path, seed: int, data: bytes, rotation: int | None = None) -> None:
    """Write a game's compressed record into the results folder (atomically: a reader never sees half of it)."""
    write_atomic(record_path(folder, seed, rotation), data)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, so a reader never sees half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
