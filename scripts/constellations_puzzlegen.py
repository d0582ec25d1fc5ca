"""The generator that made puzzles.toml: five graded packs of puzzles, each proved and rated by the solver.

Run once with::

    .venv/bin/python scripts/constellations_puzzlegen.py [--out puzzles.toml]

(``--out`` defaults to the game's own ``puzzles.toml``, in ``src/astrarium/games/constellations/``.)

Each pack (:data:`PACKS`) says which objects its boards hold, how many colours
its targets have, the shortest solutions and the ratings it takes, and what
its puzzles must use: a comet that the solution needs, a neutron star or a
black hole that every solution turns or whose colour the target asks for.
Candidates are seeded random boards and targets; each is proved by
:func:`puzzles.analyse` (shortest solution, every sequence of that length
counted, the first rotations that can still lead to a solution) and rated by
:func:`puzzles.rate`. A candidate is kept when it fits its pack, its target
is new, at most :data:`MAX_GREEN_SHARE` of the kept targets ask for green, and
its pack does not already hold :data:`MAX_REPEATING` puzzles whose every
solution turns one star twice. Each pack is then ordered by rating (then by
rarer solutions), so the whole file rises in difficulty pack by pack.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from astrarium.core import Rng
from astrarium.games import constellations
from astrarium.games.constellations.board import DEAD, OBJECTS, WILD, colour_lines, format_board, geometry, star_moves
from astrarium.games.constellations.puzzles import Analysis, analyse, grade, rate

SEED = 19
#: The colours a wild comet's place in a target may take.
CARD_COLOURS = "bgyrwk"
PER_PACK = 12
#: At most this share of all targets may ask for green (the old set had 15 of 24).
MAX_GREEN_SHARE = 0.3
#: At most this many puzzles of a pack may have only solutions that turn one star twice.
MAX_REPEATING = 2
#: Candidates tried per pack before giving up (the generator reports a pack it could not fill).
MAX_TRIES = 200_000


@dataclass(frozen=True)
class PackSpec:
    """What one pack's puzzles are made of and must use."""

    name: str
    grade: int
    about: str
    sides: tuple[int, ...]
    #: Object letter -> (fewest, most) on a board; planets at least one.
    objects: dict[str, tuple[int, int]]
    colours: tuple[int, ...]  # target lengths, drawn uniformly
    shortest: tuple[int, int]
    ratings: tuple[int, int]
    spare: int  # rotations allowed beyond the shortest
    needs: str = ""  # "C": the comet is needed; "N"/"B": every solution turns it, or the target has its colour
    fives: int = 0  # five-colour targets the pack must hold (they are rare among random candidates)
    names: tuple[str, ...] = ()


PACKS: tuple[PackSpec, ...] = (
    PackSpec(
        name="Lamplight",
        grade=1,
        about="first steps: yellow dwarfs and red giants turn planets and gas giants into short lines",
        sides=(5,),
        objects={"P": (1, 2), "G": (2, 4), "Y": (1, 2), "R": (1, 1)},
        colours=(2, 2, 3),
        shortest=(1, 2),
        ratings=(1, 3),
        spare=1,
        names=(
            "First Light",
            "Twin Lamps",
            "Ember Row",
            "Morning Star",
            "Red Dawn",
            "Small Hours",
            "Porch Light",
            "Hearth",
            "Kindling",
            "Two Candles",
            "Lantern",
            "Warm Glow",
        ),
    ),
    PackSpec(
        name="Comet Trails",
        grade=2,
        about="a comet beside a yellow dwarf or red giant counts as any colour, and every puzzle here needs one",
        sides=(5, 6),
        objects={"P": (1, 2), "G": (1, 3), "Y": (1, 2), "R": (0, 1), "N": (0, 1), "C": (1, 2)},
        colours=(2, 3, 3),
        shortest=(1, 3),
        ratings=(2, 5),
        spare=1,
        needs="C",
        names=(
            "Comet Tail",
            "Wild Card",
            "Stray Spark",
            "Borrowed Colour",
            "Icy Visitor",
            "Long Tail",
            "Halley's Return",
            "Snowball",
            "Bright Stranger",
            "Shooting Star",
            "Dust Trail",
            "Perihelion",
        ),
    ),
    PackSpec(
        name="White Fire",
        grade=3,
        about="neutron stars reach five rings: one turn moves most of the board, so plan which star turns first",
        sides=(6,),
        objects={"P": (1, 2), "G": (2, 4), "Y": (0, 1), "R": (0, 1), "N": (1, 2), "C": (0, 1)},
        colours=(3, 3, 4),
        shortest=(2, 3),
        ratings=(3, 6),
        spare=0,
        needs="N",
        names=(
            "Pale Beacon",
            "White Crown",
            "Pulsar",
            "Glass Spiral",
            "Cold Fire",
            "Silver Wheel",
            "Lighthouse",
            "Frost Ring",
            "Quiet Giant",
            "The Turning",
            "Bright Core",
            "Spin Down",
        ),
    ),
    PackSpec(
        name="Event Horizon",
        grade=4,
        about="a black hole turns every ring on the board: each puzzle here asks for black or needs the black hole turned",
        sides=(5, 6),
        objects={"P": (1, 2), "G": (2, 4), "Y": (0, 1), "R": (0, 1), "N": (0, 1), "B": (1, 1), "C": (0, 1)},
        colours=(3, 3, 4),
        shortest=(2, 4),
        ratings=(5, 8),
        spare=0,
        needs="B",
        names=(
            "Outer Dark",
            "Event Horizon",
            "Deep Orbit",
            "Night Garden",
            "Singularity",
            "Gravity Well",
            "Dark Harbour",
            "Swallowed Light",
            "Accretion",
            "The Great Wheel",
            "Spaghetti",
            "No Return",
        ),
    ),
    PackSpec(
        name="Long Night",
        grade=5,
        about="four- and five-colour constellations among every kind of object: the hardest puzzles",
        sides=(6,),
        objects={"P": (3, 4), "G": (3, 4), "Y": (1, 2), "R": (1, 2), "N": (0, 1), "B": (0, 1), "C": (1, 2)},
        colours=(4, 5),
        shortest=(2, 5),
        ratings=(7, 10),
        spare=0,
        fives=4,
        names=(
            "Star Weaver",
            "Heart of Fire",
            "Last Harbour",
            "Far Shore",
            "The Long Look",
            "Slow Wheel",
            "Lantern Belt",
            "Three Sisters",
            "Red Watch",
            "Yellow Road",
            "Green Crossing",
            "Midnight Choir",
        ),
    ),
)


@dataclass(frozen=True)
class Kept:
    """A puzzle the generator keeps: its pack, board, target, budget, proof and rating."""

    pack: PackSpec
    board: str
    target: str
    rotations: int
    proof: Analysis
    rating: int


def random_candidate(spec: PackSpec, rng: Rng) -> tuple[str, str]:
    """A seeded random board of the pack's objects and a target that a few random rotations make somewhere.

    The target is a run of colours read from a planet's line after up to the
    pack's longest solution of random rotations (a wild comet's place in it
    given a random colour), so every candidate is solvable and the proof
    finds how soon; a board whose lines hold no such run gets no target ("").
    """
    side = rng.choice(spec.sides)
    objects: list[str] = []
    for letter, (low, high) in spec.objects.items():
        objects += [letter] * (low + rng.below(high - low + 1))
    cells = objects + ["."] * (side * side - len(objects))
    rng.shuffle(cells)
    start = tuple(cells)
    length = rng.choice(spec.colours)
    geo = geometry(side, side)
    walked = start
    for _ in range(spec.shortest[0] + rng.below(spec.shortest[1] - spec.shortest[0] + 1)):
        moves = star_moves(walked, geo)
        if not moves:
            break
        cell = rng.choice(moves)
        walked = geo.rotate(walked, cell, geo.radius_of(walked[cell]))
    runs = [line[i : i + length] for line in colour_lines(walked, geo) for i in range(len(line) - length + 1)]
    runs = [run for run in runs if DEAD not in run]
    if not runs:
        return format_board(start, side), ""
    run = rng.choice(runs)
    return format_board(start, side), "".join(rng.choice(CARD_COLOURS) if c == WILD else c for c in run)


def fits(spec: PackSpec, target: str, proof: Analysis, rating: int) -> bool:
    """Whether a proved candidate belongs in its pack (length, rating, and the object the pack is about)."""
    if not spec.shortest[0] <= proof.shortest <= spec.shortest[1] or not spec.ratings[0] <= rating <= spec.ratings[1]:
        return False
    if spec.needs == "C":
        return proof.comet_needed
    if spec.needs in ("N", "B"):
        return spec.needs in proof.stars or OBJECTS[spec.needs][1] in target
    return True


def generate(seed: int = SEED, per_pack: int = PER_PACK) -> list[Kept]:
    """Every pack filled with ``per_pack`` puzzles, packs in grade order, each pack by rising rating."""
    rng = Rng(seed)
    kept: list[Kept] = []
    targets: set[str] = set()
    for spec in PACKS:
        pack = _fill_pack(spec, rng, per_pack, kept, targets)
        pack.sort(key=lambda k: (k.rating, k.proof.shortest, -k.proof.solutions / k.proof.sequences))
        kept += pack
    return kept


def _fill_pack(spec: PackSpec, rng: Rng, per_pack: int, kept: list[Kept], targets: set[str]) -> list[Kept]:
    """``per_pack`` puzzles of the pack ``spec``, from random candidates (at most :data:`MAX_TRIES`); each target is
    used once in all the packs (``targets``, ``kept``: those of the packs before)."""
    pack: list[Kept] = []
    tries = 0
    while len(pack) < per_pack:
        tries += 1
        if tries > MAX_TRIES:
            raise RuntimeError(f"pack {spec.name}: only {len(pack)} puzzles after {MAX_TRIES} candidates")
        candidate = _candidate(spec, rng, per_pack, pack, kept, targets)
        if candidate is not None:
            targets.add(candidate.target)
            pack.append(candidate)
    return pack


def _candidate(spec: PackSpec, rng: Rng, per_pack: int, pack: list[Kept], kept: list[Kept], targets: set[str]) -> Kept | None:
    """One random candidate for the pack, proved and rated, or None when the pack does not want it: a target used
    already, too few five-colour targets left, too many greens, no solution in the budget, a rating or repeats the
    pack has enough of."""
    board, target = random_candidate(spec, rng)
    if not target or target in targets:
        return None
    if len(target) < 5 and per_pack - len(pack) <= spec.fives - sum(len(k.target) == 5 for k in pack):
        return None
    if "g" in target and sum("g" in k.target for k in kept + pack) + 1 > MAX_GREEN_SHARE * (len(PACKS) * per_pack):
        return None
    longest = spec.shortest[1] + spec.spare
    proof = analyse(board, target, longest)
    if proof is None:
        return None
    rotations = proof.shortest + spec.spare
    if rotations != longest:  # the budget decides how many first rotations can still lead to a solution
        proof = analyse(board, target, rotations)
        assert proof is not None
    rating = rate(proof.shortest, proof.sequences, proof.solutions, proof.first_moves, proof.good_first_moves, proof.repeats)
    if not fits(spec, target, proof, rating):
        return None
    if proof.repeats and sum(k.proof.repeats for k in pack) >= MAX_REPEATING:
        return None
    # Spread the ratings: at most a third of a pack on one rating.
    if sum(k.rating == rating for k in pack) >= -(-per_pack // 3):
        return None
    return Kept(spec, board, target, rotations, proof, rating)


def puzzles_toml(kept: list[Kept]) -> str:
    out = [
        "# Solo puzzles for Constellations in five graded packs, made by scripts/constellations_puzzlegen.py:",
        "#   python scripts/constellations_puzzlegen.py",
        "# rotations: allowed; shortest: the fewest that solve it; sequences: every sequence of that many rotations;",
        "# solutions: those that solve it; first_moves / good_first_moves: first rotations, and those that can still lead",
        "# to a solution within the allowed rotations; repeats: every shortest solution turns one star twice;",
        "# rating: 1 to 10 from those counts (puzzles.rate). The tests prove every number again.",
        'about = "five graded packs made by scripts/constellations_puzzlegen.py"',
        "",
    ]
    for spec in PACKS:
        out += ["[[pack]]", f'name = "{spec.name}"', f"grade = {spec.grade}", f'about = "{spec.about}"', ""]
    index: dict[str, int] = {}
    for k in kept:
        n = index[k.pack.name] = index.get(k.pack.name, -1) + 1
        p = k.proof
        out += [
            "[[puzzle]]",
            f'name = "{k.pack.names[n % len(k.pack.names)]}"',
            f'pack = "{k.pack.name}"',
            f'target = "{k.target}/{1 + len(k.target)}"',
            f"rotations = {k.rotations}",
            f"shortest = {p.shortest}",
            f"sequences = {p.sequences}",
            f"solutions = {p.solutions}",
            f"first_moves = {p.first_moves}",
            f"good_first_moves = {p.good_first_moves}",
            f"repeats = {'true' if p.repeats else 'false'}",
            f"rating = {k.rating}",
            f'difficulty = "{k.rating}/10 {grade(k.rating)}"',
            f'board = """\n{k.board}\n"""',
            "",
        ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(constellations.__file__).with_name("puzzles.toml"))
    args = parser.parse_args(argv)
    kept = generate()
    args.out.write_text(puzzles_toml(kept), encoding="utf-8")
    for k in kept:
        p = k.proof
        print(
            f"{k.pack.name:14} {k.target:6} rating {k.rating:2}  shortest {p.shortest}  {p.solutions}/{p.sequences} solve  "
            f"{p.good_first_moves}/{p.first_moves} first  repeats {p.repeats}  stars {''.join(sorted(p.stars))}"
        )


if __name__ == "__main__":
    main()
