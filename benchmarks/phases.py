"""Instructions per step, per clone and per MCTS simulation from the profiles of ``instructions.py ... phases``.

callgrind run with ``--dump-before=os_getppid`` writes one profile per phase
(``OUT.1``, ``OUT.2``, ...: the counts since the previous dump). The phases, in
order: start-up, then four pairs of setting up and a workload: the games
played once (filling the caches of tables made once per board or deck), played
again, played with a clone of every position, and one search from the first
position, and (from runs that have it) one search from ``make bench``'s
mid-game position::

    python benchmarks/phases.py /tmp/cg/out STEPS SIMULATIONS
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def phase_counts(prefix: str) -> list[int]:
    """The instructions of each dumped phase, in order (``OUT.1``, ``OUT.2``, ...)."""
    files = sorted(Path(prefix).parent.glob(Path(prefix).name + ".*"), key=lambda p: int(p.suffix[1:]))
    counts = []
    for path in files:
        match = re.search(r"^summary: (\d+)", path.read_text(), re.MULTILINE)
        counts.append(int(match.group(1)) if match else 0)
    return counts


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: phases.py OUT STEPS SIMULATIONS", file=sys.stderr)
        return 2
    counts = phase_counts(argv[0])
    steps, simulations = int(argv[1]), int(argv[2])
    if len(counts) < 9:
        print(f"expected 9 phase profiles, found {len(counts)}", file=sys.stderr)
        return 1
    played, cloned, searched = counts[4], counts[6], counts[8]
    clone = (cloned - played) / steps
    line = f"instructions per step {played / steps:,.0f}, per clone {clone:,.0f}, per MCTS simulation {searched / simulations:,.0f}"
    if len(counts) >= 11:
        line += f", per mid-game MCTS simulation {counts[10] / simulations:,.0f}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
