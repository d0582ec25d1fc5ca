"""Bad input from anyone: notations, action objects and data files are refused with a reason and change nothing."""

from __future__ import annotations

import json
import os
import tempfile
import time
import tomllib
from enum import IntEnum
from typing import Any

import pytest
from celestials_positions import start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, OptionError, Rng, State
from astrarium.games.celestials import actions as A
from astrarium.games.celestials.cards import parse_deck
from helpers import examples

GAME = astrarium.get_game("celestials")
HERE = os.path.dirname(astrarium.games.celestials.__file__)


class Spot(IntEnum):
    """An IntEnum whose members equal real location indexes (A1 = 1, B4 = 10): equal, but not an int."""

    A1 = 1
    B1 = 7
    B4 = 10
    C1 = 13


def snapshot(state: State) -> str:
    """Everything that must not change when an action is refused: every view, the full view, the record."""
    views = {str(seat): state.view(seat) for seat in (0, 1, None)}
    return json.dumps([views, state.full_view(), state.to_record()], sort_keys=True)


def refused(state: State, action: Any) -> str:
    """Apply ``action``, which must be refused with IllegalAction and leave the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert snapshot(state) == before
    return str(err.value)


# -- notation: numbers are ASCII digits ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["play phoenix A²", "move A² B1", "move B1 C³", "activate B1 A٣", "activate B1 ４", "play phoenix B" + "9" * 5000, "move a1 b١"],
)
def test_notation_unicode_digits_are_not_locations(text: str) -> None:
    state = start("sun hand phoenix advance; sun board B1 solar-lion")
    state.apply("nodraw")
    reason = refused(state, text)
    assert "not a location" in reason or "at most 500 characters" in reason
    assert len(reason) < 300


# -- action objects: right type, wrong field types ------------------------------------------------


def test_action_objects_play_with_equal_but_wrongly_typed_fields_are_refused_and_change_nothing() -> None:
    state = start("sun hand phoenix advance")
    state.apply("nodraw")
    assert A.Play("phoenix", 1) in state.legal_actions()
    bad = [A.Play("phoenix", 1.0), A.Play("phoenix", True), A.Play("phoenix", Spot.A1), A.Play("phoenix", "A1")]
    bad += [A.Play("phoenix", 99), A.Play("phoenix", -5), A.Play("phoenix", 10**5000), A.Play(["phoenix"], 1), A.Play(None)]
    for action in bad:
        reason = refused(state, action)
        assert "location" in reason or "key" in reason, reason
    assert state.full_view()["players"][0]["hand"] == ["advance", "phoenix"]
    state.apply(A.Play("phoenix", 1))  # the exact action still plays
    assert state.full_view()["board"][0]["at"] == "A1"


def test_action_objects_move_and_activate_with_wrongly_typed_fields_are_refused_and_change_nothing() -> None:
    state = start("sun phase Zenith; sun hand advance; sun board B4 solar-lion; sun board B1 phoenix")
    state.apply("nodraw")
    legal = state.legal_actions()
    assert A.Move(7, 13) in legal and A.Activate(10, A.FACE) in legal
    bad: list[Any] = [A.Move(7.0, 13), A.Move(7, 13.0), A.Move(Spot.B1, Spot.C1), A.Move(True, 13), A.Move(7, 24), A.Move(-17, 13)]
    bad += [A.Activate(10.0, A.FACE), A.Activate(10, -2.0), A.Activate(Spot.B4, A.FACE), A.Activate(10, 10**5000), A.Activate(99)]
    bad += [A.Activate(10, "face"), A.Activate(None, None)]
    for action in bad:
        assert "location" in refused(state, action)


def test_action_objects_discard_and_reshuffle_with_wrongly_typed_fields_are_refused() -> None:
    state = start("sun hand advance; sun pile phoenix; sun discard radiance; moon hand advance; moon pile")
    state.apply("draw")  # the last card of both piles: the reshuffle question
    for action in (A.Reshuffle(1), A.Reshuffle("yes"), A.Reshuffle(None)):
        assert "yes or no" in refused(state, action)
    state.apply(A.Reshuffle(False))
    state.apply("end")
    for action in (A.Discard(7), A.Discard(["phoenix"]), A.Discard(None)):
        assert "key" in refused(state, action)
    assert "holds no card" in refused(state, A.Discard("²"))


@pytest.mark.parametrize(
    "action",
    [A.Draw(), A.NoDraw(), A.Advance(), A.End(), A.Keep(), A.Discard("phoenix"), A.Play("phoenix", 99), A.Move(3, 99), A.Activate(2, 3)],
)
def test_action_objects_every_type_out_of_turn_gets_a_reason(action: Any) -> None:
    state = start("sun hand advance; sun pile phoenix; sun discard radiance; moon hand advance; moon pile")
    state.apply("draw")  # the reshuffle question: only an answer is legal
    reason = refused(state, action)
    assert "reshuffle" in reason or "location" in reason  # a field that is no location is said first


def test_action_objects_str_and_repr_never_fail() -> None:
    odd = [1.5, float("nan"), True, None, "²", 10**5000, -(10**5000), Spot.B4, [10**5000], 99, -1]
    for value in odd:
        for action in (A.Play(value, value), A.Activate(value, value), A.Move(value, value), A.Discard(value), A.Reshuffle(value)):
            assert str(action) and repr(action)
    assert repr(A.Play("phoenix", 1)) != repr(A.Play("phoenix", 1.0)) != repr(A.Play("phoenix", True))


def test_action_objects_of_another_game_are_refused() -> None:
    state = start()
    assert "not a Celestials action" in refused(state, object())
    assert "not a Celestials action" in refused(state, 3)


# -- the property: random objects and strings raise only IllegalAction and change nothing ---------

VALUES = st.one_of(
    st.integers(-30, 30),
    st.integers(),
    st.sampled_from([10**5000, -(10**5000), 2**63, A.FACE, 24]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.sampled_from(list(Spot)),
    st.sampled_from(["phoenix", "solar-lion", "night-wolf", "advance", "B1", "face", "²", "١", "", "x" * 300]),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
)
ACTIONS = st.one_of(
    st.builds(A.Play, VALUES, VALUES),
    st.builds(A.Activate, VALUES, VALUES),
    st.builds(A.Move, VALUES, VALUES),
    st.builds(A.Discard, VALUES),
    st.builds(A.Reshuffle, VALUES),
    st.sampled_from([A.Draw(), A.NoDraw(), A.Advance(), A.End(), A.Keep()]),
)
WORDS = st.sampled_from(["play", "activate", "move", "discard", "reshuffle", "draw", "end", "keep", "advance", "nodraw"])
TOKENS = st.one_of(
    st.sampled_from(["A²", "B¹", "C٣", "D４", "b1", "B9", "E1", "face", "yes", "no", "phoenix", "moonbeam", "9" * 600, "-1", "1.0"]),
    st.text(max_size=6),
)
NOTATIONS = st.one_of(
    st.text(max_size=40), st.builds(lambda *w: " ".join(w), WORDS, TOKENS, TOKENS), st.builds(lambda w, t: f"{w} {t}", WORDS, TOKENS)
)


def random_position(seed: int, steps: int) -> State:
    state = GAME.new_game(2, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 160), data=st.data())
def test_random_action_objects_and_strings_raise_only_illegal_action_and_change_nothing(seed: int, steps: int, data: st.DataObject) -> None:
    state = random_position(seed, steps)
    before = snapshot(state)
    for _ in range(12):
        candidate = data.draw(st.one_of(ACTIONS, NOTATIONS))
        if isinstance(candidate, str):
            try:
                parsed = state.parse_action(candidate) if len(candidate) <= 500 else None
            except IllegalAction:
                parsed = None
            if parsed is not None and state.is_legal(parsed):
                continue  # a legal action: it plays, as it should
        elif state.is_legal(candidate):
            continue
        try:
            state.apply(candidate)
        except IllegalAction as err:
            assert str(err)
        else:
            raise AssertionError(f"{candidate!r} was applied though not legal")
        assert snapshot(state) == before


# -- the loaders: random and mutated data raise only DataError, quickly ---------------------------

with open(os.path.join(HERE, "sun.toml"), "rb") as f:
    SUN = tomllib.load(f)

JUNK = st.one_of(
    st.integers(),
    st.sampled_from([10**12, 10**30, -1, 0, 2, 1000000000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.sampled_from(["damage", "draw", "self", "chosen_enemy", "creature", "spell", "Dawn", "[/]", "²"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def mutate(data: Any, draw: st.DrawFn) -> Any:
    """``data`` with one node somewhere replaced, removed, or given an extra key."""
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        choice = draw(st.integers(0, 3))
        out = dict(data)
        if choice == 0:
            del out[key]
        elif choice == 1:
            out[key] = draw(JUNK)
        elif choice == 2:
            out[draw(st.text(max_size=5))] = draw(JUNK)
        else:
            out[key] = mutate(data[key], draw)
        return out
    if isinstance(data, list) and data:
        i = draw(st.integers(0, len(data) - 1))
        out_list = list(data)
        out_list[i] = mutate(data[i], draw) if draw(st.booleans()) else draw(JUNK)
        return out_list
    return draw(JUNK)


@st.composite
def mutated_decks(draw: st.DrawFn) -> Any:
    data = SUN
    for _ in range(draw(st.integers(1, 4))):
        data = mutate(data, draw)
    return data


@settings(max_examples=examples(200))
@given(data=mutated_decks())
def test_loader_mutated_deck_data_raises_only_data_error(data: Any) -> None:
    started = time.perf_counter()
    try:
        parse_deck(data, "fuzz.toml")
    except DataError as err:
        assert str(err).startswith("fuzz.toml: ")
    assert time.perf_counter() - started < 1.0


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))), json_file=st.booleans())
def test_loader_random_deck_files_raise_only_data_error(text: str, json_file: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "deck.json" if json_file else "deck.toml")
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        try:
            GAME.new_game(2, 0, {"sun_deck": path})
        except DataError as err:
            assert "deck." in str(err)


STATEMENT = st.builds(
    lambda seat, what, args: f"{seat} {what} {' '.join(args)}",
    st.sampled_from(["sun", "moon", "venus", "SUN"]),
    st.sampled_from(["phase", "health", "hand", "pile", "discard", "graveyard", "board", "dance"]),
    st.lists(
        st.one_of(
            st.sampled_from(
                ["A1", "B4", "E9", "a²", "solar-lion", "night-wolf", "advance", "sun-temple", "exhausted", "3", "²", "0", "99999"]
            ),
            st.text(max_size=5),
        ),
        max_size=4,
    ),
)


@settings(max_examples=examples(150))
@given(statements=st.lists(STATEMENT, max_size=5))
def test_loader_random_positions_raise_only_option_error(statements: list[str]) -> None:
    try:
        GAME.new_game(2, 0, {"position": "; ".join(statements)})
    except OptionError as err:
        assert "position" in str(err)
