"""The terminal picture of a position: a coloured grid, the hand, scores and deck size (Rich markup)."""

from __future__ import annotations

import functools

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, TEXT, first_fit
from astrarium.core.words import plural
from astrarium.games.constellations.board import EMPTY, column_name
from astrarium.games.constellations.state import ConstellationsState

#: Object letter -> Rich style.
STYLES = {
    "P": "bold blue",
    "G": "bold green",
    "Y": "bold yellow",
    "R": "bold red",
    "N": "bold bright_white",
    "B": "bold white on grey23",
    "C": "bold magenta",
    EMPTY: "grey42",
}
COLOUR_STYLES = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "w": "bright_white", "k": "white on grey23"}


def card_markup(text: str) -> str:
    colours, _, points = text.partition("/")
    return "".join(f"[{COLOUR_STYLES[c]}]{c}[/]" for c in colours) + f"/{points}"


LEGEND = (
    "[dim]P planet(b) G gas giant(g) Y yellow dwarf(y,3) R red giant(r,4) N neutron star(w,5) "
    "B black hole(k,all) C comet(any colour next to Y/R)[/]"
)


def _parts(state: ConstellationsState, seat: int | None) -> list[tuple[str, str]]:
    w = state.width
    parts = [(BOARD, "   " + " ".join(column_name(c) for c in range(w)))]
    for r in range(state.height):
        row = state.board[r * w : (r + 1) * w]
        parts.append((BOARD, f"{r + 1:>2} " + " ".join(f"[{STYLES[ch]}]{ch}[/]" for ch in row)))
    parts.append((TEXT, LEGEND))
    scores = "  ".join(
        f"{'[bold]' if s == state.turn else ''}seat {s}: {score}{'[/]' if s == state.turn else ''}" for s, score in enumerate(state.scores)
    )
    parts.append((TEXT, f"Round {state.round}/{state.options['max_rounds']}  deck {len(state.deck)}  scores: {scores}"))
    if state.is_over:
        parts.append((TEXT, f"[bold]Game over:[/] {escape(state.outcome.reason) if state.outcome else ''}"))
    else:
        step = "rotate a star" if state.phase == "rotate" else "play cards or end"
        parts.append((TEXT, f"Seat {state.turn} to {step}"))
    if seat is not None:
        cards = [f"{card_markup(str(c))} (found {state.found(c)})" for c in state.hands[seat]]
        parts.append((TEXT, f"Your hand: {'  '.join(cards) if cards else 'empty'}"))
    others = [f"seat {s}: {len(h)} cards" for s, h in enumerate(state.hands) if s != seat]
    if others:
        parts.append((TEXT, "Hands: " + ", ".join(others)))
    if state.played:
        s, card, found, points = state.played[-1]
        parts.append((TEXT, f"Last play: seat {s} played {card_markup(card)}, found {_times(found)} for {plural(points, 'point')}"))
    if state.swapped:
        s, card = state.swapped[-1]
        parts.append((TEXT, f"Last swap: seat {s} discarded {card_markup(card)}"))
    return parts


def render_fit(state: ConstellationsState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """The grid, the legend, scores, the hand and the last play, the text lines broken to fit the terminal."""
    return first_fit([functools.partial(_parts, state, seat)], width, height)


def render(state: ConstellationsState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(state, seat)


def _times(n: int) -> str:
    """``once``, ``twice``, ``3 times``: how often a constellation was found."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
