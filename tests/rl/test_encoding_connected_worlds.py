"""Connected Worlds' encoding (docs/learning.md, "Connected Worlds"): the option it needs, the space, the observation, who is out.

The invariants every encoding keeps (masks, indices, shapes, no leak) are
tests/rl/test_learning.py's, over random games; here what is Connected Worlds'
own, on positions set up from scenario notation.
"""

from __future__ import annotations

import numpy as np
import pytest

import astrarium
from astrarium.core.errors import ContractError
from astrarium.games.connected_worlds.learning import HEX_FEATURES
from astrarium.games.connected_worlds.state import ConnectedWorldsState
from astrarium.rl import gymnasium_env, openspiel_game, pettingzoo_env
from helpers import CW_HANDS
from helpers import cw_piece as piece

GAME = astrarium.get_game("connected-worlds")
STEPS = {"choices": "steps"}
HANDS = CW_HANDS


def position(body: str, **options: object):  # noqa: ANN201 (the game's own State)
    return GAME.new_game(2, 11, {"scenario": body + HANDS, **STEPS, **options})


HOME = piece("base", "A:0,0", 0, 1) + piece("base", "B:0,0", 1, 1)


def test_the_encoding_asks_for_choices_steps_by_name() -> None:
    for make in (
        lambda: GAME.action_space(2),
        lambda: GAME.new_game(2, 1).legal_action_mask(),
        lambda: pettingzoo_env("connected-worlds"),
        lambda: gymnasium_env("connected-worlds"),
        lambda: openspiel_game("connected-worlds"),
    ):
        with pytest.raises(ContractError, match=r"choices=steps.*options=\{'choices': 'steps'\}"):
            make()


@pytest.mark.parametrize(("players", "hexes", "world_hexes", "size"), [(2, 113, 76, 342), (3, 132, 95, 399), (4, 151, 114, 456)])
def test_the_space_is_its_labels_in_the_documented_order(players: int, hexes: int, world_hexes: int, size: int) -> None:
    labels = GAME.action_space(players, STEPS).labels
    assert len(labels) == size
    assert [label.split()[0] for label in labels].count("found") == world_hexes
    assert all(label.startswith("step ") for label in labels[world_hexes : world_hexes + hexes])
    assert labels[world_hexes + hexes : world_hexes + hexes + 2] == ("stop", "end")
    assert sum(label.startswith("at ") for label in labels) == hexes
    assert labels[-6:] == ("piece base", "piece u1", "piece u2", "piece u3", "piece u4", "piece u5")
    assert {"move harvester", "connect portal", "deploy assault-team", "gather harvester", "build engineers titan-force"} <= set(labels)


def test_a_scenarios_strongest_unit_widens_the_pieces() -> None:
    scenario = HOME + piece("unit", "A:0,0", 0, 12) + HANDS
    labels = GAME.action_space(2, {**STEPS, "scenario": scenario}).labels
    assert labels[-1] == "piece u12"
    state = position(HOME + piece("unit", "A:0,0", 0, 12))
    space = GAME.action_space(2, state.options)
    for part in ("move harvester", "at A:0,0", "piece u12"):
        state.apply(space.action(space.index(part), state))
    assert state.full_view()["moving"]["piece"] == "u12"


def test_the_pending_choice_and_its_hexes_are_in_every_seats_observation() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2))
    encoder = GAME.parts.learning.encoder(2, state.options)
    before = [state.observation_tensor(seat) for seat in (0, 1)]
    state.apply("move harvester")
    state.apply("at A:0,0")
    pending = encoder.segments.slice("pending")
    hexes = encoder.segments.slice("hexes")
    chosen = HEX_FEATURES.index("chosen")
    a00 = encoder.board.cell_ids["A:0,0"]
    for seat in (0, 1):
        seen = state.observation_tensor(seat)
        assert not np.array_equal(seen, before[seat])
        assert seen[pending].sum() == 3.0  # the verb, the card, the piece next
        assert seen[hexes].reshape(-1, encoder.hex_planes)[a00, chosen] == 1.0


def test_the_observation_is_seen_from_the_seat() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2) + piece("unit", "B:0,0", 1, 4))
    encoder = GAME.parts.learning.encoder(2, state.options)
    grids = [state.observation_tensor(seat)[encoder.segments.slice("hexes")].reshape(-1, encoder.hex_planes) for seat in (0, 1)]
    owner, units = len(HEX_FEATURES), len(HEX_FEATURES) + 2
    a00, b00 = encoder.board.cell_ids["A:0,0"], encoder.board.cell_ids["B:0,0"]
    assert grids[0][a00, owner] == 1.0 and grids[1][a00, owner + 1] == 1.0  # seat 0's base: "mine" for 0, "the next seat's" for 1
    assert grids[0][b00, units + 1] == pytest.approx(0.4) and grids[1][b00, units] == pytest.approx(0.4)
    assert state.observation_tensor(0)[encoder.segments.slice("to_move")].tolist() == [1.0, 0.0]
    assert state.observation_tensor(1)[encoder.segments.slice("to_move")].tolist() == [0.0, 1.0]


@pytest.mark.parametrize(("players", "observation", "world"), [(2, 1833, 1889), (3, 2557, 2641), (4, 3397, 3509)])
def test_the_shapes_are_the_documented_ones_and_the_order_of_play_is_one_place_a_seat(players: int, observation: int, world: int) -> None:
    state = GAME.new_game(players, 5, STEPS)
    while state.view()["phase"] != "main":
        state.apply(state.legal_actions()[0])
    state.apply("end")  # the first seat of the drawn order has played
    encoder = GAME.parts.learning.encoder(players, state.options)
    assert GAME.observation_shape(players, STEPS) == (observation,) and GAME.global_shape(players, STEPS) == (world,)
    for seat in range(players):
        seen = state.observation_tensor(seat)
        assert seen.min() >= 0.0 and np.isfinite(seen).all()
        places = seen[encoder.segments.slice("order")].reshape(players, players)
        assert (places.sum(axis=0) == 1.0).all() and (places.sum(axis=1) == 1.0).all()  # a permutation, one-hot rows
        assert seen[encoder.segments.slice("has_played")].tolist().count(1.0) == 1


MID_ROUND = "round = 2\nturn = 1\n"


def test_positions_differing_only_in_the_rounds_order_are_told_apart_and_the_first_to_play_sees_itself_first() -> None:
    drawn = position(MID_ROUND + HOME)  # a scenario's round is played in seat order: seat 0 has played, seat 1 is last
    rotating = position(MID_ROUND + HOME, turn_order="rotating")  # round 2 begins with seat 1: it is first, seat 0 last
    assert drawn.view(1)["order"] == [0, 1] and rotating.view(1)["order"] == [1, 0]
    for seat in (0, 1):
        assert {k: v for k, v in drawn.view(seat).items() if k != "order"} == {k: v for k, v in rotating.view(seat).items() if k != "order"}
        assert not np.array_equal(drawn.observation_tensor(seat), rotating.observation_tensor(seat))
    encoder = GAME.parts.learning.encoder(2, drawn.options)
    order, has_played = encoder.segments.slice("order"), encoder.segments.slice("has_played")

    def places(state: ConnectedWorldsState, seat: int) -> list[list[float]]:  # row k: the seat k places after the observer
        return state.observation_tensor(seat)[order].reshape(2, 2).tolist()

    assert places(rotating, 1) == [[1.0, 0.0], [0.0, 1.0]]  # seat 1 plays first: its own row has the first place
    assert places(rotating, 0) == [[0.0, 1.0], [1.0, 0.0]]
    assert places(drawn, 0) == [[1.0, 0.0], [0.0, 1.0]]
    assert drawn.observation_tensor(1)[has_played].tolist() == [0.0, 1.0]  # seat 1 to move sees seat 0's turn past
    assert rotating.observation_tensor(1)[has_played].tolist() == [0.0, 0.0]
    fixed = position(MID_ROUND + HOME, turn_order="fixed")  # the view names no order: seat order, as drawn here
    assert "order" not in fixed.view(0)
    assert all(np.array_equal(fixed.observation_tensor(seat), drawn.observation_tensor(seat)) for seat in (0, 1))


def test_a_player_without_pieces_is_out_once_the_first_bases_stand() -> None:
    state = position(piece("base", "A:0,0", 0, 1) + piece("unit", "B:0,0", 1, 2))
    assert [state.is_out(seat) for seat in (0, 1)] == [False, False]
    alone = position(piece("base", "A:0,0", 0, 1))
    assert [alone.is_out(seat) for seat in (0, 1)] == [False, True]
    kept = position(piece("base", "A:0,0", 0, 1), elimination=False)
    assert kept.is_out(1) is False
    setup = GAME.new_game(2, 1, STEPS)  # no base yet: nobody is out before founding
    assert [setup.is_out(seat) for seat in (0, 1)] == [False, False]


def test_the_global_tensor_holds_every_hand_and_deck() -> None:
    state = position(HOME)
    encoder = GAME.parts.learning.encoder(2, state.options)
    extra = state.global_tensor()[encoder.segments.size :].reshape(4, -1) * 5.0
    card = {c.slug: i for i, c in enumerate(encoder.cards.cards)}
    assert extra[1][card["harvester"]] == 2.0 and extra[2][card["harvester"]] == 2.0 and extra[3][card["engineers"]] == 1.0
