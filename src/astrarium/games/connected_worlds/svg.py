"""Connected Worlds drawn as an SVG picture a person can click.

The picture is made from one seat's ``picture_view``: the pieces, portals,
pools, pile sizes and the viewer's own hand come from the view; nothing hidden
(another seat's hand, any deck's order) is in it, so nothing hidden is drawn.
From the top:

* the shared header: the map, the round, whose turn, the phase, the victory
  mode, and the result when the game is over;
* the space board, then every planet board (two to a row), each hex with its
  ``q,r`` coordinates (the board's key is in its title, so ``A`` and ``0,1``
  make the notation's ``A:0,1``); a world's hex in space carries the world's
  key on a planet disc;
* territory as a hatch in the seat's colour, the hatch's direction differing
  per seat (``/`` A, ``\\`` B, ``|`` C, ``-`` D), so overlapping territory is
  a cross-hatch and no seat is told by colour alone;
* bases (a house with the seat letter and strength), units (a pill with the
  seat letter and strength, ``×n`` for several alike, a dashed rim when
  engaged), portals (a numbered tag at each end and a dashed line between);
* panels: this turn (phase, the moving piece, cards in play this turn,
  portals), the viewer's hand, each seat's resources, deck, hand, discard
  pile, territory and worlds, the cards one can buy, a legend, the latest
  combats.

Clicking (rules.md, "Pictures and clicking"): a hex is its name (``A:0,1``),
a unit is its hex and strength (``A:0,1 u2``), a card in the hand is its slug,
a card to buy is ``buy <slug>``. :func:`action_tokens` decomposes an action
into these, so the card then the piece (or place, or purchase) picks it.

The view holds the map's name, not its hexes, and the cards' slugs, not the
card table: the boards are drawn from the shipped map of that name (checked
against every hex the view names), and card details and the market from the
shipped card table. A designer's map unknown by name is drawn from the hexes
the view names.

Speed: the boards (hex outlines, labels, click targets) are the same in every
position of a map, so they are built once per map and cached; a picture adds
only the territory, pieces and panels, written as plain text with every value
from the view escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from astrarium.core.picture_kit import (
    BACKGROUND,
    BOARD_DARK,
    BOLD,
    CHIP,
    DANGER,
    DIM_CLASS,
    GUIDE,
    HALO,
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
    esc,
    finish,
    latest,
    legend,
    mark,
    num,
    panel,
    place,
    place_legend,
    put_text,
    seat_to,
    winner_marks,
    wins,
    you_are,
)
from astrarium.games.connected_worlds.data import HEX_DIRECTIONS, MAX_COST, SPACE, Card, Special

#: Tokens offered as buttons: the verbs the picture does not draw as a thing.
BUTTON_TOKENS: frozenset[str] = frozenset({"gather", "stop", "end"})

MARGIN = 16
HEX = 34.0
"""A hex's radius (centre to corner) in picture units; smaller only when a designer's board would not fit the width."""
SQ3 = math.sqrt(3)
TITLE_H = 24
BOARD_GAP = 14

SPACE_FILL = BOARD_DARK
PLANET_FILL = "#182443"
HOMEWORLD_FILL = "#1b2a52"
PORTAL = LINK
#: The territory hatch of each seat: lines at this angle, so overlapping territory is a cross-hatch.
HATCH = (45, -45, 0, 90)
HATCH_NAMES = ("/", "\\", "|", "-")

SPECIAL_WORDS = {"research": "research", "build units": "build", "connect bases": "portal", "gather resources": "gather"}


# -- tokens --------------------------------------------------------------------------------------------------


def action_tokens(notation: str) -> list[str]:
    """How an action's notation decomposes into click tokens.

    ``found A:0,0`` and ``step S:1,0`` are the hex; ``move harvester A:0,0 u2``
    is the card and the unit (``A:0,0 u2``), ``move portal A:0,0 base`` the card
    and the base's hex; ``research scientists excavater`` is the card and the
    card to buy (``buy excavater``); ``deploy titan-force A:1,0`` and
    ``connect portal A:0,0 B:0,0`` are the card and the hexes. ``gather
    harvester``, ``stop`` and ``end`` are their words (``gather``, ``stop`` and
    ``end`` are buttons). No two legal actions share their tokens: a base move
    and a deployment both name a card and a hex, but one is an action card and
    the other a unit card.
    """
    words = notation.split()
    if len(words) == 2 and words[0] in ("found", "step"):
        return words[1:]
    if len(words) == 4 and words[0] == "move":
        _, card, cell, piece = words
        return [card, cell] if piece == "base" else [card, f"{cell} {piece}"]
    if len(words) == 3 and words[0] in ("research", "build"):
        return [words[1], f"buy {words[2]}"]
    if (len(words) == 4 and words[0] == "connect") or (len(words) == 3 and words[0] == "deploy"):
        return words[1:]
    if len(words) == 2 and words[0] in ("move", "connect", "deploy"):  # choices = steps: a head, the card and its verb
        return [words[1], words[0]]
    if len(words) == 2 and words[0] == "at":
        return words[1:]
    return words


# -- the boards (built once per map) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """One board to draw: its key (``S`` or a world's), title and hexes in axial coordinates."""

    key: str
    title: str
    hexes: tuple[tuple[int, int], ...]
    marks: tuple[tuple[tuple[int, int], str], ...] = ()  # space hexes that hold a world: (hex, world key)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where every hex is on the page, its neighbours (for territory), and the static drawing of the boards."""

    size: float
    centre: Mapping[str, tuple[float, float]]
    points: Mapping[str, str]
    terr: Mapping[str, str]  # a hex's attributes for a territory polygon
    neighbours: Mapping[str, tuple[str, ...]]
    under: str  # board titles and hex fills, drawn below the territory
    over: str  # the click targets (a transparent hex each) and the coordinates, drawn above it
    bottom: float


def _specs_of_view(boards: Sequence[Any]) -> tuple[BoardSpec, ...] | None:
    """The boards the view describes (``view["boards"]``), or None when it holds none readable."""
    specs = []
    space_marks: list[tuple[tuple[int, int], str]] = []
    for b in boards:
        if not isinstance(b, Mapping):
            return None
        hexes = tuple((int(h[0]), int(h[1])) for h in b.get("hexes", ()) if isinstance(h, list | tuple) and len(h) == 2)
        key = str(b.get("key", ""))
        if b.get("kind") == "space":
            specs.append(BoardSpec(key, f"Space · hexes {key}:q,r · {len(hexes)} hexes", hexes))
            continue
        over = _hex_name(b.get("over"))
        if over is not None:
            space_marks.append(((over[1], over[2]), key))
        kind = "player world" if b.get("kind") == "player" else "neutral world"
        specs.append(BoardSpec(key, f"{key} · {b.get('name', '')} · {kind} · over {b.get('over', '')}", hexes))
    if not specs:
        return None
    if specs[0].title.startswith("Space"):
        specs[0] = BoardSpec(specs[0].key, specs[0].title, specs[0].hexes, tuple(space_marks))
    return tuple(specs)


def _hex_name(name: object) -> tuple[str, int, int] | None:
    """``A:-1,2`` as ("A", -1, 2); None for anything else."""
    if not isinstance(name, str):
        return None
    key, colon, rest = name.partition(":")
    q, comma, r = rest.partition(",")
    try:
        return (key, int(q), int(r)) if colon and comma and key else None
    except ValueError:
        return None


def _named_hexes(view: Mapping[str, Any]) -> set[str]:
    names = {str(b[0]) for b in view.get("bases", ())} | {str(u[0]) for u in view.get("units", ())}
    for pair in view.get("portals", ()):
        names.update(str(h) for h in pair)
    moving = view.get("moving")
    if isinstance(moving, Mapping):
        names.add(str(moving.get("at")))
    return names


def _board_layout(view: Mapping[str, Any]) -> Layout:
    """The boards of the view's map (``view["boards"]``), or, failing that, the hexes the view names."""
    boards = view.get("boards")
    specs = _specs_of_view(boards) if isinstance(boards, list) else None
    if specs is not None:
        return _layout(specs)
    named = _named_hexes(view)
    found: dict[str, list[tuple[int, int]]] = {}
    for name in sorted(named):
        parsed = _hex_name(name)
        if parsed is not None:
            found.setdefault(parsed[0], []).append((parsed[1], parsed[2]))
    keys = sorted(found, key=lambda k: (k != SPACE, k))
    return _layout(tuple(BoardSpec(k, f"{k} · only the hexes in play", tuple(found[k])) for k in keys))


def _units(hexes: Iterable[tuple[int, int]]) -> tuple[float, float, float, float]:
    """A board's extent in hex radii: (min x, max x, min y, max y) of its hex centres."""
    xs = [SQ3 * (q + r / 2) for q, r in hexes]
    ys = [1.5 * r for _, r in hexes]
    return min(xs), max(xs), min(ys), max(ys)


def _block_width(spec: BoardSpec, extent: tuple[float, float, float, float], size: float) -> float:
    """The width a board takes on the page: its hexes, or its title when that is wider."""
    return max((extent[1] - extent[0] + SQ3) * size, len(spec.title) * 12 * 0.55)


def _rows(specs: tuple[BoardSpec, ...], extents: list[tuple[float, float, float, float]], size: float) -> list[list[int]]:
    """Rows of boards (their indexes): space alone, then as many planets as fit the width."""
    space_first = bool(specs) and specs[0].key == SPACE
    rows: list[list[int]] = [[0]] if space_first else []
    width, open_row = 0.0, False
    for i in range(1 if space_first else 0, len(specs)):
        w = _block_width(specs[i], extents[i], size)
        if open_row and width + BOARD_GAP + w <= WIDTH - 2 * MARGIN:
            rows[-1].append(i)
            width += BOARD_GAP + w
        else:
            rows.append([i])
            width, open_row = w, True
    return rows


def _world_key(mark: str | None, cx: float, cy: float, size: float) -> str:
    """The world's key (space hexes that hold a world) on a planet disc at the hex's left, clear of the pieces."""
    if mark is None:
        return ""
    mx, my = cx - size * 0.64, cy + 1
    return (
        f'<g class="homeworld" data-world="{attr(mark)}"><circle cx="{num(mx)}" cy="{num(my)}" r="8" '
        f'fill="{PLANET}" stroke="{PLANET}" stroke-width="1.5"/>'
        f'<text x="{num(mx)}" y="{num(my + 4)}" font-size="11" font-weight="bold" text-anchor="middle">'
        f"{esc(mark)}</text></g>"
    )


def _draw_hexes(
    spec: BoardSpec,
    origin: tuple[float, float],
    size: float,
    corners: list[tuple[float, float]],
    centre: dict[str, tuple[float, float]],
    points: dict[str, str],
    layers: tuple[list[str], list[str]],
) -> None:
    """One board's hexes: their fills below the territory, their click targets and coordinates above it."""
    (ox, oy), (under, over) = origin, layers
    fill = SPACE_FILL if spec.key == SPACE else PLANET_FILL
    marks = dict(spec.marks)
    for q, r in spec.hexes:
        name = f"{spec.key}:{q},{r}"
        cx, cy = ox + SQ3 * (q + r / 2) * size, oy + 1.5 * r * size
        centre[name] = (cx, cy)
        pts = " ".join(f"{num(cx + dx)},{num(cy + dy)}" for dx, dy in corners)
        points[name] = pts
        mark = marks.get((q, r))
        under.append(f'<polygon points="{pts}" fill="{fill if mark is None else HOMEWORLD_FILL}" stroke="{GUIDE}"/>')
        over.append(
            f'<g class="tok hex" data-token="{attr(name)}"><polygon points="{pts}" fill="transparent" stroke="{GUIDE}"/>'
            f'<text x="{num(cx)}" y="{num(cy - size * 0.42)}" font-size="11" text-anchor="middle" class="dim"{HALO}>{q},{r}</text>'
            f"{_world_key(mark, cx, cy, size)}</g>"
        )


def _neighbours(specs: tuple[BoardSpec, ...]) -> dict[str, tuple[str, ...]]:
    """Every hex's name, then its neighbours' on the same board (for territory)."""
    neighbours: dict[str, tuple[str, ...]] = {}
    for spec in specs:
        here = set(spec.hexes)
        for q, r in spec.hexes:
            near = [f"{spec.key}:{q + dq},{r + dr}" for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in here]
            neighbours[f"{spec.key}:{q},{r}"] = (f"{spec.key}:{q},{r}", *near)
    return neighbours


@lru_cache(maxsize=16)
def _layout(specs: tuple[BoardSpec, ...]) -> Layout:
    """Space on top, then the planets in rows (two to a row for the shipped maps), centred."""
    extents = [_units(s.hexes) if s.hexes else (0.0, 0.0, 0.0, 0.0) for s in specs]
    widest = max((e[1] - e[0] + SQ3 for e in extents), default=1.0)
    size = min(HEX, (WIDTH - 2 * MARGIN) / widest)
    centre: dict[str, tuple[float, float]] = {}
    points: dict[str, str] = {}
    corners = [(size * math.cos(math.radians(60 * i - 30)), size * math.sin(math.radians(60 * i - 30))) for i in range(6)]
    under: list[str] = []
    over: list[str] = []
    y = HEADER + 10.0
    for row in _rows(specs, extents, size):
        widths = [_block_width(specs[i], extents[i], size) for i in row]
        x = (WIDTH - sum(widths) - BOARD_GAP * (len(row) - 1)) / 2
        height = 0.0
        for i, w in zip(row, widths, strict=True):
            spec = specs[i]
            minx, _, miny, maxy = extents[i]
            under.append(
                f'<text x="{num(x + w / 2)}" y="{num(y + 15)}" font-size="12" text-anchor="middle" class="board-title">'
                f"{esc(spec.title)}</text>"
            )
            ox = x + (w - (extents[i][1] - minx) * size) / 2 - minx * size
            oy = y + TITLE_H + (1 - miny) * size
            _draw_hexes(spec, (ox, oy), size, corners, centre, points, (under, over))
            height = max(height, TITLE_H + (maxy - miny + 2) * size)
            x += w + BOARD_GAP
        y += height + BOARD_GAP
    terr = {name: f' data-hex="{attr(name)}" points="{pts}"' for name, pts in points.items()}
    return Layout(size, centre, points, terr, _neighbours(specs), "".join(under), "".join(over), y)


# -- fragments -----------------------------------------------------------------------------------------------


DEFS = (
    "<defs>"
    + "".join(
        f'<pattern id="cw-terr{p}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate({HATCH[p]})">'
        f'<rect width="8" height="8" fill="{SEAT_COLOURS[p]}" fill-opacity="0.14"/>'
        f'<line x1="2" y1="0" x2="2" y2="8" stroke="{SEAT_COLOURS[p]}" stroke-width="2" stroke-opacity="0.6"/></pattern>'
        for p in range(4)
    )
    + "</defs>"
)


def _label_width(text: str, size: float = 11) -> float:
    return len(text) * size * 0.62


@lru_cache(maxsize=512)
def _base(seat: int, strength: object) -> str:
    """A base: a house in the seat's colour with its letter and strength, centred on the origin."""
    label = f"{SEAT_MARKS[seat % 4]}{strength}"
    half = max(13.0, _label_width(label, 12) / 2 + 4)
    return (
        f'<polygon points="{num(-half)},-3 0,-10 {num(half)},-3 {num(half)},8 {num(-half)},8" fill="{SEAT_COLOURS[seat % 4]}" '
        f'stroke="{BACKGROUND}" stroke-width="1.5"/>'
        f'<text x="0" y="6" font-size="12" font-weight="bold" text-anchor="middle" fill="{BACKGROUND}">{esc(label)}</text>'
    )


@lru_cache(maxsize=1024)
def _unit(seat: int, strength: object, count: int, engaged: bool) -> tuple[str, float]:
    """A unit: a pill in the seat's colour with its letter and strength (``×n`` for several), centred; and its width."""
    label = f"{SEAT_MARKS[seat % 4]}{strength}" + (f"×{count}" if count > 1 else "")
    w = round(_label_width(label) + 9)
    rim = f'stroke="{DANGER}" stroke-width="2" stroke-dasharray="3 2"' if engaged else f'stroke="{BACKGROUND}" stroke-width="1.5"'
    text = (
        f'<rect x="{num(-w / 2)}" y="-7" width="{w}" height="14" rx="7" fill="{SEAT_COLOURS[seat % 4]}" {rim}/>'
        f'<text x="0" y="4" font-size="11" font-weight="bold" text-anchor="middle" fill="{BACKGROUND}">{esc(label)}</text>'
    )
    return text, w


def _portal_tag(numbers: Sequence[int]) -> str:
    label = ",".join(str(n) for n in numbers)
    w = max(15.0, _label_width(label) + 6)
    return (
        f'<rect x="{num(-w / 2)}" y="-7.5" width="{num(w)}" height="15" rx="7.5" fill="{BACKGROUND}" stroke="{PORTAL}" stroke-width="1.5"/>'
        f'<text x="0" y="4" font-size="11" text-anchor="middle" fill="{PORTAL}">{label}</text>'
    )


# -- the pieces on the boards ----------------------------------------------------------------------------------


def _seat(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


def _draw_boards(parts: list[str], view: Mapping[str, Any], layout: Layout, mover: int | None) -> None:
    """The boards: the hexes under everything, the territory hatches, the hexes' lines, then the pieces and units."""
    bases = [(str(b[0]), _seat(b[1]), b[2]) for b in view.get("bases", ())]
    parts.append(layout.under)
    _draw_territory(parts, layout, bases)
    parts.append(layout.over)
    parts.append('<g class="pieces" pointer-events="none">')
    points = layout.points
    moving = view.get("moving")
    if isinstance(moving, Mapping) and str(moving.get("at")) in points:
        parts.append(
            f'<polygon class="moving" points="{points[str(moving.get("at"))]}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>'
        )
    pending = view.get("pending")
    for cell in pending.get("chosen", ()) if isinstance(pending, Mapping) else ():
        if str(cell) in points:
            dashed = f'fill="none" stroke="{HIGHLIGHT}" stroke-width="2" stroke-dasharray="4 3"'
            parts.append(f'<polygon class="chosen" points="{points[str(cell)]}" {dashed}/>')
    ends = _draw_portals(parts, layout, [(str(a), str(b)) for a, b in view.get("portals", ())])
    has_base = _draw_bases(parts, layout, bases)
    for cell, numbers in ends.items():
        if cell in layout.centre:
            cx, cy = layout.centre[cell]
            place(parts, _portal_tag(numbers), cx + layout.size * 0.6, cy - 2, extra=f' class="portal-end" data-hex="{attr(cell)}"')
    parts.append("</g>")
    clickable = mover is not None and view.get("phase") == "main"
    for cell, here in _unit_stacks(view, layout).items():
        _draw_stack(parts, layout, cell, here, cell in has_base, mover if clickable else None)


def _draw_territory(parts: list[str], layout: Layout, bases: list[tuple[str, int | None, Any]]) -> None:
    """Territory: each base's hex and the hexes around it, one hatch per seat that holds the hex."""
    owned: dict[tuple[str, int], None] = {}
    for cell, owner, _ in bases:
        if owner is not None:
            for h in layout.neighbours.get(cell, (cell,)):
                owned[(h, owner)] = None
    parts.append('<g class="territory" pointer-events="none">')
    terr = layout.terr
    for h, owner in sorted(owned):
        if h in terr:
            parts.append(f'<polygon class="terr" data-seat="{owner}"{terr[h]} fill="url(#cw-terr{owner % 4})"/>')
    parts.append("</g>")


def _draw_portals(parts: list[str], layout: Layout, portals: list[tuple[str, str]]) -> dict[str, list[int]]:
    """A dashed line per portal between hexes on the map; returns each hex's portal numbers, for their tags."""
    centre = layout.centre
    ends: dict[str, list[int]] = {}
    for n, (a, b) in enumerate(portals, start=1):
        ends.setdefault(a, []).append(n)
        ends.setdefault(b, []).append(n)
        if a in centre and b in centre:
            (ax, ay), (bx, by) = centre[a], centre[b]
            parts.append(
                f'<line class="portal" data-portal="{n}" x1="{num(ax)}" y1="{num(ay)}" x2="{num(bx)}" y2="{num(by)}" '
                f'stroke="{PORTAL}" stroke-width="2" stroke-dasharray="5 4" opacity="0.75"/>'
            )
    return ends


def _draw_bases(parts: list[str], layout: Layout, bases: list[tuple[str, int | None, Any]]) -> set[str]:
    """Each base of a seat on a hex of the map; returns the hexes with a base (their units are drawn below it)."""
    centre = layout.centre
    has_base = set()
    for cell, owner, strength in bases:
        if cell in centre and owner is not None:
            has_base.add(cell)
            cx, cy = centre[cell]
            place(
                parts,
                _base(owner, strength),
                cx,
                cy - 1,
                extra=f' class="base" data-seat="{owner}" data-strength="{attr(strength)}" data-hex="{attr(cell)}"',
            )
    return has_base


def _unit_stacks(view: Mapping[str, Any], layout: Layout) -> dict[str, dict[tuple[int, Any, bool], int]]:
    """Per hex on the map, its alike units (seat, strength, engaged) and how many there are: each drawn once."""
    stacks: dict[str, dict[tuple[int, Any, bool], int]] = {}
    for unit in view.get("units", ()):
        owner = _seat(unit[1])
        if owner is not None and str(unit[0]) in layout.centre:
            here = stacks.setdefault(str(unit[0]), {})
            key = (owner, unit[2], bool(unit[3]))
            here[key] = here.get(key, 0) + 1
    return stacks


def _draw_stack(
    parts: list[str], layout: Layout, cell: str, here: dict[tuple[int, Any, bool], int], under_base: bool, mover: int | None
) -> None:
    """The units of one hex, two to a row (below the base, if any); those of ``mover`` not engaged carry their token."""
    cx, cy = layout.centre[cell]
    row_y = cy + (layout.size * 0.47 if under_base else 1)
    drawn = [(key, count, *_unit(key[0], key[1], count, key[2])) for key, count in here.items()]
    for start in range(0, len(drawn), 2):
        row = drawn[start : start + 2]
        total = sum(w for *_, w in row) + 3 * (len(row) - 1)
        x = cx - total / 2
        for (owner, strength, engaged), count, text, w in row:
            info = f' data-seat="{owner}" data-strength="{attr(strength)}" data-count="{count}" data-hex="{attr(cell)}"'
            if engaged:
                info += ' data-engaged="1"'
            at = f' transform="translate({num(x + w / 2)} {num(row_y)})"'
            if mover is not None and owner == mover and not engaged:
                head = f'<g class="tok unit" data-token="{attr(f"{cell} u{strength}")}"{info}{at}>'
            else:
                head = f'<g class="unit"{info} pointer-events="none"{at}>'
            parts.append(head + text + "</g>")
            x += w + 3
        row_y += 16


# -- panels -------------------------------------------------------------------------------------------------


_TABLE: ContextVar[Mapping[str, Card] | None] = ContextVar("connected_worlds_cards", default=None)


def _card_table() -> Mapping[str, Card]:
    """The card table of the picture being drawn (``view["cards"]``, set by :func:`render_svg`)."""
    return _TABLE.get() or {}


def _table_of_view(cards: object) -> Mapping[str, Card]:
    if not isinstance(cards, list):
        return {}
    table: dict[str, Card] = {}
    for i, c in enumerate(cards):
        if not isinstance(c, Mapping):
            continue
        special = None
        try:
            special = Special(c["special"]) if c.get("special") else None
        except ValueError:
            special = None
        table[str(c.get("slug", ""))] = Card(
            index=i,
            slug=str(c.get("slug", "")),
            name=str(c.get("name", "")),
            cost=_int(c.get("cost")),
            is_unit=bool(c.get("unit")),
            movement=_int(c.get("movement")),
            special=special,
            resources=_int(c.get("resources")),
            strength=_int(c.get("strength")),
            is_base=bool(c.get("base")),
        )
    return table


def _int(value: object) -> int:
    return value if type(value) is int else 0


def _card_name(slug: str) -> str:
    card = _card_table().get(slug)
    return card.name if card is not None else slug


def _card_detail(slug: str) -> str:
    card = _card_table().get(slug)
    if card is None:
        return ""
    if card.is_unit:
        return f"{'base' if card.is_base else 'unit'} · strength {card.strength}"
    special = SPECIAL_WORDS.get(card.special.value if card.special else "", "")
    if card.special is not None and card.special.value == "gather resources":
        special = f"gather {card.resources}"
    return f"move {card.movement} · {special}"


def _chip(parts: list[str], x: float, y: float, label: str, token: str | None, kind: str, data: str = "") -> float:
    """A small labelled chip (a card in play, a card to buy); clickable when ``token``; returns its width."""
    w = round(_label_width(label, 12) + 14)
    chip_open(parts, x, y, w, token, kind, data)
    put_text(parts, x + 7, y + 15.5, label)
    parts.append("</g>")
    return w


def _chips(parts: list[str], x0: float, y: float, chips: Sequence[tuple[str, str | None, str, str]]) -> float:
    """Chips in rows from (x0, y), wrapping at the panel's edge; returns the y below the last row."""
    x = x0
    for label, token, kind, data in chips:
        w = _label_width(label, 12) + 14
        if x + w > WIDTH - MARGIN and x > x0:
            x, y = x0, y + 27
        x += _chip(parts, x, y, label, token, kind, data) + 6
    return y + 27


def _status(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    victory = f"victory: {view.get('victory', '')}"
    if view.get("victory") == "expansion" and isinstance(view.get("worlds_needed"), int):
        victory += f" ({view['worlds_needed']} worlds)"
    round_text = f"Round {view.get('round', '?')}/{view.get('round_limit', '?')}"
    order = view.get("order")
    first = _seat(order[0]) if isinstance(order, list) and order else None
    if first is not None:
        round_text += f" ({mark(first)} first)"
    if outcome:
        return f"Game over: {SEP.join((wins(winner_marks(outcome), 'a draw'), round_text, victory))}"
    seat = _seat(view.get("to_move"))
    parts = [round_text]
    if seat is not None:
        parts.append(seat_to(seat, "play"))
    parts += [f"{view.get('phase', '')} phase", victory]
    return SEP.join(parts + you_are(view.get("viewer"), seat))


PHASE_HELP = {
    "setup": "setup: each seat founds its first base (a Standard Base) on a planet hex: click the hex",
    "main": "play cards: a card, then a unit or base (move), a hex (deploy), a card to buy, or gather",
    "moving": "moving: click the next hex (step), or stop",
}


def _draw_turn(parts: list[str], y: float, view: Mapping[str, Any], mover: int | None) -> float:
    top = len(parts)
    parts.append("")
    seat = _seat(view.get("to_move"))
    title = "This turn" if seat is None else f"This turn · {SEAT_MARKS[seat % 4]} (seat {seat})"
    put_text(parts, MARGIN, y + 19, title, 13, BOLD)
    if seat is not None and not view.get("outcome"):
        place(parts, badge(seat, 9), WIDTH - MARGIN - 10, y + 15)
    row = y + 40
    outcome = view.get("outcome")
    if outcome:
        reason = str(outcome.get("reason", ""))
        put_text(parts, MARGIN, row, reason if len(reason) <= 90 else reason[:89] + "…", 12, ' class="outcome"')
        row += 20
    else:
        put_text(parts, MARGIN, row, PHASE_HELP.get(str(view.get("phase")), str(view.get("phase", ""))), 12, DIM_CLASS)
        row += 20
    pending = view.get("pending")
    if isinstance(pending, Mapping):
        asked = "the piece (piece base|uN)" if pending.get("next") == "piece" else "a hex (at HEX)"
        text = f"choosing: {pending.get('notation')} — next: {asked}"
        put_text(parts, MARGIN, row, text if len(text) <= 92 else text[:91] + "…", 12, f' fill="{HIGHLIGHT}"')
        row += 20
    moving = view.get("moving")
    if isinstance(moving, Mapping):
        left = moving.get("movement_left")
        put_text(
            parts,
            MARGIN,
            row,
            f"moving the {moving.get('piece')} from {moving.get('at')}: {left} movement left",
            12,
            f' fill="{HIGHLIGHT}"',
        )
        row += 20
    played = [str(c) for c in view.get("played", ())]
    put_text(parts, MARGIN, row, "in play" if played else "in play: no card yet", 12, DIM_CLASS)
    if played:
        row = _chips(parts, 72, row - 15, [(_card_name(c), None, "played", f' data-card="{attr(c)}"') for c in played]) + 6
    else:
        row += 12
    portals = list(view.get("portals", ()))
    if portals:
        text = "portals: " + "  ".join(f"{n} {a}↔{b}" for n, (a, b) in enumerate(portals, start=1))
        put_text(parts, MARGIN, row + 4, text if len(text) <= 92 else text[:91] + "…", 12, f' fill="{PORTAL}"')
        row += 22
    bottom = row + 2
    edge = SEAT_COLOURS[seat % 4] if seat is not None and mover is not None else PANEL
    parts[top] = (
        f'<rect x="8" y="{num(y)}" width="{WIDTH - 16}" height="{num(bottom - y)}" rx="8" fill="{PANEL}" stroke="{edge}" stroke-width="2"/>'
    )
    return bottom + 8


CARD_W = 116.0
CARD_H = 50.0


def _draw_hand(parts: list[str], y: float, view: Mapping[str, Any], mover: int | None) -> float:
    viewer = _seat(view.get("viewer"))
    players = list(view.get("players", ()))
    if viewer is None or viewer >= len(players):
        panel(parts, y, 44, "Hands are hidden (a spectator's view)", edge=PANEL, title_dy=19)
        return y + 52
    hand = [str(c) for c in players[viewer].get("hand", ())]
    per_row = int((WIDTH - 2 * MARGIN + 6) // (CARD_W + 6))
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    h = 32 + rows * (CARD_H + 6) + 4
    panel(
        parts,
        y,
        h,
        f"Your hand · {SEAT_MARKS[viewer % 4]} (seat {viewer}) · {len(hand)} card{'s' if len(hand) != 1 else ''}",
        edge=PANEL,
        title_dy=19,
    )
    if not hand:
        put_text(parts, MARGIN, y + 48, "empty", 12, DIM_CLASS)
    playing = viewer == mover and view.get("phase") == "main"
    for i, slug in enumerate(hand):
        x = MARGIN + (i % per_row) * (CARD_W + 6)
        cy = y + 30 + (i // per_row) * (CARD_H + 6)
        if playing:
            parts.append(f'<g class="tok card" data-token="{attr(slug)}" data-card="{attr(slug)}">')
            stroke = f'stroke="{HIGHLIGHT}" stroke-width="1.5"'
        else:
            parts.append(f'<g class="card" data-card="{attr(slug)}">')
            stroke = f'stroke="{GUIDE}"'
        parts.append(f'<rect x="{num(x)}" y="{num(cy)}" width="{num(CARD_W)}" height="{num(CARD_H)}" rx="6" fill="{CHIP}" {stroke}/>')
        name = _card_name(slug)
        put_text(parts, x + 8, cy + 20, name if len(name) <= 15 else name[:14] + "…", 12, BOLD)
        detail = _card_detail(slug)
        if detail:
            put_text(parts, x + 8, cy + 39, detail, 11, DIM_CLASS)
        parts.append("</g>")
    return y + h + 8


COLUMNS = (
    ("seat", 16),
    ("resources", 92),
    ("deck", 178),
    ("hand", 232),
    ("discard", 286),
    ("territory", 356),
    ("worlds", 438),
    ("bases · units", 522),
)


def _counts(cards: object) -> str:
    if isinstance(cards, Mapping):
        return ", ".join(f"{_card_name(str(c))}{f' ×{n}' if n != 1 else ''}" for c, n in cards.items())
    return ", ".join(_card_name(str(c)) for c in cards) if isinstance(cards, list | tuple) else ""


def _extra_lines(players: list[Any], viewer: object) -> list[list[str]]:
    """Under each player's row: its discard pile and the cards known in its hand (not the viewer's own), cut to fit."""
    lines: list[list[str]] = []
    for p, row in enumerate(players):
        extra = []
        discard = row.get("discard", {}) or {}
        if discard:
            extra.append(f"discard pile: {_counts(discard)}")
        known = row.get("known_in_hand", ()) or ()
        if known and p != viewer:
            extra.append(f"known in hand: {_counts(list(known))}")
        lines.append([t if len(t) <= 84 else t[:83] + "…" for t in extra])
    return lines


def _pieces_of(pieces: Iterable[Any]) -> dict[int, int]:
    """How many of ``pieces`` (units or bases: hex, seat, ...) each seat has."""
    count: dict[int, int] = {}
    for piece in pieces:
        if type(piece[1]) is int:
            count[piece[1]] = count.get(piece[1], 0) + 1
    return count


def _player_values(row: Mapping[str, Any], pieces: str) -> tuple[object, ...]:
    """A player's figures in the order of ``COLUMNS`` after the seat: ``pieces`` is its bases · units."""
    discard = row.get("discard", {}) or {}
    return (
        row.get("resources", 0),
        row.get("deck", 0),
        row.get("hand_size", 0),
        sum(discard.values()) if isinstance(discard, Mapping) else len(discard),
        row.get("territory", 0),
        " ".join(str(w) for w in row.get("worlds", ())) or "—",
        pieces,
    )


def _draw_players(parts: list[str], y: float, view: Mapping[str, Any]) -> float:
    players = list(view.get("players", ()))
    lines = _extra_lines(players, view.get("viewer"))
    h = 52 + sum(26 + 16 * len(extra) for extra in lines) + 4
    panel(parts, y, h, "Players", edge=PANEL, title_dy=19)
    for label, x in COLUMNS[1:]:
        put_text(parts, x, y + 40, label, 11, DIM_CLASS)
    row_y = y + 52
    units_of = _pieces_of(view.get("units", ()))
    bases_of = _pieces_of(view.get("bases", ()))
    for p, row in enumerate(players):
        values = _player_values(row, f"{bases_of.get(p, 0)} · {units_of.get(p, 0)}")
        parts.append(f'<g class="player" data-seat="{p}">')
        place(parts, badge(p, 9), 26, row_y + 8)
        put_text(parts, 40, row_y + 13, f"seat {p}", 12, DIM_CLASS)
        for (label, x), value in zip(COLUMNS[1:], values, strict=True):
            put_text(parts, x, row_y + 13, value, 13, f' class="{label.split()[0]}"')
        parts.append("</g>")
        row_y += 26
        for line in lines[p]:
            put_text(parts, 40, row_y + 4, line, 11, DIM_CLASS)
            row_y += 16
    return y + h + 8


def _draw_market(parts: list[str], y: float, view: Mapping[str, Any], mover: int | None) -> float:
    resources = -1
    players = list(view.get("players", ()))
    if mover is not None and mover < len(players):
        value = players[mover].get("resources", 0)
        resources = value if type(value) is int else 0
    text, h = _market(mover is not None, min(resources, MAX_COST + 1))
    parts.append(f'<g transform="translate(0 {num(y)})">{text}</g>')
    return y + h + 8


@lru_cache(maxsize=128)
def _market(playing: bool, resources: int) -> tuple[str, float]:
    """The cards one can buy (drawn from y = 0): clickable while a seat plays, dimmed when it cannot pay them."""
    parts = [""]
    put_text(parts, MARGIN, 19, "Cards to buy (cost) · Scientists research an action card, Engineers build a unit card", 12, BOLD)
    row = 30.0
    for unit, label in ((False, "actions"), (True, "units")):
        put_text(parts, MARGIN, row + 15.5, label, 12, DIM_CLASS)
        chips = []
        for card in _card_table().values():
            if card.is_unit == unit:
                data = f' data-card="{attr(card.slug)}" data-cost="{card.cost}"' + ("" if card.cost <= resources else ' opacity="0.6"')
                chips.append((f"{card.name} {card.cost}", f"buy {card.slug}" if playing else None, "buy", data))
        row = _chips(parts, 72, row, chips)
    bottom = row + 4
    parts[0] = f'<rect x="8" y="0" width="{WIDTH - 16}" height="{num(bottom)}" rx="8" fill="{PANEL}"/>'
    return "".join(parts), bottom


def _legend_entries() -> list[tuple[Callable[[Svg, float, float], None], str]]:
    def at(body: str) -> Callable[[Svg, float, float], None]:
        return lambda svg, x, y: place(svg.parts, body, x, y)

    def hatch(seat: int) -> Callable[[Svg, float, float], None]:
        return lambda svg, x, y: svg.rect(x - 8, y - 8, 16, 16, fill=f"url(#cw-terr{seat})", stroke=SEAT_COLOURS[seat])

    def homeworld(svg: Svg, x: float, y: float) -> None:
        svg.circle(x, y, 8, fill=PLANET, fill_opacity=0.55, stroke=PLANET)

    def moving(svg: Svg, x: float, y: float) -> None:
        svg.rect(x - 8, y - 8, 16, 16, fill="none", stroke=HIGHLIGHT, stroke_width=3)

    return [
        (at(_base(0, 2)), "base of seat A, strength 2 (house)"),
        (at(_unit(1, 3, 1, False)[0]), "unit of seat B, strength 3 (pill)"),
        (at(_unit(0, 2, 1, True)[0]), "an engaged unit (dashed rim)"),
        (at(_portal_tag((1,))), "portal 1: tag at each end, dashed line"),
        (homeworld, "a world's hex in space (its key)"),
        (moving, "the hex of the piece moving"),
        *((hatch(p), f"territory of {SEAT_MARKS[p]}: hatch {HATCH_NAMES[p]}") for p in range(4)),
    ]


@lru_cache(maxsize=1)
def _legend() -> tuple[str, float]:
    return legend(_legend_entries(), MARGIN + 8, 14, (MARGIN, 4, 13))


def render_svg(view: Mapping[str, Any]) -> str:
    """The position in ``view`` (a ``State.picture_view``) as an SVG picture."""
    title = f"Connected Worlds · {view.get('map', '')}"
    mover = _seat(view.get("to_move"))
    if view.get("outcome") or mover is None or mover >= len(view.get("players", ())):
        mover = None
    status = _status(view)
    _TABLE.set(_table_of_view(view.get("cards")))
    layout = _board_layout(view)
    parts = begin(title, status).parts
    parts.append(DEFS)
    _draw_boards(parts, view, layout, mover)
    y = layout.bottom
    y = _draw_turn(parts, y, view, mover)
    y = _draw_hand(parts, y, view, mover)
    y = _draw_players(parts, y, view)
    y = _draw_market(parts, y, view, mover)
    legend_text, legend_h = _legend()
    place_legend(parts, legend_text, y + 14)
    y = latest(parts, y + 14 + legend_h + 8, view.get("events", ()), "Latest combats", 11, 92, 33, 17)
    return finish(parts, y + 12, title, f"{status}.")


__all__ = ["BUTTON_TOKENS", "action_tokens", "render_svg"]
