"""Measure how often a team wins each scenario (the figures in rules.md).

    python -m astrarium.games.streamlines.measure --games 500 --player random
    python -m astrarium.games.streamlines.measure --games 500 --player courier

Each game uses seed 0, 1, ...; ``random``: every seat picks uniformly among the
legal actions with ``Rng(seed)`` (the choice the ``random`` agent makes).
``courier`` is a short scripted heuristic, only here to show the scenarios can be
won by purposeful play: it draws on planets, carries refugees to the nearest
escape by the move that gets closest, dumps streamlines before refugees, and
never lays streamlines. It is not one of the team's computer players.
"""

from __future__ import annotations

import argparse
from typing import Any, cast

from astrarium.core import Rng, get_game
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import Move
from astrarium.games.streamlines.board import SCENARIO_NAMES, SIZE
from astrarium.games.streamlines.cards import CARGO, REFUGEE
from astrarium.games.streamlines.state import BLACK_HOLE, COLLAPSING, StreamlinesState


def _distance(a: int, b: int) -> int:
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def courier(state: StreamlinesState, rng: Rng) -> Any:
    """The scripted heuristic described above."""
    legal = state.legal_actions()
    seat = state.turn
    cargo = state.cargo[seat]
    if state.pending_dump:
        return next((a for a in legal if a.kind != REFUGEE), legal[0])
    if act.DROP in legal:
        return act.DROP
    room = len(cargo) < state.powers[seat][CARGO]
    refugees = cargo.count(REFUGEE)
    if act.DRAW in legal and (room or state.bonus_draw or not refugees):
        return act.DRAW
    moves = [a for a in legal if isinstance(a, Move) and not state.is_black_hole(a.path[-1])]
    scn = state.scenario
    alive = [sq for p, sq in enumerate(scn.planets) if state.stage[p] != BLACK_HOLE]
    if refugees and (not room or not alive):
        targets = list(scn.escapes)
    else:
        targets = [sq for p, sq in enumerate(scn.planets) if state.stage[p] < COLLAPSING] or alive
    if act.EXTRA_ACTION in legal and moves and state.actions_left() <= 0:
        return act.EXTRA_ACTION
    if moves and targets:
        here = min(_distance(state.pos[seat], t) for t in targets)
        best = min(moves, key=lambda m: min(_distance(m.path[-1], t) for t in targets))
        if min(_distance(best.path[-1], t) for t in targets) < here:
            return best
    return act.END


def uniform(state: StreamlinesState, rng: Rng) -> Any:
    return rng.choice(state.legal_actions())


PLAYERS = {"random": uniform, "courier": courier}


def win_rate(scenario: str, players: int, games: int, player: str = "random") -> tuple[float, float]:
    """(share of games won, mean refugees rescued) over ``games`` seeded games."""
    game = get_game("streamlines")
    choose = PLAYERS[player]
    wins = rescued = 0
    for seed in range(games):
        state = cast(StreamlinesState, game.new_game(players, seed, {"scenario": scenario}))
        rng = Rng(seed)
        while (outcome := state.outcome) is None:
            state.apply(choose(state, rng))
        wins += bool(outcome.winners)
        rescued += state.view()["rescued"]
    return wins / games, rescued / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--player", choices=sorted(PLAYERS), default="random")
    args = parser.parse_args()
    print(f"| scenario | players | {args.player} play wins | refugees rescued (mean) |")
    print("| --- | --- | --- | --- |")
    for scenario in SCENARIO_NAMES:
        for players in (2, 3, 4):
            rate, mean = win_rate(scenario, players, args.games, args.player)
            print(f"| {scenario} | {players} | {rate:.1%} ({args.games} games) | {mean:.2f} |")


if __name__ == "__main__":
    main()
