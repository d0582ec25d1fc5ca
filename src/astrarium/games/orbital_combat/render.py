"""The terminal picture: the rings as a schematic map with the ships, and a status table.

Rings are drawn evenly spaced (ring 1 on the inside) so the fast inner rings
stay readable; angles are true: a ship's letter sits at its sector's angle,
sector 1 just clockwise of the top. Ring numbers stay in the margin, so a letter
on the map is always a ship. A terminal too small for the circle gets each ring
unrolled onto a line of its own.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, EXTRA, TEXT, first_fit
from astrarium.games.orbital_combat.actions import Facing
from astrarium.games.orbital_combat.state import OrbitalState
from astrarium.games.orbital_combat.words import mark, ship_names, who

ROW_STEP = 1.8
"""Rows between neighbouring rings on the roomiest map; a map drawn for less room comes down to MIN_ROW_STEP."""
MIN_ROW_STEP = 1.4
COL_PER_ROW = 2.1
"""Terminal cells are about twice as tall as wide."""
COLOURS = ("bold red", "bold cyan", "bold green", "bold magenta")
MARGIN = 3
"""Cells at the left of the round map for the ring numbers (level with the top of each ring)."""
MAP_LEGEND = "Rings are numbered at the left, level with the top of each ring; a letter on the map is a ship; ● the star."
STRIP_LEGEND = "Each ring unrolled clockwise from the top; a letter is a ship."


def _cell(ring: int, angle: float, centre_row: int, centre_col: int, step: float) -> tuple[int, int]:
    radius = ring * step
    row = centre_row - round(radius * math.cos(angle))
    col = centre_col + round(radius * COL_PER_ROW * math.sin(angle))
    return row, col


def _ship_mark(seat: int) -> str:
    return f"[{COLOURS[seat % len(COLOURS)]}]{mark(seat)}[/]"


def _ship_angle(state: OrbitalState, seat: int) -> float:
    ring = state.ring[seat]
    return 2 * math.pi * (state.sector[seat] + 0.5) / state.table.sectors[ring]


def map_size(state: OrbitalState, step: float) -> tuple[int, int]:
    """Lines and cells the round map takes with ``step`` rows between rings."""
    outer = state.table.outermost
    return 2 * math.ceil(outer * step) + 1, MARGIN + 2 * (math.ceil(outer * step * COL_PER_ROW) + 1) + 1


def render_map(state: OrbitalState, step: float = ROW_STEP) -> str:
    """The rings as circles around the star, ships at their true angles, ring numbers in the left margin.

    The numbers stay out of the rings so that a ring's number is never
    read as a ship, nor a ship as part of a number.
    """
    table = state.table
    half_rows = math.ceil(table.outermost * step)
    half_cols = math.ceil(table.outermost * step * COL_PER_ROW) + 1
    rows, cols = 2 * half_rows + 1, 2 * half_cols + 1
    grid = [[" "] * cols for _ in range(rows)]
    for ring in range(table.innermost, table.outermost + 1):
        steps = max(table.sectors[ring], int(ring * step * 8))
        for k in range(steps):
            r, c = _cell(ring, 2 * math.pi * k / steps, half_rows, half_cols, step)
            grid[r][c] = "·"
    grid[half_rows][half_cols] = "●"
    labels = [" " * MARGIN] * rows
    for ring in range(table.innermost, table.outermost + 1):
        r, _ = _cell(ring, 0.0, half_rows, half_cols, step)
        labels[r] = f"[dim]{ring:>{MARGIN - 1}}[/] "
    for seat in range(state.players):
        if state.alive[seat]:
            r, c = _cell(state.ring[seat], _ship_angle(state, seat), half_rows, half_cols, step)
            grid[r][c] = _ship_mark(seat)
    return "\n".join((labels[i] + "".join(line)).rstrip() for i, line in enumerate(grid))


def render_strip(state: OrbitalState, width: int) -> list[str]:
    """Each ring as one line, unrolled clockwise from the top: dots at its sectors, ships at their angles.

    For a small terminal: eight lines instead of a circle, with the ring's
    number as the line's label.
    """
    table = state.table
    label = len(f"ring {table.outermost} ")
    cols = max(8, min(width - label - 2, 2 * max(table.sectors)))
    quarter = ["top", "right", "bottom", "left"]
    ruler = [" "] * cols
    for k, word in enumerate(quarter):
        at = k * cols // 4
        ruler[at : at + len(word)] = list(word)[: cols - at]
    lines = [" " * label + "|" + "".join(ruler[:cols]).rstrip()]
    for ring in range(table.outermost, table.innermost - 1, -1):
        row = [" "] * cols
        sectors = table.sectors[ring]
        for k in range(sectors):
            row[min(cols - 1, int((k + 0.5) * cols / sectors))] = "·"
        ships: set[int] = set()
        for seat in range(state.players):
            if state.alive[seat] and state.ring[seat] == ring:
                at = _free_column(min(cols - 1, int(_ship_angle(state, seat) / (2 * math.pi) * cols)), ships, cols)
                ships.add(at)
                row[at] = _ship_mark(seat)
        lines.append(f"ring {ring:<{label - 5}}|" + "".join(row))
    return lines


def _free_column(at: int, taken: set[int], cols: int) -> int:
    """``at``, or the nearest column beside it that no ship holds: ships in one sector stand side by side."""
    for step in range(cols):
        for col in (at + step, at - step):
            if 0 <= col < cols and col not in taken:
                return col
    return at


def _status_parts(state: OrbitalState, seat: int | None, small: bool) -> list[tuple[str, str]]:
    head = f"round {state.round + 1} of {state.round_limit}; order {' '.join(map(mark, state.order))}; " + (
        "game over" if state.is_over else f"{who(state.current_player, start=False)} to allocate"
    )
    edge, following = state.zone_edge(), state.zone_edge(state.round + 1)
    if following < state.table.outermost:
        head += f"; zone rings 1-{edge}" + (f", next 1-{following}" if following != edge else "")
    parts = [(TEXT, head)]
    if small:
        parts.append((TEXT, "ship ring sector facing mass hull def transfer last allocation"))
    else:
        parts.append((TEXT, "ship  ring  sector  facing  mass  hull  defense  transfer  last allocation"))
    for s in range(state.players):
        marker = "*" if s == seat else " "
        if not state.alive[s]:
            parts.append((TEXT, f"{marker}{mark(s):<4} destroyed"))
            continue
        transfer = f"-> {state.dest[s]}" if state.dest[s] else "-"
        last = state.last[s]
        shown = escape(str(last)) if last else "-"
        if state.pending[s] is not None:  # round resolution: shown now, acts when the round resolves
            shown += " (this round)" if small else " (allocated this round)"
        face = Facing(state.facing[s]).word
        if small:
            row = (
                f"{state.ring[s]:>4} {state.sector[s] + 1:>6} {face:<6} {state.mass[s]:>4} {state.hull[s]:>4} "
                f"{state.defense[s]:>3} {transfer:<8} {shown}"
            )
        else:
            row = (
                f"{state.ring[s]:>4}  {state.sector[s] + 1:>6}  {face:<6}  {state.mass[s]:>4}  {state.hull[s]:>4}  "
                f"{state.defense[s]:>7}  {transfer:<8}  {shown}"
            )
        parts.append((TEXT, f"[{COLOURS[s % len(COLOURS)]}]{marker}{mark(s):<{3 if small else 4}}[/] {row}"))
    if small and state.events:
        parts.append((TEXT, escape(ship_names("; ".join(state.events)))))
    else:
        parts += [(TEXT, escape(ship_names(event))) for event in state.events]
    if state.outcome is not None:
        parts.append((TEXT, escape(ship_names(state.outcome.reason))))
    return parts


def _round_layout(state: OrbitalState, seat: int | None, step: float) -> list[tuple[str, str]]:
    return [(BOARD, line) for line in render_map(state, step).split("\n")] + [(EXTRA, MAP_LEGEND), *_status_parts(state, seat, small=False)]


def render_fit(state: OrbitalState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """The round map as large as the space allows above the status table; on a small terminal, the rings unrolled.

    The map shrinks from ROW_STEP rows between rings down to MIN_ROW_STEP
    (closer than that, neighbouring rings run together); then the strip takes
    over, with a narrower status table and the round's events on one line.
    """
    status = len(_status_parts(state, seat, small=False)) + 1  # and the legend that says where the ring numbers are
    steps = [ROW_STEP]
    for tenth in range(int(ROW_STEP * 10) - 1, int(MIN_ROW_STEP * 10) - 1, -1):
        step = tenth / 10
        if map_size(state, step)[0] + status <= height or step == MIN_ROW_STEP:
            steps.append(step)
            break

    def unrolled() -> list[tuple[str, str]]:
        strip = [(BOARD, line) for line in render_strip(state, width)]
        return [*strip, (EXTRA, STRIP_LEGEND), *_status_parts(state, seat, small=True)]

    layouts: list[Callable[[], list[tuple[str, str]]]] = [functools.partial(_round_layout, state, seat, step) for step in steps]
    layouts.append(unrolled)
    return first_fit(layouts, width, height)


def render(state: OrbitalState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(state, seat)
