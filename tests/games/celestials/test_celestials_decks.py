"""The two decks as data: their design holds, and a designer's bad deck file names the file and the card."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import astrarium
from astrarium.core import DataError, OptionError, State
from astrarium.games.celestials.cards import Kind, builtin_deck
from astrarium.games.celestials.help import things

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
purpose = "A cold body that holds a lane."

[cards.tail-burn]
name = "Tail Burn"
type = "spell"
copies = 2
on_play = [{ effect = "damage", amount = 1, target = "enemy_player" }]
purpose = "Burns the opponent directly."
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
        ('target = "enemy_player"', 'target = "the_moon"', "tail-burn.on_play.#1.target: Input should be 'self'"),
        ('target = "enemy_player"', 'target = "self"', "tail-burn.on_play.#1: target 'self' needs the card's own location"),
        ('type = "creature"', 'type = "planet"', "ice-shard.type: Input should be 'creature', 'structure' or 'spell'"),
        ("damage = 2\n", "damage = 2\nspeed = 4\n", "ice-shard.speed: Extra inputs are not permitted"),
        ('kind = "damage"', 'kind = "setup"', "damage phase"),
    ],
)
def test_bad_deck_other_mistakes_name_file_and_entry(tmp_path: Path, old: str, new: str, problem: str) -> None:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataError, match=re.escape(problem)) as err:
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
        ("sun board A1 sun-temple", "back of her lanes"),
        ("sun board A1 sunspear", "cannot stand"),
        ("sun board A1 solar-lion; moon board A1 night-wolf", "occupied"),
        ("venus hand x", "a statement is 'sun' or 'moon'"),
        ("sun dance", "a statement is 'sun' or 'moon' and then phase"),
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
    """Each phase's start and entering effects in rules.md carry the amounts in the data file, each in its own column."""
    deck = builtin_deck(name)
    text = GAME.rules_text()
    for phase in deck.phases:
        row = next(line for line in text.splitlines() if line.startswith(f"| {phase.name} | {phase.kind.value} |"))
        start, enter = row.split("|")[3:5]
        for steps, cell in ((phase.start, start), (phase.enter, enter)):
            assert (cell.strip() == "-") == (not steps), (phase.name, row)
            for step in steps:
                assert f" {step.amount} " in cell or cell.endswith(f" {step.amount}"), (phase.name, row)


# -- Data files and limits --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old,new,entry,problem",
    [
        ("copies = 2\ndamage", "copies = 1000000000\ndamage", "cards.ice-shard.copies", "exactly two copies"),
        ("amount = 1,", "amount = 1000000000000,", "cards.tail-burn.on_play.#1.amount", "less than or equal to 20"),
        ("damage = 2\n", "damage = 100000000000000000000000000000\n", "cards.ice-shard.damage", "less than or equal to 99"),
        ("health = 2\n", "health = 1000\n", "cards.ice-shard.health", "less than or equal to 99"),
        ("health = 2\n", "health = nan\n", "cards.ice-shard.health", "valid integer"),
        ("health = 2\n", "health = 2.0\n", "cards.ice-shard.health", "valid integer"),
        ("health = 2\n", "health = true\n", "cards.ice-shard.health", "valid integer"),
        ('name = "Ice Shard"', 'name = "[/]"', "cards.ice-shard.name", "should match pattern"),
        ("[cards.ice-shard]", "[cards.Ice-Shard]", "cards.Ice-Shard.[key]", "should match pattern"),
        ("[cards.ice-shard]", "[cards.advance]", "cards.advance", "reserved"),
        ('character = "Comet"', "character = [1]", "deck.character", "valid string"),
    ],
)
def test_data_files_every_count_is_bounded_and_every_entry_typed(tmp_path: Path, old: str, new: str, entry: str, problem: str) -> None:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataError, match=re.escape(problem)) as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert err.value.file == path and err.value.entry == entry


@pytest.mark.parametrize(
    "text,entry",
    [
        ("card = [1]\n" + GOOD, "card"),  # an unknown key at the top
        (GOOD + "\n[cards]\nx = [1]\n", "cards.x"),
        ('deck = "Sun"\n' + GOOD.split("[deck]")[1].split("\n", 3)[3], "deck"),
        ("cards = 5\n" + GOOD.split("[cards.ice-shard]")[0], "cards"),
        (GOOD.split("[cards.ice-shard]")[0] + "[cards]\nice-shard = [1]\n", "cards.ice-shard"),
        (GOOD.replace("on_play = [{", "on_play = [7, {"), "cards.tail-burn.on_play.#1"),
    ],
)
def test_data_files_a_non_table_entry_is_a_data_error_naming_file_and_entry(tmp_path: Path, text: str, entry: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert err.value.file == path and err.value.entry == entry


@pytest.mark.parametrize(
    "old,new,entry,problem",
    [
        ('on_play = [{ effect = "damage"', 'damage = 1\non_play = [{ effect = "damage"', "cards.tail-burn.damage", "a spell has no"),
        ('type = "spell"\n', 'type = "spell"\non_turn_start = []\nhealth = 3\n', "cards.tail-burn.health", "a spell has no"),
        ("damage = 2\n", 'damage = 2\nphases = ["Noon"]\n', "cards.ice-shard.phases", "'Noon' not among"),
        ('"Impact"', '"approach"', "deck.phases", "phase names repeat"),
        (
            'target = "enemy_player"',
            'target = "enemy_player" }, { effect = "draw", target = "enemy_player"',
            "cards.tail-burn.on_play.#2",
            "draw always",
        ),
        (
            'kind = "setup" }',
            'kind = "setup", start = [{ effect = "damage", target = "chosen_enemy" }] }',
            "deck.phases.#1.start.#1",
            "cannot be chosen",
        ),
        (
            'kind = "setup" }',
            'kind = "setup", start = [{ effect = "advance" }] }',
            "deck.phases.#1.start.#1",
            "advance is allowed only in on_play",
        ),
        (
            'kind = "setup" }',
            'kind = "setup", enter = [{ effect = "damage", target = "chosen_enemy" }] }',
            "deck.phases.#1.enter.#1",
            "cannot be chosen in a phase enter",
        ),
        (
            'kind = "damage" }',
            'kind = "damage", enter = [{ effect = "heal", target = "lane_friends" }] }',
            "deck.phases.#2.enter.#1",
            "needs the card's own location",
        ),
        (
            'kind = "setup" }',
            'kind = "setup", enter = [{ effect = "advance" }] }',
            "deck.phases.#1.enter.#1",
            "advance is allowed only in on_play",
        ),
        (
            'kind = "setup" }',
            'kind = "setup", enter = [{ effect = "exhaust", target = "enemy_player" }] }',
            "deck.phases.#1.enter.#1",
            "exhaust needs a card target",
        ),
        ("health = 2\n", 'health = 2\non_turn_start = [{ effect = "advance" }]\n', "cards.ice-shard.on_turn_start.#1", "only in on_play"),
        ("health = 2\n", 'health = 2\non_activate = [{ effect = "advance" }]\n', "cards.ice-shard.on_activate.#1", "only in on_play"),
        (
            "health = 2\n",
            'health = 2\non_play = [{ effect = "advance", target = "enemy_player" }]\n',
            "cards.ice-shard.on_play.#1",
            "advance always",
        ),
        ("health = 2\n", 'health = 2\non_play = [{ effect = "advance", amount = 2 }]\n', "cards.ice-shard.on_play.#1", "exactly one phase"),
    ],
)
def test_data_files_cross_checks_name_the_entry(tmp_path: Path, old: str, new: str, entry: str, problem: str) -> None:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataError, match=re.escape(problem)) as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert err.value.entry == entry


def test_data_files_too_many_cards_phases_or_effects_are_refused(tmp_path: Path) -> None:
    many = "".join(f'\n[cards.c{i}]\nname = "C{i}"\ntype = "creature"\ncopies = 2\nhealth = 1\npurpose = "p"\n' for i in range(31))
    with pytest.raises(DataError, match="at most 30 items") as err:
        GAME.new_game(2, 0, {"sun_deck": write(tmp_path, GOOD.split("[cards.ice-shard]")[0] + many)})
    assert err.value.entry == "cards"
    phases = ", ".join(f'{{ name = "P{i}", kind = "damage" }}' for i in range(9))
    with pytest.raises(DataError, match="at most 8 items") as err:
        GAME.new_game(2, 0, {"sun_deck": write(tmp_path, GOOD.replace('{ name = "Impact", kind = "damage" }', phases))})
    assert err.value.entry == "deck.phases"
    effects = ", ".join(['{ effect = "draw", amount = 20 }'] * 9)
    with pytest.raises(DataError, match="at most 8 items") as err:
        GAME.new_game(2, 0, {"sun_deck": write(tmp_path, GOOD.replace("health = 2\n", f"health = 2\non_play = [{effects}]\n"))})
    assert err.value.entry == "cards.ice-shard.on_play"


def test_data_files_encoding_depth_and_paths_are_data_errors(tmp_path: Path) -> None:
    bad_utf8 = tmp_path / "latin.toml"
    bad_utf8.write_bytes(GOOD.replace("Ice Shard", "Glace").encode() + b"\n# \xe9t\xe9\n")
    with pytest.raises(DataError, match="not UTF-8") as err:
        GAME.new_game(2, 0, {"sun_deck": str(bad_utf8)})
    assert str(bad_utf8) in str(err.value)
    with pytest.raises(DataError, match="nested"):
        GAME.new_game(2, 0, {"sun_deck": write(tmp_path, "x = " + "[" * 5000 + "]" * 5000)})
    with pytest.raises(DataError, match="NUL"):
        GAME.new_game(2, 0, {"sun_deck": "deck\x00.toml"})
    with pytest.raises(DataError, match="longer than"):
        GAME.new_game(2, 0, {"sun_deck": "d" * 5000 + ".toml"})
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert GAME.new_game(2, 0, {"sun_deck": str(bom)}).view(None)["players"][0]["character"] == "Comet"


def test_data_files_json_decks_follow_the_same_schema(tmp_path: Path) -> None:
    import tomllib

    data = tomllib.loads(GOOD)
    assert (
        GAME.new_game(2, 0, {"moon_deck": write(tmp_path, json.dumps(data), "comet.json")}).view(None)["players"][1]["character"] == "Comet"
    )
    data["cards"]["ice-shard"]["health"] = 2.5
    with pytest.raises(DataError, match="valid integer") as err:
        GAME.new_game(2, 0, {"moon_deck": write(tmp_path, json.dumps(data), "comet.json")})
    assert err.value.entry == "cards.ice-shard.health"


def test_data_files_an_edited_deck_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert GAME.new_game(2, 0, {"moon_deck": path}).view(None)["players"][1]["character"] == "Comet"
    write(tmp_path, GOOD.replace('character = "Comet"', 'character = "Asteroid"'))
    assert GAME.new_game(2, 0, {"moon_deck": path}).view(None)["players"][1]["character"] == "Asteroid"


def test_data_files_limits_are_documented_in_rules_md() -> None:
    from astrarium.games.celestials import cards, position

    text = GAME.rules_text()
    section = text.split("## Data files and limits")[1].split("\n## ")[0]
    limits = (cards.MAX_CARDS, cards.MAX_PHASES, cards.MAX_STEPS, cards.MAX_AMOUNT, cards.MAX_STAT, cards.MAX_KEY, cards.MAX_NAME)
    for limit in (*limits, cards.MAX_PURPOSE, position.MAX_CARD_HEALTH, position.MAX_POSITION_CHARS, position.MAX_LIST):
        assert re.search(rf"(?<![0-9,]){limit:,}(?![0-9,])", section), limit


# -- Positions: bad text and impossible boards are refused with a reason ----------------------------


@pytest.mark.parametrize(
    "position,problem",
    [
        ("sun health ²", "sun.health: Input should be a valid integer (got '²')"),
        ("sun health " + "9" * 5000, "sun.health: Input should be a valid integer"),
        ("sun health 0", "sun.health: Input should be greater than or equal to 1"),
        ("sun health 3 4", "one positive whole number"),
        ("sun board B1 solar-lion ³", "sun.board.#1.health: Input should be a valid integer (got '³')"),
        ("sun board B1 solar-lion 2 3", "board LOC CARD"),
        ("sun board B² solar-lion", "sun.board.#1.at: String should match pattern"),
        ("sun board B1", "board LOC CARD"),
        ("sun hand " + "phoenix " * 200, "sun.hand: List should have at most 63 items"),
        ("sun phase " + "x" * 500, "sun.phase: String should have at most 40 characters"),
        ("sun hand " + "x" * 31, "sun.hand.#1: String should have at most 30 characters"),
        ("sun health 5;" * 2000, "at most 10,000 characters"),
    ],
)
def test_positions_bad_text_is_an_option_error_naming_the_entry(position: str, problem: str) -> None:
    with pytest.raises(OptionError, match="position") as err:
        GAME.new_game(2, 0, {"position": position})
    assert problem in str(err.value)
    assert len(str(err.value)) < 300


@pytest.mark.parametrize(
    "position,problem",
    [
        ("sun board B5 sun-temple; sun board B4 solar-lion", "the Sun's structures stand only at the back of her lanes (position 0)"),
        ("moon board A0 moon-well", "the Moon's structures stand only at the back of her lanes (position 5)"),
        ("sun health 25", "above the starting health 20"),
        ("sun graveyard advance", "never the graveyard"),
        ("sun hand phoenix phoenix solar-lion solar-lion radiance sunspear", "never holds more than 5"),
    ],
)
def test_positions_boards_normal_play_never_reaches_are_refused_with_a_reason(position: str, problem: str) -> None:
    with pytest.raises(OptionError, match="position") as err:
        GAME.new_game(2, 0, {"position": position})
    assert problem in str(err.value)


def test_positions_a_card_passes_its_maximum_health_only_if_its_deck_can_heal_it(tmp_path: Path) -> None:
    assert GAME.new_game(2, 0, {"position": "sun board A1 solar-lion 9"}).full_view()["board"][0]["health"] == 9  # Radiance heals
    comet = write(tmp_path, GOOD)  # no heal in the Comet's deck
    with pytest.raises(OptionError, match="at most 2 health"):
        GAME.new_game(2, 0, {"moon_deck": comet, "position": "moon board A4 ice-shard 3"})
    assert GAME.new_game(2, 0, {"moon_deck": comet, "position": "moon board A4 ice-shard 2"}).full_view()["board"][0]["health"] == 2


# -- every card has a purpose --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old,new,problem",
    [
        ('purpose = "A cold body that holds a lane."\n', "", "Field required"),
        ('purpose = "A cold body that holds a lane."', 'purpose = "   "', "should match pattern"),
        ('purpose = "A cold body that holds a lane."', 'purpose = ""', "at least 1 character"),
        ('purpose = "A cold body that holds a lane."', 'purpose = "two\\nlines"', "should match pattern"),
    ],
)
def test_decks_each_card_entry_has_a_one_line_purpose(tmp_path: Path, old: str, new: str, problem: str) -> None:
    """Each card entry in a deck file states its purpose in one line, or the file is refused naming the card."""
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(DataError, match=re.escape(problem)) as err:
        GAME.new_game(2, 0, {"sun_deck": path})
    assert err.value.file == path and err.value.entry == "cards.ice-shard.purpose"


# -- Deck files: effects on entering a phase ------------------------------------------------------

#: The Comet deck with a one-off burn on entering Impact, a heal at the start of each turn in it and a draw on entering Approach.
ENTERING = GOOD.replace(
    '{ name = "Approach", kind = "setup" }, { name = "Impact", kind = "damage" }',
    '{ name = "Approach", kind = "setup", enter = [{ effect = "draw", amount = 1 }] }, '
    '{ name = "Impact", kind = "damage", start = [{ effect = "heal", amount = 1, target = "own_player" }], '
    'enter = [{ effect = "damage", amount = 3, target = "enemy_player" }, { effect = "heal", amount = 2, target = "all_friends" }] }',
).replace("health = 2\n", 'health = 2\non_play = [{ effect = "advance" }]\n')


def comet(tmp_path: Path, position: str) -> State:
    """A game of the Comet (entering effects) on the Sun's seat against the shipped Moon, from a position."""
    return GAME.new_game(2, 0, {"sun_deck": write(tmp_path, ENTERING), "position": position})


def test_deck_files_phase_enter_happens_once_when_an_advance_phase_card_moves_into_it(tmp_path: Path) -> None:
    state = comet(tmp_path, "sun health 15; sun hand advance; sun board B1 ice-shard")
    state.apply("nodraw")
    state.apply("advance")
    sun, moon = state.full_view()["players"]
    assert sun["phase"] == "Impact" and moon["health"] == 17  # the burn of 3, at once
    assert next(c for c in state.full_view()["board"] if c["at"] == "B1")["health"] == 4  # healed 2, past its maximum
    assert sun["health"] == 15  # the start effect waits for the next turn in Impact
    for notation in ("end", "keep", "nodraw"):  # the Moon's turn (her hand is full: no draw), then the Sun's next turn
        state.apply(notation)
    sun, moon = state.full_view()["players"]
    assert sun["phase"] == "Impact" and moon["health"] == 17  # staying does not enter again
    assert sun["health"] == 16  # the start effect, each turn


def test_deck_files_phase_enter_happens_when_a_cards_advance_moves_into_it(tmp_path: Path) -> None:
    state = comet(tmp_path, "sun hand ice-shard")
    state.apply("nodraw")
    state.apply("play ice-shard B1")
    sun, moon = state.full_view()["players"]
    assert sun["phase"] == "Impact" and moon["health"] == 17
    assert next(c for c in state.full_view()["board"] if c["at"] == "B1")["health"] == 4  # the card played before the entry


def test_deck_files_phase_enter_happens_on_looping_back_but_not_at_the_start_of_the_game(tmp_path: Path) -> None:
    fresh = comet(tmp_path, "")
    assert len(fresh.full_view()["players"][0]["hand"]) == 5  # the first phase is not entered by the deal
    state = comet(tmp_path, "sun phase Impact; sun hand advance; sun pile tail-burn")
    state.apply("nodraw")
    state.apply("advance")
    sun = state.full_view()["players"][0]
    assert sun["phase"] == "Approach" and sun["hand"] == ["tail-burn"]  # Approach's draw on looping back


def test_deck_files_phase_enter_burn_can_win_at_once(tmp_path: Path) -> None:
    state = comet(tmp_path, "sun hand advance; moon health 3")
    state.apply("nodraw")
    state.apply("advance")
    assert state.is_over and state.outcome.winners == (0,)
    assert "Moon fell to 0 health" in state.outcome.reason


def test_deck_files_phase_enter_is_explained_with_the_phase() -> None:
    dusk = things()["Dusk"]
    assert "At the start of each Sun turn in it: heal 2 own player; damage 1 enemy player." in dusk
    assert "When the Sun enters it: damage 1 enemy player." in dusk
    assert "enters" not in things()["Zenith"]
