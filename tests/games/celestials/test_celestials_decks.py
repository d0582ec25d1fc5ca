"""The two decks as data: their design holds, and a designer's bad deck file names the file and the card."""

from __future__ import annotations

from pathlib import Path

import pytest

import astrarium
from astrarium.core import DataError, OptionError
from astrarium.games.celestials.cards import Kind, builtin_deck

GAME = astrarium.get_game("celestials")

GOOD = """
[deck]
character = "Comet"
phases = [{ name = "Approach", kind = "setup" }, { name = "Impact", kind = "damage" }]

[cards.ice-shard]
name = "Ice Shard"
type = "creature"
copies = 2
damage = 2
health = 2

[cards.tail-burn]
name = "Tail Burn"
type = "spell"
copies = 2
on_play = [{ effect = "damage", amount = 1, target = "enemy_player" }]
"""


def write(tmp_path: Path, text: str, name: str = "comet.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["sun", "moon"])
def test_decks_each_side_has_8_to_10_distinct_cards_of_every_type(name: str) -> None:
    deck = builtin_deck(name)
    listed = deck.cards[1:]
    assert 8 <= len(listed) <= 10
    assert {c.kind for c in listed} == {Kind.CREATURE, Kind.STRUCTURE, Kind.SPELL}
    assert all(c.purpose for c in listed)
    assert all(c.health > 0 for c in listed if c.kind is not Kind.SPELL)


def test_decks_a_designers_deck_file_is_played(tmp_path: Path) -> None:
    state = GAME.new_game(2, 1, {"moon_deck": write(tmp_path, GOOD)})
    moon = state.full_view()["players"][1]
    assert moon["character"] == "Comet" and moon["phase"] == "Approach"
    assert sorted(moon["hand"] + moon["draw_order"]) == sorted(["advance"] * 3 + ["ice-shard"] * 2 + ["tail-burn"] * 2)


def test_bad_deck_unknown_effect_names_file_and_card(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace('effect = "damage"', 'effect = "explode"'))
    with pytest.raises(DataError, match="explode") as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert path in str(err.value) and "tail-burn" in str(err.value)


def test_bad_deck_creature_without_health_names_file_and_card(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("health = 2\n", ""))
    with pytest.raises(DataError, match="needs a health value") as err:
        GAME.new_game(2, 0, {"moon_deck": path})
    assert path in str(err.value) and "ice-shard" in str(err.value)


@pytest.mark.parametrize("copies", [1, 3])
def test_bad_deck_not_exactly_two_copies_names_file_and_card(tmp_path: Path, copies: int) -> None:
    path = write(tmp_path, GOOD.replace("copies = 2\ndamage", f"copies = {copies}\ndamage"))
    with pytest.raises(DataError, match="exactly two copies") as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert path in str(err.value) and "ice-shard" in str(err.value)


@pytest.mark.parametrize(
    "old,new,problem",
    [
        ('target = "enemy_player"', 'target = "the_moon"', "unknown target"),
        ('target = "enemy_player"', 'target = "self"', "own location"),
        ('type = "creature"', 'type = "planet"', "not creature"),
        ("damage = 2\n", "damage = 2\nspeed = 4\n", "unknown field"),
        ('kind = "damage"', 'kind = "setup"', "damage phase"),
    ],
)
def test_bad_deck_other_mistakes_name_file_and_entry(tmp_path: Path, old: str, new: str, problem: str) -> None:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataError, match=problem) as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert path in str(err.value)


def test_bad_deck_missing_file_and_bad_syntax(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        GAME.new_game(2, 0, {"sun_deck": str(tmp_path / "nowhere.toml")})
    with pytest.raises(DataError, match="bad.toml"):
        GAME.new_game(2, 0, {"sun_deck": write(tmp_path, "[deck\n", "bad.toml")})


@pytest.mark.parametrize(
    "position,problem",
    [
        ("sun hand meteor", "no card 'meteor'"),
        ("sun hand sunspear sunspear sunspear", "no copy"),
        ("moon phase Noon", "phases are"),
        ("sun board A1 sun-temple", "back of a lane"),
        ("sun board A1 sunspear", "cannot stand"),
        ("sun board A1 solar-lion; moon board A1 night-wolf", "occupied"),
        ("venus hand x", "starts with 'sun' or 'moon'"),
    ],
)
def test_bad_position_option_names_the_option(position: str, problem: str) -> None:
    with pytest.raises(OptionError, match="position") as err:
        GAME.new_game(2, 0, {"position": position})
    assert problem in str(err.value)


def test_bad_options_name_the_option() -> None:
    with pytest.raises(OptionError, match="first"):
        GAME.new_game(2, 0, {"first": "venus"})
    with pytest.raises(OptionError, match="turn_limit"):
        GAME.new_game(2, 0, {"turn_limit": 0})
