"""The evaluation a search calls (``evaluate``, from tables made once per game's rules) is the defined one to the bit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng
from astrarium.games.celestials import evaluate as E
from helpers import examples

GAME = astrarium.get_game("celestials")


@settings(max_examples=examples(40))
@given(
    seed=st.integers(0, 2**32 - 1),
    health=st.integers(5, 30),
    hand_limit=st.integers(3, 8),
    first=st.sampled_from(["sun", "moon"]),
)
def test_evaluate_equals_the_defined_evaluation_to_the_bit_through_a_random_game(
    seed: int, health: int, hand_limit: int, first: str
) -> None:
    state = GAME.new_game(2, seed, {"health": health, "hand_limit": hand_limit, "first": first})
    rng = Rng(seed)
    while True:
        for seat in (0, 1):
            fast, defined = E.evaluate(state, seat), E.defined_evaluate(state, seat)
            assert repr(fast) == repr(defined), f"seat {seat} after {state.history[-3:]}: {fast!r} != {defined!r}"
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


def test_evaluate_equals_the_defined_evaluation_on_a_set_position() -> None:
    state = GAME.new_game(
        2,
        0,
        {
            "position": "sun phase Zenith; sun health 12; sun hand sunspear advance; sun board B1 solar-lion; "
            "sun board C2 solar-archer; moon board B4 night-wolf 2 exhausted; moon board A5 silver-tower"
        },
    )
    assert [repr(E.evaluate(state, s)) for s in (0, 1)] == [repr(E.defined_evaluate(state, s)) for s in (0, 1)]


def test_evaluation_tables_are_made_once_per_rules() -> None:
    one, other = GAME.new_game(2, 1), GAME.new_game(2, 2)
    assert E.tables(one.rules) is E.tables(other.rules)
