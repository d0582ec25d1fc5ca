"""The speed work on Streamlines changes how the rules compute, never what they decide.

Seeded random games over every scenario, player count and reading of the rules
are played through the public API; every position's legal action notations (in
order), its full view (deck order included), the mover's view and evaluation,
now and then a re-sampled world, and each game's record and returns are hashed.
The searching player's chosen moves from a few positions are hashed too. The
digests below were recorded from the rules before their hot paths were rewritten
for the compiled build, so the same digests prove that the faster rules (pure
Python or compiled) play exactly the same games, draw the same cards and make a
search choose the same moves.

To print the digests of the running rules (only for a deliberate change of the rules)::

    PYTHONPATH=tests python tests/games/streamlines/test_streamlines_speed_equivalence.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

import astrarium
from astrarium.agents import MCTSAgent
from astrarium.core import Rng
from astrarium.core.game import _native_fields
from astrarium.games.streamlines.state import StreamlinesState
from helpers import feed, game_digest

#: case name -> (players, options, games). Seeds are 0..games-1.
CASES: dict[str, tuple[int, dict[str, Any], int]] = {
    "standard-2": (2, {}, 40),
    "standard-3": (3, {}, 20),
    "introductory-4-carried": (4, {"scenario": "introductory", "movement": "carried"}, 15),
    "hard-2-collapse-free-lay": (2, {"scenario": "hard", "events": "collapse", "free_lay": True}, 20),
    "standard-2-gates": (2, {"gate_pairs": 4, "pickup_cards": 6, "engineering_cards": 6, "extra_move_cards": 6}, 20),
}

#: The first 16 hex digits of every game's digest, by case, in seed order (recorded; see the module docstring).
RECORDED: dict[str, list[str]] = {
    "hard-2-collapse-free-lay": [
        "2de7bf2fa0d4c796",
        "f885be6c8c4998fc",
        "910e18898fdc8d6a",
        "165929a466aba6fa",
        "62ed123d6d9c991a",
        "92ab727df6e3ab90",
        "a03fd0a720efd3f5",
        "860483eb316a1def",
        "ec85b57187df88a1",
        "38e3acfbf94f876c",
        "48899fcda0dbabf2",
        "c82c5c05b9620ec3",
        "47d5e6ea2d9a275a",
        "23ebcd54789fde4c",
        "70a442d230afdf51",
        "27f4b4e06fe1ab68",
        "c48f1986fbd501d0",
        "6d7e601ae85e7506",
        "80820199114e1481",
        "2f7b1d16eb6d2e23",
    ],
    "introductory-4-carried": [
        "6d5c74105023b713",
        "d05fcc882677cd39",
        "9b069344427fe16c",
        "053c1cee593423ac",
        "983c3321f029674a",
        "9915e62e132dc157",
        "ba729f64561425a9",
        "839eeb8257a768a9",
        "b1ae58f94c261b98",
        "6e86215b6df56492",
        "9d336d018b115b66",
        "cab98645c690aa97",
        "9d4d25330979474a",
        "4f1c8cf0d07f8272",
        "e7910ccb0717e2d4",
    ],
    "standard-2": [
        "0c70445d89828a12",
        "28aaf7d467394fc1",
        "bed831a995ea874b",
        "3baeda162d6fac11",
        "03f3f9a5bbb73e4d",
        "32b79870cb456b8c",
        "3c424491f42790f7",
        "9d7201839e312101",
        "86be910d0765009b",
        "07c39659f64d1b0e",
        "1eb26dd21659f809",
        "c811ee895ea83a65",
        "51dbbb7aaa346f0e",
        "1afc9b7b43a100ea",
        "ff5dd928dcb0ebf1",
        "d8a5785e937d37af",
        "92825ceeb1ab411c",
        "0019df4ba7d86dce",
        "07a3c5bcf4b65e00",
        "a1897acc54b3e53f",
        "02f9b1d8c4826fe8",
        "3c7854e42904747e",
        "5f02ccac6484955c",
        "c8a00c3fc065b25d",
        "18815ab5b20347d7",
        "498e2438762dd0e5",
        "8af190c8b4bbeaa1",
        "2a0bbf1b6add6914",
        "ab965f6a5f35d2fa",
        "5b532c9a9a96a7f2",
        "aa5c8f7de6e1e46b",
        "2abe13566972fbf2",
        "912422252b199e25",
        "de3b9df8279a589f",
        "b360c49a7b251438",
        "aee4606ca02e3fcf",
        "95bb5d35cf4c7b7b",
        "23f5298ce617ae43",
        "f365218d65e96908",
        "b2c947935efb1a66",
    ],
    "standard-2-gates": [
        "50698ff72dfb9671",
        "2b0250b4c5a73a7b",
        "d87da561151e05f7",
        "edfac1707a4ded55",
        "d6b390320e420e37",
        "b45684d99f12c891",
        "3bb783e593cbfc8b",
        "e0c381c4ba095dfe",
        "857eb2e7d31b1c9e",
        "0042b5e8f26132d8",
        "430005b2007755dc",
        "5fc6db75e4c3d851",
        "338ea752b6f9cccd",
        "831510c03c12da42",
        "6e35b111fd9f01fc",
        "0b1b7687578f83bf",
        "01d40a3f11ab402e",
        "04d1522f80ee85f1",
        "68224f1ee51a7a5d",
        "9d09c7309930ab8d",
    ],
    "standard-3": [
        "a4a226354f4e2e5f",
        "67a33194c32084cd",
        "94bdaac7ae16c7ba",
        "e374fc1cbc052631",
        "274befd16c17a665",
        "b641a43657304f4f",
        "0c945a95f09508f0",
        "7d7274c7d86af222",
        "2414b114a3e1d555",
        "f71b6ae6b4823802",
        "d85b20b347d1ec7b",
        "0b6a9bef9aeaa9a5",
        "2722066d57c94d94",
        "5415f48e26d7c265",
        "5034f7384a0e39de",
        "48b1e820263351eb",
        "9c365bdca9cb303b",
        "566763e86aa22972",
        "5f7dbe1fc3ec0005",
        "2d3b617c3a96bf2a",
    ],
}

#: The digest of the moves a seeded search chooses (recorded with the games).
RECORDED_SEARCH = "d304d2256c76b9649b360a95e06acb4637fcf2b563a8c9a1685eac87fefd8f75"


def case_digests(name: str) -> list[str]:
    players, options, games = CASES[name]
    return [game_digest("streamlines", players, options, seed, resample=(7, 3)) for seed in range(games)]


def search_digest() -> str:
    """The moves seeded searches choose along a few games (each search re-samples worlds and plays rollouts)."""
    digest = hashlib.sha256()
    for seed in range(3):
        state = astrarium.get_game("streamlines").new_game(2, seed)
        agent = MCTSAgent(seed=seed, iterations=30)
        for _ in range(6):
            if state.is_over:
                break
            action = agent.choose(state)
            feed(digest, str(action))
            state.apply(action)
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_random_games_play_exactly_as_recorded(name: str) -> None:
    expected = RECORDED[name]
    got = case_digests(name)
    assert len(got) == len(expected) == CASES[name][2]
    for seed, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"{name}: the game with seed {seed} plays differently from the recorded one"


def test_every_case_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(CASES)


def test_a_search_chooses_the_recorded_moves() -> None:
    assert search_digest() == RECORDED_SEARCH


def test_a_copy_has_every_field_of_the_original() -> None:
    """``clone`` (which a compiled build does field by field) leaves out no field, and shares no list."""
    state = astrarium.get_game("streamlines").new_game(3, 5, {"gate_pairs": 3})
    chooser = Rng(11)
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[chooser.below(len(legal))])
    copy = state.clone()
    # The game's own fields (the core copies its own): as a compiled class lists them, else as annotated.
    fields = list(_native_fields(StreamlinesState) or StreamlinesState.__annotations__)
    assert "deck" in fields and "gate_stopped" in fields
    for name in fields:
        assert getattr(copy, name) == getattr(state, name), name
        if isinstance(getattr(state, name), list):
            assert getattr(copy, name) is not getattr(state, name), name
    assert copy.full_view() == state.full_view()


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: PYTHONPATH=tests python tests/games/streamlines/test_streamlines_speed_equivalence.py --record")
    print(json.dumps({name: case_digests(name) for name in sorted(CASES)}, indent=1))
    print(search_digest())
