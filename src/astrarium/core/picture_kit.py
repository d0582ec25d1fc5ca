"""The kit a game's picture starts from: the palette, the header, cached fragments placed on the page, status lines.

A game's ``svg`` module draws with :class:`~astrarium.core.svg.Svg` and this
kit, so every picture shares one look and one way of being built fast:

* the palette by role (:data:`COLOURS`, and a name for each role: ``BACKGROUND``,
  ``PANEL``, ``INK``, ``DIM``, ``GUIDE``, ``HIGHLIGHT``, ``BOARD_DARK``, ``BOARD_LIGHT``, ``CHIP``,
  ``PLANET``, ``DANGER``, ``LINK``, ``SEAT_COLOURS``), the seat letters and
  the header band's height (:data:`HEADER`);
* :func:`fragment` draws something once at the origin as text (to be cached
  with ``lru_cache`` on what it shows) and :func:`place` puts such a text on
  the page with a ``translate`` (one argument order everywhere: the parts, the
  fragment, x, y); :func:`put_text`, :func:`panel`, :func:`badge`,
  :func:`legend` and :func:`place_legend`, :func:`latest` are the pieces
  several pictures draw alike;
* :func:`begin` and :func:`finish`: a picture whose height is known only
  once it is drawn (the header first, the document's head last);
* the status line's phrases: :func:`seat_to` (``B (seat 1) to play``),
  :func:`you_are`, :func:`you_suffix`, :func:`winner_marks`, :func:`wins`
  and :func:`game_over`, joined with :data:`SEP`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from astrarium.core.errors import short
from astrarium.core.svg import (
    BACKGROUND,
    BOARD_DARK,
    BOARD_LIGHT,
    CHIP,
    COLOURS,
    DANGER,
    DIM,
    GUIDE,
    HEADER,
    HIGHLIGHT,
    INK,
    LINK,
    PANEL,
    PLANET,
    SEAT_COLOURS,
    SEAT_MARKS,
    WIDTH,
    Svg,
    attr,
    esc,
    num,
)

#: Attributes written straight into an element's text: bold, the dim text class.
BOLD = ' font-weight="bold"'
DIM_CLASS = ' class="dim"'
#: A dark outline under light text, so a label stays readable over anything drawn beneath it.
HALO = f' stroke="{BACKGROUND}" stroke-width="3" paint-order="stroke"'
#: The same outline as keyword arguments of :class:`~astrarium.core.svg.Svg`'s drawing methods.
HALO_STYLE: Mapping[str, object] = {"stroke": BACKGROUND, "stroke_width": 3, "paint_order": "stroke"}
#: What separates the phrases of a status line.
SEP = " · "


# -- fragments and placing them ----------------------------------------------------------------------------
def fragment(draw: Callable[[Svg], None]) -> str:
    """What ``draw`` puts on a page, as text to be cached and placed (no document head).

    The page is made without ``Svg.__init__``, whose document head would be
    thrown away: fragments are made for almost every picture.
    """
    svg = Svg.__new__(Svg)
    svg.width, svg.height, svg.parts = WIDTH, 0, []
    draw(svg)
    return "".join(svg.parts)


def placed(body: str, x: float, y: float, *, cls: str | None = None, token: str | None = None, extra: str = "") -> str:
    """``body`` (a fragment drawn at the origin) moved to (x, y) in a group, as text: see :func:`place`."""
    move = f'transform="translate({coord(x)} {coord(y)})"'
    if token is not None:
        return f'<g class="{cls + " tok" if cls else "tok"}" data-token="{attr(token)}" {move}{extra}>{body}</g>'
    if cls:
        return f'<g class="{cls}" {move}{extra}>{body}</g>'
    return f"<g {move}{extra}>{body}</g>"


def place(parts: list[str], body: str, x: float, y: float, *, cls: str | None = None, token: str | None = None, extra: str = "") -> None:
    """``body`` (a fragment drawn at the origin) moved to (x, y): a group of class ``cls``, clickable with ``token``.

    ``extra`` is more attributes, written as they are after the ``transform``
    (escape any value in it with :func:`~astrarium.core.svg.attr`).
    """
    parts.append(placed(body, x, y, cls=cls, token=token, extra=extra))


def coord(value: float) -> str:
    """A coordinate: an int as it is, other numbers short (see :func:`~astrarium.core.svg.num`)."""
    return str(value) if type(value) is int else num(value)


def put_text(parts: list[str], x: float, y: float, text: object, size: int = 12, extra: str = "") -> None:
    """Text from anywhere (a view's names and events included), escaped; ``extra`` is more attributes as written."""
    parts.append(f'<text x="{coord(x)}" y="{coord(y)}" font-size="{size}"{extra}>{esc(text)}</text>')


def chip_open(parts: list[str], x: float, y: float, w: float, token: str | None, kind: str, data: str = "") -> None:
    """A chip's group (class ``kind``, clickable with ``token``) and its frame, ``w`` wide.

    The caller writes the chip's label and closes the group.
    """
    frame = f'<rect x="{coord(x)}" y="{coord(y)}" width="{coord(w)}" height="22" rx="5" fill="{CHIP}"'
    if token is not None:
        parts.append(f'<g class="tok {kind}" data-token="{attr(token)}"{data}>')
        parts.append(f'{frame} stroke="{HIGHLIGHT}" stroke-width="1.5"/>')
    else:
        parts.append(f'<g class="{kind}"{data}>')
        parts.append(f'{frame} stroke="{GUIDE}"/>')


@lru_cache(maxsize=64)
def badge(seat: int, r: float) -> str:
    """A seat's badge (its colour and its letter) of radius ``r``, centred on the origin."""
    return fragment(lambda svg: svg.seat_badge(0, 0, seat, r))


def panel(parts: list[str], y: float, h: float, title: str, edge: str | None = None, title_dy: float = 18, margin: float = 16) -> None:
    """A panel across the page at ``y``, ``h`` high, with a bold title (and a rim of colour ``edge``)."""
    rim = "" if edge is None else f' stroke="{edge}" stroke-width="2"'
    parts.append(f'<rect x="8" y="{coord(y)}" width="{WIDTH - 16}" height="{coord(h)}" rx="8" fill="{PANEL}"{rim}/>')
    put_text(parts, margin, y + title_dy, title, 13, BOLD)


# -- the legend and the latest events ------------------------------------------------------------------------
def legend(
    entries: Sequence[tuple[Callable[[Svg, float, float], None], str]],
    x: float,
    y: float,
    title: tuple[float, float, float],
    more: Callable[[Svg, float], None] | None = None,
) -> tuple[str, float]:
    """The legend as a fragment and the y below it: the word "Legend" at ``title`` (x, y, size), then the entries.

    ``more`` draws what a game adds under the entries (given the y below them).
    """
    height = 0.0

    def draw(svg: Svg) -> None:
        nonlocal height
        tx, ty, size = title
        svg.text(tx, ty, "Legend", size, font_weight="bold")
        height = svg.legend(x, y, entries)
        if more is not None:
            more(svg, height)

    return fragment(draw), height


def place_legend(parts: list[str], body: str, y: float) -> None:
    """The legend at ``y``, where it takes no clicks."""
    parts.append(f'<g class="legend" pointer-events="none" transform="translate(0 {coord(y)})">{body}</g>')


def latest(parts: list[str], y: float, events: Sequence[object], title: str, size: int, width: int, first: float, step: float) -> float:
    """The last three events under a bold title, each cut to ``width`` characters; returns the y below (``y`` if none)."""
    recent = [str(e) for e in events][-3:]
    if not recent:
        return y
    put_text(parts, 16, y + 14, title, 13, BOLD)
    for i, event in enumerate(recent):
        put_text(parts, 16, y + first + step * i, event if len(event) <= width else event[: width - 1] + "…", size, ' class="dim event"')
    return y + first + step * len(recent)


# -- a picture whose height is known once it is drawn ------------------------------------------------------------
def begin(title: str, status: str) -> Svg:
    """A page to draw on with the header band (title and status) drawn; :func:`finish` makes it a document."""
    svg = Svg.__new__(Svg)
    svg.width, svg.height, svg.parts = WIDTH, 0, []
    svg.header(title, status)
    return svg


def finish(parts: list[str], height: float, title: str, desc: str) -> str:
    """The document of what was drawn (the ``parts`` of a page from :func:`begin`), ``height`` high, with its title and description."""
    picture = Svg(WIDTH, height, title, desc)
    picture.parts.extend(parts)
    return picture.to_string()


# -- the status line's phrases -------------------------------------------------------------------------------------
def mark(seat: int) -> str:
    """A seat's letter."""
    return SEAT_MARKS[seat % 4]


def seat_to(seat: int, verb: str) -> str:
    """Who moves and what they do: ``B (seat 1) to play``."""
    return f"{mark(seat)} (seat {seat}) to {verb}"


def you_are(viewer: object, mover: object) -> list[str]:
    """``you are C`` for a seat that looks while another moves (nothing for a spectator or the mover)."""
    return [f"you are {mark(viewer)}"] if type(viewer) is int and viewer >= 0 and viewer != mover else []


def you_suffix(viewer: object) -> str:
    """`` · you: C`` for a seat that looks (nothing for a spectator)."""
    return f"{SEP}you: {mark(viewer)}" if isinstance(viewer, int) else ""


def winner_marks(outcome: Mapping[str, Any]) -> list[str]:
    """The winners' letters, in the outcome's order."""
    return [mark(w) for w in outcome.get("winners", ()) if isinstance(w, int)]


def wins(marks: Sequence[str], nobody: str) -> str:
    """``A wins``, ``A and C win``, or ``nobody`` when no seat won."""
    return " and ".join(marks) + (" win" if len(marks) > 1 else " wins") if marks else nobody


def plural(count: object, word: str) -> str:
    """``1 point``, ``3 points``."""
    return f"{count} {word}{'' if str(count) == '1' else 's'}"


def game_over(head: str, reason: object, limit: int = 90) -> str:
    """The status line of a finished game: ``Game over · A wins: <reason>``, cut to ``limit`` characters."""
    return short(f"Game over{SEP}{head}: {reason}", limit)


__all__ = [
    "BACKGROUND",
    "BOARD_DARK",
    "BOARD_LIGHT",
    "BOLD",
    "CHIP",
    "COLOURS",
    "DANGER",
    "DIM",
    "DIM_CLASS",
    "GUIDE",
    "HALO",
    "HALO_STYLE",
    "HEADER",
    "HIGHLIGHT",
    "INK",
    "LINK",
    "PANEL",
    "PLANET",
    "SEAT_COLOURS",
    "SEAT_MARKS",
    "SEP",
    "WIDTH",
    "Svg",
    "attr",
    "badge",
    "chip_open",
    "coord",
    "begin",
    "esc",
    "finish",
    "fragment",
    "game_over",
    "latest",
    "legend",
    "mark",
    "num",
    "panel",
    "place",
    "place_legend",
    "plural",
    "placed",
    "put_text",
    "seat_to",
    "winner_marks",
    "wins",
    "you_are",
    "you_suffix",
]
