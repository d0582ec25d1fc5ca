"""What each word of the game means, for ``info THING`` at the terminal and the web table (the game has no cards)."""

from __future__ import annotations

from typing import Any

from astrarium.starter.template.layouts import load_layouts


def things(state: Any = None) -> dict[str, str]:
    """The piles, the stars and a turn, in a player's words (the layouts read from the game's data file)."""
    layouts = load_layouts()
    shown = ", ".join(f"{name} ({'-'.join(map(str, layout.piles))}, up to {layout.max_take})" for name, layout in layouts.items())
    return {
        "pile": "a row of stars, named by a letter (a, b, c, ...); an empty pile stays on the board.",
        "star": "what the players take; whoever takes the last star of the last pile wins.",
        "take": "a turn: 'take N P' takes N stars from pile P, at least 1 and at most the layout's limit.",
        "layout": f"the piles a game starts with and the most stars a turn may take: {shown}.",
    }
