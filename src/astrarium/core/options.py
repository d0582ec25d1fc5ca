"""Game options: every rule number or choice a seed leaves open is one of these.

A game declares its options as a tuple of :class:`Option` at the top of its
package; ``Game.new_game`` resolves what the caller passes against them, so an
unknown name or a bad value fails before any state exists.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from astrarium.core.data import MAX_NESTING, nesting, parse_data
from astrarium.core.errors import DataError, OptionError, short

#: The longest text an option takes (a position or a table written inline), in characters.
MAX_TEXT_CHARS = 64 * 1024
#: The most entries a list option takes.
MAX_LIST_ITEMS = 4096

_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "text", list: "a list"}


@dataclass(frozen=True, slots=True)
class Option:
    """One tunable rule of a game.

    ``kind`` is one of int, float, bool, str, list. ``choices`` restricts the value
    to a set; ``minimum``/``maximum`` bound numbers (and list lengths); ``nullable``
    allows None (the usual meaning: "use the seeded default", e.g. a random board);
    ``check`` is a last validation that returns an error message or None;
    ``names_file`` marks a text option whose value is a path on disk (a
    designer's deck, map or scenario), which the web table never offers or
    accepts from a browser.
    """

    name: str
    default: Any
    help: str
    kind: type = int
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False
    check: Callable[[Any], str | None] | None = None
    names_file: bool = False

    def validate(self, value: Any) -> Any:
        """Return the value, normalised (ints become floats for float options), or raise OptionError."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(self.name, "a value is required")
        kind = self.kind
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is list and isinstance(value, tuple):
            value = list(value)
        if kind is not bool and isinstance(value, bool) or not isinstance(value, kind):
            raise OptionError(self.name, f"expected {_TYPE_NAMES.get(kind, kind.__name__)}, got {short(repr(value), 60)}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(self.name, f"{short(repr(value), 60)} is not one of {allowed}")
        if isinstance(value, int | float):
            self._check_number(value)
        if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise OptionError(self.name, f"is {len(value):,} characters long; the limit is {MAX_TEXT_CHARS:,}")
        if isinstance(value, list):
            self._check_list(value)
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise OptionError(self.name, problem)
        return value

    def _check_number(self, value: float) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            raise OptionError(self.name, f"expected a finite number, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(self.name, f"{short(repr(value), 60)} is below the minimum {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(self.name, f"{short(repr(value), 60)} is above the maximum {self.maximum:g}")

    def _check_list(self, value: list[Any]) -> None:
        if self.minimum is not None and len(value) < self.minimum:
            raise OptionError(self.name, f"needs at least {self.minimum:g} entries, got {len(value)}")
        if self.maximum is not None and len(value) > self.maximum:
            raise OptionError(self.name, f"allows at most {self.maximum:g} entries, got {len(value)}")
        if len(value) > MAX_LIST_ITEMS:
            raise OptionError(self.name, f"allows at most {MAX_LIST_ITEMS:,} entries, got {len(value):,}")
        if nesting(value) > MAX_NESTING:
            raise OptionError(self.name, f"is nested more than {MAX_NESTING} levels deep")

    def parse(self, text: str) -> Any:
        """Turn command-line text into a value of this option's kind (then validate it)."""
        raw = text.strip()
        if self.nullable and raw.lower() in ("none", "null", ""):
            return self.validate(None)
        try:
            if self.kind is bool:
                lowered = raw.lower()
                if lowered in ("1", "true", "yes", "on"):
                    value: Any = True
                elif lowered in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise ValueError(raw)
            elif self.kind is int:
                value = int(raw)
            elif self.kind is float:
                value = float(raw)
            elif self.kind is list:
                value = _parse_list(raw, self.name)
            else:
                value = raw.replace("\\n", "\n")
        except OptionError:
            raise
        except ValueError as exc:
            raise OptionError(self.name, f"expected {_TYPE_NAMES.get(self.kind, 'a value')}, got {short(repr(text), 60)}") from exc
        return self.validate(value)

    def describe(self) -> str:
        parts = [self.help]
        if self.choices is not None:
            parts.append("one of " + ", ".join(str(c) for c in self.choices))
        if self.minimum is not None or self.maximum is not None:
            lo = "" if self.minimum is None else f"{self.minimum:g}"
            hi = "" if self.maximum is None else f"{self.maximum:g}"
            parts.append(f"range {lo}..{hi}")
        return "; ".join(parts)


def resolve_options(specs: tuple[Option, ...], given: Mapping[str, Any] | None, *, game_id: str = "game") -> dict[str, Any]:
    """Merge the given options over the defaults, rejecting unknown names and bad values."""
    by_name = {o.name: o for o in specs}
    resolved = {o.name: o.default for o in specs}
    if given is None:
        return resolved
    if not isinstance(given, Mapping):
        raise OptionError("options", f"expected a mapping of option names to values, got {given!r}")
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(str(name), f"{game_id} has no such option (its options: {known})")
        resolved[name] = spec.validate(value)
    return resolved


def _parse_list(raw: str, name: str) -> list[Any]:
    """A list option from text: JSON (``[1, 2]``) or comma-separated words."""
    if len(raw) > MAX_TEXT_CHARS:
        raise OptionError(name, f"is {len(raw):,} characters long; the limit is {MAX_TEXT_CHARS:,}")
    if not raw.startswith("["):
        return [p.strip() for p in raw.split(",") if p.strip()]
    try:
        value = parse_data(raw, f"option {name}", suffix=".json")
    except DataError as exc:
        raise OptionError(name, f"not a JSON list ({exc.entry}: {str(exc).rpartition(': ')[2]})") from exc
    if not isinstance(value, list):
        raise OptionError(name, "expected a list")
    return value
