"""Reading rules data (cards, maps, scenarios, puzzles) shipped inside game packages.

Data files are TOML or JSON next to the code that reads them. Every error names
the file and the entry, so a designer editing a table can find the mistake.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from astrarium.core.errors import DataError

_MISSING = object()


def read_data(package: str, name: str) -> tuple[str, Any]:
    """Load ``name`` (``.toml`` or ``.json``) from a package; returns (file label, parsed data)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    label = f"{package.rpartition('.')[2]}/{name}"
    return label, parse_data(text, label)


def read_data_file(path: str | Path) -> tuple[str, Any]:
    """Load a data file from disk (a designer's own map, deck or scenario)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), "file", f"cannot read: {exc.strerror or exc}") from exc
    return str(path), parse_data(text, str(path), suffix=path.suffix)


def parse_data(text: str, label: str, suffix: str | None = None) -> Any:
    suffix = suffix if suffix is not None else Path(label).suffix
    try:
        if suffix == ".toml":
            return tomllib.loads(text)
        if suffix == ".json":
            return json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(label, "syntax", str(exc)) from exc
    except json.JSONDecodeError as exc:
        raise DataError(label, f"line {exc.lineno}", exc.msg) from exc
    raise DataError(label, "file", f"unknown data format {suffix!r} (use .toml or .json)")


def field(
    table: Mapping[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    *,
    file: str,
    entry: str,
    default: Any = _MISSING,
) -> Any:
    """``table[name]``, checked to be of ``kind``; a missing or wrong field raises DataError."""
    if not isinstance(table, Mapping):
        raise DataError(file, entry, f"expected a table, got {table!r}")
    if name not in table:
        if default is not _MISSING:
            return default
        raise DataError(file, entry, f"missing field {name!r}")
    value = table[name]
    bad_bool = isinstance(value, bool) and kind in (int, float, (int, float))
    if bad_bool or not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(k.__name__ for k in kinds)
        raise DataError(file, entry, f"field {name!r} should be {expected}, got {value!r}")
    return value


def no_unknown_fields(table: Mapping[str, Any], allowed: set[str] | frozenset[str], *, file: str, entry: str) -> None:
    """Reject fields the reader does not know (usually a misspelling)."""
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise DataError(file, entry, f"unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(allowed))}")
