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


def _rules_rows() -> dict[str, list[str]]:
    """The card tables of rules.md, by card key: the cells of each row."""
    rows = {}
    for line in GAME.rules_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and "(`" in cells[0]:
            rows[cells[0].split("(`")[1].rstrip("`)")] = cells
    return rows


@pytest.mark.parametrize("name", ["sun", "moon"])
def test_decks_rules_md_card_tables_match_the_data(name: str) -> None:
    """The card lists in rules.md show every card with the numbers and effects of the data files."""
    deck = builtin_deck(name)
    rows = _rules_rows()
    for card in deck.cards:
        if card.kind is Kind.ADVANCE:
            continue
        title, kind, play_in, stats, effects, purpose = rows[card.key]
        assert title == f"{card.name} (`{card.key}`)"
        assert kind == card.kind.value
        assert play_in == ("any phase" if card.phases is None else ", ".join(deck.phases[i].name for i in sorted(card.phases)))
        assert stats == {Kind.CREATURE: f"{card.damage} / {card.health}", Kind.STRUCTURE: f"0 / {card.health}", Kind.SPELL: "-"}[card.kind]
        groups = [("on play", card.on_play), ("activation", card.on_activate or ()), ("turn start", card.on_turn_start)]
        for label, steps in groups:
            if steps:
                assert f"{label}: {'; '.join(s.describe() for s in steps)}" in effects, card.key
        assert purpose == card.purpose


@pytest.mark.parametrize("name", ["sun", "moon"])
def test_decks_rules_md_phase_tables_match_the_data(name: str) -> None:
    """Each phase's start effect in rules.md carries the amount in the data file."""
    deck = builtin_deck(name)
    text = GAME.rules_text()
    for phase in deck.phases:
        row = next(line for line in text.splitlines() if line.startswith(f"| {phase.name} | {phase.kind.value} |"))
        for step in phase.start:
            assert f" {step.amount} " in row or row.endswith(f" {step.amount} |"), (phase.name, row)
