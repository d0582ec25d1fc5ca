"""Trust boundaries of the core: crafted actions, files, records and options from strangers.

Each test is one family of bad input named in the hardening review; every one
must end in the project's own error (IllegalAction, DataError, RecordError,
OptionError) with the state untouched, never in a traceback or a hang.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, Option, OptionError, RecordError
from astrarium.core.data import MAX_DATA_BYTES, MAX_NESTING, DataModel, parse_data, read_data_file, validate
from astrarium.core.game import MAX_NOTATION_CHARS
from astrarium.core.records import load_record, save_record
from helpers import examples


def toy(seed: int = 1):
    return astrarium.get_game("toy-pile").new_game(2, seed)


def snapshot(state) -> tuple:
    return (json.dumps(state.full_view(), sort_keys=True), json.dumps(state.to_record(), sort_keys=True))


# -- 2. an action is legal only if it is one of the legal actions, exactly ----------


class Small(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize("wrong", [float, Small, bool])
def test_crafted_action_with_equal_field_of_another_type_is_refused(wrong) -> None:
    state = astrarium.get_game("toy-pile").new_game(2, next(s for s in range(100) if 1 in toy(s).hands[0]))
    Play = type(state.legal_actions()[0])
    crafted = Play(card=wrong(1))
    assert crafted == Play(card=1) and crafted in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(crafted)
    assert snapshot(state) == before


def test_apply_plays_the_legal_lists_own_object() -> None:
    state = toy()
    first = state.legal_actions()[0]
    equal = type(first)(card=first.card)
    assert equal is not first
    state.apply(equal)
    assert state.actions[0] is first


def test_notation_longer_than_the_limit_is_refused_without_echoing_it() -> None:
    state = toy()
    text = "play " + "9" * 1_000_000
    with pytest.raises(IllegalAction) as info:
        state.apply(text)
    assert len(str(info.value)) < 300 and str(MAX_NOTATION_CHARS) in str(info.value)


def test_unicode_digits_in_a_notation_are_an_illegal_action() -> None:
    state = toy()
    with pytest.raises(IllegalAction):
        state.apply("play ²")


# -- 3. file-valued input reads only regular files, and only so much ----------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_not_read(device: str) -> None:
    with pytest.raises(DataError, match="not a regular file"):
        read_data_file(device)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_data_file(fifo)
    with pytest.raises(RecordError, match="not a regular file"):
        load_record(fifo)


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="a folder"):
        read_data_file(tmp_path)


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_DATA_BYTES + "\n")
    with pytest.raises(DataError, match="limit"):
        read_data_file(big)


# -- 5. loader errors name the file, never escape as tracebacks ----------------------


def test_invalid_utf8_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "deck.toml"
    bad.write_bytes(b'a = 1\nname = "\xff"\n')
    with pytest.raises(DataError, match=r"deck\.toml: line 2: not UTF-8"):
        read_data_file(bad)


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    f = tmp_path / "deck.toml"
    f.write_bytes("\ufeffa = 1\n".encode())
    assert read_data_file(f)[1] == {"a": 1}


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 200, 5000])
def test_deep_nesting_is_refused(suffix: str, depth: int) -> None:
    inner = "[" * depth + "]" * depth
    text = f"a = {inner}" if suffix == ".toml" else f'{{"a": {inner}}}'
    with pytest.raises(DataError, match="nested more than"):
        parse_data(text, "deep" + suffix)


@pytest.mark.parametrize("text", ["a = 1" + "0" * 5000, '{"a": 1' + "0" * 5000 + "}"])
def test_a_number_of_thousands_of_digits_is_a_data_error(text: str) -> None:
    suffix = ".toml" if text.startswith("a") else ".json"
    with pytest.raises(DataError, match="syntax"):
        parse_data(text, "big" + suffix)


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("deck\x00.toml", "NUL"),
        ("x" * 5000 + ".toml", "longer than"),
        ("y" * 300 + ".toml", "cannot read"),
        (b"deck.toml", "bytes"),
        (42, "int"),
    ],
)
def test_impossible_paths_are_a_data_error(path, reason: str) -> None:
    with pytest.raises(DataError, match=reason) as info:
        read_data_file(path)
    assert len(str(info.value)) < 300


class Card(DataModel):
    name: str
    health: float


def test_schema_refuses_nan_unknown_keys_and_names_the_entry() -> None:
    with pytest.raises(DataError, match=r"deck\.toml: card 1 health: .*finite"):
        validate(Card, {"name": "a", "health": float("nan")}, file="deck.toml", entry="card 1")
    with pytest.raises(DataError, match=r"card 1 colour: Extra inputs"):
        validate(Card, {"name": "a", "health": 1.0, "colour": "red"}, file="deck.toml", entry="card 1")
    with pytest.raises(DataError, match=r"card 1: .*dictionary"):
        validate(Card, [1], file="deck.toml", entry="card 1")


# -- options --------------------------------------------------------------------------


def test_list_option_refuses_deep_nesting_and_nan_is_not_a_number() -> None:
    listed = Option("deck", [], "cards", kind=list)
    with pytest.raises(OptionError, match="nested more than"):
        listed.parse("[" * 5000)
    number = Option("speed", 1.0, "speed", kind=float, minimum=0, maximum=10)
    for text in ("nan", "inf", "-inf", "1e999"):
        with pytest.raises(OptionError, match="finite"):
            number.parse(text)
    with pytest.raises(OptionError, match="expected an integer"):
        Option("n", 1, "n").parse("9" * 5000)


# -- 7. records are checked field by field ----------------------------------------------


def good_record() -> dict:
    state = toy(3)
    state.apply(state.legal_actions()[0])
    return state.to_record()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": ["toy-pile"]}, "'game'"),
        ({"players": "2"}, "'players'"),
        ({"players": 2.0}, "'players'"),
        ({"seed": None}, "'seed'"),
        ({"version": 1.0}, "version"),
        ({"version": True}, "version"),
        ({"options": []}, "'options'"),
        ({"actions": "play 1"}, "'actions'"),
        ({"actions": [1]}, "'actions'"),
        ({"format": ["x"]}, "format"),
        ({"public": "yes"}, "'public'"),
    ],
)
def test_a_record_of_the_wrong_shape_names_the_field(change: dict, field: str) -> None:
    record = {**good_record(), **change}
    with pytest.raises(RecordError, match=field):
        astrarium.replay(record)


@pytest.mark.parametrize("upto", ["3", 2.5, True, None.__class__])
def test_replay_upto_must_be_a_whole_number(upto) -> None:
    with pytest.raises(RecordError, match="upto"):
        astrarium.replay(good_record(), upto=upto)


def test_a_record_longer_than_any_game_is_refused_before_replaying() -> None:
    record = {**good_record(), "actions": ["play 1"] * 100_000}
    with pytest.raises(RecordError, match="lasts at most"):
        astrarium.replay(record)


def test_garbage_record_files_are_record_errors(tmp_path: Path) -> None:
    cases = {
        "utf8.json": b'{"game": "\xff"}',
        "deep.json": b"[" * 5000 + b"]" * 5000,
        "list.json": b'{"format": "astrarium-record", "version": 1, "game": ["celestials"], "players": 2, "seed": 1, "actions": []}',
        "text.json": b'"a record"',
    }
    for name, raw in cases.items():
        (tmp_path / name).write_bytes(raw)
        with pytest.raises(RecordError, match=name):
            load_record(tmp_path / name)
    with pytest.raises(RecordError, match="NUL"):
        load_record("game\x00.json")


@settings(max_examples=examples(150))
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda kids: (
            st.lists(kids, max_size=4)
            | st.dictionaries(
                st.sampled_from(["game", "players", "seed", "actions", "options", "version", "format", "public", "views", "x"]),
                kids,
                max_size=6,
            )
        ),
        max_leaves=20,
    )
)
def test_any_json_value_replays_or_is_a_record_error(value) -> None:
    with contextlib.suppress(RecordError):
        astrarium.replay(value)


@settings(max_examples=examples(150))
@given(st.binary(max_size=200))
def test_any_bytes_load_or_are_a_record_error(tmp_path_factory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("rec") / "r.json"
    path.write_bytes(raw)
    with contextlib.suppress(RecordError):
        load_record(path)


@settings(max_examples=examples(200))
@given(st.text(max_size=200), st.sampled_from([".toml", ".json"]))
def test_any_text_parses_or_is_a_data_error(text: str, suffix: str) -> None:
    with contextlib.suppress(DataError):
        parse_data(text, "fuzz" + suffix)


# -- 12. a record that is safe to share before the end ------------------------------------


def test_public_record_has_no_seed_and_the_spectators_view_of_every_position(tmp_path: Path) -> None:
    state = toy(4)
    views = [state.picture_view(None)]
    for _ in range(3):
        state.apply(state.legal_actions()[0])
        views.append(state.picture_view(None))
    record = state.to_record(public=True)
    assert "seed" not in record and record["public"] is True
    assert record["views"] == views
    assert json.loads(json.dumps(record)) == record
    path = save_record(state, tmp_path / "share.json", public=True)
    loaded = load_record(path)
    assert "seed" not in loaded
    with pytest.raises(RecordError, match="public record has no seed"):
        astrarium.replay(loaded)
    hands = state.full_view()["hands"]
    assert all(hand not in (v["hands"] for v in loaded["views"]) for hand in hands if len(hand) > 1)


def test_save_record_to_a_missing_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot write"):
        save_record(toy(), tmp_path / "missing" / "game.json")


def test_save_record_refuses_a_fifo_or_a_device_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    for target in (fifo, "/dev/null", tmp_path):
        with pytest.raises(RecordError, match="cannot write"):
            save_record(toy(), target)


def test_an_unknown_game_id_is_not_echoed_whole() -> None:
    with pytest.raises(astrarium.UnknownGame) as info:
        astrarium.get_game("x" * 100_000)
    assert len(str(info.value)) < 400
