"""A fixed workload for counting instructions: seeded random games through the public API, ``make bench``'s step loop.

Wall-clock figures mean little on a busy machine; an instruction count does
not depend on the load. Run it under callgrind twice, once playing and once
only setting the games up (``setup``), and divide the difference by the steps
printed::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/instructions.py constellations 150 1
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/instructions.py constellations 150 1 setup

It runs on the astrarium the interpreter imports (an installed build, else the sources beside this script).
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import astrarium
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import astrarium

from astrarium.core import Rng  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "setup"):
        print("usage: instructions.py GAME GAMES PLAYERS [setup]", file=sys.stderr)
        return 2
    game = astrarium.get_game(argv[0])
    count, players = int(argv[1]), int(argv[2])
    states = [game.new_game(players, 1 + g) for g in range(count)]
    rng = Rng(1)
    steps = 0
    for state in [] if len(argv) == 4 else states:
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1
    print("steps", steps)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
