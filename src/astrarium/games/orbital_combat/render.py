"""The terminal picture: the rings as a schematic map with the ships, and a status table.

Rings are drawn evenly spaced (ring 1 on the inside) so the fast inner rings
stay readable; angles are true: a ship's digit sits at its sector's angle,
sector 1 just clockwise of the top.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.markup import escape

from astrarium.games.orbital_combat.actions import Facing

if TYPE_CHECKING:
    from astrarium.games.orbital_combat.state import OrbitalState

ROW_STEP = 1.8
"""Rows between neighbouring rings on the map."""
COL_PER_ROW = 2.1
"""Terminal cells are about twice as tall as wide."""
COLOURS = ("bold red", "bold cyan", "bold green", "bold magenta")


def _cell(ring: int, angle: float, centre_row: int, centre_col: int) -> tuple[int, int]:
    radius = ring * ROW_STEP
    row = centre_row - round(radius * math.cos(angle))
    col = centre_col + round(radius * COL_PER_ROW * math.sin(angle))
    return row, col


def render_map(state: OrbitalState) -> str:
    table = state.table
    half_rows = math.ceil(table.outermost * ROW_STEP) + 1
    half_cols = math.ceil(table.outermost * ROW_STEP * COL_PER_ROW) + 2
    rows, cols = 2 * half_rows + 1, 2 * half_cols + 1
    grid = [[" "] * cols for _ in range(rows)]
    for ring in range(table.innermost, table.outermost + 1):
        steps = max(table.sectors[ring], int(ring * ROW_STEP * 8))
        for k in range(steps):
            r, c = _cell(ring, 2 * math.pi * k / steps, half_rows, half_cols)
            grid[r][c] = "·"
    grid[half_rows][half_cols] = "●"
    for ring in range(table.innermost, table.outermost + 1):
        r, c = _cell(ring, 0.0, half_rows, half_cols)
        grid[r][c] = str(ring % 10)
    for seat in range(state.players):
        if not state.alive[seat]:
            continue
        ring, sector = state.ring[seat], state.sector[seat]
        angle = 2 * math.pi * (sector + 0.5) / table.sectors[ring]
        r, c = _cell(ring, angle, half_rows, half_cols)
        grid[r][c] = f"[{COLOURS[seat % len(COLOURS)]}]{seat}[/]"
    return "\n".join("".join(line).rstrip() for line in grid)


def render_status(state: OrbitalState, seat: int | None) -> str:
    lines = [
        f"round {state.round + 1} of {state.round_limit}; order {' '.join(map(str, state.order))}; "
        + ("game over" if state.is_over else f"seat {state.current_player} to allocate"),
        "seat  ring  sector  facing  mass  hull  defense  transfer  last allocation",
    ]
    for s in range(state.players):
        marker = "*" if s == seat else " "
        if not state.alive[s]:
            lines.append(f"{marker}{s:<4} destroyed")
            continue
        transfer = f"-> {state.dest[s]}" if state.dest[s] else "-"
        last = state.last[s]
        shown = escape(str(last)) if last else "-"
        if state.pending[s] is not None:
            shown += " (allocated this round)"  # round resolution: shown now, acts when the round resolves
        lines.append(
            f"[{COLOURS[s % len(COLOURS)]}]{marker}{s:<4}[/] {state.ring[s]:>4}  {state.sector[s] + 1:>6}  "
            f"{Facing(state.facing[s]).word:<6}  {state.mass[s]:>4}  {state.hull[s]:>4}  {state.defense[s]:>7}  "
            f"{transfer:<8}  {shown}"
        )
    for event in state.events:
        lines.append(escape(event))
    if state.outcome is not None:
        lines.append(escape(state.outcome.reason))
    return "\n".join(lines)


def render_state(state: OrbitalState, seat: int | None = None) -> str:
    return render_map(state) + "\n" + render_status(state, seat)
