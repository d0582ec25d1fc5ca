"""Small helpers for telling a game in words (each game's ``words`` module and every front end).

The readers never fail on a missing or odd value, because the words are made
from views that may come from a file or an older version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def as_int(value: object) -> int | None:
    """``value`` when it is an int (not a bool), else None."""
    return value if type(value) is int else None


def as_list(value: object) -> list[Any]:
    """``value`` as a list when it is a list or tuple, else empty."""
    return list(value) if isinstance(value, list | tuple) else []


def as_map(value: object) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else empty."""
    return value if isinstance(value, Mapping) else {}


def as_text(value: object) -> str:
    """``value`` when it is text, else empty."""
    return value if isinstance(value, str) else ""


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 point``, ``2 points`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
