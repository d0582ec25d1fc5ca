"""Draw the pictures the README and the rules documents show (`make pictures`).

Each game is played from a fixed seed with fixed random moves to a position
in mid-game, and drawn from the side of the seat to move; the SVG goes to
docs/images/<game-id>.svg. A test regenerates them and fails when a checked-in
picture is not current, so the docs never show an old drawing.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import astrarium

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"

#: game id -> (players, seed, random moves played before the picture)
SHOWN = {
    "constellations": (2, 11, 9),
    "streamlines": (2, 4, 14),
    "orbital-combat": (2, 6, 9),
    "connected-worlds": (2, 2, 40),
    "celestials": (2, 8, 24),
}


def picture(game_id: str) -> str:
    players, seed, moves = SHOWN[game_id]
    game = astrarium.get_game(game_id)
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state.render_svg(state.current_player)


def expected() -> dict[Path, str]:
    return {IMAGES / f"{game_id}.svg": picture(game_id) for game_id in SHOWN}


def main() -> int:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for path, svg in expected().items():
        path.write_text(svg + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
