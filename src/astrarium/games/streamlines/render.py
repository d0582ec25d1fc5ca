"""What players see: the public view as JSON, and the board drawn for a terminal."""

from __future__ import annotations

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, EXTRA, TEXT, first_fit
from astrarium.core.words import join_words
from astrarium.games.streamlines.board import EAST, NORTH, SIZE, SOUTH, WEST, square_name
from astrarium.games.streamlines.cards import ACTION, CARGO, GATE, GATES, NAMES, REFUGEE
from astrarium.games.streamlines.state import POWER_ORDER, STAGES, StreamlinesState
from astrarium.games.streamlines.words import mark, ship_names, who

_GLYPH = ((WEST, "←"), (NORTH, "↑"), (SOUTH, "↓"), (EAST, "→"))
#: Cells of one square in the tall layout (two lines a square) and in the small one (one line a square).
WIDTH = 10
SMALL = 7
LEGEND = (
    "Legend: A B C D are ships (B,D: ships B and D share the square; reversed: yours), P planet (! warned, !n: a black hole "
    "after n turn ends), (BH) black hole, ESC escape, Ga gate a, ←↑↓→ the ways a streamline leads out"
)
SMALL_LEGEND = (
    "Legend: A-D ships (BD: ships B and D; all: all four), P planet (!n black hole in n), BH black hole, ESC escape, "
    "Ga gate a, ←↑↓→ streamline"
)


def _terrain(s: StreamlinesState, sq: int, small: bool) -> tuple[str, str]:
    """What lies on a square, as (text, style): a planet and its stage, an escape, a gate or a streamline's exits."""
    p = s.planet_at[sq]
    if p >= 0:
        stage = s.stage[p]
        if stage == 3:
            return ("BH" if small else "(BH)"), "bold white on black"
        return f"P{('', '!', f'!{s.timer[p]}')[stage]}", ("green", "yellow", "bold red")[stage]
    if s.escape[sq]:
        return "ESC", "bold cyan"
    kind = s.laid[sq]
    if kind in GATES:
        return f"G{'abcd'[kind - GATE]}", "magenta"
    return "".join(g for d, g in _GLYPH if s.arrows[sq] & d), "blue"


def _ships(s: StreamlinesState, sq: int) -> list[int]:
    return [x for x in range(s.players) if s.pos[x] == sq]


def _styled(text: str, style: str) -> str:
    return f"[{style}]{escape(text)}[/]" if text.strip() and style else escape(text)


def _ship_style(ships: list[int], seat: int | None) -> str:
    return "bold reverse" if seat in ships else "bold"


def _tall_cells(s: StreamlinesState, sq: int, seat: int | None) -> tuple[str, str]:
    """A square in two lines: what lies there, centred; then its name and the ships on it (all of them, by letter)."""
    text, style = _terrain(s, sq, small=False)
    top = _styled(text.center(WIDTH), style)
    ships = _ships(s, sq)
    marks = ",".join(map(mark, ships))
    name = square_name(sq)
    bottom = f"[dim] {name}[/]" + " " * (WIDTH - 1 - len(name) - len(marks)) + _styled(marks, _ship_style(ships, seat))
    return top, bottom


def _small_cell(s: StreamlinesState, sq: int, seat: int | None) -> str:
    """A square in one line: what lies there at the left, the ships on it at the right (the name is on the rulers)."""
    text, style = _terrain(s, sq, small=True)
    ships = _ships(s, sq)
    marks = "".join(map(mark, ships)) if len(ships) < 4 else "all"
    room = SMALL - len(marks) - (1 if marks else 0)
    return _styled(text[:room].ljust(room), style) + (" " if marks else "") + _styled(marks, _ship_style(ships, seat))


def _tall_board(s: StreamlinesState, seat: int | None) -> list[str]:
    line = "+" + "+".join(["-" * WIDTH] * SIZE) + "+"
    rows = [line]
    for row in range(SIZE - 1, -1, -1):
        cells = [_tall_cells(s, sq, seat) for sq in range(row * SIZE, row * SIZE + SIZE)]
        rows.append("|" + "|".join(top for top, _ in cells) + "|")
        rows.append("|" + "|".join(bottom for _, bottom in cells) + "|")
    rows.append(line)
    return rows


def _small_board(s: StreamlinesState, seat: int | None) -> list[str]:
    files = "   " + "".join(square_name(c)[0].center(SMALL + 1) for c in range(SIZE))
    rows = [files]
    for row in range(SIZE - 1, -1, -1):
        cells = [_small_cell(s, sq, seat) for sq in range(row * SIZE, row * SIZE + SIZE)]
        rows.append(f"{row + 1} |" + "|".join(cells) + "|")
    return rows


def _ship_line(s: StreamlinesState, x: int, small: bool) -> str:
    where = square_name(s.pos[x]) if s.pos[x] >= 0 else "LOST"
    others = [mark(y) for y in _ships(s, s.pos[x]) if y != x] if s.pos[x] >= 0 else []
    if others:
        where += f" with ship{'s' if len(others) > 1 else ''} {join_words(others)}"
    powers = ", ".join(f"{POWER_ORDER[k]} {n}" for k, n in enumerate(s.powers[x]) if n) or "none"  # "action 2, cargo 1"
    cargo = ", ".join(sorted(NAMES[k] for k in s.cargo[x])) or "empty"
    hold = f"{len(s.cargo[x])}/{s.powers[x][CARGO]}"
    refugees = s.cargo[x].count(REFUGEE)
    marker = "[bold]>[/] " if x == s.turn and s.outcome is None else "  "
    if small:
        return f"{marker}ship {mark(x)} at {where}: {powers}; hold {hold}: {cargo}"
    return f"{marker}ship {mark(x)} at {where}: powers {powers}; hold {hold}: {cargo} ({refugees} refugees)"


def _parts(s: StreamlinesState, seat: int | None, small: bool) -> list[tuple[str, str]]:
    board = _small_board(s, seat) if small else _tall_board(s, seat)
    parts = [(BOARD, line) for line in board]
    parts.append((EXTRA if small else TEXT, SMALL_LEGEND if small else LEGEND))
    parts.append(
        (TEXT, f"Rescued [bold]{s.rescued}[/] of {s.required} refugees.  Deck {len(s.deck)}, discard {len(s.discard)}, lost {len(s.lost)}.")
    )
    planets = []
    for p, sq in enumerate(s.scenario.planets):
        extra = f", black hole after {s.timer[p]} more turn end(s)" if s.stage[p] == 2 else ""
        planets.append(f"{square_name(sq)}: {STAGES[s.stage[p]]}{extra}")
    if small:
        parts.append((TEXT, "Planets " + "; ".join(planets)))
    else:
        parts += [(TEXT, f"Planet {text}") for text in planets]
    parts += [(TEXT, _ship_line(s, x, small)) for x in range(s.players)]
    if s.outcome is None:
        left = s.powers[s.turn][ACTION] - s.used
        notes = [f"{who(s.turn)} to act: {left} action(s) left"]
        if s.free_moves:
            notes.append(f"{s.free_moves} free move(s)")
        if s.bonus_draw:
            notes.append("may draw again for free")
        if s.pending_dump:
            notes.append("[bold red]hold over-full: dump a card[/]")
        if s.gate_stopped:
            notes.append("stopped by a Gate jump")
        parts.append((TEXT, "; ".join(notes)))
    else:
        parts.append((TEXT, f"[bold]Game over:[/] {escape(ship_names(s.outcome.reason))}"))
    if s.events:
        parts.append((EXTRA, "Recent: " + escape(ship_names("; ".join(s.events[-6:])))))
    return parts


def render_fit(s: StreamlinesState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """The 9x9 grid (rank 9 at the top), then ships, planets, cards and what just happened, fitted to the space.

    The tall layout gives each square two lines (what lies there; its name and
    every ship on it); the small one a line each, with files and ranks on
    rulers, for a terminal of 24 lines.
    """
    return first_fit((lambda: _parts(s, seat, small=False), lambda: _parts(s, seat, small=True)), width, height)


def render(s: StreamlinesState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(s, seat)
