"""Reading rules data (cards, maps, scenarios, puzzles) shipped inside game packages.

Data files are TOML or JSON next to the code that reads them, or a designer's
own file named by an option. Every error names the file and the entry, so a
designer editing a table can find the mistake.

Files from outside are untrusted: :func:`read_text_file` reads only regular
files of at most :data:`MAX_DATA_BYTES`, without following a FIFO or a device
into a read that never ends, and :func:`parse_data` refuses nesting deeper than
:data:`MAX_NESTING`. Each game declares the shape of its files as a pydantic
schema (:class:`DataModel`) with bounded numbers, checked by :func:`validate`.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
import tomllib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from astrarium.core.errors import DataError, short

_MISSING = object()

#: The largest data file (or record) read from disk, in bytes: 1 MiB.
MAX_DATA_BYTES = 1 << 20
#: The deepest nesting of tables and lists a data file may have.
MAX_NESTING = 32
#: The longest path accepted, in characters.
MAX_PATH_CHARS = 1024
#: Whether designer files may be read here (False while a game is built from a stranger's options: see
#: :func:`no_file_reads`).
_FILES_ALLOWED: ContextVar[bool] = ContextVar("astrarium_files_allowed", default=True)


def names_file(value: str) -> bool:
    """Whether an option's text names a data file rather than holding the data itself.

    The one rule for it, used by the games that take either (a map's name or its
    file, a scenario's text or its file) and by the web table, which refuses
    every value it holds true for: one line (no line break, no ``=``, which
    inline TOML always has) that ends in ``.toml`` or ``.json`` or holds a slash
    or a backslash.
    """
    if "\n" in value or "\r" in value or "=" in value:
        return False
    return value.endswith((".toml", ".json")) or "/" in value or "\\" in value


@contextlib.contextmanager
def no_file_reads() -> Iterator[None]:
    """Within this block every designer file is refused (:func:`read_text_file` raises DataError before opening it).

    The web table builds games from a stranger's options inside it, so nothing a
    browser sends can make the server open a file on its own disk, whatever the
    option. Shipped data is read from the package and is not affected.
    """
    token = _FILES_ALLOWED.set(False)
    try:
        yield
    finally:
        _FILES_ALLOWED.reset(token)


def read_data(package: str, name: str) -> tuple[str, Any]:
    """Load ``name`` (``.toml`` or ``.json``) from a package; returns (file label, parsed data)."""
    label = f"{package.rpartition('.')[2]}/{name}"
    raw = resources.files(package).joinpath(name).read_bytes()
    return label, parse_data(decode_text(raw, label), label)


def check_path(path: Any, label: str = "path") -> Path:
    """``path`` as a Path, refused with a DataError when it cannot name a file (wrong type, NUL, too long)."""
    if not isinstance(path, str | os.PathLike):
        raise DataError(label, "file", f"a file path is text, not {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise DataError(label, "file", "a file path is text, not bytes")
    shown = short(text)
    if "\x00" in text:
        raise DataError(shown, "file", "the path contains a NUL character")
    if len(text) > MAX_PATH_CHARS:
        raise DataError(shown, "file", f"the path is longer than {MAX_PATH_CHARS} characters")
    if not text.strip():
        raise DataError("''", "file", "the path is empty")
    return Path(text)


def read_text_file(path: Any, limit: int = MAX_DATA_BYTES) -> tuple[str, str]:
    """Read a UTF-8 text file of at most ``limit`` bytes; returns (label, text).

    Only regular files are read (a FIFO, a device or a folder is refused without
    blocking), at most ``limit`` bytes are ever read, a byte-order mark is
    dropped, and every failure is a DataError naming the file.
    """
    p = check_path(path)
    label = short(str(p), 200)
    if not _FILES_ALLOWED.get():
        raise DataError(label, "file", "files on the server cannot be read for a game made from a browser")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DataError(label, "file", f"cannot read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a pipe, device or socket)"
            raise DataError(label, "file", f"cannot read: {kind}")
        if info.st_size > limit:
            raise DataError(label, "file", f"is {info.st_size:,} bytes; the limit is {limit:,}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise DataError(label, "file", f"is larger than the limit of {limit:,} bytes")
    except OSError as exc:
        raise DataError(label, "file", f"cannot read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    return label, decode_text(b"".join(chunks), label)


def decode_text(raw: bytes, label: str) -> str:
    """UTF-8 text (a leading byte-order mark dropped), or a DataError saying where the bad byte is."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(label, f"line {line}", f"not UTF-8 text (byte {exc.start})") from exc
    return text.removeprefix("\ufeff")


def read_data_file(path: Any) -> tuple[str, Any]:
    """Load a data file from disk (a designer's own map, deck or scenario), bounded in size and depth."""
    label, text = read_text_file(path)
    return label, parse_data(text, label, suffix=check_path(path).suffix)


def parse_data(text: str, label: str, suffix: str | None = None) -> Any:
    """Parse TOML or JSON text, refusing syntax errors and nesting deeper than MAX_NESTING."""
    suffix = suffix if suffix is not None else Path(label).suffix
    if suffix not in (".toml", ".json"):
        raise DataError(label, "file", f"unknown data format {suffix!r} (use .toml or .json)")
    text = text.removeprefix("\ufeff")
    if _bracket_depth(text) > MAX_NESTING:
        raise DataError(label, "syntax", f"nested more than {MAX_NESTING} levels deep")
    try:
        data = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(label, "syntax", str(exc)) from exc
    except json.JSONDecodeError as exc:
        raise DataError(label, f"line {exc.lineno}", exc.msg) from exc
    except RecursionError as exc:  # pragma: no cover - the bracket scan catches these first
        raise DataError(label, "syntax", f"nested more than {MAX_NESTING} levels deep") from exc
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise DataError(label, "syntax", short(str(exc), 120)) from exc
    if nesting(data) > MAX_NESTING:
        raise DataError(label, "syntax", f"nested more than {MAX_NESTING} levels deep")
    return data


def _bracket_depth(text: str) -> int:
    """An upper bound of how deep ``[``/``{`` nest in the text (strings included, so it may over-count)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return 0
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_NESTING * 4:
                    return deepest
        elif ch in "]}":
            depth = max(0, depth - 1)
    # Brackets inside strings can inflate the count; only far-out depths are refused here,
    # the exact check runs on the parsed data.
    return deepest if deepest > MAX_NESTING * 4 else 0


def nesting(data: Any) -> int:
    """How deep lists and tables nest in parsed data (iteratively, so any depth is safe to measure)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def check_output_file(path: Any) -> Path:
    """``path`` as a file that can be written now; a DataError says why not.

    Called before a long run, so that a results file in a missing folder or on
    a device fails at once instead of after every game was played.
    """
    target = check_path(path)
    shown = short(str(target))
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise DataError(shown, "file", f"cannot write: {exc.strerror or exc}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a pipe, device or socket)"
        raise DataError(shown, "file", f"cannot write: it is {kind}")
    parent = target.parent
    if info is None and not parent.is_dir():
        raise DataError(shown, "file", f"cannot write: the folder {short(str(parent))!r} does not exist")
    if not os.access(target if info is not None else parent, os.W_OK):
        raise DataError(shown, "file", "cannot write: permission denied")
    return target


def write_text_file(path: str | Path, text: str) -> Path:
    """Write ``text`` to a regular file (made or replaced); a FIFO or a device is refused without blocking."""
    target = check_output_file(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        raise DataError(short(str(target)), "file", f"cannot write: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DataError(short(str(target)), "file", "cannot write: it is not a regular file")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            fd = -1  # the handle owns it now
            handle.write(text)
    except OSError as exc:
        raise DataError(short(str(target)), "file", f"cannot write: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    return target


# -- schemas ------------------------------------------------------------------


class DataModel(BaseModel):
    """Base of every data file schema: unknown keys refused, types strict, no NaN or infinity."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any, *, file: str, entry: str = "") -> M:
    """``data`` checked against ``model``; the first problem raises DataError naming file and entry.

    The entry is ``entry`` followed by the location pydantic reports
    (``card "phoenix": health``), so a designer finds the line to fix.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        # A misspelt key shows as an unknown key and a missing one: name the misspelling first.
        errors.sort(key=lambda e: e.get("type") != "extra_forbidden")
        first = errors[0]
        where = describe_location(first.get("loc", ()))
        place = " ".join(p for p in (entry, where) if p) or "file"
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        if first.get("type") not in ("missing", "extra_forbidden", "value_error"):
            message += f" (got {short(repr(first.get('input')), 60)})"
        if len(errors) > 1:
            message += f"; and {len(errors) - 1} more problem(s)"
        raise DataError(file, place, message) from None


def describe_location(loc: tuple[Any, ...] | list[Any]) -> str:
    """pydantic's error location as a path: ``("cards", 3, "health")`` → ``cards.#4.health`` (entries counted from 1)."""
    parts = []
    for part in loc:
        parts.append(f"#{part + 1}" if isinstance(part, int) else short(str(part), 40))
    return ".".join(parts)


# -- hand-written checks kept for the cross-checks a schema cannot say ----------


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
        raise DataError(file, entry, f"expected a table, got {short(repr(table), 60)}")
    if name not in table:
        if default is not _MISSING:
            return default
        raise DataError(file, entry, f"missing field {name!r}")
    value = table[name]
    bad_bool = isinstance(value, bool) and kind in (int, float, (int, float))
    if bad_bool or not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(k.__name__ for k in kinds)
        raise DataError(file, entry, f"field {name!r} should be {expected}, got {short(repr(value), 60)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise DataError(file, entry, f"field {name!r} should be a finite number, got {value!r}")
    return value


def no_unknown_fields(table: Mapping[str, Any], allowed: set[str] | frozenset[str], *, file: str, entry: str) -> None:
    """Reject fields the reader does not know (usually a misspelling)."""
    if not isinstance(table, Mapping):
        raise DataError(file, entry, f"expected a table, got {short(repr(table), 60)}")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise DataError(file, entry, f"unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(allowed))}")
