"""The generator that made puzzles.toml: random small boards and targets, kept when the solver finds them hard enough.

Run once with::

    python -m astrarium.games.constellations.puzzlegen [--count 24] [--out puzzles.toml]

For each candidate (a seeded random 5x5 or 6x6 board with one or two planets,
two or three stars and a few gas giants and comets, and a target of 2 to 4
colours present on it), a breadth-first search over rotations finds the
shortest number of rotations that makes the target and how many distinct
boards at that depth do. Candidates already solved at the start, needing
more than 7 rotations, or repeating a target already kept, are dropped. The kept puzzles are spread over shortest
lengths 1 to 7 and ordered by difficulty: more rotations first decides, then a
smaller share of solving boards at the shortest depth (a rarer solution is
harder to find).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from astrarium.core import Rng
from astrarium.games.constellations.board import OBJECTS, colour_lines, format_board, found_count, geometry, star_moves

SEED = 8812
MAX_DEPTH = 7
PER_DEPTH = {1: 3, 2: 3, 3: 4, 4: 4, 5: 4, 6: 4, 7: 2}
NAMES = [
    "First Light",
    "Twin Lamps",
    "Green Crossing",
    "Ember Row",
    "Pale Beacon",
    "Three Sisters",
    "Yellow Road",
    "Red Watch",
    "The Long Look",
    "Comet Tail",
    "Quiet Giant",
    "Far Shore",
    "Night Garden",
    "Lantern Belt",
    "Slow Wheel",
    "Deep Orbit",
    "Glass Spiral",
    "White Crown",
    "The Turning",
    "Heart of Fire",
    "Outer Dark",
    "Last Harbour",
    "Star Weaver",
    "The Great Wheel",
]
DIFFICULTY = {1: "easy", 2: "easy", 3: "medium", 4: "medium", 5: "hard", 6: "hard", 7: "expert"}


def random_candidate(rng: Rng) -> tuple[str, str]:
    side = 5 + rng.below(2)
    objects = ["P"] * (1 + rng.below(2))
    objects += [rng.choice("YYRN") for _ in range(2 + rng.below(2))]
    objects += ["G"] * (2 + rng.below(4))
    objects += ["C"] * rng.below(2)
    cells = objects + ["."] * (side * side - len(objects))
    rng.shuffle(cells)
    colours = [OBJECTS[o][1] for o in objects if o != "C"]
    target = "".join(rng.choice(colours) for _ in range(2 + rng.below(3)))
    return format_board(tuple(cells), side), target


def layers(board: str, target: str) -> tuple[int, float] | None:
    """(shortest rotations, share of boards at that depth that solve) or None."""
    from astrarium.games.constellations.board import parse_board

    h, w, start = parse_board(board)
    geo = geometry(h, w)
    if found_count(colour_lines(start, geo), target):
        return None
    seen = {start}
    layer = [start]
    for depth in range(1, MAX_DEPTH + 1):
        nxt = []
        for cells in layer:
            for cell in star_moves(cells, geo):
                after = geo.rotate(cells, cell, geo.radius_of(cells[cell]))
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        if not nxt:
            return None
        solving = sum(1 for cells in nxt if found_count(colour_lines(cells, geo), target))
        if solving:
            return depth, solving / len(nxt)
        layer = nxt
    return None


def generate(count_by_depth: dict[int, int], seed: int = SEED) -> list[tuple[int, float, str, str]]:
    rng = Rng(seed)
    wanted = dict(count_by_depth)
    kept: list[tuple[int, float, str, str]] = []
    while any(wanted.values()):
        board, target = random_candidate(rng)
        found = layers(board, target)
        if found is None or not wanted.get(found[0]) or any(k[3] == target for k in kept):
            continue
        wanted[found[0]] -= 1
        kept.append((found[0], found[1], board, target))
    kept.sort(key=lambda k: (k[0], -k[1]))
    return kept


def puzzles_toml(kept: list[tuple[int, float, str, str]]) -> str:
    out = [
        "# Solo puzzles for Constellations, easiest first, made by puzzlegen.py:",
        "#   python -m astrarium.games.constellations.puzzlegen",
        "# rotations: how many rotations the player may make; shortest: the fewest that solve it (BFS proof).",
        'about = "made by puzzlegen.py"',
        "",
    ]
    for k, (depth, share, board, target) in enumerate(kept):
        rotations = depth + 1 if depth <= 3 else depth
        points = 1 + len(target)
        out += [
            "[[puzzle]]",
            f'name = "{NAMES[k % len(NAMES)]}"',
            f'target = "{target}/{points}"',
            f"rotations = {rotations}",
            f"shortest = {depth}",
            f'difficulty = "{DIFFICULTY[depth]}"  # {share:.4f} of the boards {depth} rotations away solve it',
            f'board = """\n{board}\n"""',
            "",
        ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("puzzles.toml"))
    args = parser.parse_args(argv)
    kept = generate(PER_DEPTH)
    args.out.write_text(puzzles_toml(kept), encoding="utf-8")
    for depth, share, _board, target in kept:
        print(f"{depth} rotations  share {share:.3f}  target {target}")


if __name__ == "__main__":
    main()
