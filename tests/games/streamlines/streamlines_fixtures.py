"""Shared set-ups for the Streamlines tests: scenario files and stacked decks, all from text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import astrarium
from astrarium.games.streamlines.state import StreamlinesState

GAME = astrarium.get_game("streamlines")
HERE = Path(__file__).parent
SEED_EXAMPLE = str(HERE / "seed_example.toml")

#: Powers: one Action and one Cargo (plus Pickup and Engineering), or two of each.
ONE_EACH = ["action", "cargo", "pickup", "engineering"]
TWO_EACH = ["action", "cargo", "action", "cargo"]


def scenario_text(
    planets: list[str],
    escapes: list[str],
    starts: list[str],
    required: int = 3,
    streamlines: dict[str, str] | None = None,
    name: str = "test",
) -> str:
    lines = [
        f'name = "{name}"',
        f"planets = {planets!r}".replace("'", '"'),
        f"escapes = {escapes!r}".replace("'", '"'),
        f"starts = {starts!r}".replace("'", '"'),
        "[required]",
        f"2 = {required}",
        f"3 = {required}",
        f"4 = {required}",
    ]
    for square, arrows in (streamlines or {}).items():
        lines += ["[[streamlines]]", f'square = "{square}"', f'arrows = "{arrows}"']
    return "\n".join(lines) + "\n"


def write_scenario(tmp_path: Path, text: str, name: str = "scenario.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def stacked(powers: list[list[str]], cards: list[str], planets: int = 1, filler: int = 40, refugees: int = 6) -> list[str]:
    """A stacked deck: each ship's four Powers, then ``cards`` top first, then fillers, Refugees and Collapses."""
    names = [n for group in powers for n in group]
    return names + cards + ["straight"] * filler + ["refugee"] * refugees + ["collapse"] * (2 * planets)


def new_game(players: int = 2, **options: Any) -> StreamlinesState:
    state = GAME.new_game(players, 0, options)
    assert isinstance(state, StreamlinesState)
    return state


def play(state: StreamlinesState, *notations: str) -> StreamlinesState:
    for text in notations:
        state.apply(text)
    return state


def moves(state: StreamlinesState) -> list[str]:
    return [str(a) for a in state.legal_actions() if str(a).startswith("move")]


def ship(state: StreamlinesState, seat: int) -> dict[str, Any]:
    return state.view(None)["ships"][seat]
