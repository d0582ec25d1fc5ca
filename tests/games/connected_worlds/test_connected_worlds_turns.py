"""Setup, Order of a round/turn, Cards and the Player's Deck, Special actions, Resources."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction
from helpers import examples

GAME = astrarium.get_game("connected-worlds")


def position(body: str, p0: str, p1: str = "", **options):
    p1 = p1 or 'hand = ["harvester"]\ndeck = ["harvester", "scientists", "engineers", "assault-team", "portal"]\n'
    text = f"{body}\n[[player]]\n{p0}\n[[player]]\n{p1}\n"
    return GAME.new_game(2, 5, {"scenario": text, **options})


HOME = '[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 1\n[[base]]\nat = "B:0,0"\nowner = 1\nstrength = 1\n'


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_setup_one_planet_board_per_player_plus_neutral_worlds_on_homeworld_hexes():
    for players in (2, 3, 4):
        state = GAME.new_game(players, 0)
        board = state.board
        kinds = Counter(w.kind for w in board.worlds)
        assert kinds["player"] == players and len(board.worlds) >= 3
        assert all(board.cell_names[w.space_cell].startswith("S:") for w in board.worlds)


def test_setup_each_player_places_one_base_on_a_world_of_their_choosing():
    state = GAME.new_game(2, 0)
    assert state.current_player == 0
    assert all(str(a).startswith("found ") and not str(a).startswith("found S:") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="not in space"):
        state.apply("found S:0,0")
    state.apply("found C:0,0")
    assert state.current_player == 1
    with pytest.raises(IllegalAction, match="same hex"):
        state.apply("found C:0,0")
    state.apply("found C:1,0")  # the same world: fight!
    assert state.full_view()["bases"] == [["C:0,0", 0, 3], ["C:1,0", 1, 3]]  # an Outpost each (option first_base)
    view = state.full_view()
    assert view["phase"] == "main" and state.current_player == view["order"][0]  # the first round's order is drawn


def test_setup_starting_deck_of_ten_cards():
    state = GAME.new_game(3, 4)
    for row in state.full_view()["players"]:
        cards = Counter(row["hand"]) + Counter(row["deck_order"])
        assert cards == Counter(harvester=3, portal=1, scientists=2, engineers=2, **{"assault-team": 1, "standard-base": 1})
        assert len(row["hand"]) == 5


def test_setup_each_player_shuffles_their_starting_deck():
    orders = {tuple(GAME.new_game(2, seed).full_view()["players"][0]["deck_order"]) for seed in range(8)}
    assert len(orders) > 1


def test_round_players_play_in_turn_clockwise_from_seat_0_in_the_seed_s_fixed_order():
    state = GAME.new_game(3, 2, {"turn_order": "fixed"})
    for seat in range(3):
        assert state.current_player == seat
        state.apply(state.legal_actions()[0])  # setup: each seat founds its first base in turn
    seen = []
    for _ in range(6):
        seen.append(state.current_player)
        state.apply("end")
    assert seen == [0, 1, 2, 0, 1, 2]
    assert state.full_view()["round"] == 3


def test_turn_hand_and_played_cards_go_to_the_discard_pile_and_five_are_drawn():
    deck = 'deck = ["engineers", "portal", "harvester", "harvester", "scientists", "excavater"]'
    state = position(HOME, f'hand = ["harvester", "scientists"]\n{deck}')
    state.apply("gather harvester")
    state.apply("end")
    me = state.full_view()["players"][0]
    assert me["discard"] == {"harvester": 1, "scientists": 1}
    assert me["hand"] == ["scientists", "engineers", "portal", "harvester", "harvester"]  # the top 5, in table order
    assert me["deck_order"] == ["excavater"]


def test_turn_when_the_deck_runs_out_the_discard_pile_is_shuffled_into_a_new_deck():
    state = position(HOME, 'hand = ["harvester", "scientists", "portal"]\ndeck = ["engineers"]\ndiscard = ["excavater", "excavater"]')
    state.apply("end")
    me = state.full_view()["players"][0]
    # Step 3 discards the hand (3 cards) onto 2; the draw takes engineers, then reshuffles the 5 discards.
    assert me["discard"] == {}
    assert len(me["hand"]) == 5 and "engineers" in me["hand"]
    assert Counter(me["hand"]) + Counter(me["deck_order"]) == Counter(engineers=1, excavater=2, harvester=1, scientists=1, portal=1)


def test_cards_do_not_have_to_be_played():
    state = position(HOME, 'hand = ["harvester"]\ndeck = []')
    assert legal(state)[-1] == "end"
    state.apply("end")
    assert state.current_player == 1


def test_gather_resources_standard_harvesters_gather_3():
    state = position(HOME, 'hand = ["harvester", "excavater", "plasma-furnace"]\ndeck = []')
    state.apply("gather harvester")
    assert state.full_view()["players"][0]["resources"] == 3
    state.apply("gather excavater")
    state.apply("gather plasma-furnace")
    assert state.full_view()["players"][0]["resources"] == 12


def test_resources_persist_between_turns_without_limit():
    state = position(HOME, 'resources = 100\nhand = ["harvester"]\ndeck = []')
    state.apply("gather harvester")
    state.apply("end")
    state.apply("end")
    assert state.full_view()["players"][0]["resources"] == 103


def test_research_buys_any_affordable_action_card_into_the_discard_pile():
    state = position(HOME, 'resources = 6\nhand = ["scientists"]\ndeck = []')
    buys = sorted(a.removeprefix("research scientists ") for a in legal(state) if a.startswith("research"))
    assert buys == ["engineers", "excavater", "harvester", "scientists"]  # cost <= 6, action cards only
    with pytest.raises(IllegalAction, match="costs 8"):
        state.apply("research scientists portal")
    with pytest.raises(IllegalAction, match="Research buys action cards"):
        state.apply("research scientists assault-team")
    state.apply("research scientists excavater")
    me = state.full_view()["players"][0]
    assert me["resources"] == 0 and me["discard"] == {"excavater": 1} and me["bought"] == 1


def test_build_units_buys_any_affordable_unit_card():
    state = position(HOME, 'resources = 10\nhand = ["engineers"]\ndeck = []')
    buys = sorted(a.removeprefix("build engineers ") for a in legal(state) if a.startswith("build"))
    assert buys == ["advanced-base", "armoured-core", "assault-team", "standard-base"]
    state.apply("build engineers advanced-base")
    assert state.full_view()["players"][0]["discard"] == {"advanced-base": 1}


def test_unit_cards_can_only_be_deployed_and_deploying_removes_the_card():
    state = position(HOME, 'hand = ["assault-team", "harvester"]\ndeck = []')
    assert not any(a.startswith(("move assault-team", "gather assault-team")) for a in legal(state))
    state.apply("deploy assault-team A:1,0")
    view = state.full_view()
    assert view["units"] == [["A:1,0", 0, 2, False]]
    assert view["players"][0]["deployed"] == 1 and "assault-team" not in view["players"][0]["hand"]
    state.apply("end")
    me = state.full_view()["players"][0]
    assert "assault-team" not in me["discard"] and "assault-team" not in me["deck_order"]


def test_deployment_of_a_base_card_makes_a_base_of_its_strength():
    state = position(HOME, 'hand = ["outpost"]\ndeck = []')
    with pytest.raises(IllegalAction, match="same hex"):
        state.apply("deploy outpost A:0,0")
    state.apply("deploy outpost A:0,1")
    assert ["A:0,1", 0, 3] in state.full_view()["bases"]


def test_illegal_card_plays_name_the_rule():
    state = position(HOME, 'hand = ["harvester"]\ndeck = []')
    with pytest.raises(IllegalAction, match="hold no"):
        state.apply("gather excavater")
    with pytest.raises(IllegalAction, match="special action of Harvester"):
        state.apply("research harvester scientists")
    with pytest.raises(IllegalAction, match="no hex"):
        state.apply("move harvester Q:9,9 u2")
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply("fly away")


def round_orders(state, rounds: int) -> list[list[int]]:
    """The seats in the order they took their turns, round by round, each turn ended at once."""
    orders: list[list[int]] = []
    while len(orders) < rounds:
        number = state.full_view()["round"]
        orders.append([])
        while state.full_view()["round"] == number:
            orders[-1].append(state.current_player)
            state.apply("end")
    return orders


def test_round_the_order_of_play_is_drawn_as_each_round_begins():
    """Option turn_order = drawn (the default): the orders differ from round to round and from game to game."""
    seen: set[tuple[int, ...]] = set()
    for seed in range(6):
        state = GAME.new_game(3, seed)
        for _ in range(3):
            state.apply(state.legal_actions()[0])  # setup: the first bases are founded in seat order
        seen.update(tuple(order) for order in round_orders(state, 4))
    assert len(seen) >= 4  # not one fixed order


@settings(max_examples=examples(20))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), order=st.sampled_from(["drawn", "fixed", "rotating"]))
def test_round_every_player_takes_one_turn_a_round_in_every_order(seed: int, players: int, order: str):
    state = GAME.new_game(players, seed, {"turn_order": order})
    for _ in range(players):
        state.apply(state.legal_actions()[0])
    for taken in round_orders(state, 3):
        assert sorted(taken) == list(range(players))
        if order == "fixed":
            assert taken == list(range(players))


def test_round_the_drawn_order_is_in_the_view_and_replays_from_the_record():
    state = GAME.new_game(4, 7)
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    first = state.full_view()["order"]
    assert sorted(first) == [0, 1, 2, 3] and state.current_player == first[0]
    for _ in range(4):
        state.apply("end")
    again = astrarium.replay(state.to_record())
    assert again.full_view()["order"] == state.full_view()["order"] and again.current_player == state.current_player
