"""Orbital Combat: ships on eight rings around a black hole, the seed's movement system plus house-rule combat.

Rules as implemented: ``rules.md`` in this package (``astrarium rules orbital-combat``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import Game, Option
from astrarium.core.contract import Help, Parts, Picture
from astrarium.games.orbital_combat import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.orbital_combat.actions import Allocation, Facing, Intensity, parse_allocation
from astrarium.games.orbital_combat.fleet import MAX_HULL, starting_ships
from astrarium.games.orbital_combat.rings import RingTable, load_ring_table
from astrarium.games.orbital_combat.state import OrbitalState

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "depth=0,expand=greedy,iterations=1000"
#: The levels: ``medium`` the tuned search, ``hard`` the same search exploring less (``c=0.3``: it follows its most
#: promising allocations longer, where more iterations or other settings did not beat ``medium``), and both draw
#: their move among the root's actions visited at least 98% as often as the most visited (``spread=0.02``): the game
#: has no chance, so without it a level plays the same game every time against the same moves, and a win could be
#: replayed move for move (docs/agents.md, "Levels"). Under ``turn_order = rolled``, the one option that draws on
#: chance, a level searches one world a move with the coming draws re-sampled (``worlds=one``, as fast as a search
#: without chance; docs/agents.md, "No peeking"); otherwise the option changes nothing.
LEVELS = {
    "easy": "greedy",
    "medium": f"mcts:{SEARCH},spread=0.02,worlds=one,seconds=0.3",
    "hard": f"mcts:{SEARCH},spread=0.02,c=0.3,worlds=one,seconds=2",
}
#: What the medium and hard levels play, in the words a person reads in the menu.
LEVEL_SUMMARIES = {
    "medium": "searches up to 1000 positions a move (0.3 s at most), varying among equally good moves",
    "hard": "searches up to 1000 positions a move (2 s at most), keeping to its most promising plans",
}
#: The scripted players (their code is in astrarium.agents): fixed strategies kept as balance yardsticks.
PLAYERS = {
    "orbital-turtle": "astrarium.agents.scripted_orbital:TurtlePlayer",
    "orbital-gunner": "astrarium.agents.scripted_orbital:GunnerPlayer",
    "orbital-scooper": "astrarium.agents.scripted_orbital:ScooperPlayer",
    "orbital-guard": "astrarium.agents.scripted_orbital:GuardPlayer",
    "orbital-runner": "astrarium.agents.scripted_orbital:RunnerPlayer",
}


class OrbitalCombatGame(Game):
    id = "orbital-combat"
    title = "Orbital Combat"
    min_players = 2
    max_players = 4
    hidden_information = False
    hidden = ()
    cooperative = False
    chance = False
    notation_help = "[rot] coast|burn pro|retro soft|hard|extreme [scoop] wN dN [@seat], e.g. 'burn retro hard w5 d3'"
    options = (
        Option("start_mass", 10, "reaction mass each ship starts with (8 to 12)", int, minimum=8, maximum=12),
        Option("hull", 24, "hull points each ship starts with; a ship at 0 is destroyed", int, minimum=1, maximum=MAX_HULL),
        Option("round_limit", 40, "rounds before the game ends on the tie-break", int, minimum=1, maximum=500),
        Option(
            "turn_order",
            "rotate",
            "who allocates first each round: rotate (round r starts with seat r mod players), fixed (seat 0 first), "
            "drawn (the seat that starts round 1 drawn by lot, then rotating), "
            "rolled (every round's first seat drawn by lot as the round starts) or "
            "behind (the ship with the least hull first; equal hulls in the rotating order)",
            str,
            choices=("rotate", "fixed", "drawn", "rolled", "behind"),
        ),
        Option(
            "resolution",
            "round",
            "round: ships allocate in turn, then the round resolves for all at once (simultaneous movement and fire); "
            "turn: each ship's turn resolves at once",
            str,
            choices=("round", "turn"),
        ),
        Option(
            "fire_order",
            "initiative",
            "together: a round's shots are simultaneous (ships can destroy each other); "
            "initiative: they land one by one in the round's turn order, and a ship destroyed first does not fire",
            str,
            choices=("together", "initiative"),
        ),
        Option("start_ring", 3, "ring all ships start on, evenly spaced (when 'ships' is empty)", int, minimum=1, maximum=12),
        Option("weapon_range_mm", 150, "longest shot, in millimetres on the board", int, minimum=0, maximum=500),
        Option("defense_per_point", 2, "damage one point of defense stops", int, minimum=1, maximum=10),
        Option("defense_max_percent", 75, "the most of a shot's strength defense can stop, in percent", int, minimum=0, maximum=100),
        Option("falloff_mm", 50, "a shot loses 1 point of strength per full this many millimetres", int, minimum=1, maximum=500),
        Option("collision_mm", 10, "ships closer than this (a token's width) collide; 0: no collisions", int, minimum=0, maximum=100),
        Option("collision_damage", 2, "hull each ship loses in a collision", int, minimum=0, maximum=20),
        Option(
            "zone_round",
            12,
            "round from which the safe zone closes, one ring a round from the outside, down to zone_ring; 0: never",
            int,
            minimum=0,
            maximum=500,
        ),
        Option("zone_ring", 3, "innermost ring the closing zone stops at", int, minimum=1, maximum=12),
        Option("zone_damage", 2, "hull a ship outside the zone loses at the end of each round", int, minimum=0, maximum=20),
        Option(
            "ships",
            [],
            "starting ships, one per seat, e.g. ['r5 s1 retro m10', 'r4 s20']; empty: all on start_ring",
            list,
            maximum=4,
        ),
        Option("ring_table", "", "path of a designer's ring table (TOML/JSON); empty: the built-in table", str, names_file=True),
    )
    state_class = OrbitalState
    package = "astrarium.games.orbital_combat"
    parts = Parts(
        picture=Picture(
            render_svg=svg.render_svg,
            render_svg_parts=svg.render_svg_parts,
            action_tokens=svg.action_tokens,
            button_tokens=svg.BUTTON_TOKENS,
        ),
        describe=words.describe,
        render=render.render,
        render_fit=render.render_fit,
        help=Help(cards=None, things=help.things),
        evaluate=evaluate.evaluate,
        explain=explain.explain,
        levels=LEVELS,
        level_summaries=LEVEL_SUMMARIES,
        search=SEARCH,
        guide=None,
        players=PLAYERS,
        metrics=metrics.final_metrics,
        learning=learning.LEARNING,
    )

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        return options["round_limit"] * players

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        starting_ships(load_ring_table(options["ring_table"]), players, options)


__all__ = ["Allocation", "Facing", "Intensity", "OrbitalCombatGame", "OrbitalState", "RingTable", "parse_allocation"]
