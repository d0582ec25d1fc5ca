"""Bad input of every kind gets a clear error and changes nothing: notations, crafted actions, card tables, maps, scenarios.

Also the public knowledge ``determinize`` must keep: cards a draw showed to be in a hand.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, OptionError, Rng, State
from astrarium.core.data import read_data
from astrarium.games.connected_worlds import actions as A
from astrarium.games.connected_worlds.data import MAX_BOARD_HEXES, MAX_DECK, MAX_STRENGTH, MAX_WORLDS, PACKAGE
from helpers import examples

GAME = astrarium.get_game("connected-worlds")
CARDS_TOML = (Path(astrarium.games.connected_worlds.__file__).parent / "cards.toml").read_text(encoding="utf-8")
HOME = '[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 1\n[[base]]\nat = "B:0,0"\nowner = 1\nstrength = 1\n'
SMALL_MAP = """
name = "Designer's triangle"
players = [2]

[space]
radius = 2
homeworlds = [[-1, 0], [1, 0], [0, -1]]

[[world]]
key = "{key}"
name = "Alpha"
radius = 1
at = [-1, 0]

[[world]]
key = "B"
name = "Beta"
radius = 1
at = [1, 0]

[[world]]
key = "C"
name = "Gamma"
hexes = [[0, 0], [1, 0], [0, 1]]
at = [0, -1]
"""


def snapshot(state: State) -> str:
    """Everything a change could show in: every seat's view, the spectator's, and the record."""
    views = [state.view(seat) for seat in [None, *range(state.players)]]
    return json.dumps([views, state.to_record()], sort_keys=True)


def refused_unchanged(state: State, action: Any) -> str:
    """``apply(action)`` raises IllegalAction (nothing else) and the state is exactly as before; returns the reason."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert snapshot(state) == before
    return str(err.value)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def unit_position() -> State:
    """Seat 0 to play with a strength-1 unit on A:1,0 and a Harvester in hand."""
    scenario = HOME + '[[unit]]\nat = "A:1,0"\nowner = 0\nstrength = 1\n[[player]]\nhand = ["harvester", "scientists"]\n[[player]]\n'
    return GAME.new_game(2, 3, {"scenario": scenario})


# -- digits that str.isdigit() accepts but int() refuses ------------------------------------


@pytest.mark.parametrize("text", ["move portal C:-1,1 u³", "move harvester A:1,0 u²", "move harvester A:1,0 u١", "move harvester A:1,0 u𝟙"])
def test_a_unit_strength_in_unicode_digits_is_an_illegal_action(text: str) -> None:
    for state in (GAME.new_game(2, 0), unit_position()):
        assert "digits 0-9" in refused_unchanged(state, text)


def test_a_unit_strength_is_at_most_two_digits_and_the_reason_is_short() -> None:
    state = unit_position()
    assert "1 to 99" in refused_unchanged(state, "move harvester A:1,0 u" + "9" * 400)
    assert "1 to 99" in refused_unchanged(state, "move harvester A:1,0 u100")
    assert "1 to 99" in refused_unchanged(state, "move harvester A:1,0 u0")
    assert len(refused_unchanged(state, "move harvester A:1,0 " + "u" * 450)) < 300
    state.apply("move harvester A:1,0 u01")  # leading zeros are still ASCII digits
    assert state.history == ["move harvester A:1,0 u1"]


# -- the generic item B: action objects of the right type with fields of the wrong type -----------------------


def test_action_objects_with_fields_of_the_wrong_type_are_refused_with_a_reason() -> None:
    state = unit_position()
    assert "move harvester A:1,0 u1" in [str(a) for a in state.legal_actions()]
    crafted = [
        A.Move("harvester", "A:1,0", 1.0),  # type: ignore[arg-type]
        A.Move("harvester", "A:1,0", True),
        A.Move("harvester", "A:1,0", -1),
        A.Move("harvester", "A:1,0", 10**5000),
        A.Move("harvester", "A:1,0", None),  # type: ignore[arg-type]
        A.Move("harvester", None, 1),  # type: ignore[arg-type]
        A.Found([1]),  # type: ignore[arg-type]
        A.Found(None),  # type: ignore[arg-type]
        A.Found(5),  # type: ignore[arg-type]
        A.Step({"a": 1}),  # type: ignore[arg-type]
        A.Gather(None),  # type: ignore[arg-type]
        A.Gather(["harvester"]),  # type: ignore[arg-type]
        A.Research("scientists", 3.5),  # type: ignore[arg-type]
        A.Connect("portal", "A:0,0", b"B:0,0"),  # type: ignore[arg-type]
        A.Deploy("assault-team", float("nan")),  # type: ignore[arg-type]
        A.Deploy("x" * 100_000, "A:0,0"),
        None,
        10**5000,
        ("gather", "harvester"),
    ]
    for action in crafted:
        reason = refused_unchanged(state, action)
        assert len(reason) < 400
    assert "whole number" in refused_unchanged(state, A.Move("harvester", "A:1,0", 1.0))  # type: ignore[arg-type]
    assert "whole number" in refused_unchanged(state, A.Move("harvester", "A:1,0", True))
    assert "written as text" in refused_unchanged(state, A.Found([1]))  # type: ignore[arg-type]
    assert "not an action of Connected Worlds" in refused_unchanged(state, None)
    assert state.history == []


def test_a_card_written_by_its_printed_name_plays_as_its_slug(tmp_path: Path) -> None:
    cards = write(tmp_path, "cards.toml", CARDS_TOML.replace('name = "Harvester"', 'name = "Big Digger"'))
    scenario = HOME + '[[player]]\nhand = ["big digger"]\n[[player]]\n'
    state = GAME.new_game(2, 3, {"cards": cards, "scenario": scenario})
    state.apply("gather Big-Digger")
    assert state.history == ["gather harvester"]
    assert state.full_view()["players"][0]["resources"] == 3
    state = GAME.new_game(2, 3, {"cards": cards, "scenario": scenario})
    assert "by its slug: harvester" in refused_unchanged(state, A.Gather("big-digger"))


# -- every count in card tables, maps and scenarios is bounded --------------------------------


@pytest.mark.parametrize(
    "old,new,entry,message",
    [
        ("harvester = 3\nportal", "harvester = 1000000000\nportal", "starting_deck.table.harvester", f"less than or equal to {MAX_DECK}"),
        (
            "harvester = 3\nportal",
            "harvester = 150\nexcavater = 150\nportal",
            "starting_deck",
            f"holds 307 cards; a deck holds at most {MAX_DECK}",
        ),
        ("cost = 40", "cost = 1000000000000", "unit.metroplex.cost", "less than or equal to 1000"),
        ("movement = 3", "movement = 1000000", "action.harvester.movement", "less than or equal to 10"),
        ("resources = 3", "resources = 1e9", "action.harvester.resources", "valid integer"),
        ("strength = 5", "strength = 100", "unit.capital-army.strength", f"less than or equal to {MAX_STRENGTH}"),
        ("strength = 5", "strength = 0", "unit.capital-army.strength", "greater than or equal to 1"),
        ("cost = 3\nmovement = 3", "cost = nan\nmovement = 3", "action.harvester.cost", "valid integer"),
    ],
)
def test_counts_in_a_card_table_are_bounded(tmp_path: Path, old: str, new: str, entry: str, message: str) -> None:
    assert old in CARDS_TOML
    path = write(tmp_path, "big-cards.toml", CARDS_TOML.replace(old, new, 1))
    start = time.perf_counter()
    with pytest.raises(DataError, match="big-cards.toml") as err:
        GAME.new_game(2, 1, {"cards": path})
    assert f": {entry}: " in str(err.value) and message in str(err.value)
    assert time.perf_counter() - start < 5


def test_a_card_table_holds_at_most_forty_card_types(tmp_path: Path) -> None:
    extra = "".join(f'[unit.u{i}]\nname = "U{i}"\ncost = 1\nstrength = 1\n' for i in range(30))
    with pytest.raises(DataError, match="big-cards.toml: file: a card table holds at most 40 card types"):
        GAME.new_game(2, 1, {"cards": write(tmp_path, "big-cards.toml", CARDS_TOML + extra)})


@pytest.mark.parametrize(
    "hand,entry,message",
    [
        ("{ harvester = 1000000000 }", "player.#1.hand.table.harvester", f"less than or equal to {MAX_DECK}"),
        ("{ harvester = 150, portal = 150 }", "player.#1.hand", "holds 300 cards"),
        ('["harvester", "portal", "portal", "portal", "portal", "portal"]', "player.#1.hand", "a hand holds at most 5 cards"),
        (json.dumps(["portal"] * (MAX_DECK + 1)), "player.#1.hand.list", f"at most {MAX_DECK} items"),
    ],
)
def test_a_scenario_hand_is_bounded(hand: str, entry: str, message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 1, {"scenario": f"{HOME}[[player]]\nhand = {hand}\n[[player]]\n"})
    assert f"scenario: {entry}: " in str(err.value) and message in str(err.value)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    "body,entry,message",
    [
        ("round = 1000000", "round", "less than or equal to 500"),
        ("[[player]]\nresources = 1e300\n[[player]]", "player.#1.resources", "valid integer"),
        ("[[player]]\nresources = 10000000000\n[[player]]", "player.#1.resources", "less than or equal to 100000"),
        ("[[player]]\ndeck = { portal = 999999999 }\n[[player]]", "player.#1.deck.table.portal", "less than or equal to 200"),
        ("[[player]]\ndiscard = { portal = 120, harvester = 120 }\n[[player]]", "player.#1.discard", "holds 240 cards"),
        ('[[unit]]\nat = "A:1,0"\nowner = 0\nstrength = 1000', "unit.#1.strength", f"less than or equal to {MAX_STRENGTH}"),
        ('[[unit]]\nat = "A:1,0"\nowner = 7\nstrength = 1', "unit.#1.owner", "less than or equal to 3"),
        ('[[unit]]\nat = "A:1,0"\nowner = 3\nstrength = 1', "unit.#1.owner", "owner 3 is not a seat"),
        ('[[unit]]\nat = "A:1,0"\nowner = 0\nstrength = 1\n' * 201, "unit", "at most 200 items"),
    ],
)
def test_counts_in_a_scenario_are_bounded(body: str, entry: str, message: str) -> None:
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 1, {"scenario": body})
    assert f"scenario: {entry}: " in str(err.value) and message in str(err.value)


def test_counts_in_a_map_are_bounded(tmp_path: Path) -> None:
    good = SMALL_MAP.format(key="A")
    cases = [
        (good.replace("radius = 2", "radius = 1000000"), "space.radius", "less than or equal to 8"),
        (
            good.replace("hexes = [[0, 0], [1, 0], [0, 1]]", f"hexes = {[[0, 0]] * (MAX_BOARD_HEXES + 1)}"),
            "world.#3.hexes",
            "at most 217 items",
        ),
        (good.replace("[0, 1]]\nat", "[0, 99999]]\nat"), "world.#3.hexes.#3.#2", "less than or equal to 20"),
        (good.replace("[1, 0], [0, 1]]\nat", "[1, 0], [1, 0]]\nat"), "world 'C'.hexes.#3", "listed twice"),
        (good.replace("players = [2]", "players = [2, 3, 4, 2]"), "players", "at most 3 items"),
        (
            good + "".join(f'[[world]]\nkey = "X{chr(65 + i)}"\nname = "X"\nradius = 0\nat = [0, 0]\n' for i in range(MAX_WORLDS)),
            "world",
            "at most 20 items",
        ),
        (
            good.replace("players = [2]", "players = [2]\ndeck = { harvester = 1000000000 }"),
            "deck.table.harvester",
            "less than or equal to 200",
        ),
        (good.replace("players = [2]", "players = [2]\ndeck = { harvester = 0 }"), "deck", "the starting deck is empty"),
        (good.replace("radius = 1\nat = [1, 0]", "radius = 1\nhexes = [[0, 0]]\nat = [1, 0]"), "world.#2", "exactly one of them"),
    ]
    for i, (text, entry, message) in enumerate(cases):
        path = write(tmp_path, f"map{i}.toml", text)
        with pytest.raises(DataError) as err:
            GAME.new_game(2, 1, {"map": path})
        assert f"map{i}.toml: {entry}: " in str(err.value) and message in str(err.value), (i, str(err.value))


# -- every loader fault is a DataError naming file and entry, at load time -----------------


def test_a_card_slug_the_notation_cannot_write_is_refused_when_the_table_loads(tmp_path: Path) -> None:
    """``[action.Harvester]`` loaded, and then a legal ``gather Harvester`` failed with KeyError: 'Harvester'."""
    path = write(tmp_path, "cards.toml", CARDS_TOML.replace("[action.harvester]", "[action.Harvester]"))
    with pytest.raises(
        DataError, match=r"cards\.toml: action\.Harvester\.\[key\]: (Value error, )?a card.s slug is lower-case ASCII letters"
    ):
        GAME.new_game(2, 1, {"cards": path})
    state = GAME.new_game(
        2, 1, {"cards": write(tmp_path, "cards.toml", CARDS_TOML), "scenario": HOME + '[[player]]\nhand = ["Harvester"]\n[[player]]\n'}
    )
    state.apply(next(a for a in state.legal_actions() if str(a).startswith("gather")))
    assert state.history == ["gather harvester"] and state.full_view()["players"][0]["resources"] == 3
    for slug in ('[action."harvester-ß"]', '[action."harvester 2"]', '[action."\u212a"]', "[action.2harvester]", "[action.h_2]"):
        path = write(tmp_path, "cards.toml", CARDS_TOML.replace("[action.harvester]", slug))
        with pytest.raises(DataError, match=r"cards\.toml: action\..*\[key\]: (Value error, )?a card.s slug is lower-case ASCII"):
            GAME.new_game(2, 1, {"cards": path})


def edited(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of parsed data with the entry at ``path`` set to ``value`` (or deleted when ``value`` is DELETE)."""
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return copy


DELETE = object()
CARDS = tomllib.loads(CARDS_TOML)
MAP = tomllib.loads(SMALL_MAP.format(key="A"))


@pytest.mark.parametrize(
    "path,value,entry",
    [
        (("action", "scientists"), [1], "action.scientists"),
        (("action",), [1], "action"),
        (("unit",), "units", "unit"),
        (("starting_deck",), 5, "starting_deck"),
        (("starting_deck",), DELETE, "starting_deck"),
        (("action", "portal", "name"), 8, "action.portal.name"),
        (("action", "portal", "name"), "[/bold]", "action.portal.name"),
        (("action", "portal", "name"), "x" * 41, "action.portal.name"),
        (("action", "portal", "teleport"), True, "action.portal.teleport"),
        (("action", "portal", "cost"), DELETE, "action.portal.cost"),
        (("action", "portal", "resources"), 2, "action.portal"),
        (("action", "harvester", "resources"), DELETE, "action.harvester"),
        (("unit", "standard-base", "base"), "yes", "unit.standard-base.base"),
        (("starting_deck", "harvester"), "3", "starting_deck.table.harvester"),
        (("starting_deck", "harvester"), -1, "starting_deck.table.harvester"),
        (("starting_deck",), ["harvester", 3], "starting_deck.list.#2"),
        (("starting_deck",), {}, "starting_deck"),
        (("extra",), {}, "extra"),
    ],
)
def test_non_tables_wrong_types_and_unknown_keys_in_a_card_table_name_the_entry(
    tmp_path: Path, path: tuple[Any, ...], value: Any, entry: str
) -> None:
    file = write(tmp_path, "bad-cards.json", json.dumps(edited(CARDS, path, value)))
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 1, {"cards": file})
    assert f"bad-cards.json: {entry}: " in str(err.value)


@pytest.mark.parametrize(
    "text,entry",
    [
        ("base = [1]", "base.#1"),
        ("base = 5", "base"),
        ("[[player]]\nhand = 5\n[[player]]", "player.#1.hand"),
        ('[[player]]\nhand = [["harvester"]]\n[[player]]', "player.#1.hand.list.#1"),
        ("player = [5, 6]", "player.#1"),
        ('[[portal]]\nbetween = "A:0,0"', "portal.#1.between"),
        ('[[base]]\nat = "A:0,0"\nowner = 0\nstrength = 1\nhealth = 3', "base.#1.health"),
        ("[[unit]]\nat = 5\nowner = 0\nstrength = 1", "unit.#1.at"),
        ('[[unit]]\nat = "A:0,0"\nowner = true\nstrength = 1', "unit.#1.owner"),
        ("turn = 1.0", "turn"),
        ("surprise = 1", "surprise"),
    ],
)
def test_non_tables_wrong_types_and_unknown_keys_in_a_scenario_name_the_entry(text: str, entry: str) -> None:
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 1, {"scenario": text})
    assert f"scenario: {entry}: " in str(err.value)


@pytest.mark.parametrize(
    "path,value,entry",
    [
        (("space",), 3, "space"),
        (("space", "radius"), DELETE, "space"),
        (("world",), [1], "world.#1"),
        (("world",), {"key": "A"}, "world"),
        (("world", 1, "at"), [1, True], "world.#2.at.#2"),
        (("world", 1, "at"), [1.0, 0], "world.#2.at.#1"),
        (("world", 1, "at"), [1, 0, 0], "world.#2.at"),
        (("world", 1, "at"), [0, 0], "world 'B'.at"),
        (("world", 1, "name"), 5, "world.#2.name"),
        (("world", 1, "kind"), "hostile", "world.#2.kind"),
        (("world", 1, "key"), "A", "world 'A'"),
        (("world", 1, "moons"), 2, "world.#2.moons"),
        (("space", "homeworlds"), 7, "space.homeworlds"),
        (("space", "homeworlds"), [], "space.homeworlds"),
        (("players",), [5], "players.#1"),
        (("players",), 2, "players"),
        (("name",), "[bold]x", "name"),
        (("name",), DELETE, "name"),
        (("deck",), "harvester", "deck"),
        (("deck",), ["harvester", "death-star"], "deck.#2"),
    ],
)
def test_non_tables_wrong_types_and_unknown_keys_in_a_map_name_the_entry(
    tmp_path: Path, path: tuple[Any, ...], value: Any, entry: str
) -> None:
    file = write(tmp_path, "bad-map.json", json.dumps(edited(MAP, path, value)))
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 1, {"map": file})
    assert f"bad-map.json: {entry}: " in str(err.value)


@pytest.mark.parametrize("value", ["a\x00b.toml", "x" * 5000 + ".toml", "/dev/zero", "/dev/urandom", "/", "../" * 40])
def test_file_valued_options_are_read_bounded_and_refused_with_a_data_error(value: str) -> None:
    for option in ("map", "cards", "scenario"):
        start = time.perf_counter()
        with pytest.raises((DataError, OptionError)) as err:
            GAME.new_game(2, 1, {option: value})
        assert len(str(err.value)) < 400
        assert time.perf_counter() - start < 5


def test_a_fifo_named_like_a_map_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    for option in ("map", "cards", "scenario"):
        with pytest.raises(DataError, match="not a regular file"):
            GAME.new_game(2, 1, {option: str(fifo)})


def test_invalid_utf8_deep_nesting_and_a_byte_order_mark_in_game_files(tmp_path: Path) -> None:
    good = SMALL_MAP.format(key="A")
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + good.encode("utf-8"))
    assert GAME.new_game(2, 1, {"map": str(tmp_path / "bom.toml")}).board.name == "Designer's triangle"
    (tmp_path / "latin1.toml").write_bytes(good.replace("Alpha", "Alpha \xe9").encode("latin-1"))
    with pytest.raises(DataError, match=r"latin1\.toml: line 11: not UTF-8"):
        GAME.new_game(2, 1, {"map": str(tmp_path / "latin1.toml")})
    deep = "base = " + "[" * 5000 + "]" * 5000
    with pytest.raises(DataError, match="nested more than"):
        GAME.new_game(2, 1, {"scenario": deep})
    with pytest.raises(DataError, match="nested more than"):
        GAME.new_game(2, 1, {"cards": write(tmp_path, "deep.toml", "starting_deck = " + "[" * 5000 + "]" * 5000)})


@pytest.mark.parametrize("name", ["atlantis", "a\x00b", "x" * 5000, "..", "maps", ""])
def test_an_unknown_shipped_map_name_is_a_data_error(name: str) -> None:
    with pytest.raises(DataError, match="no shipped map called") as err:
        GAME.new_game(2, 1, {"map": name})
    assert len(str(err.value)) < 300 and "default-2p" in str(err.value)


# -- names in data survive the notation round trip --------------------------------------------


@pytest.mark.parametrize("key", ["\u2126", "\u212a", "Ä", "ǅ", "a", "S", "ABC", "A1"])
def test_a_world_key_that_changes_under_lower_upper_is_refused_when_the_map_loads(tmp_path: Path, key: str) -> None:
    """``Ω`` (OHM SIGN) passed ``isupper()`` but ``'Ω'.lower().upper()`` is the Greek Omega: records did not replay."""
    path = write(tmp_path, "greek.toml", SMALL_MAP.format(key=key))
    with pytest.raises(
        DataError,
        match=r"greek\.toml: world(\.#1\.key: (Value error, )?a world key is one or two capital ASCII letters| 'S': world keys are unique)",
    ):
        GAME.new_game(2, 1, {"map": path})


def test_a_designers_two_letter_world_key_plays_and_replays(tmp_path: Path) -> None:
    state = GAME.new_game(2, 4, {"map": write(tmp_path, "two.toml", SMALL_MAP.format(key="AB"))})
    state.apply("found AB:0,0")
    rng = Rng(4)
    for _ in range(120):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert any("AB:" in notation for notation in state.history)
    assert astrarium.replay(state.to_record()).full_view() == state.full_view()


# -- files are cached on their content, not their path -----------------------------------------


def test_an_edited_map_file_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    path = write(tmp_path, "map.toml", SMALL_MAP.format(key="A"))
    assert GAME.new_game(2, 1, {"map": path}).board.name == "Designer's triangle"
    write(tmp_path, "map.toml", SMALL_MAP.format(key="A").replace("Designer's triangle", "Edited"))
    assert GAME.new_game(2, 1, {"map": path}).board.name == "Edited"
    write(tmp_path, "map.toml", SMALL_MAP.format(key="Ω"))
    with pytest.raises(DataError):
        GAME.new_game(2, 1, {"map": path})


def test_an_edited_card_file_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.toml", CARDS_TOML)
    harvester = GAME.new_game(2, 1, {"cards": path}).cards.cards[3]
    assert (harvester.slug, harvester.resources) == ("harvester", 3)
    write(tmp_path, "cards.toml", CARDS_TOML.replace("resources = 3", "resources = 7"))
    assert GAME.new_game(2, 1, {"cards": path}).cards.cards[3].resources == 7


def test_actions_stay_right_after_a_map_file_is_edited(tmp_path: Path) -> None:
    path = write(tmp_path, "map.toml", SMALL_MAP.format(key="A"))
    first = GAME.new_game(2, 1, {"map": path})
    write(tmp_path, "map.toml", SMALL_MAP.format(key="Q"))
    second = GAME.new_game(2, 1, {"map": path})
    assert "found Q:0,0" in [str(a) for a in second.legal_actions()]
    assert "found A:0,0" in [str(a) for a in first.legal_actions()]
    second.apply("found Q:0,0")
    assert second.full_view()["bases"] == [["Q:0,0", 0, 3]]  # the first base is an Outpost (option first_base)


# -- determinize keeps the cards everyone saw go into a hand -----------------------------------

RUN_OUT = (
    HOME + '[[player]]\nhand = ["harvester", "harvester", "harvester", "scientists", "scientists"]\n'
    'deck = ["portal", "engineers"]\ndiscard = ["harvester", "harvester"]\n[[player]]\n'
)


def test_determinize_keeps_the_cards_a_draw_that_emptied_the_deck_put_into_a_hand() -> None:
    """Seat 0's deck holds 2 cards (portal, engineers) at its end of turn: the draw takes both, then reshuffles.

    Everyone can count that deck, so every world seat 1 samples must have both in seat 0's hand.
    """
    state = GAME.new_game(2, 11, {"scenario": RUN_OUT})
    state.apply("end")
    hand = Counter(state.full_view()["players"][0]["hand"])
    assert hand["portal"] >= 1 and hand["engineers"] >= 1
    for seat in (1, None):
        assert state.view(seat)["players"][0]["known_in_hand"] == ["engineers", "portal"]
    contradicted = 0
    for k in range(200):
        world = state.determinize(1, Rng(k)).full_view()["players"][0]
        sample = Counter(world["hand"])
        if sample["portal"] < 1 or sample["engineers"] < 1:
            contradicted += 1
        assert Counter(world["hand"]) + Counter(world["deck_order"]) == hand + Counter(state.full_view()["players"][0]["deck_order"])
    assert contradicted == 0
    assert "known in hand: engineers, portal" in state.render(1)


def test_a_known_card_played_leaves_what_is_known_of_the_hand() -> None:
    state = GAME.new_game(2, 11, {"scenario": RUN_OUT})
    state.apply("end")
    state.apply("end")  # seat 1
    state.apply("move engineers A:0,0 base")
    assert state.view(1)["players"][0]["known_in_hand"] == ["portal"]
    state.apply("stop")
    state.apply("gather harvester")  # a card from the re-dealt part of the hand: what is known stays
    assert state.view(1)["players"][0]["known_in_hand"] == ["portal"]
    assert all("portal" in state.determinize(1, Rng(k)).full_view()["players"][0]["hand"] for k in range(50))


def test_a_draw_that_does_not_empty_the_deck_shows_nothing() -> None:
    state = GAME.new_game(2, 11)
    assert all(row["known_in_hand"] == [] for row in state.view(None)["players"])
    whole = GAME.new_game(2, 11, {"hand_size": 10})  # the whole starting deck is drawn: everyone knows the hand
    for row in whole.view(None)["players"]:
        assert sorted(row["known_in_hand"]) == sorted(whole.full_view()["players"][0]["hand"])
    assert whole.determinize(0, Rng(1)).full_view()["players"][1]["hand"] == whole.full_view()["players"][1]["hand"]


@settings(max_examples=examples(15))
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), hand_size=st.sampled_from([3, 5, 7]))
def test_property_determinized_worlds_never_contradict_what_everyone_saw_drawn(seed: int, n: int, hand_size: int) -> None:
    state = GAME.new_game(n, seed, {"hand_size": hand_size, "round_limit": 6})
    rng = Rng(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            break
        full = state.full_view()["players"]
        seat = state.current_player
        world = state.determinize(seat, Rng(seed + state.move_number)).full_view()["players"]
        for p in range(n):
            known = Counter(state.view(None)["players"][p]["known_in_hand"])
            assert not known - Counter(full[p]["hand"]), "a card shown as known is not in the hand"
            assert not known - Counter(world[p]["hand"]), "a sampled world contradicts a card everyone saw drawn"


# -- E: random action objects and strings raise only IllegalAction and change nothing ----------------------------

CELLS = ["A:0,0", "S:0,0", "B:1,-1", "C:-1,1", "S:-3,3", "a:0,0", "A:0,0 ", "Ω:0,0", "A:²,0"]
SLUGS = ["harvester", "portal", "scientists", "engineers", "assault-team", "standard-base", "Harvester", "titan-force", "ghost"]

odd_values = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, 1, -1, 2, 99, 100, 10**5000, -(10**5000)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["²", "³", "u²", "١", "𝟙", "base", "u1", ""]),
    st.sampled_from(CELLS + SLUGS),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.integers(), st.integers()),
)


def action_objects() -> st.SearchStrategy[Any]:
    kinds = [A.Found, A.Move, A.Step, A.Stop, A.Gather, A.Research, A.Build, A.Connect, A.Deploy, A.EndTurn]
    return st.one_of(
        *[st.builds(kind, *[odd_values for _ in dataclasses.fields(kind)]) for kind in kinds],
        odd_values,
    )


notation_like = st.builds(
    lambda verb, card, cell, piece, extra: f"{verb} {card} {cell} {piece}{extra}",
    st.sampled_from(["move", "found", "step", "gather", "research", "build", "connect", "deploy", "end", "stop", "MOVE"]),
    st.sampled_from(SLUGS),
    st.sampled_from(CELLS),
    st.sampled_from(["u", "u0", "u²", "u³", "u١", "u" + "9" * 450, "base", "ᵘ2", "u-1", "u1.0"]),
    st.sampled_from(["", " ", " x", "\x00", "\n"]),
)


def random_position(seed: int, steps: int) -> State:
    state = GAME.new_game(2 + seed % 3, seed, {"combat": ("end-of-turn", "on-entry")[seed % 2]})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_refused_or_legal(state: State, action: Any) -> None:
    """``apply`` either plays one of the legal actions or raises IllegalAction and changes nothing."""
    before = snapshot(state)
    legal = state.legal_actions()
    try:
        state.apply(action)
    except IllegalAction as err:
        assert snapshot(state) == before
        assert len(str(err)) < 1000
    else:
        assert any(state.actions[-1] is a for a in legal)


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), actions=st.lists(action_objects(), min_size=1, max_size=8))
def test_property_crafted_action_objects_raise_only_illegal_action_and_change_nothing(seed: int, steps: int, actions: list[Any]) -> None:
    state = random_position(seed, steps)
    for action in actions:
        check_refused_or_legal(state, action)


@settings(max_examples=examples(40))
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
    texts=st.lists(
        st.one_of(st.text(max_size=40), notation_like, st.text(alphabet="mov ehar st:AS0-1,u²³١", max_size=30)), min_size=1, max_size=8
    ),
)
def test_property_random_strings_raise_only_illegal_action_and_change_nothing(seed: int, steps: int, texts: list[str]) -> None:
    state = random_position(seed, steps)
    for text in texts:
        check_refused_or_legal(state, text)


# -- E: loaders on random and mutated data raise only DataError, quickly ------------------------------------------


def _shipped(name: str) -> Any:
    return read_data(PACKAGE, name)[1]


SHIPPED = {"cards": _shipped("cards.toml"), "map": _shipped("maps/default-2p.toml")}
SHIPPED["scenario"] = {
    "round": 2,
    "turn": 1,
    "base": [{"at": "A:0,0", "owner": 0, "strength": 1}, {"at": "B:0,0", "owner": 1, "strength": 2}],
    "unit": [{"at": "S:0,0", "owner": 1, "strength": 3}],
    "portal": [],
    "player": [{"resources": 4, "hand": ["harvester", "portal"], "deck": {"scientists": 2}, "discard": []}, {"resources": 0}],
}

data_leaves = st.one_of(
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["²", "Ω", "\u212a", "", "A:0,0", "harvester", "Harvester", "research", "player"]),
)
junk = st.recursive(
    st.one_of(data_leaves, st.sampled_from([10**9, 10**18, "A:0,0", "harvester", [0, 0], {"harvester": 10**9}])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "name", "key", "at", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)


def similar(value: Any) -> st.SearchStrategy[Any]:
    """Values of the same type as ``value``: numbers near the limits, names of hexes and cards, shuffled lists."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.one_of(st.integers(-3, 12), st.sampled_from([0, 99, 100, 200, 201, 500, 501, 1000, 1001, 100_000]))
    if isinstance(value, str):
        return st.sampled_from(CELLS + SLUGS + ["A", "B", "Z", "S", "player", "neutral", "research", "gather resources"])
    if isinstance(value, list):
        return st.lists(st.sampled_from(value), max_size=len(value) + 2) if value else st.just([])
    return st.just(value)


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> Any:
    """The shipped data with a few entries replaced, deleted or added (the path to each picked at random)."""
    data = json.loads(json.dumps(SHIPPED[kind]))
    for _ in range(draw(st.integers(1, 3))):
        node = data
        for _ in range(draw(st.integers(0, 4))):
            children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
            children = [(k, v) for k, v in children if isinstance(v, dict | list) and v]
            if not children:
                break
            node = draw(st.sampled_from(children))[1]
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            how = draw(st.sampled_from(["replace", "tweak", "delete", "add"]))
            if how == "replace":
                node[key] = draw(junk)
            elif how == "tweak":  # a value of the same type, so the cross-checks behind the schema run too
                node[key] = draw(similar(node[key]))
            elif how == "delete":
                del node[key]
            else:
                node[draw(st.sampled_from(["extra", "Harvester", "Ω", "K", key.upper()]))] = draw(junk)
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(junk)
    return data


def load_without_surprise(tmp: Path, kind: str, data: Any) -> None:
    path = tmp / f"{kind}.json"
    try:
        text = json.dumps(data)
    except ValueError:
        return  # not expressible as JSON (e.g. NaN): nothing to write
    path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    try:
        state = GAME.new_game(2, 1, {kind: str(path)})
    except (DataError, OptionError) as err:
        assert len(str(err)) < 1000
    else:
        state.legal_actions()
        state.render(0)
    assert time.perf_counter() - start < 5


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("connected-worlds-fuzz")


@settings(max_examples=examples(40))
@given(kind=st.sampled_from(["cards", "map", "scenario"]), data=st.data())
def test_property_mutated_data_files_raise_only_data_error_and_load_quickly(fuzz_dir: Path, kind: str, data: st.DataObject) -> None:
    load_without_surprise(fuzz_dir, kind, data.draw(mutated(kind)))


@settings(max_examples=examples(30))
@given(kind=st.sampled_from(["cards", "map", "scenario"]), blob=st.one_of(junk, st.text(max_size=200)))
def test_property_random_data_files_raise_only_data_error(fuzz_dir: Path, kind: str, blob: Any) -> None:
    load_without_surprise(fuzz_dir, kind, blob)
    path = fuzz_dir / f"{kind}.toml"
    path.write_bytes(str(blob).encode("utf-8", "surrogatepass")[:4000])
    with contextlib.suppress(DataError, OptionError):
        GAME.new_game(2, 1, {kind: str(path)})


@settings(max_examples=examples(30))
@given(text=st.one_of(st.text(max_size=200), st.text(alphabet='[]{}="abtu,. \n0123456789', max_size=300)))
def test_property_random_inline_scenarios_raise_only_data_error(text: str) -> None:
    with contextlib.suppress(DataError, OptionError):
        GAME.new_game(2, 1, {"scenario": text})
