"""The balance targets of docs/balance/connected-worlds.md ("Balance"), re-checked at reduced game counts (slow: statistical, run in CI).

The full measurements are arena runs (commands and figures in docs/balance/connected-worlds.md); each test here plays
a few of the same games, seats rotated as the arena rotates them (game ``g`` has seed ``g``,
line-up entry ``k`` at seat ``(k + g) mod 2``, agent seeds ``g * 1000 + k``), and asserts the
headline with a stated tolerance. Each keeps under about a minute of CPU; the searching
player takes 0.05 to 0.15 s a move in this game, so its tests play only a few games.
"""

from __future__ import annotations

import re

import pytest

import astrarium
from astrarium.agents import make_agent
from astrarium.core import State
from helpers import play_rotated

GAME = astrarium.get_game("connected-worlds")
#: The searching player at the level the measurements use (docs/balance/connected-worlds.md, "The guided search"): the position
#: judged at once, without random play-outs, and guided by the scripted general (``guide=auto``, the game's guide).
SEARCH = "mcts:iterations=200,depth=0"
#: The same search unguided, the defending level of docs/balance/connected-worlds.md, "The defender".
DEFENDER = "mcts:iterations=200,depth=0,guide=none"
#: The planning player, the game's medium level (docs/balance/connected-worlds.md, "The planning player").
GENERAL = "cw-general"
#: The house rules before the repair, as options (under them a round-1 rush wins).
OLD_RULES = {"first_base": 1, "landing": "territory-or-any", "gather": "anywhere", "elimination": False}

pytestmark = pytest.mark.slow


#: The order of play these runs were measured with: the seed's, seat 0 first in every round (before it was drawn).
MEASURED_ORDER = {"turn_order": "fixed"}


def play(line_up: list[str], seed: int, **options: object) -> State:
    """Game ``seed`` of an arena run of ``line_up`` with these options (in the order of play the run was measured with)."""
    return play_rotated(GAME.id, line_up, seed, {**MEASURED_ORDER, **options})


def entry_won(state: State, entry: int, seed: int) -> bool:
    """Whether line-up entry ``entry`` won game ``seed`` alone."""
    return state.outcome is not None and state.outcome.winners == ((entry + seed) % 2,)


def round_ended(state: State) -> int:
    found = re.search(r"round (\d+)", state.outcome.reason)  # type: ignore[union-attr]
    return int(found.group(1)) if found else state.full_view()["round"]


def by_victory(state: State) -> bool:
    """Ended by the victory condition or by elimination, not by the round limit or an empty map."""
    reason = state.outcome.reason  # type: ignore[union-attr]
    return "round limit" not in reason and "no base is left" not in reason


def test_balance_the_round_1_rush_of_the_old_rules_is_gone():
    """Old rules: 83 of 200 rusher mirrors (annihilation) ended in round 1, seat 0 won 81.5%; now none in round 1.

    Tolerance: at least 4 of 20 old-rule games end in round 1 (expected 8), none of 12 under the defaults.
    """
    old = [play(["cw-rusher", "cw-rusher"], seed, victory="annihilation", **OLD_RULES) for seed in range(20)]
    assert sum(round_ended(state) == 1 for state in old) >= 4
    new = [play(["cw-rusher", "cw-rusher"], seed, victory="annihilation") for seed in range(12)]
    assert all(round_ended(state) > 1 for state in new)


def test_balance_the_rusher_does_not_dominate_the_expander_in_expansion_mode():
    """Target: the rusher wins at most 55%; measured 55.4% (52.3-58.5) over 1,000 games, 58.5% over the first 200
    (docs/balance/connected-worlds.md, "The rusher against the expander").

    Tolerance: at most 15 of 20 games (75%); a true rate of 58.5% gives more in about 4% of samples of 20.
    """
    wins = sum(entry_won(play(["cw-rusher", "cw-expander"], seed, victory="expansion"), 0, seed) for seed in range(20))
    assert wins <= 15, f"the rusher won {wins} of 20 against the expander"


def test_balance_the_expander_loses_the_war_modes_to_attack_not_to_the_rush():
    """The expander never attacks, so it can win capture only on the tie-break: the rusher beat it in 85 of 100 games,
    and the planning player, which attacks where it would win, in 91% (86-94) of 200 (docs/balance/connected-worlds.md, "The rusher against
    the expander in capture and annihilation").

    Tolerance: the planning player wins at least 15 of the first 20 games of that run.
    """
    wins = sum(entry_won(play([GENERAL, "cw-expander"], seed, victory="capture"), 0, seed) for seed in range(20))
    assert wins >= 15, f"{GENERAL} won {wins} of 20 capture games against the expander"


def test_balance_the_unguided_search_loses_to_the_rusher_but_not_every_game():
    """The unguided search lost 82% (77-87) of 200 capture games to the rusher (docs/balance/connected-worlds.md, "Balance"); it won 2 of 30
    against the old judgement and level. Kept as the measure of what the guide changed.

    Tolerance: the searching player wins at least 1 of the first 5 games of that run (about 7 s of CPU each).
    """
    wins = sum(entry_won(play(["cw-rusher", DEFENDER], seed, victory="capture"), 1, seed) for seed in range(5))
    assert wins >= 1, "the unguided search lost all of the first 5 games to the rusher"


@pytest.mark.parametrize(("victory", "measured"), [("expansion", "23%"), ("capture", "42%"), ("annihilation", "42%")])
def test_balance_the_searching_player_holds_off_the_rusher(victory: str, measured: str) -> None:
    """Target: the rusher wins at most 55% against mcts; measured over 200 games against the guided search: 23% in
    expansion, 42% in capture and in annihilation (docs/balance/connected-worlds.md, "Balance").

    Tolerance: at most 6 of 10 games (60%).
    """
    wins = sum(entry_won(play(["cw-rusher", SEARCH], seed, victory=victory), 0, seed) for seed in range(10))
    assert wins <= 6, f"the rusher won {wins} of 10 {victory} games against {SEARCH} (measured {measured} of 200)"


def test_balance_search_mirrors_end_by_play() -> None:
    """Target: at least 70% of mcts mirrors end by play; measured over 200 games a mode with the guided search: 599 of
    600 games (docs/balance/connected-worlds.md, "The guided search").

    Tolerance: the first 2 games of each mode's run (about 10 s of CPU each) end by play.
    """
    for victory in ("expansion", "capture", "annihilation"):
        games = [play([SEARCH, SEARCH], seed, victory=victory) for seed in range(2)]
        assert all(by_victory(state) for state in games), (victory, [state.outcome for state in games])


def test_balance_the_search_beats_greedy_by_reaching_three_worlds() -> None:
    """Target: mcts beats greedy at least 70% and reaches three worlds in expansion mode; measured 200 of 200 won,
    three worlds in 193 (docs/balance/connected-worlds.md, "The guided search").

    Tolerance: the first 4 games, every one won by the expansion victory.
    """
    for seed in range(4):
        state = play([SEARCH, "greedy"], seed, victory="expansion")
        assert entry_won(state, 0, seed) and "wins by expansion" in state.outcome.reason, state.outcome  # type: ignore[union-attr]


# -- the planning player (docs/balance/connected-worlds.md, "The planning player"): fast, so these play more games -------------------------
@pytest.mark.parametrize(("victory", "measured"), [("expansion", "24%"), ("capture", "43%"), ("annihilation", "43%")])
def test_balance_the_planning_player_holds_off_the_rusher(victory: str, measured: str) -> None:
    """Target: the rusher wins at most 55% against the game's best computer player; measured over 200 games: 24% in
    expansion, 43% in capture and in annihilation (docs/balance/connected-worlds.md, "Balance").

    Tolerance: at most 20 of 40 games (50%).
    """
    wins = sum(entry_won(play(["cw-rusher", GENERAL], seed, victory=victory), 0, seed) for seed in range(40))
    assert wins <= 20, f"the rusher won {wins} of 40 {victory} games against {GENERAL} (measured {measured} of 200)"


def test_balance_planning_mirrors_end_by_play_and_expansion_is_the_short_game() -> None:
    """Target: at least 70% of mirrors end by play, expansion shortest; measured over 200 games a mode: every game
    ended by play, in 5.0 rounds (expansion) and 9.6 (capture, annihilation) on average (docs/balance/connected-worlds.md, "Balance").

    Tolerance: 20 games a mode, at least 18 ended by play; expansion's mean length below capture's and annihilation's.
    """
    lengths = {}
    for victory in ("expansion", "capture", "annihilation"):
        games = [play([GENERAL, GENERAL], seed, victory=victory) for seed in range(20)]
        assert sum(by_victory(state) for state in games) >= 18, victory
        lengths[victory] = sum(round_ended(state) for state in games) / len(games)
    assert lengths["expansion"] < lengths["capture"] and lengths["expansion"] < lengths["annihilation"], lengths


def test_balance_the_planning_player_beats_greedy_by_reaching_three_worlds() -> None:
    """Target: beat greedy at least 70% and reach three worlds in expansion mode; measured 200 of 200 games won, and
    bases on three worlds in 193 (docs/balance/connected-worlds.md, "Balance").

    Tolerance: 20 games, at least 16 won, at least 14 of them by the expansion victory (bases on three worlds).
    """
    games = [(seed, play([GENERAL, "greedy"], seed, victory="expansion")) for seed in range(20)]
    won = [state for seed, state in games if entry_won(state, 0, seed)]
    assert len(won) >= 16
    assert sum("wins by expansion" in state.outcome.reason for state in won) >= 14  # type: ignore[union-attr]


def test_balance_the_hard_level_beats_the_planning_player() -> None:
    """The hard level (the rollout player over the general) beat the general, the medium level, in 154 of 200 games
    (77%, 71-82; docs/agents.md, "Levels").

    Tolerance: at least 4 of the first 5 games of that run (about 10 s of CPU each).
    """
    hard = astrarium.get_game("connected-worlds").parts.levels["hard"]
    wins = sum(entry_won(play([hard, GENERAL], seed), 0, seed) for seed in range(5))
    assert wins >= 4, f"the hard level won {wins} of 5 against {GENERAL}"


# -- the order of play (docs/balance/connected-worlds.md, "Three and four players") ------------------------------------------
def play_planners(players: int, seed: int, **options: object) -> State:
    """Game ``seed`` of a lab line with the planning player in every seat (one player everywhere: the rotation changes nothing)."""
    agents = [make_agent(GENERAL, seed) for _ in range(players)]
    state = GAME.new_game(players, seed, options)
    while not state.is_over:
        state.apply(agents[state.current_player].choose(state))  # type: ignore[index]
    return state


@pytest.mark.parametrize(("players", "least", "measured"), [(3, 6, "25.5%"), (4, 5, "23.0%")])
def test_balance_the_drawn_order_of_play_lifts_the_first_seat_in_expansion(players: int, least: int, measured: str) -> None:
    """In the seed's fixed order seat 0 won 10.5% (three players) and 9.0% (four) of expansion games between planning
    players; with the order drawn as each round begins (the default) it won 25.5% and 23.0% of 200.

    Tolerance: at least 6 (three players) or 5 (four) of the first 40 games, where the fixed order's rate gives about 4.
    """
    wins = sum(play_planners(players, seed).outcome.winners == (0,) for seed in range(40))  # type: ignore[union-attr]
    assert wins >= least, f"seat 0 won {wins} of 40 {players}-player expansion games (measured {measured} of 200)"
