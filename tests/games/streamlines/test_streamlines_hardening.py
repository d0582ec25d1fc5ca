"""Bad input gets a clear error and changes nothing: crafted actions, crafted notations, bad scenario files.

A stranger may hand ``apply`` an action object with fields of any type, or any text;
a designer may hand the game any file as a scenario. Each is refused with
IllegalAction (actions) or DataError / OptionError (files and options), naming what
is wrong, and the position is exactly as it was.
"""

from __future__ import annotations

import json
from enum import IntEnum
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlines_fixtures import GAME, TWO_EACH, new_game, play, scenario_text, stacked, write_scenario

from astrarium.core import DataError, IllegalAction, OptionError, Rng
from astrarium.core.data import parse_data, read_data
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import ACTION_TYPES, Dump, Engineer, Give, Lay, Move
from astrarium.games.streamlines.board import (
    MAX_COLLAPSE_CARDS,
    MAX_PLANETS,
    SCENARIO_NAMES,
    parse_scenario,
    square_name,
)
from astrarium.games.streamlines.cards import CARGO_KINDS, CORNER, LAYABLE, MAX_DECK, REFUGEE, STRAIGHT
from astrarium.games.streamlines.state import StreamlinesState
from helpers import examples


class Kind(IntEnum):
    """Card kinds as an IntEnum: equal to the game's ints, but not the same values."""

    STRAIGHT = STRAIGHT
    CORNER = CORNER
    REFUGEE = REFUGEE


def snapshot(state: StreamlinesState) -> tuple[Any, ...]:
    """Everything a refused action must leave alone: every seat's view, the spectator's, the record."""
    views = [state.view(seat) for seat in range(state.players)] + [state.view(None)]
    return views, state.full_view(), state.to_record(), [str(a) for a in state.legal_actions()]


def position(seed: int, players: int, scenario: str, steps: int) -> StreamlinesState:
    """A position reached by random legal play."""
    state = GAME.new_game(players, seed, {"scenario": scenario})
    assert isinstance(state, StreamlinesState)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


positions = st.builds(
    position,
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    scenario=st.sampled_from(SCENARIO_NAMES),
    steps=st.integers(0, 120),
)

#: Field values of every kind: small and huge ints (negative too), floats with nan and inf,
#: bools, None, text with unicode digits, and IntEnum members equal to real card kinds.
scalars = st.one_of(
    st.integers(-3, 90),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([10**5000, -(10**5000), 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 40.0, 9.0]),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["²", "³", "٣", "e5", "refugee"]),
    st.sampled_from(list(Kind)),
)
squares = st.integers(0, 80)
paths = st.one_of(
    scalars,
    st.lists(scalars, max_size=4).map(tuple),
    st.lists(squares, min_size=0, max_size=6).map(tuple),
    st.lists(squares, max_size=3),
    st.lists(st.one_of(squares, scalars), min_size=1, max_size=4).map(tuple),
)
crafted_actions = st.one_of(
    st.builds(Move, paths, st.one_of(st.booleans(), scalars)),
    st.builds(Dump, scalars),
    st.builds(Lay, scalars, scalars),
    st.builds(Give, scalars, scalars),
    st.builds(Engineer, scalars),
    st.sampled_from([act.DRAW, act.DROP, act.PICKUP_ACTION, act.EXTRA_ACTION, act.END, act.ENGINEER_CW, act.ENGINEER_CCW]),
    st.builds(Dump, st.sampled_from(list(Kind))),
    st.builds(Dump, st.sampled_from(sorted(CARGO_KINDS))),
    st.builds(Lay, st.sampled_from(sorted(LAYABLE)), st.integers(0, 15)),
    st.builds(Give, st.sampled_from(sorted(CARGO_KINDS)), st.integers(-1, 4)),
    st.builds(Give, st.sampled_from(list(Kind)), st.one_of(st.integers(0, 3), st.booleans(), st.floats(0, 3))),
    scalars,  # not an action object at all
)


def param_id(value: Any) -> str:
    """A test id that never prints a huge int (Python refuses str() of one past 4,300 digits)."""
    return value[:40] if isinstance(value, str) else type(value).__name__


def refused_or_played(state: StreamlinesState, action: Any) -> None:
    """``apply`` either plays an exactly legal action or raises IllegalAction and changes nothing."""
    before = snapshot(state)
    if state.is_legal(action):
        state.clone().apply(action)
        return
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert str(err.value) and len(str(err.value)) < 2000
    assert snapshot(state) == before


@settings(max_examples=examples(60))
@given(state=positions, actions=st.lists(crafted_actions, min_size=1, max_size=15))
def test_hardening_crafted_action_objects_raise_only_illegal_action_and_change_nothing(state, actions) -> None:
    assert all(act.problem(a) is None for a in state.legal_actions()), "the game's own actions are well formed"
    for action in actions:
        if isinstance(action, ACTION_TYPES):
            assert isinstance(repr(action), str) and isinstance(str(action), str)  # whatever the fields hold
        refused_or_played(state, action)


SQUARE_WORDS = st.builds(lambda f, r: f + r, st.sampled_from(list("abcdefghiKzE")), st.sampled_from(list("123456789²³٣0") + ["10"]))
notations = st.one_of(
    st.text(max_size=30),
    st.builds(lambda ws: "move " + "-".join(ws), st.lists(SQUARE_WORDS, min_size=1, max_size=6)),
    st.builds(lambda ws, g: "move " + "-".join(ws) + "=" + g, st.lists(SQUARE_WORDS, min_size=1, max_size=4), SQUARE_WORDS),
    st.builds(
        lambda c, n: f"give {c} {n}", st.sampled_from(["refugee", "corner", "gate-a", "action", "x"]), st.text("0123456789²³٣-", max_size=8)
    ),
    st.builds(lambda w: f"lay {w}", st.text("nesw NESWｎ²gate-abcz", max_size=6)),
    st.builds(lambda w: f"dump {w}", st.sampled_from(["refugee", "straight", "gate-a", "gate-z", "collapse", "Ｒefugee", ""])),
    st.sampled_from(
        ["draw", "drop", "end", "pickup", "extra", "engineer cw", "engineer ccw", "engineer", "DRAW", "draw\u00a0", "e\u0301nd"]
    ),
)


@settings(max_examples=examples(60))
@given(state=positions, texts=st.lists(notations, min_size=1, max_size=15))
def test_hardening_any_text_raises_only_illegal_action_and_changes_nothing(state, texts) -> None:
    for text in texts:
        before = snapshot(state)
        try:
            parsed = state.parse_action(text)
        except IllegalAction:
            with pytest.raises(IllegalAction):
                state.apply(text)
            assert snapshot(state) == before
            continue
        if state.is_legal(parsed):
            state.clone().apply(text)
        else:
            with pytest.raises(IllegalAction):
                state.apply(text)
            assert snapshot(state) == before


# -- the crafted inputs found by review, one by one ---------------------------------------------
def seat_one_beside(tmp_path) -> StreamlinesState:
    """Both ships on the planet e5; ship 0 has drawn a Refugee and may give it to ship 1."""
    text = scenario_text(["e5"], ["e6"], ["e5"])
    deck = stacked([TWO_EACH, TWO_EACH], ["straight", "refugee"])
    return play(new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck), "draw")


@pytest.mark.parametrize(
    "action,reason",
    [
        (Give(REFUGEE, True), "seat must be a seat number"),
        (Give(REFUGEE, 1.0), "seat must be a seat number"),
        (Give(Kind.REFUGEE, 1), "kind must be a cargo card's number"),
        (Give(REFUGEE, 10**5000), "seat must be a seat number 0 .. 3, not <int of"),
        (Give(1.5, None), "kind must be"),
        (Lay(99, 2.0), "kind must be a streamline or gate"),
        (Lay(STRAIGHT, 2.0), "mask must be an arrow mask"),
        (Move(None), "path must be a tuple"),
        (Move(()), "path must be a tuple of 1 to 82 squares"),
        (Move((40,), True), "path must be a tuple of 1 to 82 squares"),
        (Move((10**5000,)), "each square of the path is a number 0 .. 80"),
        (Move((41.0,)), "each square of the path"),
        (Move((41,), 1), "jump must be True or False"),
        (Engineer(1), "clockwise must be True or False"),
        (Dump(Kind.REFUGEE), "kind must be a cargo card's number"),
        (10**5000, "is not a Streamlines action"),
        (None, "a NoneType is not a Streamlines action"),
    ],
    ids=param_id,
)
def test_hardening_crafted_fields_are_refused_with_a_reason(tmp_path, action: Any, reason: str) -> None:
    state = seat_one_beside(tmp_path)
    assert "give refugee 1" in [str(a) for a in state.legal_actions()]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason.replace(".", r"\.").replace("(", r"\(")):
        state.apply(action)
    assert snapshot(state) == before
    if isinstance(action, ACTION_TYPES):
        assert isinstance(repr(action), str) and isinstance(str(action), str)


@pytest.mark.parametrize(
    "text,reason",
    [
        ("give refugee ²", "plain letters, digits"),
        ("give refugee 1" + "9" * 400, "the seat to give to is a number 0 .. 3"),
        ("give refugee -1", "the seat to give to is a number"),
        ("move e²", "plain letters, digits"),
        ("move e٣", "plain letters, digits"),
        ("move \u212a5", "plain letters, digits"),  # the Kelvin sign lower-cases to an ASCII k
        ("lay ｎ", "plain letters, digits"),
        ("move " + "-".join(["e5", "e6"] * 45), "a move enters at most 81 squares"),
        ("move e5-e6=" + "z" * 300, "is not a square"),
        ("dump " + "x" * 400, "is not a cargo card"),
    ],
)
def test_hardening_crafted_notation_is_refused_with_a_short_reason(text: str, reason: str) -> None:
    state = new_game(2)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason) as err:
        state.apply(text)
    assert len(str(err.value)) < 400, "a stranger's text is never echoed whole"
    assert snapshot(state) == before


# -- data files: scenarios ------------------------------------------------------------------------
SHIPPED = [read_data("astrarium.games.streamlines", f"scenarios/{name}.toml")[1] for name in SCENARIO_NAMES]

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.sampled_from(["e5", "a1", "i9", "j7", "nesw", "ne", "²", "10"]),
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["2", "3", "4", "square", "arrows", "x"]), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = ["name", "description", "planets", "escapes", "starts", "required", "collapse_cards", "streamlines", "colour"]


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    """A shipped scenario with a few fields replaced, removed or added."""
    data = json.loads(json.dumps(draw(st.sampled_from(SHIPPED))))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(FIELDS))
        if draw(st.booleans()) and key in data:
            del data[key]
        else:
            data[key] = draw(json_values)
    return data


@settings(max_examples=examples(150))
@given(data=st.one_of(mutated_scenarios(), json_values))
def test_hardening_scenario_fuzz_raises_only_data_error(data: Any) -> None:
    for suffix, text in ((".json", json.dumps(data)), (".toml", _toml(data))):
        try:
            parse_scenario(parse_data(text, f"fuzz{suffix}"), f"fuzz{suffix}")
        except DataError as exc:
            assert exc.file == f"fuzz{suffix}" and exc.entry


def _toml(data: Any) -> str:
    """A rough TOML rendering (top-level keys as inline values); enough to feed the TOML reader odd input."""
    if not isinstance(data, dict):
        return f"value = {json.dumps(data)}"
    return "\n".join(f"{json.dumps(str(k))} = {json.dumps(v)}" for k, v in data.items() if v is not None)


@settings(max_examples=examples(100))
@given(
    base=st.sampled_from(SCENARIO_NAMES),
    cuts=st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 6), st.binary(max_size=6)), max_size=4),
)
def test_hardening_mutated_scenario_bytes_raise_only_data_error(tmp_path_factory, base: str, cuts) -> None:
    """Random byte edits of a shipped file (invalid UTF-8, broken syntax, odd values) read as a designer's file."""
    raw = bytearray(resources.files("astrarium.games.streamlines").joinpath(f"scenarios/{base}.toml").read_bytes())
    for at, drop, insert in cuts:
        at = min(at, len(raw))
        raw[at : at + drop] = insert
    path = tmp_path_factory.mktemp("fuzz") / "mutated.toml"
    path.write_bytes(bytes(raw))
    try:
        GAME.new_game(2, 0, {"scenario_file": str(path)})
    except (DataError, OptionError) as exc:
        assert "mutated.toml" in str(exc) or isinstance(exc, OptionError)


@pytest.mark.parametrize(
    "text,entry,message",
    [
        ("collapse_cards = 100000000\n", "collapse_cards", f"less than or equal to {MAX_COLLAPSE_CARDS}"),
        ("collapse_cards = 4.0\n", "collapse_cards", "valid integer"),
        ("collapse_cards = true\n", "collapse_cards", "valid integer"),
        ("collapse_cards = nan\n", "collapse_cards", "valid integer"),
        ("streamlines = [1]\n", "streamlines.#1", "valid dictionary"),
        ("streamlines = [[1]]\n", "streamlines.#1", "valid dictionary"),
        ('description = "' + "x" * 400 + '"\n', "description", "at most 300 characters"),
    ],
)
def test_scenarios_bad_counts_and_types_name_the_file_and_entry(tmp_path, text: str, entry: str, message: str) -> None:
    path = write_scenario(tmp_path, text + scenario_text(["c3", "g7"], ["e5"], ["e5"]), "bad.toml")
    with pytest.raises(DataError) as err:
        new_game(2, scenario_file=path)
    assert err.value.file == path and err.value.entry == entry and message in str(err.value)


@pytest.mark.parametrize(
    "replace,entry,message",
    [
        (("[required]\n2 = 3", "[required]\n2 = 1000000000"), "required.2", "less than or equal to 40"),
        (("[required]\n2 = 3", "[required]\n2 = 0"), "required.2", "greater than or equal to 1"),
        (('planets = ["c3", "g7"]', "planets = " + json.dumps([f"{f}{r}" for f in "abcdefgh" for r in "12"])), "planets", "at most 12"),
        (('starts = ["e5"]', 'starts = ["a1", "a2", "a3", "a4", "a5"]'), "starts", "at most 4"),
        (('starts = ["e5"]', 'starts = ["a1", "a1"]'), "starts", "listed twice"),
        (('planets = ["c3", "g7"]', 'planets = "c3"'), "planets", "valid list"),
        (("[required]\n2 = 3\n3 = 3\n4 = 3", "required = [1]"), "required", "valid dictionary"),
    ],
)
def test_scenarios_every_count_is_bounded(tmp_path, replace: tuple[str, str], entry: str, message: str) -> None:
    text = scenario_text(["c3", "g7"], ["e5"], ["e5"]).replace(*replace)
    path = write_scenario(tmp_path, text, "bad.toml")
    with pytest.raises(DataError) as err:
        new_game(2, scenario_file=path)
    assert err.value.file == path and err.value.entry.startswith(entry) and message in str(err.value)


def test_scenarios_at_every_limit_load_and_play(tmp_path) -> None:
    planets = [f"{f}{r}" for f in "abc" for r in "1234"][:MAX_PLANETS]
    escapes = [f"{f}9" for f in "abcdefghi"]
    text = scenario_text(planets, escapes, ["e5", "e6", "e7", "e4"], required=40)
    text = text.replace('name = "test"', f'name = "test"\ncollapse_cards = {MAX_COLLAPSE_CARDS}')
    state = new_game(4, scenario_file=write_scenario(tmp_path, text), refugee_cards=40, required=40)
    assert len(state.view()["planets"]) == MAX_PLANETS
    rng = Rng(1)
    for _ in range(50):
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/", "x\x00.toml", "a" * 5000 + ".toml", "scenario.yaml"])
def test_scenarios_file_option_reads_only_small_regular_files(path: str) -> None:
    with pytest.raises(DataError):
        new_game(2, scenario_file=path)


def test_scenarios_file_edited_in_the_same_process_is_read_again(tmp_path) -> None:
    path = write_scenario(tmp_path, scenario_text(["c3", "g7"], ["e5"], ["e5"]))
    assert [p["square"] for p in new_game(2, scenario_file=path).view()["planets"]] == ["c3", "g7"]
    write_scenario(tmp_path, scenario_text(["a1"], ["e5"], ["e5"]))
    assert [p["square"] for p in new_game(2, scenario_file=path).view()["planets"]] == ["a1"]


def test_scenarios_file_edited_after_the_option_check_is_checked_again(tmp_path) -> None:
    """The checks run on the file the game is set up from, not only on the one the options were checked with."""
    path = write_scenario(tmp_path, scenario_text(["c3"], ["e5"], ["e5"]))
    options = GAME.resolve_options(2, {"scenario_file": path, "collapse_cards": 2})
    write_scenario(tmp_path, scenario_text(["c3", "g7", "a1"], ["e5"], ["e5"]))
    with pytest.raises(OptionError, match="at least 6 Collapse cards"):
        StreamlinesState(GAME, 2, 0, options)


# -- options ------------------------------------------------------------------------------------
@settings(max_examples=examples(100))
@given(
    deck=st.one_of(
        st.lists(scalars, max_size=12), st.lists(st.sampled_from(["action", "cargo", "refugee", "collapse", "gate-a", "x"]), max_size=30)
    )
)
def test_hardening_deck_option_fuzz_raises_only_option_error(deck: list[Any]) -> None:
    try:
        GAME.new_game(2, 0, {"deck": deck, "scenario": "introductory"})
    except OptionError as exc:
        assert "deck" in str(exc) and len(str(exc)) < 600


@pytest.mark.parametrize(
    "deck,message",
    [
        (["action"] * (MAX_DECK + 1), f"at most {MAX_DECK} entries"),
        ([10**5000], "card 1 is 'a int', not a card name"),
        (["x" * 10_000] * 3, "and 2 more, not a card name"),
    ],
    ids=param_id,
)
def test_options_stacked_deck_is_bounded_and_named(deck: list[Any], message: str) -> None:
    with pytest.raises(OptionError, match=message) as err:
        GAME.new_game(2, 0, {"deck": deck})
    assert len(str(err.value)) < 600


@pytest.mark.parametrize("name,value", [("collapse_cards", 100_000_000), ("refugee_cards", 10**9), ("required", 41), ("gate_pairs", 5)])
def test_options_every_count_has_an_upper_bound(name: str, value: int) -> None:
    with pytest.raises(OptionError, match=f"option '{name}'.*above the maximum"):
        GAME.new_game(2, 0, {name: value})


def test_hardening_square_names_round_trip() -> None:
    """Every square's name reads back as that square, upper case too."""
    for sq in range(81):
        assert act.parse(f"move {square_name(sq)}") == Move((sq,))
        assert act.parse(f"MOVE {square_name(sq).upper()}") == Move((sq,))
