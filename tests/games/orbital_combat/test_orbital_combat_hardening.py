"""Bad input of every kind gets a clear error and changes nothing: notations, crafted allocations, ship texts, ring tables."""

from __future__ import annotations

import dataclasses
import json
import math
import time
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, OptionError, Rng, State
from astrarium.core.data import parse_data
from astrarium.games.orbital_combat import Allocation, Facing, Intensity
from astrarium.games.orbital_combat.rings import MAX_RADIUS_MM, MAX_RINGS, MAX_SECTORS, load_ring_table, parse_ring_table
from helpers import examples

GAME = astrarium.get_game("orbital-combat")
RINGS = GAME.option("ring_table")

TWO_RINGS = """
[[ring]]
number = 1
velocity = 6
radius_mm = 40
sectors = 24

[[ring]]
number = 2
velocity = 3
radius_mm = 90
sectors = 36
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


def near_position(seed: int = 3, steps: int = 6) -> State:
    """A position with both ships in range (so weapons and targets are in play)."""
    state = GAME.new_game(3, seed, {"ships": ["r4 s1", "r4 s6", "r4 s12"], "turn_order": "fixed"})
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- digits that str.isdigit() accepts but int() refuses ------------------------------


@pytest.mark.parametrize("text", ["coast w²", "coast w5 d³", "coast w5 d5 @¹", "coast w٣ d7", "rot burn pro soft w²"])
def test_unicode_digits_in_an_allocation_are_an_illegal_action(text: str) -> None:
    reason = refused_unchanged(GAME.new_game(2, 0), text)
    assert "digits 0-9" in reason


def test_a_number_longer_than_three_digits_is_refused_with_its_bound() -> None:
    reason = refused_unchanged(GAME.new_game(2, 0), "coast w" + "9" * 400)
    assert "at most" in reason and len(reason) < 300
    assert "weapons is at most 999" in refused_unchanged(GAME.new_game(2, 0), "coast w1000 d0")


@pytest.mark.parametrize("ship", ["r4 s²", "r⁴ s1", "r4 s1 m١", "r4 s1 h" + "9" * 5000])
def test_unicode_or_huge_numbers_in_a_ship_name_the_option(ship: str) -> None:
    with pytest.raises(OptionError, match="'ships'") as err:
        GAME.new_game(2, 0, {"ships": ["r4 s9", ship]})
    assert "digits 0-9" in str(err.value) or "too large" in str(err.value)
    assert len(str(err.value)) < 300


# -- allocations with fields of the wrong type -----------------------------------------


class Other(IntEnum):
    ONE = 1


def crafted(state: State) -> list[Allocation]:
    """Allocations equal to legal ones (``==`` holds) but with a field of the wrong type, and out-of-range ones."""
    burn = next(a for a in state.legal_actions() if a.burn is not None)
    coast = state.legal_actions()[0]
    assert burn.burn is not None and burn.direction is not None
    return [
        dataclasses.replace(burn, burn=int(burn.burn)),
        dataclasses.replace(burn, burn=Other.ONE),
        dataclasses.replace(burn, direction=int(burn.direction)),
        dataclasses.replace(coast, weapons=0.0),  # type: ignore[arg-type]
        dataclasses.replace(coast, weapons=False),
        dataclasses.replace(coast, defense=10.0),  # type: ignore[arg-type]
        dataclasses.replace(coast, rotate=0),  # type: ignore[arg-type]
        dataclasses.replace(coast, scoop=None),  # type: ignore[arg-type]
        dataclasses.replace(coast, burn="hard"),  # type: ignore[arg-type]
        dataclasses.replace(coast, weapons=-1, defense=11),
        dataclasses.replace(coast, weapons=10**5000),
        dataclasses.replace(coast, target=-(10**5000)),
        dataclasses.replace(coast, target=math.nan),  # type: ignore[arg-type]
    ]


def test_allocation_with_fields_of_the_wrong_type_is_refused_and_explained() -> None:
    state = GAME.new_game(2, 0)
    for action in crafted(state):
        reason = refused_unchanged(state, action)
        assert "is not an allocation a ship can make" in reason
        assert len(reason) < 400
        assert state.history == []
    assert GAME.new_game(2, 0).to_record() == state.to_record()


def test_crafted_allocation_never_prints_as_a_notation() -> None:
    """``str`` of a crafted allocation says what it holds; it is never a notation that would not replay."""
    state = GAME.new_game(2, 0)
    coast = state.legal_actions()[0]
    assert str(coast) == "coast w0 d10"
    for action in crafted(state):
        text = str(action)
        assert text.startswith("Allocation(") and len(text) < 600
        assert repr(action) == text
    assert "w0.0" not in str(dataclasses.replace(coast, weapons=0.0))  # type: ignore[arg-type]


def test_explain_illegal_names_the_wrong_field() -> None:
    state = GAME.new_game(2, 0)
    burn = next(a for a in state.legal_actions() if a.burn is not None)
    assert burn.burn is not None
    assert "burn must be None (a coast) or an Intensity" in state.explain_illegal(dataclasses.replace(burn, burn=int(burn.burn)))
    assert "weapons must be a whole number" in state.explain_illegal(dataclasses.replace(burn, weapons=0.0))  # type: ignore[arg-type]
    assert "not an allocation" in state.explain_illegal(10**5000)
    assert "not an allocation" in state.explain_illegal(None)


# -- every part of an allocation or a ship is written once ----------------------------


@pytest.mark.parametrize(
    "text,reason",
    [
        ("rot rot coast w0 d9", "'rot' given twice"),
        ("rotate rot coast w0 d9", "'rot' given twice"),
        ("coast scoop scoop w0 d5", "'scoop' given twice"),
        ("coast w5 d5 @1 @2", r"target given twice \(@1 and @2\)"),
        ("coast w5 d5 @1 @1", "target given twice"),
        ("coast w1 w2 d7", "weapons given twice"),
        ("coast w1 d2 d7", "defense given twice"),
        ("coast coast w0 d10", "one engine order"),
        ("burn pro soft burn pro soft w0 d8", "only one burn"),
    ],
)
def test_every_duplicate_token_is_refused_with_a_reason(text: str, reason: str) -> None:
    refused_unchanged(near_position(), text)
    with pytest.raises(IllegalAction, match=reason):
        near_position().apply(text)


@pytest.mark.parametrize(
    "ship,part",
    [("r4 r5 s1", "ring"), ("r4 s1 s2", "sector"), ("r4 s1 pro retro", "facing"), ("r4 s1 m3 m4", "mass"), ("r4 s1 h1 h9", "hull")],
)
def test_a_duplicate_token_in_a_ship_is_refused(ship: str, part: str) -> None:
    with pytest.raises(OptionError, match=f"{part} given twice"):
        GAME.new_game(2, 0, {"ships": ["r4 s9", ship]})


# -- ring tables have bounded counts and sizes, and every fault is a DataError ----


def _write(tmp_path: Path, text: str, name: str = "rings.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "old,new,key,message",
    [
        ("sectors = 24", "sectors = 240000000", "sectors", f"less than or equal to {MAX_SECTORS}"),
        ("sectors = 24", f"sectors = {MAX_SECTORS + 6}", "sectors", f"less than or equal to {MAX_SECTORS}"),
        ("velocity = 6", "velocity = 100000", "velocity", f"less than or equal to {MAX_SECTORS}"),
        ("radius_mm = 40", "radius_mm = 1e300", "radius_mm", f"less than or equal to {MAX_RADIUS_MM:g}"),
        ("radius_mm = 40", "radius_mm = nan", "radius_mm", "finite number"),
        ("radius_mm = 40", "radius_mm = inf", "radius_mm", "finite number"),
        ("radius_mm = 40", "radius_mm = true", "radius_mm", "valid number"),
        ("sectors = 24", "sectors = 24.0", "sectors", "valid integer"),
        ("sectors = 24", "sectors = true", "sectors", "valid integer"),
        ("number = 1", "number = 100000", "number", f"less than or equal to {MAX_RINGS}"),
    ],
)
def test_every_count_and_size_in_a_ring_table_is_bounded(tmp_path: Path, old: str, new: str, key: str, message: str) -> None:
    path = _write(tmp_path, TWO_RINGS.replace(old, new, 1))
    start = time.perf_counter()
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 0, {"ring_table": path, "start_ring": 1})
    assert time.perf_counter() - start < 2
    assert err.value.file == path
    assert "ring" in err.value.entry and "1" in err.value.entry and key in err.value.entry
    assert message in str(err.value)


def _rings(count: int) -> list[dict[str, int]]:
    """A valid table of ``count`` rings: velocity falling outward and dividing the sectors, radii growing."""
    return [{"number": n, "velocity": count + 1 - n, "radius_mm": 10 * n, "sectors": 2 * (count + 1 - n)} for n in range(1, count + 1)]


def test_a_ring_table_of_more_than_twelve_rings_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, json.dumps({"ring": _rings(MAX_RINGS + 1)}), "rings.json")
    with pytest.raises(DataError, match=f"at most {MAX_RINGS} items") as err:
        load_ring_table(path)
    assert err.value.file == path and err.value.entry == "ring"
    assert load_ring_table(_write(tmp_path, json.dumps({"ring": _rings(MAX_RINGS)}), "twelve.json")).outermost == MAX_RINGS


@pytest.mark.parametrize(
    "text,suffix,entry",
    [
        ("ring = [1, 2]", ".toml", "ring"),
        ("ring = 5", ".toml", "ring"),
        ("ring = ['a', 'b']", ".toml", "ring"),
        ("[1, 2]", ".json", "file"),
        ('"rings"', ".json", "file"),
        ('{"ring": [{"number": 1}, null]}', ".json", "ring"),
        ('{"ring": [], "extra": 1}', ".json", "extra"),
        ('{"ring": [[1], [2]]}', ".json", "ring"),
    ],
)
def test_a_ring_table_entry_that_is_not_a_table_is_a_data_error(tmp_path: Path, text: str, suffix: str, entry: str) -> None:
    path = _write(tmp_path, text, "rings" + suffix)
    with pytest.raises(DataError) as err:
        load_ring_table(path)
    assert err.value.file == path
    assert entry in err.value.entry


def test_a_ring_table_path_is_read_bounded_and_regular_files_only(tmp_path: Path) -> None:
    for bad in ["/dev/zero", str(tmp_path), "rings\x00.toml", "x" * 5000 + ".toml"]:
        with pytest.raises((DataError, OptionError)):
            GAME.new_game(2, 0, {"ring_table": bad, "start_ring": 1})
    big = _write(tmp_path, "#" * (2 << 20), "big.toml")
    with pytest.raises(DataError, match="limit"):
        GAME.new_game(2, 0, {"ring_table": big, "start_ring": 1})


# -- a designer's table is cached on its content, not its path --------------------------


def test_an_edited_ring_table_is_read_again(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_RINGS)
    first = GAME.new_game(2, 0, {"ring_table": path, "start_ring": 1})
    assert first.view()["rings"][1]["sectors"] == 36
    _write(tmp_path, TWO_RINGS.replace("sectors = 36", "sectors = 42"))
    second = GAME.new_game(2, 0, {"ring_table": path, "start_ring": 1})
    assert second.view()["rings"][1]["sectors"] == 42
    assert load_ring_table(path) is load_ring_table(path)  # unchanged content: parsed once
    assert load_ring_table() is load_ring_table()  # the packaged table: read once per process


def test_an_edited_ring_table_is_checked_against_the_ships_again(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_RINGS)
    ships = ["r1 s1", "r2 s30"]
    assert GAME.new_game(2, 0, {"ring_table": path, "ships": ships}).view()["ships"][1]["sector"] == 30
    _write(tmp_path, TWO_RINGS.replace("sectors = 36", "sectors = 24"))
    with pytest.raises(OptionError, match="ring 2 has sectors 1 to 24, not 30"):
        GAME.new_game(2, 0, {"ring_table": path, "ships": ships})


# -- generic: any object or text given to apply raises only IllegalAction and changes nothing -------------

mixed = st.one_of(
    st.integers(-3, 14),
    st.sampled_from([10**30, -(10**30), 10**5000, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 10.0, math.nan]),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.sampled_from(["²", "1", "hard", "pro", "٣"]),
    st.sampled_from([*Intensity, *Facing, Other.ONE]),
)
allocations = st.builds(
    Allocation,
    rotate=st.one_of(st.booleans(), mixed),
    burn=st.one_of(st.sampled_from([None, *Intensity]), mixed),
    direction=st.one_of(st.sampled_from([None, *Facing]), mixed),
    scoop=st.one_of(st.booleans(), mixed),
    weapons=st.one_of(st.integers(0, 10), mixed),
    defense=st.one_of(st.integers(0, 10), mixed),
    target=st.one_of(st.sampled_from([None, 0, 1, 2, 3]), mixed),
)
WORDS = ["rot", "coast", "burn", "pro", "retro", "soft", "hard", "extreme", "scoop", "w5", "d5", "@1", "w²", "d³", "@¹", "w٣", "in", "2"]
notations = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(alphabet="wd@0123456789²³¹٣", min_size=1, max_size=6)), max_size=8).map(" ".join),
)


def random_position(seed: int, players: int, steps: int) -> State:
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _applied_or_refused_unchanged(state: State, action: Any) -> None:
    legal = state.legal_match(action) is not None if not isinstance(action, str) else None
    before = snapshot(state)
    try:
        state.apply(action)
    except IllegalAction:
        assert snapshot(state) == before
        assert legal is not True
        return
    assert legal is not False  # applied: it was one of the legal actions, exactly
    assert astrarium.replay(json.loads(json.dumps(state.to_record()))).full_view() == state.full_view()


@settings(max_examples=examples(60))
@given(
    seed=st.integers(0, 2**16),
    players=st.integers(2, 4),
    steps=st.integers(0, 30),
    actions=st.lists(st.one_of(allocations, allocations, mixed), min_size=1, max_size=4),
)
def test_property_crafted_allocations_raise_only_illegal_action_and_change_nothing(
    seed: int, players: int, steps: int, actions: list[Any]
) -> None:
    """Allocations with any field values, and values that are no allocation at all (ints, floats, None, enums)."""
    state = random_position(seed, players, steps)
    for action in actions:
        if state.is_over:
            return
        if isinstance(action, Allocation):
            assert str(action) and repr(action)  # never raise, whatever the fields hold
        assert state.explain_illegal(action)
        _applied_or_refused_unchanged(state, action)


@settings(max_examples=examples(60))
@given(seed=st.integers(0, 2**16), players=st.integers(2, 4), steps=st.integers(0, 30), texts=st.lists(notations, min_size=1, max_size=4))
def test_property_random_notations_raise_only_illegal_action_and_change_nothing(
    seed: int, players: int, steps: int, texts: list[str]
) -> None:
    state = random_position(seed, players, steps)
    for text in texts:
        if state.is_over:
            return
        _applied_or_refused_unchanged(state, text)


# -- loaders: random and mutated ring tables and ship texts raise only their own errors, quickly ----------

GOOD_RINGS = parse_data(TWO_RINGS, "rings.toml")["ring"]
values = st.one_of(
    st.integers(-(10**12), 10**12),
    st.sampled_from([0, 1, 2, 3, 6, 24, 36, 360, 361, 10**9, 240000000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
keys = st.sampled_from(["number", "velocity", "radius_mm", "sectors", "colour", ""])


@st.composite
def ring_files(draw: st.DrawFn) -> Any:
    rings: list[Any] = [dict(r) for r in GOOD_RINGS]
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 4))
        index = draw(st.integers(0, len(rings) - 1)) if rings else 0
        if kind == 0 and rings and isinstance(rings[index], dict):
            rings[index][draw(keys)] = draw(values)
        elif kind == 1 and rings and isinstance(rings[index], dict):
            rings[index].pop(draw(keys), None)
        elif kind == 2:
            rings.append(draw(st.one_of(values, st.just(dict(GOOD_RINGS[-1])))))
        elif kind == 3 and rings:
            rings[index] = draw(values)
        else:
            rings = rings * draw(st.integers(0, 20))
    return draw(st.sampled_from([{"ring": rings}, rings, {"ring": rings, "extra": 1}, {"ring": rings[:1]}]))


def _loads_or_data_error(text: str, suffix: str) -> None:
    start = time.perf_counter()
    try:
        table = parse_ring_table(parse_data(text, "rings" + suffix), "rings" + suffix)
    except DataError as exc:
        assert exc.file == "rings" + suffix and exc.entry
    else:
        assert 2 <= table.outermost <= MAX_RINGS and max(table.sectors) <= MAX_SECTORS
    assert time.perf_counter() - start < 2


@settings(max_examples=examples(80))
@given(data=ring_files())
def test_fuzz_mutated_ring_tables_raise_only_data_error(data: Any) -> None:
    _loads_or_data_error(json.dumps(data), ".json")


@settings(max_examples=examples(60))
@given(
    text=st.one_of(
        st.text(max_size=200), st.lists(st.sampled_from(TWO_RINGS.splitlines(keepends=True) + ["[[", "= nan\n", "ring = 1\n"])).map("".join)
    )
)
def test_fuzz_random_ring_table_text_raises_only_data_error(text: str) -> None:
    _loads_or_data_error(text, ".toml")


@settings(max_examples=examples(60))
@given(
    ship=st.one_of(
        st.text(max_size=30),
        st.lists(
            st.sampled_from(["r4", "s1", "r9", "s99", "pro", "retro", "m30", "h0", "h100", "r²", "s" + "9" * 30, "m5"]), max_size=5
        ).map(" ".join),
        st.integers(),
        st.none(),
    )
)
def test_fuzz_ship_texts_raise_only_option_error(ship: Any) -> None:
    try:
        state = GAME.new_game(2, 0, {"ships": ["r4 s9", ship]})
    except OptionError as exc:
        assert "'ships'" in str(exc) and len(str(exc)) < 400
    else:
        assert state.view()["ships"][1]["ring"] in range(1, 9)
