"""Text layout for terminal boards: measuring, cutting and wrapping lines of Rich markup, and fitting a screen.

A game's ``render`` module builds each layout of a position as ``(kind, markup)``
lines and lets :func:`first_fit` choose the fullest that fits the terminal's
space (``State.render_fit``). Board lines are never broken; text lines wrap at
spaces; extra lines (a legend, the latest events) show when there is room.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

#: The space a game's plain ``render`` fits: what a 120x40 terminal leaves once the play loop's header,
#: prompt and four lines of actions are counted.
BOARD_WIDTH = 120
BOARD_HEIGHT = 34


def markup_width(markup: str) -> int:
    """How many terminal cells a line of Rich markup takes (wide characters count two)."""
    from rich.cells import cell_len

    if "[" not in markup:  # no tags: the text is what shows
        return cell_len(markup)
    return _tagged_width(markup)


@functools.lru_cache(maxsize=4096)
def _tagged_width(markup: str) -> int:
    """The width of a line with tags (cached: a game tries a board's lines in several layouts)."""
    from rich.text import Text

    return Text.from_markup(markup).cell_len


def clip_markup(markup: str, width: int) -> str:
    """A line of Rich markup cut to ``width`` cells at a space, ending in an ellipsis when cut (styles kept).

    The cut falls between words, so no word or name is shown in part; only a
    first word wider than the whole line is cut inside.
    """
    from rich.text import Text

    text = Text.from_markup(markup)
    if text.cell_len <= width:
        return markup
    full = text.plain
    text.truncate(max(1, width), overflow="ellipsis")
    kept = len(text.plain) - 1  # the characters kept before the ellipsis
    if kept < len(full) and not full[kept].isspace():  # the cut fell inside a word: go back to the space before it
        space = full.rfind(" ", 0, kept + 1)
        if full[:space].strip():
            text = text[:space]
            text.rstrip()
            text.append("…")
    return text.markup


def wrap_markup(markup: str, width: int, indent: int = 2) -> list[str]:
    """A line of Rich markup broken at spaces into lines of at most ``width`` cells, later lines indented.

    For the text lines under a board (hands, events), so that a terminal never
    wraps them itself and the count of lines a board takes is known.
    """
    import io

    from rich.console import Console
    from rich.text import Text

    text = Text.from_markup(markup)
    if text.cell_len <= width:
        return [markup]
    console = Console(file=io.StringIO(), width=max(width, 1))
    lines = text.wrap(console, max(1, width - indent), overflow="fold")
    first, *rest = lines or [Text()]
    out = [first.markup.rstrip()]
    for line in rest:
        line.rstrip()
        out.append(" " * indent + line.markup)
    return [clip_markup(line, width) for line in out]


#: The kinds of line a game's screen is made of (see :func:`fit_screen`).
BOARD, TEXT, EXTRA = "board", "text", "extra"


def fit_screen(parts: Sequence[tuple[str, str]], width: int, height: int) -> list[str] | None:
    """The lines of one layout of a position fitted into ``width`` x ``height``, or None when this layout cannot fit.

    ``parts`` are ``(kind, markup)`` lines in the order shown: a ``BOARD``
    line is a piece of the picture, never broken (too wide: the layout does
    not fit); a ``TEXT`` line must be shown, broken at spaces when too wide,
    or cut to one line when the broken lines do not fit; an ``EXTRA`` line (a
    legend, the latest events) is shown when there is room for it.
    """
    if sum(kind != EXTRA for kind, _ in parts) > height:  # too many lines before any is broken
        return None
    if any(kind == BOARD and markup_width(line) > width for kind, line in parts):
        return None
    for wrap in (True, False):
        shown: list[list[str] | None] = []
        used = 0
        for kind, line in parts:
            if kind == EXTRA:
                shown.append(None)
                continue
            lines = [line] if kind == BOARD else wrap_markup(line, width) if wrap else [clip_markup(line, width)]
            shown.append(lines)
            used += len(lines)
        if used > height:
            continue
        for index, (kind, line) in enumerate(parts):
            if kind != EXTRA:
                continue
            for lines in (wrap_markup(line, width), [clip_markup(line, width)]):
                if used + len(lines) <= height:
                    shown[index] = lines
                    used += len(lines)
                    break
        return [line for lines in shown if lines is not None for line in lines]
    return None


def first_fit(layouts: Iterable[Callable[[], Sequence[tuple[str, str]]]], width: int, height: int) -> str:
    """The first of ``layouts`` (fullest first) that fits ``width`` x ``height``, as markup.

    When none fits (a terminal smaller than any layout), the last one is shown
    cut to the space: a smaller picture beats one the terminal wraps apart.
    """
    parts: Sequence[tuple[str, str]] = []
    for layout in layouts:
        parts = layout()
        lines = fit_screen(parts, width, height)
        if lines is not None:
            return "\n".join(lines)
    kept = [clip_markup(line, width) for kind, line in parts if kind != EXTRA]
    return "\n".join(kept[: max(1, height)])
