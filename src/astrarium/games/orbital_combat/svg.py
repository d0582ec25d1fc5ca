"""The picture of a position: the rings to scale around the black hole, the ships, and the allocation as controls.

Drawn from one seat's ``picture_view`` alone (Orbital Combat is perfect
information, so every seat's picture shows the same ships). The board is the
seed's Board Layout to scale: rings at their radii in millimetres, a tick at
every sector boundary, sector 1 just clockwise of the top, ring numbers on the
rings at the top and velocities at the bottom. Ships sit at the middle of their
sector's arc (their true angle) with a nose pointing the way they face
(prograde = the way they orbit, clockwise). A ship in transfer has a dashed
path to the spot it lands on in its destination ring.

For the ship to move, the picture shows what its allocation decides: where it
will be after this turn's movement (a dashed ghost: the same for every
allocation, since a burning ship still moves on its ring), the weapon range
around that point (range is measured from there), and a marker on every ring a
burn can reach. When the viewer is the seat to move, the allocation is a panel
of controls, each carrying its notation token:

* ``rot`` (flip the facing), ``coast``, ``scoop``;
* one token per burn, ``burn <pro|retro> <soft|hard|extreme>`` (three words,
  one choice: also on the board as the destination-ring markers);
* ``w0`` ... ``w10`` and ``d0`` ... ``d10``;
* ``@S`` on each opponent ship (on the board and in the ship table) when a
  target must be named.

:func:`action_tokens` splits a notation into exactly these tokens, so clicking
the tokens of any legal allocation narrows to it alone; nothing is left to
buttons outside the picture (``BUTTON_TOKENS`` is empty).

Speed: the parts that repeat (the board, the legend, the weapons and defense
rows, energy bars, ships, burn markers, table rows and their lines, the header,
titles and event lines) are drawn once as text fragments and cached on what they
show; a picture stitches them together, each placed with a ``translate`` where
its height on the page varies. :func:`render_svg_parts` gives the pieces
unjoined, so a server can encode each cached piece for JSON once (a web table
draws two pictures a move).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from astrarium.core.errors import IllegalAction, short
from astrarium.core.picture_kit import (
    BACKGROUND,
    CHIP,
    DIM,
    GUIDE,
    HALO_STYLE,
    HEADER,
    HIGHLIGHT,
    INK,
    PANEL,
    SEAT_COLOURS,
    SEAT_MARKS,
    SEP,
    WIDTH,
    Svg,
    attr,
    esc,
    fragment,
    game_over,
    legend,
    num,
    seat_to,
    you_suffix,
)
from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS, ROTATION_COST, SCOOP_COST, parse_allocation

BUTTON_TOKENS: frozenset[str] = frozenset()
"""Every token is drawn: the controls panel holds the verbs, the board holds burns and targets."""

# What the view does not hold is taken from the game's option defaults (see rules.md, Pictures and clicking).
DEFAULT_RANGE_MM = 150.0
DEFAULT_FALLOFF_MM = 50.0
DEFAULT_HULL = 12

BOARD_RADIUS = 296.0
"""Pixels from the black hole to the outermost ring: the board fills the 640-unit width."""
BOARD_TOP = HEADER
CX = WIDTH / 2
CY = BOARD_TOP + 312.0
BOARD_BOTTOM = CY + 312.0
SHIP_R = 8.0
"""A ship token's radius in picture units: about the seed's 10 mm token at this scale."""
MARK_R = 7.5
TICK = 3.0
MARGIN = 12.0
ROW_LABEL = 64.0
ROW = 34.0
ROW_GAP = 6.0
CONTROLS = 28 + 5 * (ROW + ROW_GAP) + 8
SHIP_ROW = 58.0
EVENT_ROW = 17.0
LEGEND = 24 + 5 * 22 + 48
BUTTON_LEFT = MARGIN + ROW_LABEL
BUTTON_SPAN = WIDTH - MARGIN - BUTTON_LEFT

SYSTEMS = (  # (letter, name, colour) of the energy bar: a letter in every cell, so colour is not needed to read it
    ("R", "rotation", "#8f9bc2"),
    ("E", "engines", "#f0e442"),
    ("S", "scoop", "#0072b2"),
    ("W", "weapons", "#d55e00"),
    ("D", "defense", "#7fc97f"),
)
INTENSITIES = ("soft", "hard", "extreme")
REACH = tuple(("retro", -k) for k in (3, 2, 1)) + tuple(("pro", k) for k in (1, 2, 3))
"""Burns from inward to outward: retro extreme, hard, soft, then pro soft, hard, extreme (rings crossed, signed)."""


# -- tokens ------------------------------------------------------------------------------------------
def action_tokens(notation: str) -> list[str]:
    """An allocation's click tokens: its words, except that a burn's three words are one token (one choice)."""
    words = notation.split()
    tokens: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == "burn":
            tokens.append(" ".join(words[i : i + 3]))
            i += 3
        else:
            tokens.append(words[i])
            i += 1
    return tokens


# -- geometry ------------------------------------------------------------------------------------------
RingKey = tuple[tuple[int, int, float, int], ...]
"""A ring table as (ring, velocity, radius_mm, sectors) rows: hashable, so drawings can be cached on it."""


class Board:
    """The ring table of a view, with the drawing scale (pixels per millimetre)."""

    __slots__ = ("key", "radius", "sectors", "velocity", "count", "scale")

    def __init__(self, key: RingKey) -> None:
        self.key = key
        self.count = len(key)
        self.radius = [0.0] + [r[2] for r in key]
        self.sectors = [1] + [r[3] for r in key]
        self.velocity = [0] + [r[1] for r in key]
        self.scale = BOARD_RADIUS / max(self.radius)

    def angle(self, ring: int, index: int) -> float:
        """Radians clockwise from the top of the middle of sector ``index`` (0-based) of ``ring``."""
        return 2 * math.pi * (index + 0.5) / self.sectors[ring]

    def point(self, ring: int, index: int) -> tuple[float, float]:
        return polar(self.radius[ring] * self.scale, self.angle(ring, index))

    def mm(self, ring: int, index: int) -> tuple[float, float]:
        """The board point in millimetres (y up), as the rules measure distances."""
        a = self.angle(ring, index)
        return self.radius[ring] * math.sin(a), self.radius[ring] * math.cos(a)

    def landing(self, ring: int, index: int, dest: int) -> int:
        """The sector index a transfer lands on: the one whose arc holds the old sector's middle (rules: Landing sector)."""
        return ((2 * index + 1) * self.sectors[dest]) // (2 * self.sectors[ring])

    def moved(self, ring: int, index: int) -> int:
        """The sector index after a turn's movement on ``ring`` (phase 5)."""
        return (index + self.velocity[ring]) % self.sectors[ring]


@lru_cache(maxsize=8)
def board_for(key: RingKey) -> Board:
    return Board(key)


def ring_key(rings: Sequence[Mapping[str, Any]]) -> RingKey:
    return tuple((int(r["ring"]), int(r["velocity"]), float(r["radius_mm"]), int(r["sectors"])) for r in rings)


def polar(radius: float, angle: float) -> tuple[float, float]:
    """Picture coordinates of a point ``radius`` pixels from the black hole at ``angle`` clockwise from the top."""
    return CX + radius * math.sin(angle), CY - radius * math.cos(angle)


def prograde(angle: float) -> tuple[float, float]:
    """The unit vector of clockwise motion at ``angle`` (the direction of orbit)."""
    return math.cos(angle), math.sin(angle)


# -- the fixed board ---------------------------------------------------------------------------------------
DEFS = (
    "<defs>"
    '<radialGradient id="oc-hole"><stop offset="0.55" stop-color="#000"/><stop offset="0.75" stop-color="#ff9d3b"/>'
    '<stop offset="1" stop-color="#ff9d3b" stop-opacity="0"/></radialGradient>'
    f'<clipPath id="oc-board"><rect x="0" y="{num(BOARD_TOP)}" width="{WIDTH}" height="{num(BOARD_BOTTOM - BOARD_TOP)}"/></clipPath>'
    "</defs>"
)


@lru_cache(maxsize=8)
def static_board(board: Board) -> str:
    """Black hole, rings, sector ticks, ring and velocity labels, scale bar: the same for every position."""

    def draw(svg: Svg) -> None:
        svg.parts.append(DEFS)
        scale = board.scale
        inner = board.radius[1] * scale
        svg.circle(CX, CY, inner * 0.62, fill="url(#oc-hole)", class_="black-hole")
        svg.circle(CX, CY, inner * 0.36, fill="#000", stroke="#ff9d3b", stroke_width=1)
        svg.line(CX, CY - inner, CX, CY - BOARD_RADIUS - 10, stroke=GUIDE, stroke_width=1, stroke_dasharray="2 4")
        svg.text(CX + 6, BOARD_TOP + 14, "sector 1 →", 11, class_="dim")
        for ring in range(1, board.count + 1):
            r = board.radius[ring] * scale
            svg.circle(CX, CY, r, fill="none", stroke=GUIDE, stroke_width=1.2, class_="ring", data_ring=ring)
            n = board.sectors[ring]
            ticks = []
            for k in range(n):
                s, c = math.sin(2 * math.pi * k / n), math.cos(2 * math.pi * k / n)
                ticks.append(
                    f"M{num(CX + (r - TICK) * s)} {num(CY - (r - TICK) * c)}L{num(CX + (r + TICK) * s)} {num(CY - (r + TICK) * c)}"
                )
            svg.path("".join(ticks), stroke=GUIDE, stroke_width=1, class_="ticks")
        for ring in range(1, board.count + 1):
            r = board.radius[ring] * scale
            svg.text(CX, CY - r + 4, ring, 11, anchor="middle", font_weight="bold", **HALO_STYLE)
            svg.text(CX, CY + r + 4, f"v{board.velocity[ring]}", 11, anchor="middle", class_="dim", **HALO_STYLE)
        y = BOARD_BOTTOM - 14
        end = MARGIN + 50 * scale
        svg.path(
            f"M{num(MARGIN)} {num(y - 4)}V{num(y + 4)}M{num(MARGIN)} {num(y)}H{num(end)}M{num(end)} {num(y - 4)}V{num(y + 4)}",
            stroke=DIM,
            stroke_width=2,
        )
        svg.text(end + 6, y + 4, "50 mm", 11, class_="dim")

    return fragment(draw)


@lru_cache(maxsize=64)
def zone_edge(board: Board, edge: int, closing: bool) -> str:
    """The closing zone's edge, a dashed circle between ring ``edge`` and the next ring out, labelled; ``closing``: it
    is still to close (drawn fainter, where it will be next round)."""

    def draw(svg: Svg) -> None:
        r = (board.radius[edge] + board.radius[edge + 1]) / 2 * board.scale
        svg.circle(
            CX,
            CY,
            r,
            fill="none",
            stroke="#d55e00",
            stroke_width=1.5 if closing else 2.5,
            stroke_dasharray="3 6" if closing else "8 5",
            class_="zone-next" if closing else "zone",
        )
        label = f"zone next round: rings 1-{edge}" if closing else f"zone: rings 1-{edge}"
        svg.text(CX + r * 0.7 - 4, CY + r * 0.7 + (14 if closing else -6), label, 11, anchor="end", fill="#d55e00", **HALO_STYLE)

    return fragment(draw)


def zone_parts(board: Board, zone: Any) -> list[str]:
    """The zone's edge this round and, when it moves in next round, there too (nothing while every ring is safe)."""
    if not isinstance(zone, Mapping):
        return []
    parts = []
    edge, following = zone.get("safe_to_ring"), zone.get("next_round_safe_to_ring")
    if isinstance(edge, int) and 1 <= edge < board.count:
        parts.append(zone_edge(board, edge, False))
    if isinstance(following, int) and 1 <= following < board.count and following != edge:
        parts.append(zone_edge(board, following, True))
    return parts


# -- pieces on the board ---------------------------------------------------------------------------------------
def draw_ship(svg: Svg, x: float, y: float, seat: int, angle: float, facing: str, token: str | None = None, kind: str = "ship") -> None:
    """A ship: its seat's disc and letter, and a nose pointing the way it faces (``kind``: the class, ``ship`` on the board)."""
    dx, dy = prograde(angle)
    if facing != "prograde":
        dx, dy = -dx, -dy
    with svg.group(class_=f"{kind} tok" if token else kind, data_token=token, data_seat=seat, data_facing=facing):
        svg.seat_badge(x, y, seat, SHIP_R)
        tip = (x + dx * (SHIP_R + 7), y + dy * (SHIP_R + 7))
        bx, by = x + dx * (SHIP_R - 1), y + dy * (SHIP_R - 1)
        svg.polygon(
            (tip, (bx - dy * 5, by + dx * 5), (bx + dy * 5, by - dx * 5)), fill=SEAT_COLOURS[seat % 4], stroke=BACKGROUND, stroke_width=1
        )


@lru_cache(maxsize=4096)
def ship_on_board(board: Board, seat: int, ring: int, index: int, facing: str, token: str | None, to_move: bool) -> str:
    def draw(svg: Svg) -> None:
        x, y = board.point(ring, index)
        if to_move:
            svg.circle(x, y, SHIP_R + 4, fill="none", stroke=HIGHLIGHT, stroke_width=2, class_="to-move")
        draw_ship(svg, x, y, seat, board.angle(ring, index), facing, token)

    return fragment(draw)


def draw_ghost(svg: Svg, x: float, y: float, seat: int, kind: str) -> None:
    """A dashed outline of a ship where it will be (``ghost``: after this turn's move; ``landing``: end of a transfer)."""
    colour = SEAT_COLOURS[seat % 4]
    with svg.group(class_=kind, data_seat=seat):
        svg.circle(x, y, SHIP_R, fill=BACKGROUND, stroke=colour, stroke_width=1.5, stroke_dasharray="3 2")
        svg.text(x, y + 4, SEAT_MARKS[seat % 4], 11, anchor="middle", fill=colour)


def arrow_head(svg: Svg, x: float, y: float, dx: float, dy: float, colour: str) -> None:
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    svg.polygon(((x, y), (x - ux * 7 - uy * 4, y - uy * 7 + ux * 4), (x - ux * 7 + uy * 4, y - uy * 7 - ux * 4)), fill=colour)


@lru_cache(maxsize=4096)
def transfer(board: Board, seat: int, ring: int, index: int, dest: int) -> str:
    """The transfer path from a ship to its landing spot (a curve bowing the way it orbits) and the ship there, dashed."""

    def draw(svg: Svg) -> None:
        landing = board.landing(ring, index, dest)
        x0, y0 = board.point(ring, index)
        x1, y1 = board.point(dest, landing)
        mid = (board.radius[ring] + board.radius[dest]) / 2 * board.scale
        qx, qy = polar(mid, (board.angle(ring, index) + board.angle(dest, landing)) / 2 + 0.12)
        colour = SEAT_COLOURS[seat % 4]
        with svg.group(class_="transfer", data_seat=seat, data_to=dest):
            d = f"M{num(x0)} {num(y0)}Q{num(qx)} {num(qy)} {num(x1)} {num(y1)}"
            svg.path(d, fill="none", stroke=colour, stroke_width=2, stroke_dasharray="5 3")
            arrow_head(svg, x1, y1, x1 - qx, y1 - qy, colour)
        draw_ghost(svg, x1, y1, seat, "landing")

    return fragment(draw)


@lru_cache(maxsize=2048)
def forecast(board: Board, seat: int, ring: int, index: int, weapon_range: float, falloff: float) -> str:
    """This turn's orbit of the ship to move (on ``ring`` from ``index``), its ghost after moving and its weapon range there."""

    def draw(svg: Svg) -> None:
        moved = board.moved(ring, index)
        r = board.radius[ring] * board.scale
        a0 = board.angle(ring, index)
        span = (board.angle(ring, moved) - a0) % (2 * math.pi)
        if span:
            steps = [a0 + span / 2, a0 + span] if span >= math.pi else [a0 + span]
            x, y = polar(r, a0)
            d = [f"M{num(x)} {num(y)}"]
            for a in steps:
                x, y = polar(r, a)
                d.append(f"A{num(r)} {num(r)} 0 0 1 {num(x)} {num(y)}")
            svg.path(
                "".join(d), fill="none", stroke=HIGHLIGHT, stroke_width=2, stroke_dasharray="1 4", stroke_linecap="round", class_="motion"
            )
        gx, gy = board.point(ring, moved)
        if weapon_range > 0:
            rr = weapon_range * board.scale
            svg.circle(
                gx, gy, rr, fill=HIGHLIGHT, fill_opacity=0.05, stroke=HIGHLIGHT, stroke_width=1.5, stroke_dasharray="6 4", class_="range"
            )
            band = falloff
            while band < weapon_range - 1e-9:
                svg.circle(
                    gx, gy, band * board.scale, fill="none", stroke=HIGHLIGHT, stroke_opacity=0.35, stroke_width=1, stroke_dasharray="2 5"
                )
                band += falloff
            label_y = gy - rr - 5 if gy - rr - 5 > BOARD_TOP + 14 else gy + rr + 14
            if label_y > BOARD_BOTTOM - 4:
                label_y = gy - rr + 16
            svg.text(gx, label_y, f"weapon range {weapon_range:g} mm", 11, anchor="middle", fill=HIGHLIGHT, **HALO_STYLE)
        draw_ghost(svg, gx, gy, seat, "ghost")

    return fragment(draw)


@lru_cache(maxsize=4096)
def burn_marker(board: Board, ring: int, moved: int, dest: int, token: str, interactive: bool) -> str:
    """The spot on ``dest`` a burn started now would land on next turn, carrying the burn's token."""

    def draw(svg: Svg) -> None:
        mx, my = board.point(dest, board.landing(ring, moved, dest))
        with svg.group(class_="tok burn" if interactive else "burn", data_token=token if interactive else None):
            svg.circle(mx, my, MARK_R, fill=BACKGROUND, stroke=HIGHLIGHT, stroke_width=1.5)
            svg.text(mx, my + 4, dest, 11, anchor="middle", fill=HIGHLIGHT, font_weight="bold")

    return fragment(draw)


# -- controls -------------------------------------------------------------------------------------------------------
def button(svg: Svg, x: float, y: float, w: float, h: float, token: str, label: str, sub: str = "", seat: int | None = None) -> None:
    """A control: a rounded box carrying ``token`` (its first child, which hover outlines); ``seat`` adds that seat's badge."""
    with svg.group(class_="tok control", data_token=token):
        svg.rect(x, y, w, h, rx=5, fill=CHIP, stroke=GUIDE, stroke_width=1)
        if seat is not None:
            svg.seat_badge(x + 14, y + h / 2, seat, 9)
            x, w = x + 20, w - 20
        size = 12 if len(label) < 12 else 11
        if sub:
            svg.text(x + w / 2, y + h / 2 - 2, label, size, anchor="middle", font_weight="bold")
            svg.text(x + w / 2, y + h / 2 + 12, sub, 11, anchor="middle", class_="dim")
        else:
            svg.text(x + w / 2, y + h / 2 + 4, label, size, anchor="middle", font_weight="bold")


def row_y(row: int) -> float:
    return 28 + row * (ROW + ROW_GAP)


@lru_cache(maxsize=1)
def controls_frame() -> str:
    """The controls panel's background, row names, and the weapons and defense levels (w0-w10, d0-d10)."""

    def draw(svg: Svg) -> None:
        svg.rect(0, 0, WIDTH, CONTROLS - 6, fill=PANEL)
        for row, name in enumerate(("systems", "burn", "weapons", "defense", "target")):
            svg.text(MARGIN, row_y(row) + ROW / 2 + 4, name, 12, class_="dim")
        w = (BUTTON_SPAN - 10 * 3) / 11
        for row, letter in ((2, "w"), (3, "d")):
            for n in range(ENERGY + 1):
                button(svg, BUTTON_LEFT + n * (w + 3), row_y(row), w, ROW, f"{letter}{n}", f"{letter}{n}")

    return fragment(draw)


@lru_cache(maxsize=64)
def systems_row(seat: int, facing: str, gain: int) -> str:
    """Title, then ``rot``, ``coast`` and ``scoop`` (with the mass it would recover)."""

    def draw(svg: Svg) -> None:
        svg.text(MARGIN, 20, f"Allocate {ENERGY} energy · ship {SEAT_MARKS[seat % 4]} faces {facing}", 14, font_weight="bold")
        flip = "retrograde" if facing == "prograde" else "prograde"
        w = (BUTTON_SPAN - 8) / 3
        y = row_y(0)
        button(svg, BUTTON_LEFT, y, w, ROW, "rot", "rot ⟲", f"flip to {flip} · 1E")
        button(svg, BUTTON_LEFT + w + 4, y, w, ROW, "coast", "coast", "no burn · 0E")
        button(svg, BUTTON_LEFT + 2 * (w + 4), y, w, ROW, "scoop", "scoop", f"coast, +{gain} mass · 5E")

    return fragment(draw)


@lru_cache(maxsize=256)
def burn_row(burns: tuple[tuple[str, int, bool], ...]) -> str:
    """One button per burn the ship can make: direction and intensity, the ring it leads to, ⟲ if it needs ``rot``."""

    def draw(svg: Svg) -> None:
        y = row_y(1)
        if not burns:
            svg.text(BUTTON_LEFT, y + ROW / 2 + 4, "no burn possible: no reaction mass", 12, class_="dim")
        w = (BUTTON_SPAN - 4 * 5) / 6
        for i, (token, dest, needs_rot) in enumerate(burns):
            words = token.split()
            button(
                svg, BUTTON_LEFT + i * (w + 4), y, w, ROW, token, f"{words[1]} {words[2]}", f"→ ring {dest}" + (" ⟲" if needs_rot else "")
            )

    return fragment(draw)


def target_row(svg: Svg, targets: Sequence[tuple[int, float, bool]], name_target: bool) -> None:
    """``@S`` per opponent when a target must be named (distance from the firing point, in range or not)."""
    y = row_y(4)
    if not name_target:
        text = "one opponent left: the target goes without saying"
        if targets:
            other, distance, _ = targets[0]
            text += f" ({SEAT_MARKS[other % 4]}, {distance:.0f} mm)"
        svg.parts.append(dim_line(BUTTON_LEFT, y + ROW / 2 + 4, text))
        return
    w = min(170.0, (BUTTON_SPAN - 4 * (len(targets) - 1)) / max(1, len(targets)))
    for i, (other, distance, in_range) in enumerate(targets):
        note = "in range" if in_range else "out of range"
        button(svg, BUTTON_LEFT + i * (w + 4), y, w, ROW, f"@{other}", f"@{other}", f"{distance:.0f} mm · {note}", seat=other)


# -- the ship table, events, legend ------------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def energy_split(notation: str | None) -> tuple[int, ...]:
    """Energy per system (rotation, engines, scoop, weapons, defense) of an allocation's notation; zeros if unreadable."""
    if not notation:
        return (0,) * len(SYSTEMS)
    try:
        a = parse_allocation(notation)
    except IllegalAction:
        return (0,) * len(SYSTEMS)
    return (ROTATION_COST if a.rotate else 0, int(a.burn) if a.burn else 0, SCOOP_COST if a.scoop else 0, a.weapons, a.defense)


@lru_cache(maxsize=1024)
def energy_bar(split: tuple[int, ...]) -> str:
    """Ten cells, one per energy point, each with its system's colour and letter; unspent cells empty."""

    def draw(svg: Svg) -> None:
        x, cell = 318.0, 13.0
        svg.text(x, 14, "energy (last turn)", 11, class_="dim")
        cells = 0
        for (letter, _name, colour), amount in zip(SYSTEMS, split, strict=True):
            for _ in range(min(amount, ENERGY - cells)):
                cx = x + cells * cell
                svg.rect(cx, 20, cell - 1, 16, fill=colour)
                svg.text(cx + (cell - 1) / 2, 32, letter, 11, anchor="middle", fill=BACKGROUND, font_weight="bold")
                cells += 1
        if cells < ENERGY:
            svg.rect(x + cells * cell, 20, (ENERGY - cells) * cell - 1, 16, fill="none", stroke=GUIDE, stroke_width=1)

    return fragment(draw)


@lru_cache(maxsize=256)
def bar(x: float, w: float, value: int, top: int, colour: str, label: str) -> str:
    """A labelled gauge: ``value`` of ``top`` (mass of 24, hull of the most any ship has had)."""

    def draw(svg: Svg) -> None:
        svg.text(x, 22, label, 11, class_="dim")
        svg.rect(x, 26, w, 10, rx=2, fill=PANEL, stroke=GUIDE, stroke_width=1)
        if top > 0 and value > 0:
            svg.rect(x, 26, w * min(value, top) / top, 10, rx=2, fill=colour)

    return fragment(draw)


@lru_cache(maxsize=64)
def row_frame(seat: int, you: bool, to_move: bool, alive: bool) -> str:
    """A ship row's box, badge and, for a destroyed ship, its only line."""

    def draw(svg: Svg) -> None:
        svg.rect(4, 0, WIDTH - 8, SHIP_ROW - 4, rx=6, fill=PANEL, stroke=HIGHLIGHT if to_move else "none", stroke_width=1.5)
        svg.seat_badge(MARGIN + 10, 18, seat, 10)
        if not alive:
            svg.text(MARGIN + 28, 22, f"seat {seat}{' (you)' if you else ''} · destroyed", 13, font_weight="bold")
            svg.line(MARGIN + 2, 10, MARGIN + 18, 26, stroke=INK, stroke_width=2)

    return fragment(draw)


def ship_row(svg: Svg, y: float, ship: Mapping[str, Any], you: bool, to_move: bool, token: str | None, top_hull: int) -> None:
    """One ship's row: position, facing, transfer, defense, last allocation; energy split, mass and hull bars."""
    seat = int(ship["seat"])
    alive = bool(ship["alive"])
    parts = svg.parts
    parts.append(row_open(token, seat, y))
    if not alive:
        parts.append(row_frame(seat, you, to_move, alive))
    else:
        last = ship.get("last_allocation")
        parts.append(
            ship_row_body(
                seat,
                you,
                to_move,
                ship["ring"],
                ship["sector"],
                ship.get("in_transfer_to"),
                str(ship["facing"]),
                ship["defense"],
                None if last is None else str(last),
                int(ship["mass"]),
                int(ship["hull"]),
                top_hull,
            )
        )
    parts.append("</g>")


@lru_cache(maxsize=512)
def row_open(token: str | None, seat: int, y: float) -> str:
    """The opening tag of a ship row's group (its token, seat and place on the page)."""
    kind = "ship-row tok" if token else "ship-row"
    carried = "" if token is None else f' data-token="{attr(token)}"'
    return f'<g class="{kind}"{carried} data-seat="{seat}" transform="translate(0 {num(y)})">'


@lru_cache(maxsize=4096, typed=True)
def ship_row_body(
    seat: int,
    you: bool,
    to_move: bool,
    ring: object,
    sector: object,
    dest: object,
    facing: str,
    defense: object,
    last: str | None,
    mass: int,
    hull: int,
    top_hull: int,
) -> str:
    """A living ship's row inside its group, drawn from y = 0: its frame, three lines and three gauges, each cached.

    The row of the ship that has just moved changes at every move, and so does which row is the mover's; its
    pieces mostly do not (a ship keeps its place, facing, defense or mass for several moves), so a new row is
    stitched from pieces already drawn.
    """
    return "".join(
        (
            row_frame(seat, you, to_move, True),
            row_where(seat, you, ring, sector, dest),
            row_facing(facing, defense),
            row_last(last),
            energy_bar(energy_split(last)),
            bar(468, 72, mass, MAX_MASS, "#56b4e9", f"mass {mass}/{MAX_MASS}"),
            bar(552, 76, hull, top_hull, INK, f"hull {hull}"),
        )
    )


@lru_cache(maxsize=16384, typed=True)
def row_where(seat: int, you: bool, ring: object, sector: object, dest: object) -> str:
    where = f"seat {seat}{' (you)' if you else ''} · ring {ring} · sector {sector}" + (f" → ring {dest}" if dest else "")
    return fragment(lambda svg: svg.text(MARGIN + 28, 17, where, 12, font_weight="bold"))


@lru_cache(maxsize=256, typed=True)
def row_facing(facing: str, defense: object) -> str:
    text = f"facing {facing} {'↻' if facing == 'prograde' else '↺'} · defense {defense}"
    return fragment(lambda svg: svg.text(MARGIN + 28, 32, text, 11, class_="dim"))


@lru_cache(maxsize=4096)
def row_last(last: str | None) -> str:
    return fragment(lambda svg: svg.text(MARGIN + 28, 47, short(f"last: {last}" if last else "no turn yet", 44), 11, class_="dim"))


@lru_cache(maxsize=1)
def legend_text() -> str:
    """The legend (the same in every position, so built once)."""

    def hole(s: Svg, x: float, y: float) -> None:
        s.circle(x, y, 7, fill="#000", stroke="#ff9d3b", stroke_width=2)

    def ship(s: Svg, x: float, y: float) -> None:
        draw_ship(s, x - 3, y, 0, 0.0, "prograde", kind="legend-ship")

    def mover(s: Svg, x: float, y: float) -> None:
        s.circle(x, y, 8, fill="none", stroke=HIGHLIGHT, stroke_width=2)

    def ghost(s: Svg, x: float, y: float) -> None:
        s.circle(x, y, 7, fill="none", stroke=INK, stroke_width=1.5, stroke_dasharray="3 2")

    def weapon_range(s: Svg, x: float, y: float) -> None:
        s.path(
            f"M{num(x - 8)} {num(y + 6)}A12 12 0 0 1 {num(x + 8)} {num(y + 6)}",
            fill="none",
            stroke=HIGHLIGHT,
            stroke_width=1.5,
            stroke_dasharray="4 3",
        )

    def path(s: Svg, x: float, y: float) -> None:
        s.line(x - 8, y + 4, x + 4, y - 4, stroke=INK, stroke_width=2, stroke_dasharray="4 2")
        arrow_head(s, x + 8, y - 6, 1, -0.6, INK)

    def burn(s: Svg, x: float, y: float) -> None:
        s.circle(x, y, MARK_R, fill=BACKGROUND, stroke=HIGHLIGHT, stroke_width=1.5)
        s.text(x, y + 4, "5", 11, anchor="middle", fill=HIGHLIGHT, font_weight="bold")

    def ticks(s: Svg, x: float, y: float) -> None:
        s.path(
            f"M{num(x - 8)} {num(y)}H{num(x + 8)}M{num(x - 5)} {num(y - 3)}v6M{num(x)} {num(y - 3)}v6M{num(x + 5)} {num(y - 3)}v6",
            stroke=GUIDE,
            stroke_width=1.5,
        )

    def motion(s: Svg, x: float, y: float) -> None:
        s.line(x - 8, y, x + 8, y, stroke=HIGHLIGHT, stroke_width=2, stroke_dasharray="1 4", stroke_linecap="round")

    def rotation(s: Svg, x: float, y: float) -> None:
        s.text(x, y + 5, "⟲", 14, anchor="middle")

    def systems(svg: Svg, y: float) -> None:
        x = MARGIN
        for letter, name, colour in SYSTEMS:
            svg.rect(x, y + 2, 14, 16, fill=colour)
            svg.text(x + 7, y + 14, letter, 11, anchor="middle", fill=BACKGROUND, font_weight="bold")
            svg.text(x + 18, y + 14, name, 12)
            x += 24 + 7 * len(name) + 14
        svg.text(MARGIN, y + 36, "ring number at the top of each ring, velocity (sectors a turn) at the bottom", 11, class_="dim")

    entries: list[tuple[Callable[[Svg, float, float], None], str]] = [
        (hole, "black hole"),
        (ticks, "ring, sector ticks (to scale)"),
        (ship, "ship: seat letter, nose = facing"),
        (mover, "ship to move"),
        (path, "transfer to its landing spot"),
        (motion, "this turn's orbit"),
        (ghost, "ship after this turn's move"),
        (weapon_range, "weapon range (−1 strength/band)"),
        (burn, "burn reaches this ring (click)"),
        (rotation, "burn needs rot (flip, 1E)"),
    ]
    return legend(entries, MARGIN, 24, (MARGIN, 16, 14), more=systems)[0]


@lru_cache(maxsize=16384)
def event_line(y: float, event: str, real: bool) -> str:
    """One line of the last turn's events at ``y`` (a turn's lines are drawn again for every viewer and move: cached)."""
    return f'<text x="{num(MARGIN)}" y="{num(y + 12)}" font-size="12" class="{"event" if real else "dim"}">{event_text(event)}</text>'


@lru_cache(maxsize=8192)
def event_text(event: str) -> str:
    """An event's words as they stand in its line (cut short, escaped): the same at any height on the page."""
    return esc(short(event, 96))


@lru_cache(maxsize=64)
def title_at(y: float, title: str) -> str:
    """A section title ("Ships", "Last turn") at ``y``."""
    return fragment(lambda svg: svg.text(MARGIN, y + 16, title, 14, font_weight="bold"))


@lru_cache(maxsize=64)
def legend_at(y: float) -> str:
    """The legend, moved down to ``y``."""
    return f'<g transform="translate(0 {num(y)})">{legend_text()}</g>'


@lru_cache(maxsize=256)
def document_head(height: float, desc: str) -> str:
    """The document's opening, title, description, style, background and the header band's fixed part."""
    svg = Svg(WIDTH, height, "Orbital Combat", desc)
    svg.header_band("Orbital Combat")
    return "".join(svg.parts)


@lru_cache(maxsize=1024)
def status_text(status: str) -> str:
    """The header's status line."""
    return fragment(lambda svg: svg.header_status(status))


@lru_cache(maxsize=1024)
def dim_line(x: float, y: float, text: str) -> str:
    return fragment(lambda svg: svg.text(x, y, text, 12, class_="dim"))


FORECAST_OPEN = '<g clip-path="url(#oc-board)" class="forecast">'
CONTROLS_OPEN = f'<g transform="translate(0 {num(BOARD_BOTTOM + 8)})" class="controls">'


# -- the picture ------------------------------------------------------------------------------------------------
def status_line(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    if outcome:
        winners = list(outcome.get("winners", ()))
        who = " ".join(SEAT_MARKS[s % 4] for s in winners) or "nobody"
        return game_over(f"{who} {'wins' if len(winners) == 1 else 'share'}", outcome.get("reason", ""))
    to_move = view.get("to_move")
    order = " ".join(SEAT_MARKS[s % 4] for s in view.get("turn_order", ()))
    who = seat_to(to_move, "allocate") if isinstance(to_move, int) else "nobody to move"
    round_text = f"Round {view.get('round', '?')} of {view.get('round_limit', '?')}"
    return SEP.join((round_text, who, f"order {order}", *zone_words(view.get("zone")))) + you_suffix(view.get("viewer"))


def zone_words(zone: Any) -> tuple[str, ...]:
    """The closing zone in a few words for the status line: where it stands, or the round it starts closing."""
    if not isinstance(zone, Mapping) or not zone.get("closes_from_round"):
        return ()
    edge, following = zone.get("safe_to_ring"), zone.get("next_round_safe_to_ring")
    if edge == following and edge == zone.get("stops_at_ring"):
        return (f"zone rings 1-{edge}",)
    if edge != following:
        return (f"zone rings 1-{following} next round",)
    return (f"zone closes from round {zone.get('closes_from_round')}",)


def render_svg(view: Mapping[str, Any]) -> str:
    """The position as an SVG picture, from ``view`` (a ``picture_view``) alone."""
    return "".join(render_svg_parts(view))


def render_svg_parts(view: Mapping[str, Any]) -> list[str]:
    """The picture of :func:`render_svg` as the pieces it is joined from, most of them cached strings.

    A server that sends the picture inside JSON escapes each cached piece once
    instead of the whole picture for every viewer and move.
    """
    board = board_for(ring_key(view["rings"]))
    ships: list[Mapping[str, Any]] = list(view["ships"])
    alive = [s for s in ships if s["alive"]]
    events = [str(e) for e in view.get("events", ())]
    to_move = view.get("to_move")
    mover = None if view.get("outcome") or not isinstance(to_move, int) else next((s for s in alive if s["seat"] == to_move), None)
    interactive = mover is not None and view.get("viewer") == to_move
    name_target = len(alive) > 2
    weapon_range = float(view.get("weapon_range_mm", DEFAULT_RANGE_MM))
    falloff = float(view.get("falloff_mm", DEFAULT_FALLOFF_MM)) or DEFAULT_FALLOFF_MM

    height = (
        BOARD_BOTTOM + 8 + (CONTROLS if interactive else 0) + 24 + len(ships) * SHIP_ROW + 24 + max(1, len(events)) * EVENT_ROW + LEGEND
    )
    svg = Svg.__new__(Svg)
    svg.width, svg.height = WIDTH, height
    svg.parts = parts = [
        document_head(height, f"Orbital Combat, round {view.get('round', '?')}: {len(alive)} ships flying"),
        status_text(status_line(view)),
        static_board(board),
        *zone_parts(board, view.get("zone")),
    ]
    burns: list[tuple[str, int, bool]] = []
    fire_from = (0.0, 0.0)
    if mover is not None:
        fire_from = _mover_forecast(parts, board, mover, weapon_range, falloff, interactive, burns)
    _ships_on_board(parts, board, alive, mover, interactive and name_target)
    y = BOARD_BOTTOM + 8
    if interactive and mover is not None:
        _controls(svg, board, mover, alive, burns, fire_from, weapon_range, name_target)
        y += CONTROLS
    _tables(svg, view, y, ships, events, mover, interactive and name_target)
    return parts


def _mover_forecast(
    parts: list[str],
    board: Board,
    mover: Mapping[str, Any],
    weapon_range: float,
    falloff: float,
    interactive: bool,
    burns: list[tuple[str, int, bool]],
) -> tuple[float, float]:
    """The ship to move: its transfer, this turn's orbit, the weapon range from where it will fire, where burns lead
    (each added to ``burns`` as its token, destination ring and whether it needs a rotation). Returns where it fires from."""
    seat, ring, index, dest = int(mover["seat"]), int(mover["ring"]), int(mover["sector"]) - 1, mover.get("in_transfer_to")
    parts.append(FORECAST_OPEN)
    if dest:
        parts.append(transfer(board, seat, ring, index, int(dest)))
        ring, index = int(dest), board.landing(ring, index, int(dest))
    parts.append(forecast(board, seat, ring, index, weapon_range, falloff))
    moved = board.moved(ring, index)
    facing, mass = str(mover["facing"]), int(mover["mass"])
    for direction, step in REACH:
        if abs(step) <= mass and 1 <= ring + step <= board.count:
            token = f"burn {direction} {INTENSITIES[abs(step) - 1]}"
            burns.append((token, ring + step, (direction == "pro") != (facing == "prograde")))
            parts.append(burn_marker(board, ring, moved, ring + step, token, interactive))
    parts.append("</g>")
    return board.mm(ring, moved)


def _ships_on_board(parts: list[str], board: Board, alive: list[Mapping[str, Any]], mover: Mapping[str, Any] | None, named: bool) -> None:
    """The ships flying (destroyed ships are off the board), their transfers beneath them; with ``named`` each other
    ship carries its target token."""
    for ship in alive:
        if ship.get("in_transfer_to") and ship is not mover:
            parts.append(transfer(board, int(ship["seat"]), int(ship["ring"]), int(ship["sector"]) - 1, int(ship["in_transfer_to"])))
    for ship in alive:
        seat = int(ship["seat"])
        target = f"@{seat}" if named and ship is not mover else None
        parts.append(ship_on_board(board, seat, int(ship["ring"]), int(ship["sector"]) - 1, str(ship["facing"]), target, ship is mover))


def _controls(
    svg: Svg,
    board: Board,
    mover: Mapping[str, Any],
    alive: list[Mapping[str, Any]],
    burns: list[tuple[str, int, bool]],
    fire_from: tuple[float, float],
    weapon_range: float,
    name_target: bool,
) -> None:
    """The mover's controls: systems (with the mass a scoop would gain), burns, and the ships it could fire at."""
    parts = svg.parts
    gain = min(board.velocity[int(mover.get("in_transfer_to") or mover["ring"])], MAX_MASS - int(mover["mass"]))
    targets = []
    for ship in alive:
        if ship is not mover:
            ox, oy = board.mm(int(ship["ring"]), int(ship["sector"]) - 1)
            distance = math.hypot(ox - fire_from[0], oy - fire_from[1])
            targets.append((int(ship["seat"]), distance, distance <= weapon_range + 0.0005))
    parts.append(CONTROLS_OPEN)
    parts.append(controls_frame())
    parts.append(systems_row(int(mover["seat"]), str(mover["facing"]), max(0, gain)))
    parts.append(burn_row(tuple(burns)))
    target_row(svg, targets, name_target)
    parts.append("</g>")


def _tables(
    svg: Svg,
    view: Mapping[str, Any],
    y: float,
    ships: list[Mapping[str, Any]],
    events: list[str],
    mover: Mapping[str, Any] | None,
    named: bool,
) -> None:
    """Below the board from ``y``: a row per ship, the last turn's events and the legend."""
    parts = svg.parts
    viewer = view.get("viewer")
    parts.append(title_at(y, "Ships"))
    y += 24
    top_hull = max([int(view.get("start_hull", DEFAULT_HULL))] + [int(s["hull"]) for s in ships])
    for ship in ships:
        seat = int(ship["seat"])
        target = f"@{seat}" if named and ship["alive"] and ship is not mover else None
        ship_row(svg, y, ship, viewer == seat, ship is mover, target, top_hull)
        y += SHIP_ROW
    parts.append(title_at(y, "Last turn"))
    y += 24
    for event in events or ["nothing yet"]:
        parts.append(event_line(y, event, bool(events)))
        y += EVENT_ROW
    parts.append(legend_at(y))
    parts.append("</svg>")
