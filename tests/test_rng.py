"""Every draw of :class:`astrarium.core.Rng` is pinned: stored games replay from their seed and actions.

A game record keeps only the seed and the actions, so the generator must give
the same sequence in every build (pure Python or compiled), on every platform,
for ever. These tests pin it three ways:

- SplitMix64's published reference outputs (seed 1234567, and seed 0);
- a digest of the outputs of every method (``next64``, ``random``, ``below``
  over bounds from 1 to 2**64, ``randrange``, ``randint``, ``choice``,
  ``shuffle``, ``sample``, ``spawn``, ``copy``, ``getstate``) for several hundred
  seeds, edge seeds included, recorded from the generator as it was before the
  compiled build got its own arithmetic for it (``DIGEST`` below);
- the generator's two ways of computing a draw (one big-integer product, as
  the pure-Python build runs it; 32-bit halves, as the compiled build runs it)
  checked against each other on random states and bounds.

To print the digest of the running generator (only for a deliberate change, which would break every stored game)::

    python tests/test_rng.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from astrarium.core import Rng
from astrarium.core import rng as rng_module

MASK64 = (1 << 64) - 1

#: Bounds for ``below``: the small ones games use, and every edge of the halves arithmetic, up to 2**64.
BOUNDS = (
    [1, 2, 3, 4, 5, 6, 7, 10, 13, 52, 81, 88, 100, 1000, 65535, 65536, 65537, 10**6]
    + [(1 << k) + d for k in (29, 30, 31, 32, 33, 40, 52, 53, 61, 62, 63) for d in (-1, 0, 1)]
    + [(1 << 64) - 1, 1 << 64]
    + [3**40, 10**19]
)

#: Seeds: small ones, the edges of 32, 62, 63 and 64 bits, negative ones and one past 64 bits (which are masked).
SEEDS = (
    list(range(300))
    + [(1 << k) + d for k in (31, 32, 61, 62, 63, 64) for d in (-1, 0, 1)]
    + [-1, -2, -(1 << 63), -(1 << 64) - 7, 10**30, 0x9E3779B97F4A7C15, 0xDEADBEEFCAFEF00D]
)

#: sha256 of ``draws(seed)`` for every seed in ``SEEDS``, in order (recorded; see the module docstring).
DIGEST = "421f006b0177e3cdfde26057b11f0d31bdfa9aade0ade03c07950a1c631d1730"


def draws(seed: int) -> list[Any]:
    """What one generator seeded with ``seed`` gives from each of its methods, in a fixed order."""
    rng = Rng(seed)
    out: list[Any] = [rng.getstate()]
    out += [rng.next64() for _ in range(3)]
    out += [rng.random().hex() for _ in range(3)]
    out += [rng.below(n) for n in BOUNDS]
    out += [rng.below(n) for n in range(1, 90)]
    out += [rng.randrange(10), rng.randrange(-5, 5), rng.randrange(3, 1 << 40), rng.randint(1, 6), rng.randint(-(1 << 63), (1 << 63) - 1)]
    out.append(rng.choice("abcdefghij"))
    out.append(rng.choice(list(range(88))))
    deck = list(range(88))
    rng.shuffle(deck)
    out.append(deck)
    small = ["x", "y"]
    rng.shuffle(small)
    out.append(small)
    out.append(rng.sample(range(30), 7))
    out.append(rng.sample("streamlines", 0))
    child = rng.spawn()
    out += [child.getstate(), child.next64(), child.below(6)]
    twin = rng.copy()
    out += [rng.below(1000) for _ in range(5)]
    assert [twin.below(1000) for _ in range(5)] == out[-5:]
    out.append(rng.getstate())
    return out


def digest_of_seeds() -> str:
    h = hashlib.sha256()
    for seed in SEEDS:
        h.update(json.dumps(draws(seed), separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def test_splitmix64_reference_outputs() -> None:
    """The published SplitMix64 sequences: the generator is that algorithm, exactly."""
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_every_method_gives_the_recorded_sequence() -> None:
    assert digest_of_seeds() == DIGEST


def test_a_copy_and_a_spawn_continue_exactly() -> None:
    rng = Rng(99)
    rng.below(7)
    copy = rng.copy()
    assert copy == rng and hash(copy) == hash(rng) and repr(copy) == repr(rng)
    assert [copy.next64() for _ in range(10)] == [rng.next64() for _ in range(10)]
    state = rng.getstate()
    spawned = rng.spawn()
    assert spawned.getstate() == Rng(state).next64()


# -- the two ways of computing a draw agree -------------------------------------------------------------

STATES = st.one_of(st.integers(0, MASK64), st.sampled_from([0, 1, MASK64, MASK64 - 0x9E3779B97F4A7C15, (1 << 62) - 1, 1 << 62, 1 << 63]))


def big_next(state: int) -> tuple[int, int]:
    """SplitMix64 written with one big-integer product per step: (the next state, its output)."""
    s = (state + 0x9E3779B97F4A7C15) & MASK64
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return s, z ^ (z >> 31)


def big_below(state: int, n: int) -> tuple[int, int]:
    """``below(n)`` by its definition, with big integers: (the state after it, the value)."""
    threshold = ((1 << 64) - n) % n
    while True:
        state, x = big_next(state)
        if (x * n) & MASK64 >= threshold:
            return state, (x * n) >> 64


def seeded(state: int) -> Rng:
    rng = Rng(0)
    rng._s = state  # the state as it is after some draws: any 64-bit value
    return rng


@given(STATES)
def test_the_halves_arithmetic_gives_the_big_integer_output(state: int) -> None:
    s, out = big_next(state)
    hi, lo = rng_module.advance_halves(state >> 32, state & 0xFFFFFFFF)
    assert (hi << 32) | lo == s
    mixed_hi, mixed_lo = rng_module.mix_halves(hi, lo)
    assert (mixed_hi << 32) | mixed_lo == out


@given(STATES, st.one_of(st.integers(1, 100), st.integers(1, rng_module.SMALL_BOUND)))
def test_the_halves_bounded_draw_gives_the_big_integer_draw(state: int, n: int) -> None:
    rng = seeded(state)
    after, value = big_below(state, n)
    assert rng_module.below_halves(rng, n) == value
    assert rng.getstate() == after


@given(STATES)
def test_the_halves_next64_and_random_give_the_big_integer_ones(state: int) -> None:
    after, out = big_next(state)
    rng = seeded(state)
    assert rng_module.next64_halves(rng) == out and rng.getstate() == after
    rng = seeded(state)
    assert rng_module.random_halves(rng) == (out >> 11) * (1.0 / 9007199254740992.0) and rng.getstate() == after


@given(STATES, st.integers(0, 120), st.booleans())
def test_the_halves_shuffle_gives_the_big_integer_shuffle(state: int, size: int, as_list: bool) -> None:
    expected = list(range(size))
    s = state
    for i in range(size - 1, 0, -1):
        s, j = big_below(s, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng = seeded(state)
    items: Any = list(range(size)) if as_list else bytearray(range(size))
    rng_module.shuffle_halves(rng, items)
    assert list(items) == expected and rng.getstate() == s


@pytest.mark.parametrize("n", [1, 2, 3, 6, rng_module.SMALL_BOUND - 1, rng_module.SMALL_BOUND])
def test_the_halves_draw_agrees_at_its_edges(n: int) -> None:
    for seed in range(200):
        rng = Rng(seed)
        state = rng.getstate()
        for _ in range(20):
            state, value = big_below(state, n)
            assert rng_module.below_halves(rng, n) == value


def test_bounds_past_64_bits_are_refused() -> None:
    """A bound over 2**64 would need more than one 64-bit draw per value: refused, never a hang."""
    for n in (0, -3, (1 << 64) + 1, 1 << 70):
        with pytest.raises(ValueError, match="below"):
            Rng(1).below(n)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_rng.py --record")
    print(digest_of_seeds())
