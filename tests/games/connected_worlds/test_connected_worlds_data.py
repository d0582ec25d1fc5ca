"""Maps and card tables as data: bad files name the file and the entry; bad options name the option."""

from __future__ import annotations

from pathlib import Path

import pytest

import astrarium
from astrarium.core import DataError, OptionError
from astrarium.games.connected_worlds.data import load_cards, shipped_maps

GAME = astrarium.get_game("connected-worlds")

GOOD_MAP = """
name = "Designer's triangle"
players = [2]
{deck}
[space]
radius = 2
homeworlds = {homeworlds}

[[world]]
key = "A"
name = "Alpha"
radius = 1
at = [-1, 0]

[[world]]
key = "B"
name = "Beta"
radius = 1
at = {b_at}

[[world]]
key = "C"
name = "Gamma"
hexes = [[0, 0], [1, 0], [0, 1]]
at = [0, -1]
"""


def write_map(tmp_path: Path, *, deck: str = "", homeworlds: str = "[[-1, 0], [1, 0], [0, -1]]", b_at: str = "[1, 0]") -> str:
    path = tmp_path / "designer-map.toml"
    path.write_text(GOOD_MAP.format(deck=deck, homeworlds=homeworlds, b_at=b_at), encoding="utf-8")
    return str(path)


def test_card_table_keeps_the_seeds_numbers():
    cards = {c.slug: c for c in load_cards().cards}
    actions = {s: (c.cost, c.movement, c.special.value, c.resources) for s, c in cards.items() if not c.is_unit}
    assert actions == {
        "scientists": (5, 1, "research", 0),
        "engineers": (5, 1, "build units", 0),
        "portal": (8, 2, "connect bases", 0),
        "harvester": (3, 3, "gather resources", 3),
        "excavater": (6, 2, "gather resources", 4),
        "plasma-furnace": (9, 1, "gather resources", 5),
    }
    units = {s: (c.strength, c.cost, c.is_base) for s, c in cards.items() if c.is_unit}
    assert units == {
        "standard-base": (1, 5, True),
        "advanced-base": (2, 10, True),
        "outpost": (3, 20, True),
        "metroplex": (4, 40, True),
        "assault-team": (2, 3, False),
        "armoured-core": (3, 6, False),
        "titan-force": (4, 12, False),
        "capital-army": (5, 24, False),
    }


def test_shipped_maps_cover_two_three_and_four_players():
    assert {"default-2p", "default-3p", "default-4p"} <= set(shipped_maps())
    for players in (2, 3, 4):
        assert GAME.new_game(players, 0).board.players == (players,)


def test_a_designers_map_file_loads_by_path(tmp_path):
    state = GAME.new_game(2, 1, {"map": write_map(tmp_path)})
    assert state.board.name == "Designer's triangle"
    assert len(state.board.worlds) == 3 and state.board.size == 19 + 7 + 7 + 3


def test_a_map_with_a_hex_outside_the_board_names_the_file_and_the_entry(tmp_path):
    path = write_map(tmp_path, homeworlds="[[-1, 0], [1, 0], [0, -1], [5, 0]]")
    with pytest.raises(DataError, match=r"designer-map\.toml: space\.homeworlds\.#4: hex \[5, 0\] is outside the space board"):
        GAME.new_game(2, 1, {"map": path})


def test_a_map_with_a_world_outside_the_board_names_the_world(tmp_path):
    path = write_map(tmp_path, b_at="[3, 0]")
    with pytest.raises(DataError, match=r"designer-map\.toml: world 'B'\.at: hex \[3, 0\] is outside the space board"):
        GAME.new_game(2, 1, {"map": path})


def test_a_map_with_two_homeworlds_on_one_hex_names_the_file_and_the_entry(tmp_path):
    path = write_map(tmp_path, b_at="[-1, 0]")
    with pytest.raises(DataError, match=r"designer-map\.toml: world 'B'\.at: two homeworlds on one hex \[-1, 0\]"):
        GAME.new_game(2, 1, {"map": path})
    path = write_map(tmp_path, homeworlds="[[-1, 0], [1, 0], [-1, 0]]")
    with pytest.raises(DataError, match=r"space\.homeworlds\.#3: two homeworlds on one hex"):
        GAME.new_game(2, 1, {"map": path})


def test_an_unknown_card_name_in_a_deck_names_the_file_and_the_entry(tmp_path):
    path = write_map(tmp_path, deck='[deck]\nharvester = 5\n"Death Star" = 1\n')
    with pytest.raises(DataError, match=r"designer-map\.toml: deck\.Death Star: unknown card 'Death Star'"):
        GAME.new_game(2, 1, {"map": path})


def test_a_map_deck_replaces_the_starting_deck(tmp_path):
    path = write_map(tmp_path, deck='deck = ["Harvester", "Harvester", "Plasma Furnace", "Titan Force", "portal", "scientists"]')
    row = GAME.new_game(2, 1, {"map": path}).full_view()["players"][0]
    assert sorted(row["hand"] + row["deck_order"]) == ["harvester", "harvester", "plasma-furnace", "portal", "scientists", "titan-force"]


def test_an_unknown_card_in_a_card_tables_starting_deck_names_the_entry(tmp_path):
    text = (Path(astrarium.games.connected_worlds.__file__).parent / "cards.toml").read_text(encoding="utf-8")
    path = tmp_path / "my-cards.toml"
    path.write_text(text.replace("portal = 1", "warp-gate = 1"), encoding="utf-8")
    with pytest.raises(DataError, match=r"my-cards\.toml: starting_deck\.warp-gate: unknown card"):
        GAME.new_game(2, 1, {"cards": str(path)})


def test_a_card_table_with_an_unknown_special_action_names_the_card(tmp_path):
    text = (Path(astrarium.games.connected_worlds.__file__).parent / "cards.toml").read_text(encoding="utf-8")
    path = tmp_path / "bad-cards.toml"
    path.write_text(text.replace('action = "research"', 'action = "teleport"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"bad-cards\.toml: action\.scientists\.action: Input should be 'research', .* \(got 'teleport'\)"):
        GAME.new_game(2, 1, {"cards": str(path)})


def test_a_scenario_with_a_hex_off_the_map_names_the_entry():
    with pytest.raises(DataError, match=r"scenario: unit\.#1\.at: hex 'Z:9,9' is not on the map"):
        GAME.new_game(2, 1, {"scenario": '[[unit]]\nat = "Z:9,9"\nowner = 0\nstrength = 2\n'})
    with pytest.raises(DataError, match=r"scenario: base\.#2: two bases on one hex"):
        GAME.new_game(2, 1, {"scenario": '[[base]]\nat="A:0,0"\nowner=0\nstrength=1\n[[base]]\nat="A:0,0"\nowner=1\nstrength=1\n'})
    with pytest.raises(DataError, match=r"scenario: player\.#1\.hand\.#1: unknown card 'laser'"):
        GAME.new_game(2, 1, {"scenario": '[[player]]\nhand = ["laser"]\n[[player]]\n'})


def test_bad_options_name_the_option(tmp_path):
    with pytest.raises(OptionError, match="'map'.*is for \\(2,\\) players, not 3"):
        GAME.new_game(3, 1, {"map": write_map(tmp_path)})
    with pytest.raises(OptionError, match="'victory'"):
        GAME.new_game(2, 1, {"victory": "diplomacy"})
    with pytest.raises(OptionError, match="'worlds_needed'"):
        GAME.new_game(2, 1, {"worlds_needed": 7})
    with pytest.raises(DataError, match="no shipped map called 'atlantis'"):
        GAME.new_game(2, 1, {"map": "atlantis"})
    with pytest.raises(DataError, match="cannot read"):
        GAME.new_game(2, 1, {"map": str(tmp_path / "missing.toml")})


def test_actions_on_a_designers_map_name_that_maps_hexes(tmp_path):
    GAME.new_game(2, 1).legal_actions()  # the default map first, in the same process
    state = GAME.new_game(2, 1, {"map": write_map(tmp_path)})
    names = set(state.board.cell_names)
    for action in state.legal_actions():
        assert str(action).split()[1] in names
        assert state.parse_action(str(action)) == action
    assert "found C:1,0" in [str(a) for a in state.legal_actions()]
