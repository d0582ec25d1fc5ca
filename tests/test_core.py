"""The core pieces on their own: seeded randomness, options, records, the registry."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium.core import DataError, IllegalAction, Option, OptionError, RecordError, Rng, resolve_options
from astrarium.core.data import field, parse_data
from astrarium.core.records import load_record, save_record


# -- Rng -----------------------------------------------------------------------
def test_rng_is_deterministic_and_copyable() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.copy()
    assert a.random() == c.random()
    assert Rng(1).next64() != Rng(2).next64()


@given(seed=st.integers(0, 2**64), n=st.integers(1, 1000))
def test_rng_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


@given(seed=st.integers(0, 2**64), items=st.lists(st.integers(), max_size=30))
def test_rng_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_rng_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert all(9000 < counts[v] < 11000 for v in range(6))


def test_rng_refuses_bad_input() -> None:
    with pytest.raises(TypeError):
        Rng("seed")  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        Rng(1).choice([])
    with pytest.raises(ValueError):
        Rng(1).below(0)


# -- options -------------------------------------------------------------------
SPECS = (
    Option("rounds", 10, "how many rounds", int, minimum=1, maximum=50),
    Option("mode", "fast", "pace", str, choices=("fast", "slow")),
    Option("ratio", 0.5, "a share", float, minimum=0, maximum=1),
    Option("board", None, "a board", str, nullable=True),
    Option("deck", [], "cards", list, maximum=3),
)


def test_options_resolve_over_defaults() -> None:
    resolved = resolve_options(SPECS, {"rounds": 12, "ratio": 1})
    assert resolved == {"rounds": 12, "mode": "fast", "ratio": 1.0, "board": None, "deck": []}


@pytest.mark.parametrize(
    "given_options,name",
    [
        ({"round": 3}, "round"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 51}, "rounds"),
        ({"rounds": "3"}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"mode": "medium"}, "mode"),
        ({"deck": ["a", "b", "c", "d"]}, "deck"),
    ],
)
def test_bad_options_name_the_option(given_options: dict, name: str) -> None:
    with pytest.raises(OptionError, match=repr(name)):
        resolve_options(SPECS, given_options)


def test_options_parse_from_text() -> None:
    by = {o.name: o for o in SPECS}
    assert by["rounds"].parse("7") == 7
    assert by["board"].parse("none") is None
    assert by["board"].parse("P.\\n.Y") == "P.\n.Y"
    assert by["deck"].parse("a,b") == ["a", "b"]
    with pytest.raises(OptionError, match="rounds"):
        by["rounds"].parse("seven")


# -- data files ----------------------------------------------------------------
def test_data_errors_name_file_and_entry() -> None:
    with pytest.raises(DataError, match=r"cards\.toml: syntax"):
        parse_data("name = ", "cards.toml")
    with pytest.raises(DataError, match=r"cards\.toml: card 'Nova': missing field 'cost'"):
        field({"name": "Nova"}, "cost", int, file="cards.toml", entry="card 'Nova'")
    with pytest.raises(DataError, match="should be int"):
        field({"cost": True}, "cost", int, file="cards.toml", entry="card 'Nova'")


# -- the toy game through the API ----------------------------------------------
def test_illegal_action_gives_a_players_reason() -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 1)
    before = state.full_view()
    held = set(state.hands[0])  # type: ignore[attr-defined]
    missing = next(v for v in range(1, 7) if v not in held)
    with pytest.raises(IllegalAction, match=f"holds no {missing}"):
        state.apply(f"play {missing}")
    with pytest.raises(IllegalAction, match="write 'play N'"):
        state.apply("dance")
    assert state.full_view() == before


def test_record_files_save_and_load(tmp_path) -> None:
    state = astrarium.get_game("toy-pile").new_game(3, 5, {"target": 30})
    state.apply(state.legal_actions()[0])
    path = save_record(state, tmp_path / "game.json", seats={"0": "human"})
    record = load_record(path)
    assert record["options"]["target"] == 30 and record["seats"] == {"0": "human"}
    assert astrarium.replay(record).full_view() == state.full_view()
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="bad.json"):
        load_record(tmp_path / "bad.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")


def test_record_is_json_with_format_and_result() -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 9)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    record = state.to_record()
    json.dumps(record)
    assert record["format"] == "astrarium-record" and record["version"] == 1
    assert record["result"]["returns"] == state.returns()


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(astrarium.UnknownGame, match="toy-pile"):
        astrarium.get_game("chess")


def test_returns_follow_the_outcome() -> None:
    game = astrarium.get_game("toy-pile")
    state = game.new_game(3, 2, {"target": 5})
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    returns = state.returns()
    winners = set(state.outcome.winners)  # type: ignore[union-attr]
    if len(winners) == 3:
        assert returns == [0.0, 0.0, 0.0]
    else:
        assert returns == [1.0 if s in winners else -1.0 for s in range(3)]


def test_random_playout_and_apply_unchecked_keep_the_record() -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 4)
    state.apply_unchecked(state.legal_actions()[0])
    played = state.random_playout(Rng(3).random)
    assert state.is_over and played == state.move_number - 1
    assert astrarium.replay(state.to_record()).full_view() == state.full_view()
    short = astrarium.get_game("toy-pile").new_game(2, 4)
    assert short.random_playout(Rng(3).random, depth=2) == 2 and short.move_number == 2
    assert short.legal_actions()  # the cache was reset: the new position's actions
