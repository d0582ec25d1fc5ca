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
games were checked equal before and after, and the search's digest did not change. The two cases
that play the hard scenario and the standard one with three players were recorded again for a change
of data alone (the hard map, the refugees needed with three players): the unchanged rules had given
the old digests on the old data just before.

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
        "4b9228b916e13fe5",
        "1364414d9d9773b7",
        "b666282cd3e6bf1b",
        "7ad551408262c761",
        "19bddee45581c0a0",
        "b0cf8e2feb517c11",
        "39cda3474fd9a13c",
        "f525b1d7f138ccec",
        "39b17f960fed62dc",
        "d1a29bdb31b6882d",
        "4904a8e812fbb465",
        "2c4d53946db1a754",
        "7fbbfae3526967ea",
        "19c75e87733a34c8",
        "53f0c988577e233c",
        "90b6d214d37c6386",
        "a77f1242bd48cd1a",
        "542de17e53f760dc",
        "cd1e8d7b9da7a62f",
        "ef2dee4ddd17ce37",
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
        "fd2b983d457a77db",
        "bc70fb5744fab032",
        "785f4bdb5cd9c4e1",
        "067b1464d4a16fc7",
        "ef10b9d4ed74b9e6",
        "1a1d1bb3e37585ba",
        "ce935b4ef7e48961",
        "c719488a55430fee",
        "cbcbd43d5a3372fc",
        "81203fae8b7c15f7",
        "f9ce6601d218050c",
        "3638b54b23a216bc",
        "a7e67da66826111f",
        "97fe1217317b0272",
        "bd9908b39702e018",
        "12c804d5a19b9c58",
        "9a74f4aafb935902",
        "a5890effad7029f0",
        "75fdf2272afe8590",
        "cbb4ccdb7e3f0c10",
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
