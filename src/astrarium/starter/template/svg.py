"""The picture: each pile as a row of stars, and the counts to take as chips; a click on a pile and a count plays.

Drawn from a picture view alone (``State.picture_view``) with the core's
picture kit, so it looks like every other game's picture. An action's click
tokens are its pile's letter and its count (``take 2 b`` is ``b`` then ``2``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core.picture_kit import (
    BOLD,
    DIM_CLASS,
    GUIDE,
    HIGHLIGHT,
    PANEL,
    WIDTH,
    begin,
    chip_open,
    finish,
    game_over,
    latest,
    put_text,
    seat_to,
    winner_marks,
    wins,
    you_suffix,
)
from astrarium.core.words import as_int, as_list

#: Every token is drawn in the picture: no buttons besides it.
BUTTON_TOKENS: frozenset[str] = frozenset()
#: A pile's row, and the distance between two stars.
ROW, STEP = 44, 26


def action_tokens(notation: str) -> list[str]:
    """The clicks that make ``notation``: the pile's letter, then the count (``take 2 b`` -> ``b``, ``2``)."""
    words = notation.split()
    return [words[2], words[1]] if len(words) == 3 else words


def _status(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    if isinstance(outcome, Mapping):
        return game_over(wins(winner_marks(outcome), "nobody wins"), outcome.get("reason", ""))
    mover = as_int(view.get("to_move"))
    return (seat_to(mover, "take stars") if mover is not None else "") + you_suffix(view.get("viewer"))


def render_svg(view: Mapping[str, Any]) -> str:
    """The position ``view`` shows, as an SVG document."""
    piles = [n for n in as_list(view.get("piles")) if isinstance(n, int)]
    limit = as_int(view.get("max_take")) or 1
    playing = view.get("outcome") is None
    svg = begin("Starter Game", _status(view))
    parts = svg.parts
    y = 64
    for index, stars in enumerate(piles):
        letter = chr(ord("a") + index)
        parts.append(f'<g class="tok pile" data-token="{letter}">' if playing and stars else '<g class="pile">')
        parts.append(f'<rect x="8" y="{y}" width="{WIDTH - 16}" height="{ROW - 6}" rx="8" fill="{PANEL}"/>')
        put_text(parts, 22, y + 25, letter, 16, BOLD)
        for k in range(stars):
            parts.append(f'<circle cx="{56 + k * STEP}" cy="{y + 19}" r="9" fill="{HIGHLIGHT}"/>')
        put_text(parts, WIDTH - 24, y + 25, stars, 14, ' text-anchor="end"')
        parts.append("</g>")
        y += ROW
    if playing:
        put_text(parts, 16, y + 20, "take", 13, DIM_CLASS)
        for count in range(1, limit + 1):
            chip_open(parts, 60 + (count - 1) * 40, y + 5, 32, str(count), "count")
            put_text(parts, 76 + (count - 1) * 40, y + 21, count, 13, ' text-anchor="middle"')
            parts.append("</g>")
        y += 36
    events = [e for e in as_list(view.get("events")) if isinstance(e, str)]
    bottom = latest(parts, y + 4, events, "Latest", 12, 80, 32, 18)
    parts.append(f'<line x1="8" y1="{bottom + 8}" x2="{WIDTH - 8}" y2="{bottom + 8}" stroke="{GUIDE}"/>')
    return finish(parts, bottom + 16, "Starter Game", f"{len(piles)} piles, {sum(piles)} stars left")
