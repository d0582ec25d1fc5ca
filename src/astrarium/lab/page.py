"""The pieces the lab's HTML pages are built from: a rate with its interval, a table."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

Interval = tuple[float, float]


def percent(rate: float, interval: Interval) -> str:
    """``52.0% (48.9-55.1%)``."""
    return f"{rate * 100:.1f}% ({interval[0] * 100:.1f}-{interval[1] * 100:.1f}%)"


def html_table(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of text (every heading and cell escaped)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headings)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
