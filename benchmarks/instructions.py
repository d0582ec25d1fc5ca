"""Fixed workloads for counting instructions: seeded random games through the public API, ``make bench``'s step loop.

Wall-clock figures mean little on a busy machine; an instruction count does
not depend on the load. Run it under callgrind twice, once with a workload and
once only setting the games up (``setup``), and divide the difference by the
units printed::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/instructions.py constellations 150 1
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/instructions.py constellations 150 1 setup

The workloads (the last argument):

- none: play every game to its end, ``legal_actions()`` and ``apply()`` of a
  seeded random index (``make bench``'s step); the units are steps;
- ``clone``: the same games, with one ``clone()`` of every position besides;
  (this run minus the plain one) / steps is a clone;
- ``mcts``: one ``mcts`` search of ``MCTS_ITERATIONS`` simulations (c=1.4, random
  rollouts to the end, re-sampled worlds where the game has secrets or chance,
  as ``make bench``'s mcts/s) from the first position of every game; the units
  are simulations;
- ``setup``: the games set up, nothing played;
- ``phases [SIMULATIONS [MID]]``: all of them in one process (the games played once to warm
  the caches, then played again, then played with clones, then one search
  from the first position, of SIMULATIONS simulations; each after its own
  setup), then one search of as many simulations from ``make bench``'s
  mid-game position (game 11 after MID seeded random actions: ``make bench``
  takes half its "length" column; by default half the mean length of the
  games played here; the start if the game ends first), with a call of ``os.getppid()``
  between phases, so that callgrind run with ``--dump-before=os_getppid``
  writes one profile per phase (``benchmarks/phases.py`` reads them)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --dump-before=os_getppid --callgrind-out-file=/tmp/cg/out \\
        python benchmarks/instructions.py constellations 40 1 phases 100
    python benchmarks/phases.py /tmp/cg/out STEPS SIMULATIONS    # the two numbers the run printed

It runs on the astrarium the interpreter imports (an installed build, else the sources beside this script).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

try:
    import astrarium
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import astrarium

from astrarium.agents import MCTSAgent  # noqa: E402
from astrarium.core import Game, Rng, State  # noqa: E402

#: Simulations of each search in the ``mcts`` workload.
MCTS_ITERATIONS = 100
WORKLOADS = ("play", "clone", "mcts", "setup", "phases")


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4, 5, 6) or (len(argv) >= 4 and argv[3] not in WORKLOADS) or (len(argv) >= 5 and argv[3] != "phases"):
        print(f"usage: instructions.py GAME GAMES PLAYERS [{'|'.join(WORKLOADS)}] [SIMULATIONS [MID], for phases]", file=sys.stderr)
        return 2
    game = astrarium.get_game(argv[0])
    count, players = int(argv[1]), int(argv[2])
    workload = argv[3] if len(argv) >= 4 else "play"
    if workload == "phases":
        simulations = int(argv[4]) if len(argv) >= 5 else MCTS_ITERATIONS
        mid_moves = int(argv[5]) if len(argv) == 6 else None
        mark = os.getppid  # the phase boundary callgrind dumps at
        mark()  # start-up ends
        states = [game.new_game(players, 1 + g) for g in range(count)]
        mark()  # setup
        play(states, copy=False)
        mark()  # warm-up: the first games fill the caches of tables made once per board or deck
        states = [game.new_game(players, 1 + g) for g in range(count)]
        mark()  # setup
        steps = play(states, copy=False)
        mark()  # play
        states = [game.new_game(players, 1 + g) for g in range(count)]
        mark()  # setup
        play(states, copy=True)
        mark()  # play with clones
        state = game.new_game(players, 1)
        mark()  # setup
        MCTSAgent(seed=0, iterations=simulations, guide="none").search(state)
        mark()  # search
        state = mid_game(game, players, steps // count // 2 if mid_moves is None else mid_moves)
        mark()  # setup
        MCTSAgent(seed=0, iterations=simulations, guide="none").search(state)
        mark()  # search mid-game
        print("steps", steps, "simulations", simulations)
        return 0
    states = [game.new_game(players, 1 + g) for g in range(count)]
    if workload == "mcts":
        for g, state in enumerate(states):
            MCTSAgent(seed=g, iterations=MCTS_ITERATIONS, guide="none").search(state)
        print("simulations", count * MCTS_ITERATIONS)
        return 0
    print("steps", play([] if workload == "setup" else states, copy=workload == "clone"))
    return 0


def mid_game(game: Game, players: int, moves: int) -> State:
    """``make bench``'s mid-game position (``benchmarks/engine.py``): game 11 after ``moves`` seeded random actions (half a game)."""
    state = game.new_game(players, 11)
    rng = Rng(5)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return game.new_game(players, 11) if state.is_over else state


def play(states: list[State], copy: bool) -> int:
    """Play every game to its end with seeded random actions (and a ``clone()`` of every position with ``copy``); the steps."""
    rng = Rng(1)
    steps = 0
    for state in states:
        while not state.is_over:
            if copy:
                state.clone()
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1
    return steps


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
