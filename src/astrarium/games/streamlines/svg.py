"""Streamlines drawn as an SVG picture a person can click.

The picture is made from one seat's ``picture_view`` alone (everything in
Streamlines is public except the deck's order, which the view does not hold),
so a client that has only the view can draw it. From the top:

* the shared header: scenario, whose turn, actions left, the result when over;
* the 9x9 board with its coordinates (files a-i, ranks 1-9, rank 9 at the top,
  as in the notation): Planet squares (their stage as a shape and a badge:
  ``!`` warned, a countdown number while collapsing, a black disc for a black
  hole), Escape squares, laid streamline cards with their arrows, Gates with
  their pair letter and a dashed line joining a laid pair, and the ships, each
  in its seat's corner of the square (so ships sharing a square stay apart)
  with a pip for each of its first cargo cards (the panel lists them all);
* the Clock panel: turn, cards the Clock draws a turn, each planet's stage and
  collapse countdown, the deck (click it to draw), discard and lost piles;
* the Refugees panel: rescued against needed, aboard, waiting in the piles, lost;
* one panel per ship: powers, hold (capacity and cards) and, for the ship to
  act, the orientations it can lay its streamline cards in;
* a legend and the latest events.

Clicking (see rules.md, "Pictures and clicking"): a move is the ship to act
(token ``move``) and its destination square; a gate jump adds ``jump``. Cards
in the hold, special power cards, the other ships' badges and the orientation
tiles carry their notation words, so every legal action narrows to itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from astrarium.core.picture_kit import (
    BACKGROUND,
    BOARD_DARK,
    BOARD_LIGHT,
    BOLD,
    CHIP,
    DANGER,
    DIM,
    DIM_CLASS,
    GUIDE,
    HEADER,
    HIGHLIGHT,
    LINK,
    PANEL,
    PLANET,
    SEAT_COLOURS,
    SEAT_MARKS,
    SEP,
    WIDTH,
    Svg,
    attr,
    badge,
    begin,
    chip_open,
    coord,
    finish,
    fragment,
    latest,
    legend,
    num,
    panel,
    place,
    place_legend,
    plural,
    put_text,
    seat_to,
    you_are,
)
from astrarium.games.streamlines.events import designed_events

#: Tokens offered as buttons: verbs and words the picture does not draw as a thing.
BUTTON_TOKENS: frozenset[str] = frozenset({"end", "drop", "jump", "dump", "lay", "cw", "ccw"})

FILES = "abcdefghi"
SIZE = 9
CELL = 64
LEFT = 32
TOP = HEADER + 24
BOARD = SIZE * CELL
MARGIN = 16

# Colours of the things on the board (seats use SEAT_COLOURS); each also has a shape or a word.
STREAM = "#cfe3ff"
STREAM_TILE = "#1c2f5e"
STREAM_EDGE = "#4a67a8"
GATE = LINK
GATE_FILL = "#2b1a47"
PLANET_RING = "#cfe0ff"
WARN = "#f0c419"
HOLE_RING = "#ff8c42"
ESCAPE = "#38d9c4"
ESCAPE_FILL = "#0d3a3a"
REFUGEE = "#ffe2a8"

#: The direction letters in notation order, and their unit steps on the page (y grows downwards).
DIRS = "nesw"
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
#: Each streamline card's arrows as the seed draws it; its orientations are the quarter turns of these.
SHAPES = {"straight": "n", "line": "ew", "corner": "nw", "tee": "new"}
POWER_ORDER = ("action", "cargo", "pickup", "extra-move", "engineering")
#: Special power cards and the token (notation verb) that uses them.
SPECIAL_TOKENS = {"pickup": "pickup", "extra-move": "extra", "engineering": "engineer"}
#: Each seat's corner of a square: ships sharing a square never cover each other.
SLOTS = ((14, 14), (50, 14), (14, 50), (50, 50))
#: Cargo pips drawn beside a ship on the board (then a "+"; the ship's panel lists every card).
PIPS = 3


# -- tokens --------------------------------------------------------------------


def _turn(arrows: str) -> str:
    """``arrows`` turned a quarter clockwise, letters in notation order (n e s w)."""
    turned = {DIRS[(DIRS.index(ch) + 1) % 4] for ch in arrows}
    return "".join(ch for ch in DIRS if ch in turned)


def orientations(shape: str) -> list[str]:
    """The distinct ways a streamline card can be laid, as the arrow letters ``lay`` takes."""
    out: list[str] = []
    arrows = SHAPES[shape]
    for _ in range(4):
        if arrows not in out:
            out.append(arrows)
        arrows = _turn(arrows)
    return sorted(out, key=lambda a: [DIRS.index(ch) for ch in a])


def shape_of(arrows: str) -> str | None:
    """The streamline card whose arrows, turned, make ``arrows`` (None for anything else)."""
    if not arrows or any(ch not in DIRS for ch in arrows) or len(set(arrows)) != len(arrows) or len(arrows) > 3:
        return None
    if len(arrows) == 2:
        return "line" if set(arrows) in ({"n", "s"}, {"e", "w"}) else "corner"
    return "straight" if len(arrows) == 1 else "tee"


def action_tokens(notation: str) -> list[str]:
    """How an action's notation decomposes into click tokens.

    ``move c2-b2-b3-a3`` is ``move`` (the ship to act) and ``a3`` (where it
    ends): there is one legal move per end square, so the squares passed on
    the way need no click. ``move d4-g7=c8`` adds ``jump`` (the walk to a
    square and a jump to it are two actions). ``lay nw`` is the card
    (``corner``) and its orientation tile (``nw``); ``lay gate-a`` the card and
    ``lay``; ``give corner 2`` the card and the receiving ship's badge ``2``;
    everything else is its words (``dump refugee``, ``engineer cw``, ``draw``).
    """
    words = notation.split()
    if len(words) == 2 and words[0] == "move":
        route, jump, target = words[1].partition("=")
        end = target if jump else route.rsplit("-", 1)[-1]
        return ["move", end, "jump"] if jump else ["move", end]
    if len(words) == 2 and words[0] == "lay":
        if words[1].startswith("gate-"):
            return [words[1], "lay"]
        shape = shape_of(words[1])
        return [shape, words[1]] if shape else words
    if len(words) == 3 and words[0] == "give":
        return words[1:]
    return words


# -- fragments ---------------------------------------------------------------
#
# Speed: the builder escapes and formats every attribute, which costs tens of
# microseconds an element; a picture has a few hundred. The symbols repeat
# (a planet at each stage, a pip per card kind, a seat's badge), so each is drawn
# once with the builder at the origin, cached, and placed with a translation;
# only the text that comes from the view is written per picture (escaped with
# ``esc``/``attr``). That keeps a picture well under the 2 ms budget.


def _arrows_path(cx: float, cy: float, arrows: str, length: float, head: float) -> str:
    """One path for a streamline's arrows from (cx, cy): a shaft and a head for each letter."""
    parts = []
    for ch in arrows:
        dx, dy = STEP.get(ch, (0, 0))
        tip_x, tip_y = cx + dx * length, cy + dy * length
        base_x, base_y = cx + dx * (length - head), cy + dy * (length - head)
        side_x, side_y = -dy * head * 0.7, dx * head * 0.7
        parts.append(
            f"M{num(cx)} {num(cy)}L{num(base_x)} {num(base_y)}"
            f"M{num(tip_x)} {num(tip_y)}L{num(base_x + side_x)} {num(base_y + side_y)}L{num(base_x - side_x)} {num(base_y - side_y)}Z"
        )
    return "".join(parts)


@lru_cache(maxsize=64)
def _tile(arrows: str) -> str:
    """A streamline card laid on a square (the square's top-left at the origin)."""

    def draw(svg: Svg) -> None:
        h = CELL / 2
        svg.rect(5, 5, CELL - 10, CELL - 10, rx=6, fill=STREAM_TILE, stroke=STREAM_EDGE, opacity=0.85)
        svg.path(_arrows_path(h, h, arrows, h - 3, 9), fill=STREAM, stroke=STREAM, stroke_width=3.5, stroke_linejoin="round")
        svg.circle(h, h, 3.5, fill=STREAM)

    return fragment(draw)


@lru_cache(maxsize=128)
def _stream_icon(arrows: str, size: int) -> str:
    """A small streamline card (top-left at the origin) with its arrows."""

    def draw(svg: Svg) -> None:
        half = size / 2
        svg.rect(0, 0, size, size, rx=3, fill=STREAM_TILE, stroke=STREAM_EDGE)
        svg.path(
            _arrows_path(half, half, arrows, half - 2, size * 0.22), fill=STREAM, stroke=STREAM, stroke_width=2, stroke_linejoin="round"
        )

    return fragment(draw)


@lru_cache(maxsize=1)
def _refugee() -> str:
    """A person: a head and shoulders, centred on the origin."""

    def draw(svg: Svg) -> None:
        svg.circle(0, -3.5, 3, fill=REFUGEE)
        svg.path("M-5 6Q0 -3 5 6Z", fill=REFUGEE)

    return fragment(draw)


@lru_cache(maxsize=64)
def _gate(letter: str, r: int) -> str:
    """A gate: a dashed ring with its pair's letter, centred on the origin."""

    def draw(svg: Svg) -> None:
        svg.circle(0, 0, r, fill=GATE_FILL, stroke=GATE, stroke_width=2 if r < 12 else 3, stroke_dasharray="3 2")
        svg.text(0, r * 0.45, letter, max(11.0, r * 1.2), anchor="middle", font_weight="bold", fill=GATE)

    return fragment(draw)


@lru_cache(maxsize=16)
def _planet(stage: str, r: int) -> str:
    """A planet by its stage, centred on the origin: a ringed disc with a rim that warns; a black hole is a black disc in a burning ring."""

    def draw(svg: Svg) -> None:
        if stage == "black hole":
            svg.circle(0, 0, r + 1, fill="#000", stroke=HOLE_RING, stroke_width=3)
            svg.circle(0, 0, r * 0.55, fill="none", stroke="#7a5cff", stroke_width=1.5, stroke_dasharray="3 2")
            return
        rim = {"warned": WARN, "collapsing": DANGER}.get(stage, PLANET_RING)
        svg.circle(0, 0, r, fill=PLANET, stroke=rim, stroke_width=2 if stage == "calm" else 3)
        svg.el(
            "ellipse", cx=0.0, cy=0.0, rx=r * 1.45, ry=r * 0.38, fill="none", stroke=PLANET_RING, stroke_width=1.5, transform="rotate(-20)"
        )

    return fragment(draw)


@lru_cache(maxsize=64)
def _stage_badge(stage: str, turns_left: str) -> str:
    """The stage as a sign, not only a colour, centred on the origin: ``!`` warned, the countdown while collapsing."""

    def draw(svg: Svg) -> None:
        if stage == "warned":
            svg.polygon(((0, -9), (9, 7), (-9, 7)), fill=WARN, stroke=BACKGROUND)
            svg.text(0, 5.5, "!", 11, anchor="middle", font_weight="bold", fill=BACKGROUND)
        elif stage == "collapsing":
            svg.circle(0, 0, 8.5, fill=DANGER, stroke=BACKGROUND)
            svg.text(0, 4, turns_left, 11, anchor="middle", font_weight="bold", fill=BACKGROUND)

    return fragment(draw)


def _pip_kind(card: str) -> str:
    return "refugee" if card == "refugee" else "gate" if card.startswith("gate") else "streamline"


@lru_cache(maxsize=4)
def _pip(kind: str) -> str:
    """One cargo card beside a ship on the board, centred on the origin.

    A dot for a refugee, a square for a streamline, a diamond for a gate: the shape tells the kind.
    """

    def draw(svg: Svg) -> None:
        if kind == "refugee":
            svg.circle(0, 0, 3, fill=REFUGEE, stroke=BACKGROUND)
        elif kind == "gate":
            svg.polygon(((0, -3.5), (3.5, 0), (0, 3.5), (-3.5, 0)), fill=GATE, stroke=BACKGROUND)
        else:
            svg.rect(-3, -3, 6, 6, fill=STREAM, stroke=BACKGROUND)

    return fragment(draw)


def _text_width(text: str, size: float) -> float:
    return len(text) * size * 0.6


def _chip(parts: list[str], x: float, y: float, label: str, token: str | None, kind: str, icon: str | None = None, data: str = "") -> float:
    """A card shown as a labelled chip (clickable when ``token``); returns its width."""
    w = round(_text_width(label, 12) + (34 if icon else 14))
    chip_open(parts, x, y, w, token or None, kind, data)
    if icon is not None:
        if icon == "refugee":
            place(parts, _refugee(), x + 13, y + 11)
        elif icon.startswith("gate-"):
            place(parts, _gate(icon[5:], 7), x + 13, y + 11)
        elif icon in SHAPES:
            place(parts, _stream_icon(SHAPES[icon], 16), x + 4, y + 3)
    put_text(parts, x + (26 if icon else 7), y + 16, label)
    parts.append("</g>")
    return w


# -- the board -----------------------------------------------------------------


def _square_xy(name: object) -> tuple[int, int] | None:
    """The top-left corner of square ``name`` on the page (None if it is no square)."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        return None
    return LEFT + FILES.index(name[0]) * CELL, TOP + (SIZE - int(name[1])) * CELL


def _static_board() -> str:
    """The squares (each a click token) and the coordinates: the same in every position, so built once."""

    def draw(svg: Svg) -> None:
        for row in range(SIZE):
            for col in range(SIZE):
                name = f"{FILES[col]}{SIZE - row}"
                fill = BOARD_LIGHT if (row + col) % 2 else BOARD_DARK
                with svg.group(class_="tok sq", data_token=name):
                    svg.rect(LEFT + col * CELL, TOP + row * CELL, CELL, CELL, fill=fill, stroke=GUIDE)
        svg.rect(LEFT, TOP, BOARD, BOARD, fill="none", stroke=DIM, stroke_width=1.5, pointer_events="none")
        for i in range(SIZE):
            x = LEFT + i * CELL + CELL / 2
            y = TOP + i * CELL + CELL / 2 + 4
            svg.text(x, TOP - 8, FILES[i], 12, anchor="middle", class_="dim")
            svg.text(x, TOP + BOARD + 17, FILES[i], 12, anchor="middle", class_="dim")
            svg.text(LEFT - 12, y, SIZE - i, 12, anchor="middle", class_="dim")
            svg.text(LEFT + BOARD + 12, y, SIZE - i, 12, anchor="middle", class_="dim")

    return fragment(draw)


_BOARD = _static_board()


def _escape(svg: Svg) -> None:
    """An Escape square (its top-left at the origin): a framed square with its word."""
    svg.rect(4, 4, CELL - 8, CELL - 8, rx=6, fill=ESCAPE_FILL, stroke=ESCAPE, stroke_width=2)
    svg.text(CELL / 2, CELL / 2 + 4, "EXIT", 11, anchor="middle", font_weight="bold", fill=ESCAPE)


_ESCAPE = fragment(_escape)
_MOVER_RING = f'<circle cx="0" cy="0" r="13" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>'


def _draw_gate_links(parts: list[str], laid: Mapping[str, Any]) -> None:
    """A dashed line between the two Gate cards of a pair, both laid."""
    gates: dict[str, list[tuple[int, int]]] = {}
    for sq, card in laid.items():
        xy = _square_xy(sq)
        if xy and str(card).startswith("gate-"):
            gates.setdefault(str(card), []).append(xy)
    h = CELL // 2
    for ends in gates.values():
        if len(ends) == 2:
            (ax, ay), (bx, by) = ends
            parts.append(
                f'<line class="gate-link" x1="{ax + h}" y1="{ay + h}" x2="{bx + h}" y2="{by + h}" '
                f'stroke="{GATE}" stroke-width="2" stroke-dasharray="2 6" opacity="0.8"/>'
            )


def _draw_escapes(parts: list[str], view: Mapping[str, Any]) -> None:
    for sq in view.get("escapes", ()):
        xy = _square_xy(sq)
        if xy:
            place(parts, _ESCAPE, xy[0], xy[1], extra=f' class="escape" data-square="{attr(sq)}"')


def _draw_planets(parts: list[str], view: Mapping[str, Any]) -> None:
    """Each planet at the middle of its square; a warned or collapsing one with its badge of turns left."""
    h = CELL // 2
    for planet in view.get("planets", ()):
        xy = _square_xy(planet.get("square"))
        if xy:
            x, y = xy
            stage = str(planet.get("stage", ""))
            parts.append(f'<g class="planet" data-square="{attr(planet.get("square"))}" data-stage="{attr(stage)}">')
            place(parts, _planet(stage, 12), x + h, y + h)
            if stage in ("warned", "collapsing"):
                left = planet.get("turns_left")
                place(parts, _stage_badge(stage, str(left) if isinstance(left, int) else "?"), x + h, y + 10)
            parts.append("</g>")


def _draw_laid(parts: list[str], laid: Mapping[str, Any]) -> None:
    """The laid cards: a Gate at its square's middle, a streamline tile over its square."""
    h = CELL // 2
    for sq, card in laid.items():
        xy = _square_xy(sq)
        if not xy:
            continue
        kind, _, arrows = str(card).partition(" ")
        if kind.startswith("gate-"):
            data = f' class="gate" data-square="{attr(sq)}" data-card="{attr(kind)}"'
            place(parts, _gate(kind[5:], 15), xy[0] + h, xy[1] + h, extra=data)
        else:
            place(parts, _tile(arrows), xy[0], xy[1], extra=f' class="streamline" data-square="{attr(sq)}" data-arrows="{attr(arrows)}"')


def _draw_cargo(parts: list[str], cargo: list[str], square: tuple[int, int], slot: tuple[int, int], cy: int) -> None:
    """A ship's cargo as pips beside it, from the square's outer edge inwards (a ``+`` past ``PIPS``)."""
    (x, _), (sx, sy) = square, slot
    h = CELL // 2
    parts.append('<g pointer-events="none">')
    py = cy + 16 if sy < h else cy - 16
    # From the square's outer edge inwards, away from what lies in its middle.
    step = 6 if sx < h else -6
    px = x + 5 if sx < h else x + CELL - 5
    for i, card in enumerate(cargo[:PIPS]):
        place(parts, _pip(_pip_kind(card)), px + i * step, py, extra=f' class="pip" data-card="{attr(card)}"')
    if len(cargo) > PIPS:
        put_text(parts, px + PIPS * step, py + 4, "+", 11, ' text-anchor="middle" font-weight="bold" class="pip-more"')
    parts.append("</g>")


def _draw_board_ship(parts: list[str], seat: int, ship: Mapping[str, Any], mover: int | None) -> None:
    """A ship at its seat's slot of its square (the mover's to click, ringed), with its cargo."""
    xy = _square_xy(ship.get("square"))
    if not xy:
        return
    x, y = xy
    sx, sy = SLOTS[seat % 4]
    cx, cy = x + sx, y + sy
    if seat == mover:
        parts.append(f'<g class="tok ship" data-token="move" data-seat="{seat}" transform="translate({cx} {cy})">')
        parts.append(_MOVER_RING)
    else:
        parts.append(f'<g class="ship" data-seat="{seat}" pointer-events="none" transform="translate({cx} {cy})">')
    parts.append(badge(seat, 10))
    parts.append("</g>")
    cargo = [str(c) for c in ship.get("cargo", ())]
    if cargo:
        _draw_cargo(parts, cargo, xy, (sx, sy), cy)


def _draw_board(parts: list[str], view: Mapping[str, Any], mover: int | None) -> None:
    parts.append(_BOARD)
    parts.append('<g pointer-events="none">')
    laid = view.get("streamlines", {}) or {}
    _draw_gate_links(parts, laid)
    _draw_escapes(parts, view)
    _draw_planets(parts, view)
    _draw_laid(parts, laid)
    parts.append("</g>")
    for seat, ship in enumerate(view.get("ships", ())):
        _draw_board_ship(parts, seat, ship, mover)


# -- panels --------------------------------------------------------------------


def _planet_line(planet: Mapping[str, Any]) -> str:
    stage = str(planet.get("stage", ""))
    cards = planet.get("collapse_cards", 0)
    if stage == "warned":
        return f"warned: {cards} Collapse card on it"
    if stage == "collapsing":
        left = planet.get("turns_left")
        return f"collapsing: a black hole after {left} more turn end{'s' if left != 1 else ''}"
    if stage == "black hole":
        return "black hole: no more cards, ships entering are lost"
    return "calm: no Collapse card yet"


def _pile(parts: list[str], x: int, y: float, label: str, count: int, token: str | None, kind: str) -> None:
    if token:
        parts.append(f'<g class="tok pile {kind}" data-token="{attr(token)}" data-count="{count}">')
    else:
        parts.append(f'<g class="pile {kind}" data-count="{count}">')
    parts.append(
        f'<rect x="{x}" y="{coord(y)}" width="46" height="60" rx="5" fill="{CHIP}" '
        f'stroke="{HIGHLIGHT if token else GUIDE}" stroke-width="1.5"/>'
    )
    if count:
        parts.append(f'<rect x="{x + 4}" y="{coord(y + 4)}" width="38" height="52" rx="3" fill="none" stroke="{GUIDE}"/>')
    put_text(parts, x + 23, y + 36, count, 16, ' text-anchor="middle" font-weight="bold"')
    put_text(parts, x + 23, y + 76, label, 12, ' text-anchor="middle" class="dim"')
    parts.append("</g>")


def _draw_clock(parts: list[str], y: float, view: Mapping[str, Any], playing: bool) -> float:
    planets = list(view.get("planets", ()))
    standing = sum(1 for p in planets if p.get("stage") != "black hole")
    deck = view.get("deck_contents", {}) or {}
    discard = view.get("discard", {}) or {}
    lost = view.get("lost", {}) or {}
    h = max(44 + 22 * len(planets) + 20, 108)
    panel(parts, y, h, f"Clock · turn {view.get('turn_number', 0)}")
    put_text(parts, MARGIN, y + 38, f"draws {plural(standing, 'card')} a turn, one per planet standing", 12, DIM_CLASS)
    for i, planet in enumerate(planets):
        py = y + 58 + 22 * i
        stage = str(planet.get("stage", ""))
        parts.append(f'<g class="planet-row" data-stage="{attr(stage)}">')
        place(parts, _planet(stage, 7), MARGIN + 9, py - 4)
        put_text(parts, MARGIN + 26, py, f"{planet.get('square', '?')}  {_planet_line(planet)}")
        parts.append("</g>")
    events = designed_events()
    good = sum(int(deck.get(card.effect, 0)) for card in events if card.good)
    bad = sum(int(deck.get(card.effect, 0)) for card in events if not card.good)
    collapse = f"Collapse: {deck.get('collapse', 0)} in the deck, {discard.get('collapse', 0)} discarded"
    if good or bad:
        collapse += f" · other events in the deck: {good} good, {bad} bad"
    put_text(parts, MARGIN, y + h - 10, collapse, 12, DIM_CLASS)
    _pile(parts, 444, y + 12, "deck", int(view.get("deck", 0)), "draw" if playing else None, "deck")
    _pile(parts, 506, y + 12, "discard", sum(discard.values()), None, "discard")
    _pile(parts, 568, y + 12, "lost", sum(lost.values()), None, "lost")
    return y + h + 8


_RESCUED = f'fill="{REFUGEE}" stroke="{REFUGEE}" class="rescued"'
_NEEDED = f'fill="none" stroke="{REFUGEE}" stroke-width="1.5" stroke-dasharray="2 2" class="needed"'


def _draw_refugees(parts: list[str], y: float, view: Mapping[str, Any]) -> float:
    rescued = int(view.get("rescued", 0))
    required = int(view.get("required", 0))
    aboard = sum(str(c) == "refugee" for s in view.get("ships", ()) for c in s.get("cargo", ()))
    in_deck = (view.get("deck_contents", {}) or {}).get("refugee", 0)
    in_discard = (view.get("discard", {}) or {}).get("refugee", 0)
    lost = (view.get("lost", {}) or {}).get("refugee", 0)
    slots = max(rescued, required)
    per_row = (WIDTH - 2 * MARGIN) // 18
    rows = (slots + per_row - 1) // per_row
    h = 50 + 18 * rows + 18
    panel(parts, y, h, f"Refugees · rescued {rescued} of {required} needed")
    for i in range(slots):
        cx = MARGIN + 8 + (i % per_row) * 18
        cy = y + 36 + (i // per_row) * 18
        parts.append(f'<circle cx="{cx}" cy="{coord(cy)}" r="6" {_RESCUED if i < rescued else _NEEDED}/>')
    line = f"aboard ships {aboard} · waiting in the deck {in_deck}, in the discard {in_discard} · lost {lost}"
    put_text(parts, MARGIN, y + h - 12, line, 12, DIM_CLASS)
    return y + h + 8


def _flow(x: float, w: float, y: float, row_h: float, start: float) -> tuple[float, float]:
    """The next chip position: on this row, or the next one when the chip would leave the panel."""
    if x + w > WIDTH - MARGIN and x > start:
        return start, y + row_h
    return x, y


CHIPS_X = 92


def _draw_ship(parts: list[str], y: float, seat: int, ship: Mapping[str, Any], view: Mapping[str, Any], mover: int | None) -> float:
    """One ship's panel; returns the y below it."""
    top = len(parts)
    parts.append("")  # the panel's background, written once its height is known
    acting = seat == mover
    _ship_title(parts, y, seat, ship, view, mover)
    powers = ship.get("powers", {}) or {}
    row = _ship_powers(parts, y + 32, powers, acting)
    cargo = [str(c) for c in ship.get("cargo", ())]
    row = _ship_hold(parts, row + 28, cargo, powers.get("cargo", 0), acting)
    # Orientation tiles for the streamline cards the ship to act can lay.
    shapes = [s for s in SHAPES if s in cargo]
    if acting and shapes:
        row = _lay_tiles(parts, row + 30, shapes)
    bottom = row + 30
    edge = SEAT_COLOURS[seat % 4] if acting else PANEL
    parts[top] = (
        f'<rect x="8" y="{coord(y - 4)}" width="{WIDTH - 16}" height="{coord(bottom - y)}" rx="8" '
        f'fill="{PANEL}" stroke="{edge}" stroke-width="2"/>'
    )
    return bottom + 4


def _ship_title(parts: list[str], y: float, seat: int, ship: Mapping[str, Any], view: Mapping[str, Any], mover: int | None) -> None:
    """The panel's first line: the ship's badge (a token when the ship to act may give it cargo), its name and square,
    and a note: the actions left of the ship to act, the ships sharing its square."""
    square = ship.get("square")
    acting = seat == mover
    if mover is not None and not acting and square is not None:
        # The badge of a ship that can be given cargo: its seat number is the token.
        parts.append(f'<g class="tok seat" data-token="{seat}" transform="translate(24 {coord(y + 16)})">')
        parts.append(f'<circle cx="0" cy="0" r="11" fill="none" stroke="{HIGHLIGHT}" stroke-width="1.5"/>')
        parts.append(badge(seat, 10))
        parts.append("</g>")
    else:
        place(parts, badge(seat, 10), 24, y + 16)
    where = f"on {square}" if square is not None else "lost with its cargo"
    put_text(parts, 42, y + 21, f"Ship {SEAT_MARKS[seat % 4]} · seat {seat} · {where}", 13, BOLD)
    if square is None:
        return
    mates = [SEAT_MARKS[i % 4] for i, s in enumerate(view.get("ships", ())) if i != seat and s.get("square") == square]
    note = ""
    if acting:
        note = f"to act: {plural(view.get('actions_left', 0), 'action')} left"
        if view.get("free_moves"):
            note += f", {plural(view.get('free_moves'), 'free move')}"
    if mates:
        note = (note + " · " if note else "") + "shares the square with " + ", ".join(mates)
    if note:
        put_text(parts, WIDTH - MARGIN, y + 21, note, 12, f' text-anchor="end" fill="{HIGHLIGHT if acting else DIM}"')


def _ship_powers(parts: list[str], row: float, powers: Mapping[str, Any], acting: bool) -> float:
    """The ship's powers from ``row``, a chip each (a token for the ship to act's special powers); returns the last row."""
    put_text(parts, MARGIN, row + 16, "powers", 12, DIM_CLASS)
    x: float = CHIPS_X
    for name in [*POWER_ORDER, *sorted(set(powers) - set(POWER_ORDER))]:
        count = powers.get(name)
        if not count:
            continue
        label = f"{name} ×{count}"
        x, row = _flow(x, _text_width(label, 12) + 14, row, 26, CHIPS_X)
        token = SPECIAL_TOKENS.get(name) if acting else None
        x += _chip(parts, x, row, label, token, "power", data=f' data-power="{attr(name)}" data-count="{attr(count)}"') + 6
    if not powers:
        put_text(parts, CHIPS_X, row + 16, "none", 12, DIM_CLASS)
    return row


def _ship_hold(parts: list[str], row: float, cargo: list[str], capacity: int, acting: bool) -> float:
    """The ship's hold from ``row``: a chip per card (a token for the ship to act), over-full in the highlight;
    returns the last row."""
    over = len(cargo) > capacity
    put_text(parts, MARGIN, row + 16, f"hold {len(cargo)}/{capacity}", 12, f' fill="{HIGHLIGHT if over else DIM}"')
    x: float = CHIPS_X
    for card in cargo:
        x, row = _flow(x, _text_width(card, 12) + 34, row, 26, CHIPS_X)
        icon = card if card in SHAPES or card == "refugee" or card.startswith("gate-") else None
        x += _chip(parts, x, row, card, card if acting else None, "cargo", icon, f' data-card="{attr(card)}"') + 6
    if not cargo:
        put_text(parts, CHIPS_X, row + 16, "empty", 12, DIM_CLASS)
    elif over and acting:
        put_text(parts, WIDTH - MARGIN, row + 16, "over-full: dump one", 12, f' text-anchor="end" fill="{HIGHLIGHT}"')
    return row


def _lay_tiles(parts: list[str], row: float, shapes: list[str]) -> float:
    """From ``row``, a tile per way each streamline card in the hold can be laid (its arrows are the token); returns
    the row below the tiles' last row."""
    put_text(parts, MARGIN, row + 17, "lay as", 12, DIM_CLASS)
    x: float = CHIPS_X
    for shape in shapes:
        tiles = orientations(shape)
        x, row = _flow(x, len(tiles) * 30 - 4, row, 32, CHIPS_X)
        for arrows in tiles:
            parts.append(f'<g class="tok orient" data-token="{arrows}" data-card="{shape}">')
            parts.append(
                f'<rect x="{coord(x)}" y="{coord(row)}" width="26" height="26" rx="4" '
                f'fill="{STREAM_TILE}" stroke="{HIGHLIGHT}" stroke-width="1.5"/>'
            )
            place(parts, _arrows_icon(arrows), x + 13, row + 13)
            parts.append("</g>")
            x += 30
        x += 10
    return row + 6


@lru_cache(maxsize=32)
def _arrows_icon(arrows: str) -> str:
    """An orientation tile's arrows, centred on the origin."""
    return fragment(
        lambda svg: svg.path(_arrows_path(0, 0, arrows, 11, 5), fill=STREAM, stroke=STREAM, stroke_width=2, stroke_linejoin="round")
    )


def _legend_text() -> tuple[str, float]:
    """The legend (the same in every position, so built once) and its height."""

    def at(body: str, dx: float = 0, dy: float = 0) -> Callable[[Svg, float, float], None]:
        return lambda svg, x, y: place(svg.parts, body, x + dx, y + dy)

    def ship(svg: Svg, x: float, y: float) -> None:
        svg.circle(x, y, 11, fill="none", stroke=HIGHLIGHT, stroke_width=2)
        svg.seat_badge(x, y, 0, 9.5)

    def pips(svg: Svg, x: float, y: float) -> None:
        for dx, kind in ((-6, "refugee"), (1, "streamline"), (8, "gate")):
            at(_pip(kind), dx)(svg, x, y)

    def escape(svg: Svg, x: float, y: float) -> None:
        svg.rect(x - 8, y - 8, 16, 16, rx=3, fill=ESCAPE_FILL, stroke=ESCAPE, stroke_width=2)

    entries = [
        (at(_planet("calm", 6)), "planet: draw cards here"),
        (at(_stage_badge("warned", "")), "warned: one Collapse card"),
        (at(_stage_badge("collapsing", "2")), "collapsing: turn ends left"),
        (at(_planet("black hole", 6)), "black hole: a ship entering is lost"),
        (escape, "escape: drop refugees here"),
        (at(_stream_icon("ne", 16), -8, -8), "streamline: carries ships along"),
        (at(_gate("a", 8)), "gate: a dashed line joins its pair"),
        (ship, "ship with its seat letter (ring: to act)"),
        (pips, "cargo: refugee, streamline, gate"),
    ]

    return legend(entries, MARGIN, 14, (MARGIN, 4, 13))


_LEGEND, _LEGEND_HEIGHT = _legend_text()


def _status(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    if outcome:
        result = "The team wins" if outcome.get("winners") else "The team loses"
        return f"{result}: {outcome.get('reason', '')}{SEP}rescued {view.get('rescued', 0)} of {view.get('required', 0)}"
    seat = view.get("to_move")
    if not isinstance(seat, int):
        return f"Turn {view.get('turn_number', 0)}"
    parts = [
        f"Turn {view.get('turn_number', 0)}",
        seat_to(seat, "act"),
        f"{plural(view.get('actions_left', 0), 'action')} left",
    ]
    if view.get("free_moves"):
        parts.append(plural(view.get("free_moves"), "free move"))
    if view.get("must_dump"):
        parts.append("hold over-full: dump a card")
    elif view.get("bonus_draw"):
        parts.append("may draw again free")
    if view.get("gate_stopped"):
        parts.append("stopped by a gate jump")
    return SEP.join(parts + you_are(view.get("viewer"), seat))


def render_svg(view: Mapping[str, Any]) -> str:
    """The position in ``view`` (a ``State.picture_view``) as an SVG picture."""
    title = f"Streamlines · {view.get('scenario', '')}"
    ships = list(view.get("ships", ()))
    mover = view.get("to_move")
    # Only a ship that is on the board and whose turn it is (the game not over) gets the action tokens.
    if view.get("outcome") or not isinstance(mover, int) or not 0 <= mover < len(ships) or ships[mover].get("square") is None:
        mover = None
    status = _status(view)
    parts = begin(title, status).parts
    _draw_board(parts, view, mover)
    y: float = TOP + BOARD + 30
    y = _draw_clock(parts, y, view, mover is not None)
    y = _draw_refugees(parts, y, view)
    for seat, ship in enumerate(ships):
        y = _draw_ship(parts, y + 4, seat, ship, view, mover)
    y += 18
    place_legend(parts, _LEGEND, y)
    y = latest(parts, y + _LEGEND_HEIGHT + 6, view.get("events", ()), "Latest", 12, 84, 34, 18)
    desc = f"{status}. Rescued {view.get('rescued', 0)} of {view.get('required', 0)} refugees."
    return finish(parts, y + 12, title, desc)


__all__ = ["BUTTON_TOKENS", "action_tokens", "orientations", "render_svg", "shape_of"]
