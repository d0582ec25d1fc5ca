"""Bad input of every kind (notations, crafted actions, options, data files) is refused clearly and changes nothing.

Each test is named after what it proves; the property tests at the end throw random
actions, strings and data files at the game and its loaders.
"""

from __future__ import annotations

import json
import string
import tempfile
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, OptionError, Rng
from astrarium.games.constellations.actions import End, Pass, Play, Rotate, Swap
from astrarium.games.constellations.board import MAX_SIDE
from astrarium.games.constellations.cards import MAX_COPIES, MAX_DECK_CARDS, MAX_DECK_ENTRIES, MAX_POINTS, Card, load_deck_file
from astrarium.games.constellations.puzzles import MAX_PUZZLES, load_puzzle_file
from astrarium.games.constellations.state import MAX_ROUNDS
from helpers import examples

GAME = astrarium.get_game("constellations")
PACKAGE = Path(__file__).parents[3] / "src" / "astrarium" / "games" / "constellations"
# Only the star at g3 can rotate (it moves the gas giant at f1); the planet at a1 sees the gas giant at b1.
BOARD = "PG...G.\n.......\n......Y"
DECK = ["g/1", "y/2", "r/3", "w/4"]
NINES = "9" * 5000


class Small(IntEnum):
    """An IntEnum whose members equal small ints (1 == Small.ONE), as a crafted action might use."""

    ZERO = 0
    ONE = 1
    TWO = 2
    SIX = 6


def snapshot(state: Any) -> str:
    """Everything an illegal action must leave alone: every seat's and a spectator's view, the full view, the record."""
    views = [state.view(seat) for seat in [None, *range(state.players)]]
    return json.dumps([views, state.full_view(), state.to_record()], sort_keys=True)


def start(**options: Any) -> Any:
    return GAME.new_game(1, 0, {"board": BOARD, "deck": DECK, **options})


def refused(state: Any, action: Any, reason: str = "") -> str:
    """Apply ``action``, expect IllegalAction (with ``reason`` in it) and no change; returns the message."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert snapshot(state) == before
    message = str(err.value)
    assert reason in message and len(message) < 300
    return message


def write(folder: Path, text: str, name: str = "deck.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def deck_entry(colours: str = "g", points: int = 1, copies: int = 1) -> str:
    return f'[[card]]\ncolours = "{colours}"\npoints = {points}\ncopies = {copies}\n'


def puzzle_entry(**change: Any) -> str:
    fields: dict[str, Any] = {"name": "A", "board": "PG.\n..Y", "target": "g/1", "rotations": 2, "shortest": 1, **change}
    return "[[puzzle]]\n" + "".join(f"{k} = {json.dumps(v) if isinstance(v, str) else v}\n" for k, v in fields.items())


# -- numbers in a notation ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "rot a" + NINES,
        "rot a" + "9" * 400,
        "rot g٣",
        "rot g３",
        "rot g³",
        "rot a0",
        "play g/" + "9" * 400,
        "play g/١",
        "play g/²",
        "swap g/۱",
    ],
)
def test_a_notation_with_unicode_digits_or_thousands_of_digits_is_an_illegal_action(text: str) -> None:
    state = start(swap=True)
    assert "rot g3" in map(str, state.legal_actions()) and "swap g/1" in map(str, state.legal_actions())
    refused(state, text)


def test_a_unicode_letter_that_lowercases_to_ascii_is_not_read_as_a_colour() -> None:
    # The Kelvin sign K (U+212A) lower-cases to 'k'; a notation is read only when it is ASCII.
    state = start()
    state.apply("rot g3")
    refused(state, "play \u212a/1", "plain letters")
    refused(state, "\u212aND")


def test_the_puzzle_prompt_answers_crafted_numbers_with_one_line_each() -> None:
    import io

    from rich.console import Console

    from astrarium.cli.puzzles import play_puzzle

    puzzle = GAME.puzzles()[0]
    script = iter(["rot a" + NINES[:400], "rot a٣", "play wg/³", "²", NINES, "q"])
    out = io.StringIO()
    assert not play_puzzle(GAME, puzzle, Console(file=out, width=200), lambda prompt: next(script))
    assert out.getvalue().count("is not an action") >= 2 and "Traceback" not in out.getvalue()


@pytest.mark.parametrize("deck", [["g/" + NINES], ["g/٣"], ["g/100"], ["g/0"], ["\u212a/1"], ["g" * 10_000 + "/1"]])
def test_a_deck_option_with_a_bad_number_is_an_option_error(deck: list[str]) -> None:
    with pytest.raises(OptionError, match="deck") as err:
        GAME.new_game(1, 0, {"deck": deck})
    assert len(str(err.value)) < 300


# -- action objects of the right type with fields of the wrong type ----


@pytest.mark.parametrize(
    "action",
    [
        Rotate(2.0, 6.0),
        Rotate(2, 6.0),
        Rotate(True, True),
        Rotate(Small.TWO, Small.SIX),
        Rotate(None, None),
        Rotate("2", "6"),
        Rotate(10**5000, 6),
        Rotate(2, -(10**5000)),
        Rotate(-1, -100),
        Rotate(2, 26),
        Rotate(float("nan"), float("inf")),
    ],
    ids=lambda value: type(value).__name__,
)
def test_a_rotate_with_fields_of_the_wrong_type_or_range_is_refused_with_a_reason(action: Rotate) -> None:
    state = start()
    assert Rotate(2, 6) in state.legal_actions()
    message = refused(state, action)
    assert "whole row and column" in message or "off the 3x7 board" in message
    assert str(action).startswith("rot ") and repr(action).startswith("Rotate(")


@pytest.mark.parametrize(
    "card",
    [
        Card("g", 1.0),
        Card("g", True),
        Card("g", Small.ONE),
        Card("g", 10**5000),
        Card("g", -(10**5000)),
        Card(None, None),
        Card(["g"], 1),
        Card("g²", 1),
        "g/1",
        None,
        10**5000,
    ],
    ids=lambda value: type(value).__name__,
)
@pytest.mark.parametrize("kind", [Play, Swap])
def test_a_play_or_swap_of_something_that_is_no_card_is_refused_with_a_reason(kind: type, card: Any) -> None:
    state = start(swap=True)
    if kind is Play:
        state.apply("rot g3")
    assert kind(Card("g", 1)) in state.legal_actions()
    refused(state, kind(card), "that is no card")
    assert str(kind(card)) and repr(kind(card))


def test_a_crafted_end_or_pass_in_the_wrong_phase_is_explained() -> None:
    state = start()
    refused(state, End(), "rotate first")
    refused(state, Pass(), "a star can still rotate")
    refused(state, object(), "not a legal action")


# -- a bound on every count in a data file ---------------------------


@pytest.mark.parametrize(
    "text,entry,problem",
    [
        (deck_entry(copies=1_000_000_000), "card.#1.copies", f"less than or equal to {MAX_COPIES}"),
        (deck_entry(copies=MAX_COPIES + 1), "card.#1.copies", f"less than or equal to {MAX_COPIES}"),
        (deck_entry(points=10**15), "card.#1.points", f"less than or equal to {MAX_POINTS}"),
        (deck_entry(points=MAX_POINTS + 1), "card.#1.points", f"less than or equal to {MAX_POINTS}"),
        (deck_entry(colours="g" * 100_000), "card.#1.colours", "at most"),
        ("".join(deck_entry(copies=MAX_COPIES) for _ in range(MAX_DECK_CARDS // MAX_COPIES + 1)), "file", f"at most {MAX_DECK_CARDS}"),
        (deck_entry() * (MAX_DECK_ENTRIES + 1), "card", f"at most {MAX_DECK_ENTRIES}"),
        (deck_entry() + "found_rate = 5.0\n", "card.#1.found_rate", "less than or equal to 1"),
        (deck_entry() + "found_rate = nan\n", "card.#1.found_rate", "finite"),
        (deck_entry() + "found_rate = inf\n", "card.#1.found_rate", "finite"),
        (f'about = "{"x" * 5000}"\n' + deck_entry(), "about", "at most 1000"),
    ],
)
def test_a_count_over_its_bound_in_a_deck_file_is_a_data_error_naming_file_and_entry(
    tmp_path: Path, text: str, entry: str, problem: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataError) as err:
        load_deck_file(path)
    assert str(path) in str(err.value) and err.value.entry.startswith(entry) and problem in str(err.value)
    with pytest.raises(OptionError, match="deck_file"):
        GAME.new_game(1, 0, {"deck_file": str(path)})


def test_a_deck_at_its_bounds_loads() -> None:
    text = "".join(deck_entry(points=MAX_POINTS, copies=MAX_COPIES) for _ in range(MAX_DECK_CARDS // MAX_COPIES))
    with tempfile.TemporaryDirectory() as folder:
        assert len(load_deck_file(write(Path(folder), text))) == MAX_DECK_CARDS


@pytest.mark.parametrize(
    "text,entry,problem",
    [
        (puzzle_entry(rotations=MAX_ROUNDS + 1), "puzzle.#1.rotations", f"less than or equal to {MAX_ROUNDS}"),
        (puzzle_entry(rotations=10**12, shortest=10**12), "puzzle.#1.rotations", "less than or equal"),
        (puzzle_entry(shortest=0), "puzzle.#1.shortest", "greater than or equal to 1"),
        (puzzle_entry(target="g/" + NINES), "puzzle.#1.target", "at most"),
        (puzzle_entry(target="g/٣"), "puzzle.#1.target", "is not a card"),
        (puzzle_entry(board="P" * 30), "puzzle.#1.board", f"at most {MAX_SIDE}"),
        (puzzle_entry(board="P\u2028Y"), "puzzle.#1.board", "unknown character"),
        (puzzle_entry(board="P" * 5000), "puzzle.#1.board", "at most 4096"),
        (puzzle_entry(name="x" * 500), "puzzle.#1.name", "at most 80"),
        (puzzle_entry() * (MAX_PUZZLES + 1), "puzzle", f"at most {MAX_PUZZLES}"),
        ("puzzle = []\n", "puzzle", "at least 1"),
    ],
)
def test_a_bad_or_oversized_puzzle_entry_is_a_data_error_at_load_time(tmp_path: Path, text: str, entry: str, problem: str) -> None:
    path = write(tmp_path, text, "mine.toml")
    with pytest.raises(DataError) as err:
        load_puzzle_file(path)
    assert str(path) in str(err.value) and err.value.entry.startswith(entry) and problem in str(err.value)


def test_every_puzzle_that_loads_can_be_set_up(tmp_path: Path) -> None:
    # The longest puzzle the schema allows is still a valid game (max_rounds = rotations).
    (puzzle,) = load_puzzle_file(write(tmp_path, puzzle_entry(rotations=MAX_ROUNDS), "mine.toml"))
    assert GAME.new_game(1, 0, dict(puzzle.options)).options["max_rounds"] == MAX_ROUNDS


# -- every loader fault is a DataError naming file and entry -------------


@pytest.mark.parametrize(
    "raw,entry",
    [
        (b"card = [1]\n", "card.#1"),
        (b"card = 1\n", "card"),
        (b'card = "g/1"\n', "card"),
        (b"[card]\ncolours = 'g'\npoints = 1\n", "card"),
        (b"[[card]]\ncolours = ['g']\npoints = 1\n", "card.#1.colours"),
        (b"[[card]]\ncolours = 'g'\npoints = 1.0\n", "card.#1.points"),
        (b"[[card]]\ncolours = 'g'\npoints = true\n", "card.#1.points"),
        (b"[[card]]\ncolours = 'g'\npoints = 1\ncopies = 2.0\n", "card.#1.copies"),
        (b"[[card]]\ncolours = 'g'\npoints = 1\nfound_rate = true\n", "card.#1.found_rate"),
        (b"[[card]]\ncolours = 'g'\npoints = 1\n[card.extra]\n", "card.#1.extra"),
        (b"[[card]]\ncolours = '\xff'\npoints = 1\n", "line 2"),
        (b"card = " + b"[" * 5000 + b"]" * 5000 + b"\n", "syntax"),
        (b"[[card", "syntax"),
    ],
)
def test_a_malformed_deck_file_is_a_data_error_naming_file_and_entry(tmp_path: Path, raw: bytes, entry: str) -> None:
    path = tmp_path / "deck.toml"
    path.write_bytes(raw)
    with pytest.raises(DataError) as err:
        load_deck_file(path)
    assert err.value.file == str(path) and err.value.entry.startswith(entry)


@pytest.mark.parametrize("raw", [b"[1]", b'"deck"', b'{"card": [[]]}', b'{"card": [{"colours": "g", "points": 1e999}]}', b"{"])
def test_a_malformed_json_deck_file_is_a_data_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "deck.json"
    path.write_bytes(raw)
    with pytest.raises(DataError, match="deck.json"):
        load_deck_file(path)


def test_a_deck_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_bytes(b"\xef\xbb\xbf" + deck_entry(copies=2).encode())
    assert load_deck_file(path) == (Card("g", 1), Card("g", 1))


@pytest.mark.parametrize("path", ["deck\x00.toml", "d" * 5000 + ".toml", "/dev/zero", "/", 7])
def test_a_deck_file_option_that_names_no_readable_file_is_an_option_error(path: Any) -> None:
    with pytest.raises(OptionError, match="deck_file"):
        GAME.new_game(1, 0, {"deck_file": path})


@pytest.mark.parametrize("raw", [b"puzzle = [1]\n", b"puzzle = 'x'\n", b"[[puzzle]]\nname = 1\n", b"\xfe\xff"])
def test_a_malformed_puzzle_file_is_a_data_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(raw)
    with pytest.raises(DataError, match="mine.toml"):
        load_puzzle_file(path)


# -- files from outside are read again when they change ------------------


def test_an_edited_deck_file_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    path = write(tmp_path, deck_entry("g", 1, 5))
    first = GAME.new_game(1, 0, {"deck_file": str(path)}).full_view()
    write(tmp_path, deck_entry("yy", 4, 5))
    second = GAME.new_game(1, 0, {"deck_file": str(path)}).full_view()
    assert set(first["hands"][0] + first["deck_order"]) == {"g/1"}
    assert set(second["hands"][0] + second["deck_order"]) == {"yy/4"}


def test_an_edited_puzzle_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, puzzle_entry(name="Before"), "mine.toml")
    assert load_puzzle_file(path)[0].name == "Before"
    write(tmp_path, puzzle_entry(name="After"), "mine.toml")
    assert load_puzzle_file(path)[0].name == "After"


# -- the board option: a position as text --------------------------------------------


@pytest.mark.parametrize(
    "board,reason",
    [
        ("P\u2028Y", "unknown character '\\u2028'"),
        ("P\u3000Y", "unknown character '\\u3000'"),
        ("PY\u3000", "unknown character '\\u3000'"),
        ("P\x0bY", "unknown character '\\x0b'"),
        ("P٣Y", "unknown character '\\u0663'"),
        ("PY\n" * 27, f"at most {MAX_SIDE}"),
        ("P" * 27, f"at most {MAX_SIDE}"),
        ("P" * 60_000, f"at most {MAX_SIDE}"),
        ("PY\n\nGG", "row 2 has 0 cells"),
        ("   \n  ", "empty"),
        ("", "empty"),
    ],
)
def test_a_board_option_that_is_malformed_huge_or_not_ascii_is_an_option_error_with_a_reason(board: str, reason: str) -> None:
    with pytest.raises(OptionError, match="board") as err:
        GAME.new_game(1, 0, {"board": board})
    assert reason in str(err.value) and len(str(err.value)) < 300


def test_a_board_with_windows_line_ends_reads_like_one_with_plain_ones() -> None:
    a = GAME.new_game(1, 0, {"board": "PG.\r\n..Y\r\n"})
    assert a.view(0)["board"] == "PG.\n..Y"


# -- properties: crafted actions and strings never change a position ---------------------

WRONG_VALUES = st.one_of(
    st.integers(-3, 30),
    st.integers(),
    st.tuples(st.sampled_from([19, 40, 5000]), st.sampled_from([1, -1])).map(lambda p: p[1] * 10 ** p[0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.0, float("nan"), float("inf")]),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.sampled_from(["²", "³", "٣", "1", "g", "g/1", "", "\u212a"]),
    st.sampled_from(list(Small)),
)
CARDS = st.one_of(
    st.builds(Card, st.one_of(st.text("bgyrwk", min_size=1, max_size=5), WRONG_VALUES), WRONG_VALUES),
    st.builds(Card, st.sampled_from(["g", "y", "r", "w"]), st.sampled_from([1, 2, 3, 4, 1.0, True, Small.ONE, Small.TWO])),
    WRONG_VALUES,
)
ACTIONS = st.one_of(
    st.builds(Rotate, WRONG_VALUES, WRONG_VALUES),
    st.builds(Play, CARDS),
    st.builds(Swap, CARDS),
    st.just(End()),
    st.just(Pass()),
)
DIGITS = "0123456789²³¹٣۳０９"
NOTATIONS = st.one_of(
    st.text(max_size=30),
    st.builds(
        "{} {}{}".format,
        st.sampled_from(["rot", "rotate", "ROT", "play", "swap"]),
        st.text("abcdefgz", min_size=1, max_size=2),
        st.text(DIGITS, min_size=1, max_size=4),
    ),
    st.builds(
        "{} {}/{}".format, st.sampled_from(["play", "swap"]), st.text("bgyrwkK", min_size=1, max_size=6), st.text(DIGITS, max_size=4)
    ),
    st.sampled_from(["end", "pass", "END ", " pass", "end end", "rot a" + NINES, "play g/" + NINES[:450]]),
)


@st.composite
def positions(draw: st.DrawFn) -> Any:
    """A position reached by random legal play from a random seed (1 to 4 players, variant swap on or off)."""
    seed = draw(st.integers(0, 2**32))
    state = GAME.new_game(draw(st.integers(1, 4)), seed, {"swap": draw(st.booleans())})
    rng = Rng(seed)
    for _ in range(draw(st.integers(0, 40))):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def exactly_legal_fields(action: Any) -> bool:
    """Whether a crafted action has exactly the field types of a real one (only then may it be accepted)."""
    if type(action) is Rotate:
        return type(action.row) is int and type(action.col) is int
    if type(action) in (Play, Swap):
        return type(action.card) is Card and type(action.card.colours) is str and type(action.card.points) is int
    return type(action) in (End, Pass)


@settings(max_examples=examples(150))
@given(positions(), ACTIONS)
def test_a_crafted_action_object_is_played_only_when_exactly_legal_and_otherwise_changes_nothing(state: Any, action: Any) -> None:
    before = snapshot(state)
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert snapshot(state) == before
        assert str(exc)
    else:
        assert exactly_legal_fields(action)
        assert state.history[-1] == str(action)


@settings(max_examples=examples(150))
@given(positions(), NOTATIONS)
def test_a_random_string_is_played_only_when_it_is_a_plain_notation_and_otherwise_changes_nothing(state: Any, text: str) -> None:
    before, twin = snapshot(state), state.clone()
    try:
        state.apply(text)
    except IllegalAction as exc:
        assert snapshot(state) == before
        assert str(exc) and len(str(exc)) < 400
    else:
        # Accepted text is plain ASCII and plays exactly like the canonical notation it is recorded as.
        assert text.isascii()
        twin.apply(state.history[-1])
        assert snapshot(twin) == snapshot(state)


# -- properties: random and mutated data files load or are a DataError ---------------------

SHIPPED_DECK = (PACKAGE / "deck.toml").read_text(encoding="utf-8")
SHIPPED_PUZZLES = (PACKAGE / "puzzles.toml").read_text(encoding="utf-8")
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
FIELD_NAMES = st.sampled_from(["colours", "points", "copies", "found_rate", "name", "board", "target", "rotations", "shortest", "x"])
# Numbers stay far below 4,300 digits here: a data file's text is bounded, and json.dumps cannot write longer ones.
DATA_VALUES = st.one_of(
    st.integers(-3, 30),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["g/1", "²", "P\nY"]),
)
ENTRIES = st.dictionaries(FIELD_NAMES, DATA_VALUES | JSON_VALUES, max_size=6)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random cuts, insertions and replacements (often still valid TOML)."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 40))
        insert = draw(
            st.text(string.printable + "²٣\u2028", max_size=20) | st.sampled_from(["= 1000000000", "[[card]]", "= nan", "[", "]", '"'])
        )
        text = text[:at] + insert + text[at + cut :]
    return text


def load_text(loader: Any, text: str, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"data{suffix}"
        path.write_text(text, encoding="utf-8")
        try:
            loader(path)
        except DataError as exc:
            assert str(path) in str(exc)


def files(shipped: str, key: str) -> st.SearchStrategy[tuple[str, str]]:
    as_json = st.builds(
        lambda entries, top: json.dumps({key: entries, **top}),
        st.lists(ENTRIES, max_size=5),
        st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=2),
    )
    return st.one_of(
        st.tuples(mutated(shipped), st.just(".toml")),
        st.tuples(st.text(max_size=200), st.sampled_from([".toml", ".json"])),
        st.tuples(as_json, st.just(".json")),
        st.tuples(JSON_VALUES.map(json.dumps), st.just(".json")),
    )


@settings(max_examples=examples(120))
@given(files(SHIPPED_DECK, "card"))
def test_any_deck_file_loads_or_is_a_data_error_naming_it(case: tuple[str, str]) -> None:
    load_text(load_deck_file, *case)


@settings(max_examples=examples(80))
@given(files(SHIPPED_PUZZLES, "puzzle"))
def test_any_puzzle_file_loads_or_is_a_data_error_naming_it(case: tuple[str, str]) -> None:
    load_text(load_puzzle_file, *case)


@settings(max_examples=examples(150))
@given(
    st.one_of(st.text(max_size=60), st.text("PGYRNBC.\n \r\t²\u2028", max_size=80)),
    st.lists(st.one_of(st.text(max_size=12), WRONG_VALUES), max_size=4),
)
def test_any_board_or_deck_option_starts_a_game_or_is_an_option_error(board: str, deck: list[Any]) -> None:
    for options in ({"board": board}, {"deck": deck}):
        try:
            state = GAME.new_game(1, 0, options)
        except OptionError as exc:
            assert len(str(exc)) < 400
        else:
            assert state.legal_actions()
            assert set(state.view(0)["board"]) <= set("PGYRNBC.\n")


def test_hardening_fixtures_are_sound() -> None:
    # The crafted-action tests rely on this position: g3 is the only rotation, then g/1 is playable.
    state = start(swap=True)
    assert [str(a) for a in state.legal_actions()] == ["rot g3", "swap g/1", "swap r/3", "swap y/2"]
    state.apply("rot g3")
    assert [str(a) for a in state.legal_actions()] == ["play g/1", "end"]
