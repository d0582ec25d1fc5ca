"""The look-ahead yardstick player, and the strength figures of docs/balance/constellations.md ("Design notes") at reduced game counts.

The player tests are quick. The strength tests (marked slow) play the first
games of the arena runs in docs/balance/constellations.md, seated and seeded as the arena seats and
seeds them, and hold each headline to a stated tolerance below its target:

- the look-ahead player wins at least 30 of the first 40 games against
  ``random`` (measured 86.5% over 200, 33 of these 40; 75% leaves room for
  40 games' chance);
- the shipped search player wins at least 15 of the 20 games of seeds
  100-119 against ``random`` (target 86% over 200; measured 17 of these 20);
- the shipped search player wins at least 6 of the first 20 games against
  the look-ahead player (target 50% over 200, measured 58.5%; these 20
  games gave 10, and 6 of 20 is about the lower end of a 95% interval
  around 50%).
"""

from __future__ import annotations

import pytest

import astrarium
from astrarium.agents import agent_names, make_agent
from astrarium.agents.scripted_constellations import LookaheadPlayer
from astrarium.core import State
from astrarium.games.constellations.actions import Play, Rotate
from astrarium.games.constellations.puzzles import solve
from helpers import play_rotated

GAME = astrarium.get_game("constellations")
SEARCH = "mcts:iterations=300,rollout=heuristic,depth=2,c=0.5"
LOOKAHEAD = "constellations-lookahead"


def play(line_up: list[str], seed: int) -> State:
    """Game ``seed`` as the arena plays it (``helpers.play_rotated``)."""
    return play_rotated(GAME.id, line_up, seed)


def wins(line_up: list[str], games: int, first: int = 0) -> int:
    """Games of seeds ``first`` to ``first + games - 1`` that line-up entry 0 wins (a shared win counts)."""
    return sum(play(line_up, seed).returns()[seed % 2] > 0 for seed in range(first, first + games))


# -- the player --------------------------------------------------------------------------------------------


def test_the_lookahead_player_is_registered_for_constellations_only() -> None:
    assert LOOKAHEAD in agent_names("constellations")
    assert LOOKAHEAD not in agent_names("celestials")
    with pytest.raises(ValueError, match="only constellations"):
        make_agent(LOOKAHEAD).choose(astrarium.get_game("celestials").new_game(2, 0))


@pytest.mark.parametrize("spec,problem", [("constellations-lookahead:depth=9", "depth"), ("constellations-lookahead:gamma=0", "gamma")])
def test_bad_options_are_refused_by_name(spec: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        make_agent(spec)


def test_it_makes_its_card_when_one_rotation_can() -> None:
    # The yellow dwarf at i1 brings the gas giant at h1 into the planet's right line (g found 3 times).
    state = GAME.new_game(1, 0, {"board": ".G.....GY\n.P.......\n.G.......", "deck": ["g/3", "g/1"], "hand_size": 1})
    choice = make_agent(LOOKAHEAD).choose(state)
    assert choice == Rotate(0, 8)
    state.apply(choice)
    assert make_agent(LOOKAHEAD).choose(state) == Play(state.hands[0][0])


def test_it_finds_the_one_first_rotation_that_leads_to_its_card() -> None:
    # Shipped puzzles of two rotations where only one first rotation can lead to the target in time.
    chosen = [p for p in GAME.puzzles() if p.extra["shortest_rotations"] == p.extra["rotations"] == 2 and p.extra["good_first_moves"] == 1]
    assert len(chosen) >= 3
    for puzzle in chosen:
        state = GAME.new_game(1, 0, dict(puzzle.options))
        state.apply(LookaheadPlayer(depth=1).choose(state))
        assert solve(state.board_text(), puzzle.extra["target"].partition("/")[0], max_rotations=1) is not None


def test_it_does_not_read_hidden_cards() -> None:
    # Two games alike in the board and the first seat's hand, different in the other hand and the deck.
    board = ".G.....GY\n.P.......\n.G.....R."
    first = GAME.new_game(2, 0, {"board": board, "deck": ["kkk/5", "yy/2", "r/1", "g/1", "b/1", "w/1", "k/1", "y/1", "gg/1"]})
    second = GAME.new_game(2, 0, {"board": board, "deck": ["kkk/5", "yy/2", "r/1", "ww/4", "bb/4", "rr/4", "yb/3", "gb/3", "kb/3"]})
    assert first.view(0) == second.view(0) and first.full_view() != second.full_view()
    assert make_agent(LOOKAHEAD).choose(first) == make_agent(LOOKAHEAD).choose(second)


def test_it_plays_whole_games_with_every_option_that_changes_its_choices() -> None:
    for options in ({}, {"swap": True}, {"planet_in_line": True}, {"width": 5, "height": 5, "gas_giants": 3}):
        state = GAME.new_game(2, 3, options)
        player = make_agent(LOOKAHEAD, seed=1)
        other = make_agent("random", seed=2)
        while not state.is_over:
            seat = state.current_player
            action = (player if seat == 0 else other).choose(state)
            assert action in state.legal_actions()
            state.apply(action)


# -- the headline figures at reduced counts (slow) ---------------------------------------------------------


@pytest.mark.slow
def test_the_lookahead_player_beats_random_play() -> None:
    assert wins([LOOKAHEAD, "random"], 40) >= 30


@pytest.mark.slow
def test_the_search_player_beats_random_play() -> None:
    assert wins([SEARCH, "random"], 20, first=100) >= 15


@pytest.mark.slow
def test_the_search_player_holds_its_own_against_the_lookahead_player() -> None:
    assert wins([SEARCH, LOOKAHEAD], 20) >= 6
