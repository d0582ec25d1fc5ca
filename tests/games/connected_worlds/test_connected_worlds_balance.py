"""The house rules that keep the game from being won by a cheap plan (rules.md, "Decisions";
docs/balance/connected-worlds.md, "Design notes").

One test per decision: the first base is an Outpost, landing where you hold no territory is a
beachhead, resources are harvested from bases, a player without pieces is out and the last
player with pieces wins; and the evaluation the computer players plan with.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, Rng
from helpers import cw_piece as piece
from helpers import examples

GAME = astrarium.get_game("connected-worlds")
HANDS = """
[[player]]
hand = ["harvester", "scientists", "portal", "excavater", "engineers"]
deck = ["harvester", "harvester", "scientists", "assault-team", "standard-base"]
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
"""


def position(body: str, hands: str = HANDS, **options):
    return GAME.new_game(2, 11, {"scenario": body + hands, **options})


def steps(state) -> set[str]:
    return {str(a).removeprefix("step ") for a in state.legal_actions() if str(a).startswith("step ")}


HOME = piece("base", "A:0,0", 0, 3) + piece("base", "B:0,0", 1, 3)


# -- Setup: the first base ---------------------------------------------------------------------
def test_setup_the_first_base_is_an_outpost_of_strength_3():
    state = GAME.new_game(2, 0)
    state.apply("found A:0,0")
    state.apply("found B:0,0")
    assert state.full_view()["bases"] == [["A:0,0", 0, 3], ["B:0,0", 1, 3]]


def test_setup_option_first_base_sets_its_strength():
    state = GAME.new_game(2, 0, {"first_base": 1})
    state.apply("found A:0,0")
    assert state.full_view()["bases"] == [["A:0,0", 0, 1]]


def test_setup_the_starting_assault_team_can_neither_capture_nor_destroy_a_first_base():
    """The round-1 rush: the lone Assault Team (2) that reaches the enemy's first base is lost against it."""
    body = piece("base", "A:0,0", 0, 3) + piece("base", "B:0,0", 1, 3) + piece("unit", "B:1,0", 0, 2)
    state = position(body)
    state.apply("move harvester B:1,0 u2")
    state.apply("step B:0,0")
    state.apply("end")
    view = state.full_view()
    assert view["bases"] == [["A:0,0", 0, 3], ["B:0,0", 1, 3]] and view["units"] == []


# -- Moving between Ground and Space: a beachhead ----------------------------------------------
def test_landing_where_you_hold_no_territory_is_on_a_hex_without_enemy_pieces():
    state = position(HOME + piece("unit", "S:2,0", 0, 2))  # above world B, seat 1's
    state.apply("move harvester S:2,0 u2")
    landing = {s for s in steps(state) if s.startswith("B:")}
    assert len(landing) == 18 and "B:0,0" not in landing
    with pytest.raises(IllegalAction, match="beachhead"):
        state.apply("step B:0,0")


def test_landing_where_you_hold_no_territory_ends_the_unit_s_movement_for_the_turn():
    state = position(HOME + piece("unit", "S:2,0", 0, 2))
    state.apply("move harvester S:2,0 u2")  # 3 movement points
    state.apply("step B:1,0")
    view = state.full_view()
    assert view["moving"] is None and view["units"] == [["B:1,0", 0, 2, False]] and view["held"] == [["B:1,0", 0, 2]]
    assert not any(str(a).startswith("move ") and str(a).endswith("B:1,0 u2") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="landed on a beachhead"):
        state.apply("move scientists B:1,0 u2")
    state.apply("end")
    assert state.full_view()["held"] == []


def test_landing_on_your_own_territory_costs_one_and_the_move_goes_on():
    state = position(HOME + piece("unit", "S:-2,0", 0, 2))
    state.apply("move harvester S:-2,0 u2")
    state.apply("step A:1,0")
    assert state.full_view()["moving"] == {"at": "A:1,0", "piece": "u2", "movement_left": 2}


def test_landing_option_territory_or_any_drops_onto_any_hex_even_a_base():
    state = position(HOME + piece("unit", "S:2,0", 0, 2), landing="territory-or-any")
    state.apply("move harvester S:2,0 u2")
    assert "B:0,0" in steps(state)
    state.apply("step B:1,0")
    assert state.full_view()["moving"] == {"at": "B:1,0", "piece": "u2", "movement_left": 2}


def test_a_base_lands_as_a_beachhead_too():
    state = position(HOME + piece("base", "S:0,-2", 0, 1))  # above world C, nobody there
    state.apply("move harvester S:0,-2 base")
    state.apply("step C:0,0")
    view = state.full_view()
    assert view["moving"] is None and ["C:0,0", 0, 1] in view["bases"] and view["held_bases"] == ["C:0,0"]
    assert view["players"][0]["worlds"] == ["A", "C"]
    assert "move scientists C:0,0 base" not in [str(a) for a in state.legal_actions()]


# -- Exploit: harvest resources from bases ------------------------------------------------------
def test_gather_resources_needs_a_base_of_yours_on_the_map():
    body = piece("base", "B:0,0", 1, 3) + piece("unit", "A:0,0", 0, 2)
    state = position(body)
    assert "gather harvester" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction, match="harvested from bases"):
        state.apply("gather harvester")
    anywhere = position(body, gather="anywhere")
    anywhere.apply("gather harvester")
    assert anywhere.full_view()["players"][0]["resources"] == 3


def test_starting_resources_are_zero():
    state = GAME.new_game(2, 4)
    assert [row["resources"] for row in state.full_view()["players"]] == [0, 0]


# -- A player without pieces is out ------------------------------------------------------------
def test_a_player_without_pieces_takes_no_turn_and_the_last_player_with_pieces_wins():
    body = HOME + piece("unit", "B:1,0", 0, 5)
    state = position(body)  # expansion: nobody has three worlds
    state.apply("move scientists B:1,0 u5")
    state.apply("step B:0,0")
    state.apply("end")  # the Capital Army takes the Outpost: seat 1 has nothing left, its turn is skipped
    assert state.is_over and state.outcome.winners == (0,)
    assert state.outcome.reason == "seat 0 wins: only seat 0 has pieces left at the end of round 1"


def test_option_elimination_false_keeps_the_empty_turns_until_the_round_limit():
    body = HOME + piece("unit", "B:1,0", 0, 5)
    state = position(body, elimination=False, round_limit=2)
    state.apply("move scientists B:1,0 u5")
    state.apply("step B:0,0")
    state.apply("end")
    assert not state.is_over and state.current_player == 1
    while not state.is_over:
        state.apply("end")
    assert "round limit" in state.outcome.reason and state.outcome.winners == (0,)


def test_three_players_skip_the_one_who_is_out_and_play_on():
    hands = HANDS + "[[player]]\n"
    body = piece("base", "A:0,0", 0, 3) + piece("base", "C:0,0", 2, 3) + piece("unit", "A:1,0", 0, 2)
    state = GAME.new_game(3, 2, {"scenario": body + hands, "turn_order": "fixed"})
    state.apply("end")
    assert state.current_player == 2  # seat 1 has no piece on the map
    state.apply("end")
    assert not state.is_over and state.current_player == 0 and state.full_view()["round"] == 2


# -- A unit may move in the turn it is deployed (option deploy_moves) --------------------------
def test_option_deploy_moves_false_keeps_a_deployed_unit_in_place_this_turn():
    hands = '[[player]]\nhand = ["assault-team", "harvester"]\n[[player]]\n'
    state = position(HOME, hands=hands, deploy_moves=False)
    state.apply("deploy assault-team A:1,0")
    assert not any(str(a).startswith("move harvester A:1,0") for a in state.legal_actions())
    assert state.full_view()["held"] == [["A:1,0", 0, 2]]
    free = position(HOME, hands=hands)
    free.apply("deploy assault-team A:1,0")
    assert "move harvester A:1,0 u2" in [str(a) for a in free.legal_actions()]


# -- Evaluation ---------------------------------------------------------------------------------
def test_evaluation_sees_the_turn_s_combat_as_soon_as_the_unit_steps_in():
    """Combat is fought when the turn ends; the evaluation fights it out at once, so a search sees the result."""
    strong = position(HOME + piece("unit", "B:1,0", 0, 5), victory="capture")
    strong.apply("move scientists B:1,0 u5")
    before = strong.evaluate(0)
    strong.apply("step B:0,0")  # 5 against the Outpost's 3: captured, seat 1 has no base left
    assert strong.evaluate(0) > before and strong.evaluate(0) > 0.99
    weak = position(HOME + piece("unit", "B:1,0", 0, 2), victory="capture")
    weak.apply("move scientists B:1,0 u2")
    before = weak.evaluate(0)
    weak.apply("step B:0,0")  # 2 against 3: the unit is lost
    assert weak.evaluate(0) < before


def test_evaluation_pays_for_flying_a_spare_base_towards_a_new_world():
    body = HOME + piece("base", "A:1,0", 0, 1)
    state = position(body)
    state.apply("move harvester A:1,0 base")
    values = [state.evaluate(0)]
    for hex_ in ("S:-2,0", "S:-1,-1", "S:0,-2"):
        state.apply(f"step {hex_}")
        values.append(state.evaluate(0))
    assert values == sorted(values) and values[-1] > values[0]


def test_evaluation_rewards_meeting_the_victory_condition():
    three = HOME + piece("base", "C:0,0", 0, 1) + piece("base", "D:0,0", 0, 1)
    two = HOME + piece("base", "C:0,0", 0, 1)
    assert position(three).evaluate(0) > position(two).evaluate(0) + 0.3


# Seat 0 has a second base, a Standard Base (1) on world C; seat 1's Titan Force (4) stands either next to it or far away.
SPREAD = HOME + piece("base", "C:0,0", 0, 1)
NEAR = piece("unit", "C:1,0", 1, 4)
FAR = piece("unit", "B:1,0", 1, 4)


@pytest.mark.parametrize("victory", ["expansion", "capture", "annihilation"])
def test_evaluation_counts_enemy_units_that_could_take_one_s_base_in_every_mode(victory: str):
    """The same pieces, the Titan Force next to seat 0's Standard Base or at home: the threat costs seat 0."""
    near = position(SPREAD + NEAR, victory=victory)
    far = position(SPREAD + FAR, victory=victory)
    assert near.evaluate(0) < far.evaluate(0)


@pytest.mark.parametrize("victory", ["expansion", "capture", "annihilation"])
def test_evaluation_values_guarding_a_threatened_base_in_every_mode(victory: str):
    """A Titan Force put on the threatened base (4 against 4: both fall, the base holds) beats the same unit at home."""
    hands = '[[player]]\nhand = ["titan-force", "harvester"]\n[[player]]\n'
    guarded = position(SPREAD + NEAR, hands=hands, victory=victory)
    guarded.apply("deploy titan-force C:0,0")
    elsewhere = position(SPREAD + NEAR, hands=hands, victory=victory)
    elsewhere.apply("deploy titan-force A:1,0")
    assert guarded.evaluate(0) > elsewhere.evaluate(0)


@pytest.mark.parametrize("victory", ["capture", "annihilation"])
def test_evaluation_founds_the_first_base_away_from_the_enemy(victory: str):
    """Setup in the war modes: once seat 0 has founded on world A, seat 1 judges its own base best on another world,
    and best at a hex far from seat 0's."""
    state = GAME.new_game(2, 0, {"victory": victory})
    state.apply("found A:0,0")

    def after(hex_: str) -> float:
        other = state.clone()
        other.apply(f"found {hex_}")
        return other.evaluate(1)

    assert after("B:0,0") > after("A:1,1")
    assert after("B:0,0") > after("C:0,0")


def test_evaluation_does_not_keep_bases_away_from_the_enemy_in_expansion_mode():
    """In expansion every base flown to a new world comes nearer the enemy: distance alone costs nothing there."""
    state = GAME.new_game(2, 0, {"victory": "expansion"})
    state.apply("found A:0,0")

    def after(hex_: str) -> float:
        other = state.clone()
        other.apply(f"found {hex_}")
        return other.evaluate(1)

    assert after("B:0,0") == pytest.approx(after("C:0,0"))


def test_evaluation_does_not_count_a_setup_position_as_won():
    """While the first bases are founded, the player who has founded first holds every base; that is no capture."""
    state = GAME.new_game(2, 0, {"victory": "capture"})
    state.apply("found A:0,0")
    founded = state.evaluate(0)
    assert founded < 0.95


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 10_000), steps_=st.integers(0, 400), victory=st.sampled_from(["expansion", "capture", "annihilation"]))
def test_evaluation_is_in_range_and_blind_to_hidden_cards(seed: int, steps_: int, victory: str):
    state = GAME.new_game(2, seed, {"victory": victory})
    rng = Rng(seed)
    for _ in range(steps_):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    values = [state.evaluate(p) for p in range(2)]
    assert all(-1.0 <= v <= 1.0 for v in values)
    if not state.is_over:
        other = state.determinize(0, Rng(seed + 1))
        assert [other.evaluate(p) for p in range(2)] == pytest.approx(values)


# -- Winning the game: option victory_check ---------------------------------------------------
CAPTURE_AT_ROUND_END = (
    piece("base", "A:0,0", 0, 3) + piece("base", "B:0,0", 1, 3) + piece("unit", "A:1,0", 1, 4) + piece("unit", "A:0,1", 0, 5)
)


def test_victory_is_checked_at_the_end_of_the_round_so_the_last_seat_has_the_last_word():
    """The seed: seat 1 takes seat 0's last base (4 against the Outpost's 3) in the round's last turn and wins before seat 0 answers."""
    state = GAME.new_game(2, 11, {"scenario": "round = 1\nturn = 1\n" + CAPTURE_AT_ROUND_END + HANDS, "victory": "capture"})
    state.apply("move scientists A:1,0 u4")
    state.apply("step A:0,0")
    state.apply("end")
    assert state.is_over and state.outcome.reason == "seat 1 wins by capture at the end of round 1"


def test_option_victory_check_answered_gives_every_other_player_one_turn_to_undo_a_victory():
    options = {"scenario": "round = 1\nturn = 1\n" + CAPTURE_AT_ROUND_END + HANDS, "victory": "capture", "victory_check": "answered"}
    answered = GAME.new_game(2, 11, options)
    answered.apply("move scientists A:1,0 u4")
    answered.apply("step A:0,0")
    answered.apply("end")  # seat 1 holds every base: it claims the victory, seat 0 gets one turn
    assert not answered.is_over and answered.current_player == 0
    assert "seat 1 meets the capture condition: it wins if it still does after the turn of seat 0" in answered.full_view()["events"]
    answered.apply("move scientists A:0,1 u5")
    answered.apply("step A:0,0")  # 5 beats the Titan Force (4) and takes the Outpost (3) back
    answered.apply("end")
    assert not answered.is_over and ["A:0,0", 0, 3] in answered.full_view()["bases"]  # the claim lapsed
    unanswered = GAME.new_game(2, 11, options)
    unanswered.apply("move scientists A:1,0 u4")
    unanswered.apply("step A:0,0")
    unanswered.apply("end")
    unanswered.apply("end")  # seat 0 does nothing: the victory stands at the end of its turn
    assert unanswered.is_over and unanswered.outcome.winners == (1,)
    assert unanswered.outcome.reason == "seat 1 wins by capture in round 2, every other player having had a turn to answer"


# -- The tie-break at the round limit: option tiebreak -----------------------------------------
# Seat 0 holds three bases, seat 1 one; seat 1's Titan Force (4) stands next to seat 0's Standard Base on C in the last round.
LAST_WORD = (
    piece("base", "A:0,0", 0, 3)
    + piece("base", "C:0,0", 0, 1)
    + piece("base", "D:0,0", 0, 1)
    + piece("base", "B:0,0", 1, 3)
    + piece("unit", "C:1,0", 1, 4)
)


def last_word(tiebreak: str):
    options = {"scenario": "round = 1\n" + LAST_WORD + HANDS, "round_limit": 1, "tiebreak": tiebreak, "victory": "capture"}
    state = GAME.new_game(2, 11, options)
    state.apply("end")  # seat 0's last turn ends with 21 territory against 7
    state.apply("move scientists C:1,0 u4")
    state.apply("step C:0,0")  # seat 1 takes the Standard Base: 14 territory each
    state.apply("end")
    return state


def test_tiebreak_round_end_counts_every_figure_after_the_last_seat_s_turn():
    """The default: the last seat's turn also takes from the others' figures; 14 territory each, then strength 4 against 8."""
    state = last_word("round-end")
    assert state.is_over and state.outcome.winners == (1,)
    assert state.outcome.reason.startswith("the round limit (1) was reached: seat 1 wins")


def test_tiebreak_own_turn_counts_each_player_s_figures_at_the_end_of_their_own_last_turn():
    """Seat 0's figures are taken when its own last turn ends (territory 21); seat 1's capture adds to its own (14)
    but no longer takes from seat 0's, so seat 0 wins on territory."""
    state = last_word("own-turn")
    assert state.is_over and state.outcome.winners == (0,)
    assert "figures at the end of each player's own last turn" in state.outcome.reason
    events = state.full_view()["events"]
    assert "seat 0's tie-break figures are taken: territory 21, strength 5, resources 0" in events
    assert "seat 1's tie-break figures are taken: territory 14, strength 8, resources 0" in events


def test_tiebreak_own_turn_takes_no_figures_before_the_last_round():
    options = {"scenario": "round = 1\n" + LAST_WORD + HANDS, "round_limit": 2, "tiebreak": "own-turn", "victory": "capture"}
    state = GAME.new_game(2, 11, options)
    state.apply("end")
    state.apply("end")  # round 1 of 2 is over
    assert not state.is_over and not any("tie-break figures" in e for e in state.full_view()["events"])


# -- Order of a round: option turn_order -------------------------------------------------------
THREE_HOMES = piece("base", "A:0,0", 0, 3) + piece("base", "B:0,0", 1, 3) + piece("base", "C:0,0", 2, 3)


def turns(state, count: int) -> list[tuple[int, int]]:
    """(round, seat) of the next ``count`` turns, each ended at once."""
    seen = []
    for _ in range(count):
        seen.append((state.full_view()["round"], state.current_player))
        state.apply("end")
    return seen


def test_order_of_a_round_fixed_begins_every_round_with_seat_0():
    state = GAME.new_game(3, 2, {"scenario": THREE_HOMES, "turn_order": "fixed"})
    assert turns(state, 6) == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert "order" not in state.full_view()


def test_order_of_a_round_rotating_begins_each_round_one_seat_further_on():
    state = GAME.new_game(3, 2, {"scenario": THREE_HOMES, "turn_order": "rotating"})
    assert turns(state, 9) == [(1, 0), (1, 1), (1, 2), (2, 1), (2, 2), (2, 0), (3, 2), (3, 0), (3, 1)]
    assert state.full_view()["order"] == [0, 1, 2]  # round 4 begins with seat 0 again


def test_order_of_a_round_rotating_skips_a_player_who_is_out():
    body = piece("base", "A:0,0", 0, 3) + piece("base", "C:0,0", 2, 3) + piece("unit", "A:1,0", 0, 2)
    state = GAME.new_game(3, 2, {"scenario": body, "turn_order": "rotating"})
    assert turns(state, 4) == [(1, 0), (1, 2), (2, 2), (2, 0)]  # round 2 would begin with seat 1, who has no piece


def test_order_of_a_round_rotating_checks_victory_after_the_round_s_own_last_seat():
    """Round 2 begins with seat 1, so seat 0 plays the round's last turn: its capture is judged before seat 1 answers."""
    body = "round = 2\nturn = 1\n" + HOME + piece("unit", "B:1,0", 0, 4)
    options = {"scenario": body + HANDS, "victory": "capture", "victory_check": "round", "turn_order": "rotating"}
    state = GAME.new_game(2, 11, options)
    state.apply("end")  # seat 1 opens round 2
    assert state.current_player == 0 and not state.is_over
    state.apply("move scientists B:1,0 u4")
    state.apply("step B:0,0")  # 4 against the Outpost's 3: captured
    state.apply("end")
    assert state.is_over and state.outcome.reason == "seat 0 wins by capture at the end of round 2"
