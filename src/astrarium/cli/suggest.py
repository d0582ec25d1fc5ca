""" "Did you mean": the nearest words of this position to a word a person mistyped in an action."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

#: How alike a typed word and a known one must be to be offered (difflib's ratio).
CLOSE = 0.7


def vocabulary(legal: Iterable[Any], names: Iterable[str] = ()) -> set[str]:
    """The words of the legal actions' notations and the game's card names, in lower case."""
    words = {word.lower() for action in legal for word in str(action).split()}
    return words | {name.lower() for name in names}


def did_you_mean(line: str, legal: Iterable[Any], names: Iterable[str] = ()) -> str:
    """``did you mean X?`` for the first word of ``line`` this position does not know but one it knows is close to, else ``""``."""
    known = vocabulary(legal, names)
    for word in line.lower().split():
        if word in known:
            continue
        close = difflib.get_close_matches(word, sorted(known), n=3, cutoff=CLOSE)
        if close:
            return "did you mean " + " or ".join(close) + "?"
    return ""


def refusal(message: str, line: str, legal: Iterable[Any], names: Iterable[str] = ()) -> str:
    """An action's refusal with a ``did you mean`` added when a typed word is close to a known one."""
    hint = did_you_mean(line, legal, names)
    return f"{message.rstrip('.')}; {hint}" if hint else message
