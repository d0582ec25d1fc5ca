"""What players see: the public view as JSON, and the board drawn for a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from astrarium.games.streamlines.board import EAST, NORTH, SIZE, SOUTH, WEST, arrows_text, square_name
from astrarium.games.streamlines.cards import ACTION, CARGO, GATE, GATES, KINDS, NAMES, REFUGEE

if TYPE_CHECKING:
    from astrarium.games.streamlines.state import StreamlinesState

STAGES = ("calm", "warned", "collapsing", "black hole")
POWER_ORDER = ("action", "cargo", "pickup", "extra-move", "engineering")


def _counts(cards: list[int]) -> dict[str, int]:
    counts = [0] * KINDS
    for k in cards:
        counts[k] += 1
    return {NAMES[k]: n for k, n in enumerate(counts) if n}


def public_view(s: StreamlinesState) -> dict[str, Any]:
    """Everything but the order of the deck (its contents follow from what is in sight)."""
    squares = {}
    for sq in range(SIZE * SIZE):
        kind = s.laid[sq]
        if kind >= 0:
            squares[square_name(sq)] = NAMES[kind] if kind in GATES else f"{NAMES[kind]} {arrows_text(s.arrows[sq])}"
    return {
        "scenario": s.scenario.name,
        "turn": s.turn,
        "turn_number": s.turn_number,
        "actions_left": s.actions_left(),
        "free_moves": s.free_moves,
        "bonus_draw": s.bonus_draw,
        "must_dump": s.pending_dump,
        "gate_stopped": s.gate_stopped,
        "rescued": s.rescued,
        "required": s.required,
        "planets": [
            {
                "square": square_name(sq),
                "stage": STAGES[s.stage[p]],
                "collapse_cards": min(s.stage[p], 2),
                "turns_left": s.timer[p] if s.stage[p] == 2 else None,
            }
            for p, sq in enumerate(s.scenario.planets)
        ],
        "escapes": [square_name(sq) for sq in s.scenario.escapes],
        "streamlines": squares,
        "ships": [
            {
                "square": square_name(s.pos[seat]) if s.pos[seat] >= 0 else None,
                "powers": {POWER_ORDER[k]: n for k, n in enumerate(s.powers[seat]) if n},
                "cargo": sorted(NAMES[k] for k in s.cargo[seat]),
            }
            for seat in range(s.players)
        ],
        "deck": len(s.deck),
        "deck_contents": _counts(s.deck),
        "discard": _counts(s.discard),
        "lost": _counts(s.lost),
        "events": list(s.events),
    }


_GLYPH = ((WEST, "←"), (NORTH, "↑"), (SOUTH, "↓"), (EAST, "→"))
WIDTH = 7


def _cell_top(s: StreamlinesState, sq: int) -> str:
    p = s.planet_at[sq]
    if p >= 0:
        stage = s.stage[p]
        if stage == 3:
            return "[bold white on black] (BH) [/]" + " " * (WIDTH - 6)
        mark = ("", "!", f"!{s.timer[p]}")[stage]
        text = f"P{mark}".center(WIDTH)
        colour = ("green", "yellow", "bold red")[stage]
        return f"[{colour}]{text}[/]"
    if s.escape[sq]:
        return "[bold cyan]" + "ESC".center(WIDTH) + "[/]"
    kind = s.laid[sq]
    if kind in GATES:
        return "[magenta]" + f"G{'abcd'[kind - GATE]}".center(WIDTH) + "[/]"
    mask = s.arrows[sq]
    if mask:
        return "[blue]" + "".join(g for d, g in _GLYPH if mask & d).center(WIDTH) + "[/]"
    return " " * WIDTH


def _cell_bottom(s: StreamlinesState, sq: int, seat: int | None) -> str:
    ships = [str(x) for x in range(s.players) if s.pos[x] == sq]
    text = "".join(ships).center(WIDTH)
    if not ships:
        return "[dim]" + square_name(sq).rjust(WIDTH - 1) + " [/]"
    style = "bold reverse" if seat is not None and str(seat) in ships else "bold"
    return f"[{style}]{text}[/]"


def render(s: StreamlinesState, seat: int | None = None) -> str:
    """The 9x9 grid (rank 9 at the top), then ships, planets, cards and what just happened."""
    line = "+" + "+".join(["-" * WIDTH] * SIZE) + "+"
    rows = [line]
    for row in range(SIZE - 1, -1, -1):
        squares = range(row * SIZE, row * SIZE + SIZE)
        rows.append("|" + "|".join(_cell_top(s, sq) for sq in squares) + "|")
        rows.append("|" + "|".join(_cell_bottom(s, sq, seat) for sq in squares) + "|")
        rows.append(line)
    out = rows
    out.append(f"Rescued [bold]{s.rescued}[/] of {s.required} refugees.  Deck {len(s.deck)}, discard {len(s.discard)}, lost {len(s.lost)}.")
    for p, sq in enumerate(s.scenario.planets):
        stage = STAGES[s.stage[p]]
        extra = f", black hole after {s.timer[p]} more turn end(s)" if s.stage[p] == 2 else ""
        out.append(f"Planet {square_name(sq)}: {stage}{extra}")
    for x in range(s.players):
        where = square_name(s.pos[x]) if s.pos[x] >= 0 else "LOST"
        powers = ", ".join(f"{n} {POWER_ORDER[k]}" for k, n in enumerate(s.powers[x]) if n) or "none"
        cargo = ", ".join(sorted(NAMES[k] for k in s.cargo[x])) or "empty"
        hold = f"{len(s.cargo[x])}/{s.powers[x][CARGO]}"
        refugees = s.cargo[x].count(REFUGEE)
        marker = "[bold]>[/] " if x == s.turn and s.outcome is None else "  "
        out.append(f"{marker}ship {x} at {where}: powers {powers}; hold {hold}: {cargo} ({refugees} refugees)")
    if s.outcome is None:
        left = s.powers[s.turn][ACTION] - s.used
        notes = [f"seat {s.turn} to act: {left} action(s) left"]
        if s.free_moves:
            notes.append(f"{s.free_moves} free move(s)")
        if s.bonus_draw:
            notes.append("may draw again for free")
        if s.pending_dump:
            notes.append("[bold red]hold over-full: dump a card[/]")
        if s.gate_stopped:
            notes.append("stopped by a Gate jump")
        out.append("; ".join(notes))
    else:
        out.append(f"[bold]Game over:[/] {s.outcome.reason}")
    if s.events:
        out.append("Recent: " + "; ".join(s.events[-6:]))
    return "\n".join(out)
