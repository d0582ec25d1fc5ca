"""The speed work on Streamlines changes how the rules compute, never what they decide.

Seeded random games over every scenario, player count and reading of the rules
are played through the public API; every position's legal action notations (in
order), its full view (deck order included), the mover's view and evaluation,
now and then a re-sampled world, and each game's record and returns are hashed.
The searching player's chosen moves from a few positions are hashed too. The
digests below were recorded from the rules before their hot paths were rewritten
for the compiled build, so the same digests prove that the faster rules (pure
Python or compiled) play exactly the same games, draw the same cards and make a
search choose the same moves. They were recorded again once, for a deliberate change of the
event log alone (an action in which several turns start, as lost ships' turns pass, keeps all
its events): the legal actions, the views without their events and the returns of 540 random
games were checked equal before and after, and the search's digest did not change.

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
        "65430a4776d2ed76",
        "11d1576bb3698845",
        "0fd26c97e7639e3d",
        "936e70b7c9794bfd",
        "0480707ccfb6d3f3",
        "83a5a8ca4b2f17b7",
        "93da757f54b4efe4",
        "dec0dab0bcb43857",
        "97b81573ab9f698a",
        "fb9619f0aed38347",
        "321d4a4d3afbf130",
        "beab3755f7a2768f",
        "a383733e501a7756",
        "33276e8efd672fc3",
        "0bc90b700f457b92",
        "fa5900620add8c97",
        "cfdaf1537b06d859",
        "af1067eba77769a3",
        "38a341f11af8edc5",
        "ca93567d4705e1e3",
    ],
    "introductory-4-carried": [
        "ef6f25afb006e23e",
        "1639ceb05deb1b96",
        "9b069344427fe16c",
        "dc8c2a5137f8800c",
        "e70f8457b9a46f06",
        "1694e12f7fdcf888",
        "8762765729ef28c8",
        "cca5329a08f0b6f4",
        "d715ce393b0f94c6",
        "ec9840f21dd46b7d",
        "5a0ba3be36e81468",
        "3e26769883bb4dbc",
        "306a3ea657cc8939",
        "97614b9516a13673",
        "f6ed19a99cef9319",
    ],
    "standard-2": [
        "e2bbe1618e888164",
        "c5f426409f6da8bf",
        "c61ef39f25196e8d",
        "160ed2e7a219cae5",
        "e0905cfed9bf7e52",
        "166c98361bd692b7",
        "9d40a4d5f0b28fe0",
        "bb99fbf80ae6fa92",
        "a127c221730f0be3",
        "3850d0fbbdd0b4d0",
        "861674e131f3742c",
        "75d3cb3f44e3420c",
        "179c0d10f0f221bb",
        "47d814c9814b09da",
        "9ca58641ab9325df",
        "37cc073370f0000c",
        "31185610f33488ac",
        "a8b7ab2b213ee751",
        "05bf2e5a30126ff9",
        "57f7a4a439e8e909",
        "05b4adcd4f3265cb",
        "b3fc9955ab2a4e21",
        "6bfcdcf5848c0c4d",
        "96ab6e6c89ab4e9c",
        "39c6d9d73bac8a35",
        "f00b3db7d65da42e",
        "296dfeb96bcf13e7",
        "c107f1feb5fa4b8d",
        "05b0ff126ae50b51",
        "ffc027f5f2f7b26a",
        "be87dedb1dc63aaa",
        "879144f12d5bdbd2",
        "0ac06d9c038f0ca2",
        "f715b1ef9c93cb0d",
        "f10c16e0a055cc8c",
        "cb12456abbd020dd",
        "8593f3d1a0231d5e",
        "86e7004950703b99",
        "1be90ef9e6c857b9",
        "b9d6fc73b00b2cff",
    ],
    "standard-2-gates": [
        "dc8b7cea779e2f72",
        "09077109fce04646",
        "7a8c634fb5e85f4e",
        "1cb6ec4e191bf274",
        "220c61d7d365191e",
        "295decdddfa5605d",
        "08a8b3370e9db474",
        "ff644a2357514164",
        "1c1bc4444665e88c",
        "6e79ab0aee72703f",
        "a6ab354347896b69",
        "382820a7f5610154",
        "65ed85cbcb2d80b7",
        "3bde1c3ba456b25e",
        "aaa30d7c3541d62d",
        "d8ccc4890b070a2b",
        "ddfbe40317c7d3ba",
        "4d4a6f0f83a3ad07",
        "b4b8fd39eb710127",
        "add0eb4c308dc48a",
    ],
    "standard-3": [
        "ad2894830ac5164a",
        "56a0e0ce94e2bce5",
        "935649f4f1c57136",
        "1c46e9b7aa39e898",
        "862f48a7f7429eba",
        "0fb2da5e2fbc0267",
        "4c4c0dd2644bfd86",
        "35659ee6148b4cef",
        "d5e2ce1a48fec68e",
        "49a5b38e084b74eb",
        "a63cbde6174f3c07",
        "c86e3e17ab82a355",
        "4a5f3fe6701e08ea",
        "a6e7d572686ff52c",
        "5d72017ebec2917d",
        "ad10ee8d842437dc",
        "74282fcfbffef23b",
        "ec9f47401098df11",
        "3ed20de29e1d0e0e",
        "0b62f9dcffc22499",
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
