"""The command that deals a game again: the game, its players, who sits where, its options and its seed."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

from astrarium.core.game import State
from astrarium.core.options import Option


def option_text(option: Option, value: Any) -> str:
    """``value`` written as ``--option NAME=TEXT`` takes it back (:meth:`Option.parse`)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return json.dumps(list(value))
    if isinstance(value, str):
        return value.replace("\n", "\\n")
    return repr(value) if isinstance(value, float) else str(value)


def changed_options(state: State) -> list[str]:
    """The options of ``state`` that differ from the game's defaults, as ``NAME=TEXT``, in the game's order."""
    defaults = state.game.default_options()
    return [
        f"{option.name}={option_text(option, state.options[option.name])}"
        for option in state.game.options
        if option.name in state.options and state.options[option.name] != defaults.get(option.name)
    ]


def again_command(state: State, seats: Mapping[int, str]) -> str:
    """The whole ``astrarium play`` command that deals ``state``'s game again, quoted for a shell."""
    words = ["astrarium", "play", state.game.id, "--players", str(state.players)]
    for seat, who in sorted(seats.items()):
        words += ["--seat", f"{seat}={who}"]
    words += ["--seed", str(state.seed)]
    for pair in changed_options(state):
        words += ["--option", pair]
    return shlex.join(words)


def seed_line(state: State, seats: Mapping[int, str] | None = None) -> str:
    """How to deal this game again (shown on screen; the record keeps the seed too)."""
    seats = seats if seats is not None else {seat: "human" for seat in range(state.players)}
    return f"Seed {state.seed} deals this game again: {again_command(state, seats)}"
