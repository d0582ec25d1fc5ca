"""Pictures of positions: a small SVG builder and the visual language every game shares.

Every game draws its position with ``render_svg(view) -> str`` in its package's
``svg`` module, from one seat's ``view`` alone, so a picture can never show
what that seat may not see, and a client that holds only its view can draw it.

Why a builder of our own rather than an SVG library: a picture is a few hundred
plain elements with ``data-token`` attributes for clicking, drawn thousands of
times in a replay and on every web table update (the budget is 2 ms a
picture); string building with one escaping function is several times faster
than an object tree, and escaping lives in exactly one place (:func:`attr`
and :func:`esc`), so no text from a view or a data file can break the markup.

The shared language:

* a dark sky (``BACKGROUND``), light ink (``INK``), dim guides (``GUIDE``);
* seats always in ``SEAT_COLOURS`` order, each with a letter (``SEAT_MARKS``),
  so colour is never the only carrier of meaning;
* one header band (title and status) at the top, the board below, panels and
  a legend under it: pictures are portrait-friendly (640 units wide) so they
  stay readable when scaled to a 360 px phone;
* anything a player can click carries ``class="tok"`` and ``data-token`` with
  the notation token it stands for; :func:`narrow` (and its JavaScript twin
  in the web client) narrows the legal actions by the tokens clicked so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType

WIDTH = 640
#: The height of the shared header band (title and status line) at the top of every picture.
HEADER = 52
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"

COLOURS: Mapping[str, str] = MappingProxyType(
    {
        "background": "#0b1020",  # the dark sky behind everything
        "panel": "#151c33",  # the header band and the panels under the board
        "text": "#e8ecf6",  # light ink: text and outlines that must stand out
        "dim text": "#9aa4bf",  # secondary text, hatching, quiet marks
        "guide": "#3a4566",  # grid lines, rims, empty gauges
        "highlight": "#ffd84d",  # what can be clicked, what is chosen, the piece to move
        "board dark": "#10172d",  # a board's squares or hexes, an empty place
        "board light": "#141d38",  # the other squares of a checkered board
        "chip": "#1f2947",  # a small labelled card or chip in a panel
        "planet": "#5b8def",  # a planet or world
        "danger": "#ff6b4a",  # a threat: an engaged unit, a planet about to collapse
        "link": "#c39bff",  # what joins two places: a portal, a gate
        "seat A": "#e69f00",  # seat colours: Okabe-Ito, safe for the common colour-blindnesses
        "seat B": "#56b4e9",
        "seat C": "#cc79a7",
        "seat D": "#009e73",
    }
)
"""The palette every picture draws with, by role (as a game names a colour by what it shows, not by its hue)."""

BACKGROUND = COLOURS["background"]
PANEL = COLOURS["panel"]
INK = COLOURS["text"]
DIM = COLOURS["dim text"]
GUIDE = COLOURS["guide"]
HIGHLIGHT = COLOURS["highlight"]
BOARD_DARK = COLOURS["board dark"]
BOARD_LIGHT = COLOURS["board light"]
CHIP = COLOURS["chip"]
PLANET = COLOURS["planet"]
DANGER = COLOURS["danger"]
LINK = COLOURS["link"]

#: Seat colours (Okabe-Ito, safe for the common colour-blindnesses) and the letter each seat carries too.
SEAT_MARKS = ("A", "B", "C", "D")
SEAT_COLOURS = tuple(COLOURS[f"seat {mark}"] for mark in SEAT_MARKS)

STYLE = (
    f"text{{font-family:{FONT}}}text:not([fill]){{fill:{INK}}}"
    "text.dim{fill:" + DIM + "}"
    ".tok{cursor:pointer}"
    ".tok:hover>*:first-child,.tok.sel>*:first-child{stroke:" + HIGHLIGHT + ";stroke-width:3}"
    ".reveal{opacity:0;pointer-events:none}"
    "g:hover>.reveal,.sel>.reveal{opacity:1}"
)


def esc(text: object) -> str:
    """Text content, escaped for XML."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def attr(value: object) -> str:
    """An attribute value, escaped for a double-quoted XML attribute."""
    if isinstance(value, float):
        return num(value)
    return esc(value).replace('"', "&quot;")


def num(value: float) -> str:
    """A coordinate, short: 12, 12.5, 12.25 (two decimals at most)."""
    if value == int(value):
        return str(int(value))
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


_NAMES: dict[str, str] = {}


def _attrs(attrs: dict[str, object]) -> str:
    parts = []
    names = _NAMES
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = names.get(key)
        if name is None:
            name = names[key] = key.rstrip("_").replace("_", "-")
        kind = type(value)
        if kind is float:
            text = num(value)  # type: ignore[arg-type]
        elif kind is int:
            text = str(value)
        elif kind is str:
            text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")  # type: ignore[attr-defined]
        else:
            text = attr(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


class Svg:
    """An SVG document built as text: elements are appended in drawing order.

    Keyword arguments become attributes (``stroke_width`` → ``stroke-width``,
    ``class_`` → ``class``, ``data_token`` → ``data-token``); ``None`` and
    ``False`` leave the attribute out. Every value and every text is escaped.
    """

    def __init__(self, width: float, height: float, title: str, desc: str = "") -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
            f'width="{num(width)}" height="{num(height)}" role="img" aria-labelledby="svg-title">',
            f'<title id="svg-title">{esc(title)}</title>',
        ]
        if desc:
            self.parts.append(f"<desc>{esc(desc)}</desc>")
        self.parts.append(f"<style>{STYLE}</style>")
        self.parts.append(f'<rect x="0" y="0" width="{num(width)}" height="{num(height)}" fill="{BACKGROUND}"/>')

    def el(self, tag: str, text: object = None, **attrs: object) -> None:
        """One element; ``text`` (escaped) makes it a container of that text."""
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{esc(text)}</{tag}>")

    @contextmanager
    def group(self, **attrs: object) -> Iterator[None]:
        """A ``<g>`` around what is drawn inside the ``with`` block."""
        self.parts.append(f"<g{_attrs(attrs)}>")
        try:
            yield
        finally:
            self.parts.append("</g>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.el("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        self.el("circle", cx=float(cx), cy=float(cy), r=float(r), **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.el("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], **attrs: object) -> None:
        self.el("polygon", points=" ".join(f"{num(x)},{num(y)}" for x, y in points), **attrs)

    def polyline(self, points: Iterable[tuple[float, float]], **attrs: object) -> None:
        self.el("polyline", points=" ".join(f"{num(x)},{num(y)}" for x, y in points), fill="none", **attrs)

    def path(self, d: str, **attrs: object) -> None:
        self.el("path", d=d, **attrs)

    def text(self, x: float, y: float, text: object, size: float = 14, **attrs: object) -> None:
        """Text at (x, y); ``anchor`` = start, middle or end."""
        anchor = attrs.pop("anchor", None)
        self.el("text", text, x=float(x), y=float(y), font_size=float(size), text_anchor=anchor, **attrs)

    def header(self, title: str, status: str, height: float = HEADER) -> float:
        """The shared header band: the game's title and one status line; returns the y below it."""
        self.header_band(title, height)
        self.header_status(status)
        return height

    def header_band(self, title: str, height: float = HEADER) -> None:
        """The header band with the game's title (what stays the same from one position to the next)."""
        self.rect(0, 0, self.width, height, fill=PANEL)
        self.text(12, 22, title, 17, font_weight="bold")

    def header_status(self, status: str) -> None:
        """The header's status line, under the title."""
        self.text(12, 42, status, 13, class_="dim")

    def legend(self, x: float, y: float, entries: Sequence[tuple[Callable[[Svg, float, float], None], str]], columns: int = 2) -> float:
        """Legend rows: each entry draws its symbol at (x, y) (a 16-unit square) beside a label; returns the y below."""
        col_width = (self.width - 2 * x) / columns
        rows = (len(entries) + columns - 1) // columns
        for i, (draw, label) in enumerate(entries):
            cx = x + (i % columns) * col_width
            cy = y + (i // columns) * 22
            draw(self, cx + 8, cy + 8)
            self.text(cx + 22, cy + 13, label, 12)
        return y + rows * 22

    def seat_badge(self, x: float, y: float, seat: int, r: float = 9, **attrs: object) -> None:
        """A seat's disc in its colour with its letter: the one way every game marks whose a piece is."""
        self.circle(x, y, r, fill=SEAT_COLOURS[seat % 4], stroke=BACKGROUND, stroke_width=1.5, **attrs)
        self.text(x, y + r * 0.42, SEAT_MARKS[seat % 4], r * 1.2, anchor="middle", font_weight="bold", fill=BACKGROUND)

    def to_string(self) -> str:
        return "".join(self.parts) + "</svg>"


def tokens_of(notation: str) -> list[str]:
    """The default way an action decomposes into click tokens: its notation's words."""
    return notation.split()


def narrow(notations: Sequence[str], clicked: Sequence[str], tokens: Callable[[str], list[str]] = tokens_of) -> list[str]:
    """The legal actions still possible after clicking ``clicked`` (in order; repeats count).

    An action remains while every clicked token is among its tokens (as many
    times as clicked). When one remains, the client plays it; when one of those
    left has exactly the clicked tokens, the client offers it to confirm.
    """
    left = []
    for notation in notations:
        pool = list(tokens(notation))
        for token in clicked:
            if token in pool:
                pool.remove(token)
            else:
                break
        else:
            left.append(notation)
    return left


def chosen(notations: Sequence[str], clicked: Sequence[str], tokens: Callable[[str], list[str]] = tokens_of) -> str | None:
    """The action the clicks pick: the only one left, or the one whose tokens are exactly the clicks."""
    left = narrow(notations, clicked, tokens)
    if len(left) == 1:
        return left[0]
    exact = [n for n in left if sorted(tokens(n)) == sorted(clicked)]
    return exact[0] if len(exact) == 1 else None


def buttons(
    declared: Iterable[str], notations: Sequence[str], drawn: Iterable[str], tokens: Callable[[str], list[str]] = tokens_of
) -> list[str]:
    """The buttons a position offers: the game's ``declared`` ones, then every token of a legal action that the picture
    does not draw (``drawn``: its ``data-token`` values), in the order first met.

    So every legal action can be clicked, also a part of a choice that a game's options split into parts and that
    no piece on the board stands for (Connected Worlds under ``choices = steps``: ``move``, ``piece``, ``u2``).
    """
    out = list(declared)
    seen = {*out, *drawn}
    for notation in notations:
        for token in tokens(notation):
            if token not in seen:
                seen.add(token)
                out.append(token)
    return out
