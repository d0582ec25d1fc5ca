"""The deck table made by simulation, card and board notation errors, and option checks."""

from __future__ import annotations

from pathlib import Path

import pytest

import astrarium
from astrarium.core import DataError, OptionError
from astrarium.core.data import read_data
from astrarium.games import constellations
from astrarium.games.constellations.cards import Card, load_deck_file, shipped_deck
from helpers import load_script

GAME = astrarium.get_game("constellations")
PACKAGE = Path(constellations.__file__).parent
deckgen = load_script("constellations_deckgen")  # the simulation that made deck.toml


def test_section6_shipped_deck_has_cards_of_one_to_five_colours() -> None:
    deck = shipped_deck()
    assert len(deck) == 40
    assert {len(c.colours) for c in deck} == {1, 2, 3, 4, 5}


def test_section6_points_follow_the_simulated_found_rate() -> None:
    _, data = read_data("astrarium.games.constellations", "deck.toml")
    for entry in data["card"]:
        assert entry["points"] == deckgen.points_for(entry["found_rate"])
    # Harder (rarer) constellations are worth at least as much as easier ones.
    by_rate = sorted(data["card"], key=lambda e: -e["found_rate"])
    assert [e["points"] for e in by_rate] == sorted(e["points"] for e in by_rate)


@pytest.mark.slow
def test_deckgen_reproduces_the_shipped_deck() -> None:
    sequences = deckgen.choose_sequences()
    text = deckgen.deck_toml(deckgen.reach_rates(sequences, 2000), 2000)
    assert text == (PACKAGE / "deck.toml").read_text(encoding="utf-8")


def test_default_game_shuffles_the_shipped_deck_by_seed() -> None:
    a, b, c = (GAME.new_game(2, s).full_view() for s in (1, 1, 2))
    assert a == b and a != c
    cards = sorted(a["deck_order"] + a["hands"][0] + a["hands"][1])
    assert cards == sorted(str(x) for x in shipped_deck())


def test_deck_option_is_the_draw_order() -> None:
    state = GAME.new_game(1, 0, {"deck": ["g/1", "y/2", "r/3", "w/4"]})
    assert state.view(0)["hand"] == ["g/1", "y/2", "r/3"]
    assert state.full_view()["deck_order"] == ["w/4"]


def test_random_board_has_the_documented_size_and_counts() -> None:
    state = GAME.new_game(1, 9, {"width": 8, "height": 5, "planets": 4, "comets": 0})
    board = state.view(0)["board"].split("\n")
    assert len(board) == 5 and all(len(row) == 8 for row in board)
    text = "".join(board)
    assert (text.count("P"), text.count("G"), text.count("Y"), text.count("C")) == (4, 6, 3, 0)


@pytest.mark.parametrize(
    "board,where",
    [
        ("PG.\n.X.", "row 2, column 2"),
        ("PG.\n..", "row 2 has 2 cells but row 1 has 3"),
        ("P g", "row 1, column 2"),
    ],
)
def test_bad_board_names_the_row_and_column(board: str, where: str) -> None:
    with pytest.raises(OptionError, match="board") as err:
        GAME.new_game(1, 0, {"board": board})
    assert where in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "options,name",
    [
        ({"width": 99}, "width"),
        ({"height": 2}, "height"),
        ({"hand_size": 0}, "hand_size"),
        ({"max_rounds": 101}, "max_rounds"),
        ({"planets": -1}, "planets"),
        ({"planets": 20, "gas_giants": 20, "comets": 20}, "planets"),
        ({"planets": 0}, "planets"),
        ({"deck": []}, "deck"),
        ({"deck": ["g/1", "gz/2"]}, "deck"),
        ({"deck": ["g/1"], "deck_file": "x.toml"}, "deck_file"),
        ({"deck_file": "/no/such/deck.toml"}, "deck_file"),
        ({"planet_in_line": "yes"}, "planet_in_line"),
    ],
)
def test_bad_option_names_the_option(options: dict, name: str) -> None:
    with pytest.raises(OptionError, match=name):
        GAME.new_game(1, 0, options)


def test_bad_deck_entry_names_the_entry() -> None:
    with pytest.raises(OptionError, match="entry 2"):
        GAME.new_game(1, 0, {"deck": ["g/1", "gz/2"]})


BAD_DECKS = [
    ('[[card]]\ncolours = "gq"\npoints = 2\n', "card.#1.colours", "colour"),
    ('[[card]]\ncolours = "g"\npoints = 1\n[[card]]\ncolours = "gyrwbk"\npoints = 2\n', "card.#2.colours", "1 to 5"),
    ('[[card]]\ncolours = "g"\n', "card.#1.points", "required"),
    ('[[card]]\ncolours = "g"\npoints = 1\ncopies = 0\n', "card.#1.copies", "greater than or equal to 1"),
    ('[[card]]\ncolours = "g"\npoints = 1\ncolour = "y"\n', "card.#1.colour", "not permitted"),
    ("card = []\n", "card", "at least 1 item"),
    ('[[card]]\ncolours = "g"\npoints = "many"\n', "card.#1.points", "valid integer"),
]


@pytest.mark.parametrize("text,entry,problem", BAD_DECKS)
def test_bad_deck_file_names_the_file_and_the_card(tmp_path: Path, text: str, entry: str, problem: str) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_deck_file(path)
    message = str(err.value)
    assert str(path) in message and entry in message and problem in message
    with pytest.raises(OptionError, match="deck_file"):
        GAME.new_game(1, 0, {"deck_file": str(path)})


def test_designer_deck_file_is_used_shuffled(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"card": [{"colours": "g", "points": 1, "copies": 5}, {"colours": "yy", "points": 4}]}')
    state = GAME.new_game(2, 3, {"deck_file": str(path)})
    full = state.full_view()
    assert sorted(full["deck_order"] + full["hands"][0] + full["hands"][1]) == ["g/1"] * 5 + ["yy/4"]
    assert Card.parse("yy/4") in load_deck_file(path)


def test_rules_document_shows_the_shipped_points_table() -> None:
    _, data = read_data("astrarium.games.constellations", "deck.toml")
    by_points: dict[int, list[str]] = {}
    for entry in data["card"]:
        by_points.setdefault(entry["points"], []).append(entry["colours"])
    rules = GAME.rules_text()
    for points, colours in by_points.items():
        assert f"| {points} | {' '.join(colours)} |" in rules


def test_docs_rules_page_links_to_the_package_rules() -> None:
    link = Path(__file__).resolve().parents[3] / "docs" / "rules" / "constellations.md"  # the checkout, not the install
    assert link.is_symlink() and link.read_text(encoding="utf-8") == GAME.rules_text()
