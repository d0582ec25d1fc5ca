"""Constellations drawn as an SVG picture a person can click.

The picture is made from one seat's ``picture_view`` alone: the board, the
scores, the hand sizes, the public log of plays and that seat's own hand (a
spectator sees no hand). Everything else it shows is worked out from the
board in the view (which comets are wild, which lines show a card), so a
client holding only the view draws the same picture. From the top:

* the shared header: round, whose turn and what step, the result when over;
* the grid with its coordinates (columns a.., rows 1.. from the top, as in the
  notation). Every object is a shape *and* its card letter (``b`` planet,
  ``g`` gas giant, ``y`` yellow dwarf, ``r`` red giant, ``w`` neutron star,
  ``k`` black hole; a comet shows ``*`` while it counts as any colour and
  ``-`` while it counts as none), and a star carries its range in a badge.
  Hovering or choosing a star shows the rings its rotation would move, with
  clockwise arrows;
* the lines that show the last played card's constellation, drawn out from
  each planet over the matched objects;
* the scores, the seat's hand as cards of colour chips (hover a card to see
  the lines that show it now), the log of plays and a legend.

Colour is never the only carrier: each colour has its own shape and letter,
in the grid and on the cards alike.

Clicking (see rules.md, "Pictures and clicking"): ``rot c4`` is the star's
cell ``c4``; ``play ryw/3`` is the card ``ryw/3``; ``end`` and ``pass`` are
buttons; with the variant ``swap``, ``swap ryw/3`` is the button ``swap``
and the card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from astrarium.core.picture_kit import (
    BACKGROUND,
    BOARD_DARK,
    BOARD_LIGHT,
    CHIP,
    DIM,
    GUIDE,
    HEADER,
    HIGHLIGHT,
    PANEL,
    SEAT_MARKS,
    SEP,
    WIDTH,
    Svg,
    attr,
    begin,
    finish,
    fragment,
    legend,
    num,
    panel,
    place,
    place_legend,
    plural,
    seat_to,
    winner_marks,
    wins,
    you_are,
)
from astrarium.games.constellations.board import (
    COLOURS,
    COMET_SUNS,
    DEAD,
    EMPTY,
    STAR_RANGES,
    WILD,
    BoardError,
    Geometry,
    column_name,
    geometry,
    parse_board,
    star_moves,
)

#: Tokens offered as buttons: the verbs the picture does not draw as a thing.
BUTTON_TOKENS: frozenset[str] = frozenset({"end", "pass", "swap"})

MARGIN = 16
#: The largest cell (a small board is not blown up beyond it) and the room for coordinates around the grid.
MAX_CELL = 72
EDGE = 30

#: Object letter -> fill, and the ink its letter is written in (chosen for contrast on that fill).
FILLS = {
    "P": ("#3b7dff", "#ffffff"),
    "G": ("#35b46e", BACKGROUND),
    "Y": ("#ffcc33", BACKGROUND),
    "R": ("#e5484d", "#ffffff"),
    "N": ("#f4f6ff", BACKGROUND),
    "B": ("#000000", "#ffffff"),
}
COMET_WILD = "#ff8ad8"
COMET_DEAD = "#5a6180"
HOLE_RING = "#a78bff"
#: The lines that show a constellation (not a seat colour and not an object colour).
LINE = "#6ff2ff"
#: Card colour letter -> the object that has that colour (the chip on a card is that object's shape).
COLOUR_OBJECT = {colour: letter for letter, colour in COLOURS.items()}
#: The sign a comet shows: any colour next to a yellow dwarf or red giant, no colour elsewhere.
COMET_SIGN = {WILD: "*", DEAD: "-"}
DIRECTIONS = ("up", "right", "down", "left")


# -- tokens --------------------------------------------------------------------


def action_tokens(notation: str) -> list[str]:
    """How an action's notation decomposes into click tokens.

    ``rot c4`` (or ``rotate c4``) is the star's cell ``c4``; ``play ryw/3`` is
    the card ``ryw/3`` (a card is played or kept, never both, in one step);
    ``swap ryw/3`` (variant ``swap``) is the button ``swap`` and the card;
    ``end`` and ``pass`` are themselves. A rotation and a play are one click.
    """
    words = notation.split()
    if len(words) == 2 and words[0] in ("rot", "rotate", "play"):
        return [words[1]]
    return words


# -- the board read from the view ------------------------------------------------


def _board(view: Mapping[str, Any]) -> tuple[int, int, tuple[str, ...]]:
    """The board's height, width and cells from the view's notation (an unreadable board draws as one empty cell)."""
    try:
        return parse_board(str(view.get("board", "")))
    except BoardError:
        return 1, 1, (EMPTY,)


def comet_colour(cells: Sequence[str], geo: Geometry, cell: int) -> str:
    """What a comet counts as: ``*``-wild next to a yellow dwarf or red giant, else nothing (the rules' ``?`` and ``-``)."""
    return WILD if any(cells[k] in COMET_SUNS for k in geo.neighbours[cell]) else DEAD


@lru_cache(maxsize=256)
def found_lines(cells: tuple[str, ...], geo: Geometry, colours: str) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Where ``colours`` is found: (planet cell, direction 0-3, the matched cells) for each line that shows it.

    A line is read outward from the planet over its objects (empty cells
    skipped); the first place the colours appear in a row is the one drawn,
    as a line counts a constellation once however often it shows it. Cached:
    a picture asks about the same card for the hand, the lines and the log.
    """
    out: list[tuple[int, int, tuple[int, ...]]] = []
    n = len(colours)
    if not n:
        return ()
    for planet, ch in enumerate(cells):
        if ch != "P":
            continue
        for direction, line in enumerate(geo.lines[planet]):
            objects = [j for j in line if cells[j] != EMPTY]
            seen = [comet_colour(cells, geo, j) if cells[j] == "C" else COLOURS.get(cells[j], "") for j in objects]
            for start in range(len(seen) - n + 1):
                if all(seen[start + k] == WILD or seen[start + k] == colours[k] for k in range(n)):
                    out.append((planet, direction, tuple(objects[start : start + n])))
                    break
    return tuple(out)


# -- fragments -------------------------------------------------------------------
#
# The objects' shapes repeat, so each is drawn once per size with the builder
# (centred on the origin), cached, and placed with a translation.


def _star_points(points: int, outer: float, inner: float) -> list[tuple[float, float]]:
    """A star polygon with ``points`` tips, the first straight up."""
    out = []
    for k in range(points * 2):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / points - math.pi / 2
        out.append((round(r * math.cos(a), 2), round(r * math.sin(a), 2)))
    return out


@lru_cache(maxsize=128)
def glyph(obj: str, size: int, sign: str = "", badge: bool = True) -> str:
    """An object's shape and its letter, centred on the origin, for a cell (or chip) of ``size``.

    Each object has its own shape as well as its colour: planet a plain disc,
    gas giant a ringed disc, yellow dwarf a rayed sun, red giant a large disc
    with a halo, neutron star a four-pointed spark, black hole a black disc in
    a violet ring, comet a head with a tail. ``sign`` is the comet's ``*``/``-``;
    ``badge`` adds a star's range.
    """

    def draw(svg: Svg) -> None:
        r = size * 0.3
        fill, ink = FILLS.get(obj, (COMET_WILD if sign == "*" else COMET_DEAD, BACKGROUND))
        letter = COMET_SIGN.get(sign, sign) if obj == "C" else COLOURS.get(obj, "?")
        if obj == "P":
            svg.circle(0, 0, r, fill=fill, stroke="#bcd4ff", stroke_width=1.5)
        elif obj == "G":
            svg.circle(0, 0, r, fill=fill)
            svg.el(
                "ellipse", cx=0.0, cy=0.0, rx=r * 1.5, ry=r * 0.42, fill="none", stroke="#c9f5db", stroke_width=2, transform="rotate(-20)"
            )
        elif obj == "Y":
            svg.polygon(_star_points(8, r * 1.3, r * 0.85), fill=fill)
        elif obj == "R":
            svg.circle(0, 0, r * 1.38, fill="none", stroke=fill, stroke_width=2, opacity=0.55)
            svg.circle(0, 0, r * 1.15, fill=fill)
        elif obj == "N":
            svg.polygon(_star_points(4, r * 1.45, r * 0.5), fill=fill)
            svg.circle(0, 0, r * 0.62, fill=fill)
        elif obj == "B":
            svg.circle(0, 0, r * 1.1, fill=fill, stroke=HOLE_RING, stroke_width=3)
            svg.circle(0, 0, r * 0.7, fill="none", stroke=HOLE_RING, stroke_width=1, stroke_dasharray="2 2")
        elif obj == "C":
            svg.polygon(((r * 0.2, -r * 0.55), (r * 1.4, -r * 1.3), (r * 0.55, r * 0.1)), fill=fill, opacity=0.6)
            svg.circle(0, 0, r * 0.75, fill=fill, stroke="#ffffff" if sign == "*" else GUIDE, stroke_width=1.5)
        else:  # a colour letter no object has (only in a crafted view): a plain square
            svg.rect(-r, -r, 2 * r, 2 * r, fill=COMET_DEAD)
        text = max(11.0, round(size * 0.3))
        svg.text(0, text * 0.36, letter, text, anchor="middle", font_weight="bold", style=f"fill:{ink}")
        if obj in STAR_RANGES and badge:
            reach = STAR_RANGES[obj]
            bx = by = size * 0.32
            svg.circle(bx, -by, max(7.0, round(size * 0.14)), fill=PANEL, stroke=DIM, stroke_width=1)
            svg.text(bx, -by + 4, "∞" if reach is None else reach, 11, anchor="middle", class_="range")

    return fragment(draw)


@lru_cache(maxsize=16)
def colour_chip(colour: str, size: int = 30) -> str:
    """A card's colour as its object's shape and letter (no range badge), centred on the origin."""
    return glyph(COLOUR_OBJECT.get(colour, "?"), size, badge=False)


@lru_cache(maxsize=64)
def _grid(height: int, width: int, cell: int, x0: int, y0: int) -> str:
    """The squares and the coordinates for one board size: the same in every position, so built once."""

    def draw(svg: Svg) -> None:
        for r in range(height):
            for c in range(width):
                fill = BOARD_LIGHT if (r + c) % 2 else BOARD_DARK
                svg.rect(x0 + c * cell, y0 + r * cell, cell, cell, fill=fill, stroke=GUIDE)
        svg.rect(x0, y0, width * cell, height * cell, fill="none", stroke=DIM, stroke_width=1.5)
        bottom = y0 + height * cell
        right = x0 + width * cell
        for c in range(width):
            x = x0 + c * cell + cell / 2
            svg.text(x, y0 - 8, column_name(c), 12, anchor="middle", class_="dim")
            svg.text(x, bottom + 17, column_name(c), 12, anchor="middle", class_="dim")
        for r in range(height):
            y = y0 + r * cell + cell / 2 + 4
            svg.text(x0 - 12, y, r + 1, 12, anchor="middle", class_="dim")
            svg.text(right + 12, y, r + 1, 12, anchor="middle", class_="dim")
        # The rings of a star near the edge are clipped to the board.
        svg.parts.append(f'<clipPath id="board-clip"><rect x="{x0}" y="{y0}" width="{width * cell}" height="{height * cell}"/></clipPath>')

    return fragment(draw)


# -- drawing ---------------------------------------------------------------------


class Board:
    """Where the grid sits on the page, and the geometry of its size."""

    def __init__(self, height: int, width: int, cells: tuple[str, ...]) -> None:
        self.height, self.width, self.cells = height, width, cells
        self.cell = min(MAX_CELL, (WIDTH - 2 * EDGE) // max(width, 1))
        self.x0 = (WIDTH - self.cell * width) // 2
        self.y0 = HEADER + 26
        self.bottom = self.y0 + self.cell * height
        self.geo = geometry(height, width)

    def centre(self, cell: int) -> tuple[float, float]:
        r, c = divmod(cell, self.width)
        return self.x0 + c * self.cell + self.cell / 2, self.y0 + r * self.cell + self.cell / 2

    def name(self, cell: int) -> str:
        r, c = divmod(cell, self.width)
        return f"{column_name(c)}{r + 1}"


def _rings(svg: Svg, board: Board, cell: int, radius: int) -> None:
    """The rings a rotation around ``cell`` moves: the area shaded, each ring a square through its cells, with clockwise arrows."""
    r, c = divmod(cell, board.width)
    s = board.cell
    x0, y0 = board.x0, board.y0
    left, top = max(0, c - radius), max(0, r - radius)
    right, bottom = min(board.width - 1, c + radius), min(board.height - 1, r + radius)
    with svg.group(class_="reveal ring", clip_path="url(#board-clip)", data_cell=board.name(cell), data_radius=radius):
        svg.rect(x0 + left * s, y0 + top * s, (right - left + 1) * s, (bottom - top + 1) * s, fill=HIGHLIGHT, opacity=0.1)
        cx, cy = board.centre(cell)
        reach = max(r, c, board.height - 1 - r, board.width - 1 - c)
        outline, heads = [], []
        a = s * 0.11
        half = s / 2
        for d in range(1, min(radius, reach) + 1):
            h = d * s
            outline.append(f"M{num(cx - h)} {num(cy - h)}h{num(2 * h)}v{num(2 * h)}h{num(-2 * h)}Z")
            # An arrowhead on each side, on a line between two cells (so it covers no object),
            # pointing the way the tiles move: clockwise.
            heads.append(f"M{num(cx + half + a)} {num(cy - h)}l{num(-2 * a)} {num(-a)}v{num(2 * a)}Z")
            heads.append(f"M{num(cx + h)} {num(cy + half + a)}l{num(-a)} {num(-2 * a)}h{num(2 * a)}Z")
            heads.append(f"M{num(cx - half - a)} {num(cy + h)}l{num(2 * a)} {num(-a)}v{num(2 * a)}Z")
            heads.append(f"M{num(cx - h)} {num(cy - half - a)}l{num(-a)} {num(2 * a)}h{num(2 * a)}Z")
        svg.path("".join(outline), fill="none", stroke=HIGHLIGHT, stroke_width=2, stroke_dasharray="6 4")
        svg.path("".join(heads), fill=HIGHLIGHT)


def _lines(svg: Svg, board: Board, colours: str, kind: str) -> int:
    """The lines that show ``colours``: out from each planet over the matched objects; returns how many."""
    found = found_lines(board.cells, board.geo, colours)
    if not found:
        return 0
    s = board.cell
    with svg.group(class_=kind, pointer_events="none"):
        for planet, direction, matched in found:
            px, py = board.centre(planet)
            ex, ey = board.centre(matched[-1])
            with svg.group(class_="found-line", data_planet=board.name(planet), data_direction=DIRECTIONS[direction]):
                svg.line(px, py, ex, ey, stroke=LINE, stroke_width=4, stroke_linecap="round", opacity=0.75)
                for j in matched:
                    mx, my = board.centre(j)
                    svg.circle(mx, my, s * 0.44, fill="none", stroke=LINE, stroke_width=2.5)
    return len(found)


def _draw_board(svg: Svg, board: Board, last: str | None, movable: set[int]) -> None:
    s = board.cell
    svg.parts.append(_grid(board.height, board.width, s, board.x0, board.y0))
    if last is not None:
        _lines(svg, board, last, "last-play")
    cells = board.cells
    stars = []
    with svg.group(pointer_events="none"):
        for i, ch in enumerate(cells):
            if ch == EMPTY:
                continue
            if ch in STAR_RANGES:
                stars.append(i)
                continue
            x, y = board.centre(i)
            sign = COMET_SIGN[comet_colour(cells, board.geo, i)] if ch == "C" else ""
            comet = f' data-sign="{sign}"' if sign else ""
            where = f'data-cell="{board.name(i)}"{comet} transform="translate({num(x)} {num(y)})"'
            svg.parts.append(f'<g class="obj" data-kind="{ch}" {where}>{glyph(ch, s, sign)}</g>')
    for i in stars:
        svg.parts.append(_star(board.height, board.width, i, cells[i], i in movable))


@lru_cache(maxsize=2048)
def _star(height: int, width: int, i: int, ch: str, ready: bool) -> str:
    """A star as a click token: its cell (the hover outline), its shape and range, and the rings it turns (shown on hover).

    None of it depends on the rest of the board, so each is built once per board size, cell and star.
    """
    board = Board(height, width, ())
    s = board.cell
    name = board.name(i)
    r, c = divmod(i, width)
    x, y = board.x0 + c * s, board.y0 + r * s

    def draw(svg: Svg) -> None:
        with svg.group(class_="tok obj star", data_token=name, data_kind=ch, data_cell=name):
            # The first child takes the hover outline; it is see-through so the lines below stay visible.
            svg.rect(
                x + 2,
                y + 2,
                s - 4,
                s - 4,
                rx=6,
                fill="#000",
                fill_opacity=0,
                stroke=HIGHLIGHT if ready else "none",
                stroke_width=1.5 if ready else None,
                stroke_dasharray="4 3" if ready else None,
            )
            place(svg.parts, glyph(ch, s), x + s / 2, y + s / 2)
            _rings(svg, board, i, board.geo.radius_of(ch))

    return fragment(draw)


def _status(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    scores = view.get("scores") or []
    if outcome:
        winners = winner_marks(outcome)
        if len(scores) == 1:
            head = "Target reached" if winners else "Target missed"
        else:
            head = wins(winners, "Draw") if len(winners) != len(scores) else "Draw"
        return f"{head}: {outcome.get('reason', '')}"
    parts = [f"Round {view.get('round', '?')}/{view.get('max_rounds', '?')}"]
    seat = view.get("to_move")
    if isinstance(seat, int):
        step = "rotate a star" if view.get("phase") == "rotate" else "play cards or end"
        parts.append(seat_to(seat, step))
    parts.append(f"deck {view.get('deck', 0)}")
    return SEP.join(parts + you_are(view.get("viewer"), seat))


def _draw_scores(svg: Svg, y: float, view: Mapping[str, Any]) -> float:
    scores = list(view.get("scores") or [])
    sizes = list(view.get("hand_sizes") or [])
    mover = None if view.get("outcome") else view.get("to_move")
    viewer = view.get("viewer")
    per_row = 2
    rows = max(1, (len(scores) + per_row - 1) // per_row)
    h = 30 + rows * 28
    panel(svg.parts, y, h, f"Scores · deck {view.get('deck', 0)} cards")
    col = (WIDTH - 2 * MARGIN) / per_row
    for seat, score in enumerate(scores):
        x = MARGIN + (seat % per_row) * col
        row_y = y + 40 + (seat // per_row) * 28
        cards = sizes[seat] if seat < len(sizes) else "?"
        svg.parts.append(_score_row(x, row_y, seat, str(score), str(cards), seat == viewer, seat == mover))
    return y + h + 8


@lru_cache(maxsize=512)
def _score_row(x: float, y: float, seat: int, score: str, cards: str, you: bool, moving: bool) -> str:
    """One seat's badge (ringed while it is to move), score and hand size; the same rows recur, so each is built once."""

    def draw(svg: Svg) -> None:
        with svg.group(class_="score", data_seat=seat, data_score=score):
            if moving:
                svg.circle(x + 11, y - 4, 13, fill="none", stroke=HIGHLIGHT, stroke_width=2)
            svg.seat_badge(x + 11, y - 4, seat, 10)
            label = f"{plural(score, 'point')} · {cards} in hand{' (you)' if you else ''}"
            svg.text(x + 30, y, label, 13, font_weight="bold" if moving else None)

    return fragment(draw)


def _card_width(colours: str) -> int:
    return max(96, 14 + 34 * len(colours))


def _draw_card(svg: Svg, x: float, y: float, text: str, board: Board) -> None:
    """A card of the hand, a click token; hovering it shows the lines that show its colours now."""
    colours = text.partition("/")[0]
    found = len(found_lines(board.cells, board.geo, colours))
    svg.parts.append(_card_face(x, y, text, found))
    if found:
        _lines(svg, board, colours, "reveal")
    svg.parts.append("</g>")


@lru_cache(maxsize=1024)
def _card_face(x: float, y: float, text: str, found: int) -> str:
    """A card's group (left open for its lines) with its colour chips, points and how often it is found now."""
    colours, _, points = text.partition("/")
    w = _card_width(colours)

    def draw(svg: Svg) -> None:
        svg.parts.append(f'<g class="tok card" data-token="{attr(text)}" data-card="{attr(text)}" data-found="{found}">')
        svg.rect(x, y, w, 78, rx=7, fill=CHIP, stroke=HIGHLIGHT, stroke_width=1.5)
        for k, colour in enumerate(colours):
            svg.parts.append(f'<g class="chip" data-colour="{attr(colour)}" transform="translate({num(x + 24 + 34 * k)} {num(y + 22)})">')
            svg.parts.append(colour_chip(colour))
            svg.parts.append("</g>")
        svg.text(x + 8, y + 52, plural(points, "point"), 12, font_weight="bold")
        svg.text(x + 8, y + 69, f"found {found}×", 12, class_="dim")
        svg.text(x + w - 6, y + 69, text, 11, anchor="end", class_="dim notation")

    return fragment(draw)


def _draw_hand(svg: Svg, y: float, view: Mapping[str, Any], board: Board) -> float:
    hand = view.get("hand")
    viewer = view.get("viewer")
    if hand is None or not isinstance(viewer, int):
        sizes = view.get("hand_sizes") or []
        h = 46
        panel(svg.parts, y, h, "Hands")
        words = ", ".join(f"{SEAT_MARKS[s % 4]} {n}" for s, n in enumerate(sizes))
        svg.text(MARGIN, y + 37, f"hidden from spectators: {words} cards", 12, class_="dim")
        return y + h + 8
    cards = [str(c) for c in hand]
    top = len(svg.parts)
    svg.parts.append("")  # the panel, written once its height is known
    svg.text(MARGIN, y + 18, f"Your hand ({SEAT_MARKS[viewer % 4]}, seat {viewer})", 13, font_weight="bold")
    svg.text(WIDTH - MARGIN, y + 18, "hover a card to see its lines", 12, anchor="end", class_="dim")
    x: float = MARGIN
    row = y + 28
    for text in cards:
        w = _card_width(text.partition("/")[0])
        if x + w > WIDTH - MARGIN and x > MARGIN:
            x, row = MARGIN, row + 86
        _draw_card(svg, x, row, text, board)
        x += w + 8
    if not cards:
        svg.text(MARGIN, row + 16, "empty", 12, class_="dim")
        row -= 50
    bottom = row + 86
    svg.parts[top] = f'<rect x="8" y="{num(y)}" width="{WIDTH - 16}" height="{num(bottom - y)}" rx="8" fill="{PANEL}"/>'
    return bottom + 8


def _draw_log(svg: Svg, y: float, view: Mapping[str, Any], board: Board) -> float:
    played = [p for p in view.get("played") or [] if isinstance(p, Sequence) and len(p) >= 4]
    swapped = [p for p in view.get("swapped") or [] if isinstance(p, Sequence) and len(p) >= 2]
    recent = played[-3:]
    lines = 1 + len(recent) + (1 if swapped else 0)
    h = 30 + 20 * lines
    panel(svg.parts, y, h, "Plays")
    row = y + 38
    if played:
        seat, card, found, points = played[-1][:4]
        now = len(found_lines(board.cells, board.geo, str(card).partition("/")[0]))
        note = "" if now == found else f"; {now}× on the board now"
        svg.text(
            MARGIN,
            row,
            f"lines on the board: where {card} is found ({found}× when played{note})",
            12,
            style=f"fill:{LINE}",
            class_="last-note",
        )
    else:
        svg.text(MARGIN, row, "no card played yet", 12, class_="dim")
    for seat, card, found, points in (p[:4] for p in reversed(recent)):
        row += 20
        mark = SEAT_MARKS[seat % 4] if isinstance(seat, int) else "?"
        with svg.group(class_="played", data_card=str(card)):
            svg.text(MARGIN, row, f"{mark} played {card}: found {found}× for {plural(points, 'point')}", 12)
    if swapped:
        row += 20
        words = ", ".join(f"{SEAT_MARKS[s % 4] if isinstance(s, int) else '?'} {c}" for s, c in (p[:2] for p in swapped[-4:]))
        svg.text(MARGIN, row, f"swapped away: {words} ({len(swapped)} in all)", 12, class_="dim swapped")
    return y + h + 8


def _at(obj: str, sign: str = "") -> Callable[[Svg, float, float], None]:
    return lambda svg, x, y: place(svg.parts, glyph(obj, 24, sign, badge=False), x, y)


def _ring_symbol(svg: Svg, x: float, y: float) -> None:
    svg.rect(x - 9, y - 9, 18, 18, fill="none", stroke=HIGHLIGHT, stroke_width=2, stroke_dasharray="4 3")


def _line_symbol(svg: Svg, x: float, y: float) -> None:
    svg.line(x - 10, y, x + 10, y, stroke=LINE, stroke_width=4, stroke_linecap="round")


@lru_cache(maxsize=1)
def _legend() -> tuple[str, float]:
    """The legend (the same in every position, so built once) and its height."""
    entries = [
        (_at("P"), "b habitable planet: lines start here"),
        (_at("G"), "g gas giant"),
        (_at("Y"), "y yellow dwarf, range 3"),
        (_at("R"), "r red giant, range 4"),
        (_at("N"), "w neutron star, range 5"),
        (_at("B"), "k black hole, every ring"),
        (_at("C", "*"), "* comet by a y or r sun: any colour"),
        (_at("C", "-"), "- comet elsewhere: no colour"),
        (_ring_symbol, "hover a star: the rings it turns clockwise"),
        (_line_symbol, "a line showing a constellation"),
    ]
    text, height = legend(entries, MARGIN + 4, 18, (MARGIN, 4, 13))
    return text, height + 4


def render_svg(view: Mapping[str, Any]) -> str:
    """The position in ``view`` (a ``State.picture_view``) as an SVG picture."""
    height, width, cells = _board(view)
    board = Board(height, width, cells)
    title = "Constellations"
    status = _status(view)
    over = bool(view.get("outcome"))
    viewer = view.get("viewer")
    # The stars the viewer may turn now get a dashed outline (worked out from the board, as the rules do).
    rotating = not over and viewer is not None and view.get("to_move") == viewer and view.get("phase") == "rotate"
    movable = set(star_moves(cells, board.geo)) if rotating else set()
    played = [p for p in view.get("played") or [] if isinstance(p, Sequence) and len(p) >= 4]
    last = str(played[-1][1]).partition("/")[0] if played else None
    svg = begin(title, status)
    _draw_board(svg, board, last, movable)
    y: float = board.bottom + 30
    y = _draw_scores(svg, y, view)
    y = _draw_hand(svg, y, view, board)
    y = _draw_log(svg, y, view, board)
    legend_text, legend_height = _legend()
    place_legend(svg.parts, legend_text, y + 10)
    y += 10 + legend_height
    return finish(svg.parts, y + 8, title, f"{status}. Scores: " + ", ".join(map(str, view.get("scores") or [])) + ".")


__all__ = ["BUTTON_TOKENS", "action_tokens", "colour_chip", "comet_colour", "found_lines", "glyph", "render_svg"]
