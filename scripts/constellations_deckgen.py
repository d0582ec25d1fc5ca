"""The simulation that made deck.toml: a card's points reflect how hard its constellation is to make.

Run once (about half a minute) with::

    .venv/bin/python scripts/constellations_deckgen.py [--boards 300] [--out deck.toml]

(``--out`` defaults to the game's own ``deck.toml``, in ``src/astrarium/games/constellations/``.)

Method: pick the deck's constellations (all 6 single colours, then distinct
random sequences: 10 of length 2, 10 of length 3, 8 of length 4, 6 of length 5,
from a fixed seed, using no colour more often than a default board holds it); deal ``boards`` random boards with the default options; for
each board and card, the card counts as *reachable* when its constellation is
found on the board as dealt or after one of the legal rotations (what a player
can do in one turn). With ``p`` = (reachable + 0.5) / (boards + 1), the card's
points are ``1 + round(log2(1/p))``, clamped to 1..12: a card half as likely to
be makeable in a turn is worth one more point.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from astrarium.core import Rng
from astrarium.games import constellations
from astrarium.games.constellations.board import colour_lines, geometry, star_moves
from astrarium.games.constellations.cards import CARD_COLOURS
from astrarium.games.constellations.state import random_board

SEED = 20261125
LENGTH_COUNTS = {2: 10, 3: 10, 4: 8, 5: 6}
MAX_POINTS = 12


def default_options() -> dict:
    import astrarium

    return astrarium.get_game("constellations").default_options()


def choose_sequences(seed: int = SEED) -> list[str]:
    """The deck's constellations; a colour never appears more often than the default board holds it."""
    options = default_options()
    available = {
        "b": options["planets"],
        "g": options["gas_giants"],
        "y": options["yellow_dwarfs"],
        "r": options["red_giants"],
        "w": options["neutron_stars"],
        "k": options["black_holes"],
    }
    rng = Rng(seed)
    chosen = list(CARD_COLOURS)
    for length, count in LENGTH_COUNTS.items():
        picked: set[str] = set()
        while len(picked) < count:
            seq = "".join(rng.choice(CARD_COLOURS) for _ in range(length))
            if all(seq.count(c) <= available[c] for c in set(seq)):
                picked.add(seq)
        chosen += sorted(picked)
    return chosen


def reach_rates(sequences: list[str], boards: int, seed: int = SEED) -> dict[str, float]:
    """For each sequence, the smoothed share of random boards where one turn can make it."""
    options = default_options()
    geo = geometry(options["height"], options["width"])
    hits = dict.fromkeys(sequences, 0)
    for k in range(boards):
        cells = random_board(options, Rng(seed + 1 + k))
        worlds = [cells] + [geo.rotate(cells, i, geo.radius_of(cells[i])) for i in star_moves(cells, geo)]
        all_lines = [colour_lines(w, geo) for w in worlds]
        for seq in sequences:
            if any(_has(lines, seq) for lines in all_lines):
                hits[seq] += 1
    return {seq: (hits[seq] + 0.5) / (boards + 1) for seq in sequences}


def _has(lines: tuple[str, ...], seq: str) -> bool:
    from astrarium.games.constellations.board import line_has

    return any(line_has(line, seq) for line in lines)


def points_for(rate: float) -> int:
    return max(1, min(MAX_POINTS, 1 + round(math.log2(1 / rate))))


def deck_toml(rates: dict[str, float], boards: int) -> str:
    out = [
        "# The shipped deck of Constellations, made by the simulation in scripts/constellations_deckgen.py:",
        f"#   python scripts/constellations_deckgen.py --boards {boards}",
        "# found_rate: share of random default boards where one turn (no rotation or one) can make the",
        "# constellation; points = 1 + round(log2(1 / found_rate)), clamped to 1..12.",
        f'about = "deck made by scripts/constellations_deckgen.py from {boards} random boards, seed {SEED}"',
        "",
    ]
    for seq, rate in sorted(rates.items(), key=lambda kv: (points_for(kv[1]), len(kv[0]), kv[0])):
        out += ["[[card]]", f'colours = "{seq}"', f"points = {points_for(rate)}", f"found_rate = {rate:.4f}", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path(constellations.__file__).with_name("deck.toml"))
    args = parser.parse_args(argv)
    sequences = choose_sequences()
    rates = reach_rates(sequences, args.boards)
    args.out.write_text(deck_toml(rates, args.boards), encoding="utf-8")
    for seq, rate in rates.items():
        print(f"{seq:>5}  found_rate {rate:.4f}  points {points_for(rate)}")


if __name__ == "__main__":
    main()
