"""The position for a terminal, as Rich markup: both players, the lanes as a table, the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind
from astrarium.games.celestials.state import STEP_NAMES

if TYPE_CHECKING:
    from astrarium.games.celestials.state import CelestialsState

COLOURS = ("yellow", "cyan")
CELL = 13


def _cell(state: CelestialsState, at: int) -> str:
    c = state.cell_card[at]
    if c < 0:
        return "·".center(CELL)
    card = state.rules.catalog[c]
    owner = state.rules.owner[c]
    mark = "z" if state.cell_exh[at] else ""
    suffix = f" {state.cell_hp[at]}{mark}"
    text = f"{card.name[: CELL - len(suffix)].rstrip()}{suffix}".center(CELL)
    style = COLOURS[owner] + (" dim" if state.cell_exh[at] else " bold")
    return f"[{style}]{text}[/]"


def render(state: CelestialsState, seat: int | None = None) -> str:
    lines = []
    for s, deck in enumerate(state.rules.decks):
        arrow = "▶ " if state.current_player == s else "  "
        lines.append(
            f"{arrow}[{COLOURS[s]} bold]{deck.character}[/]  health [bold]{state.hp[s]}[/]  "
            f"phase [bold]{state.phase_name(s)}[/]  hand {len(state.hands[s])}  draw {len(state.piles[s])}  "
            f"discard {len(state.discards[s])}  graveyard {len(state.graves[s])}"
        )
    header = "  " + "".join(name.center(CELL) for name in B.POSITION_NAMES)
    lines.append("")
    lines.append(header)
    for lane, letter in enumerate(B.LANES):
        row = "".join(_cell(state, B.loc(lane, p)) for p in range(B.WIDTH))
        lines.append(f"{letter} {row}")
    lines.append("  " + "".join(str(p).center(CELL) for p in range(B.WIDTH)))
    lines.append("  (health; z = exhausted)")
    if seat is not None:
        catalog = state.rules.catalog
        hand = []
        for c in state.hands[seat]:
            card = catalog[c]
            stats = "" if card.kind in (Kind.SPELL, Kind.ADVANCE) else f" {card.damage}/{card.health}"
            hand.append(f"{card.key}{stats}")
        lines.append(f"your hand: {', '.join(hand) or '(empty)'}")
    if state.votes:
        who = state.rules.decks[state.votes[0]].character
        lines.append(f"[bold]both draw piles are empty: {who}, reshuffle the discard piles? (reshuffle yes|no)[/]")
    else:
        last = 2 * state.options["turn_limit"]
        lines.append(f"turn {min(state.turns_done + 1, last)} of {last}, step: {STEP_NAMES[state.step]}")
    return "\n".join(lines)
