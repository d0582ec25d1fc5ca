"""Seeded randomness for game states.

Every chance event in a game draws from its state's :class:`Rng`. The generator
is SplitMix64: its whole state is one 64-bit integer, so copying it (which every
``State.clone()`` does) costs a fraction of a microsecond, where copying the
standard library's Mersenne Twister costs about 17 microseconds. The sequence is
fixed for a given seed on every platform and Python version, which is what makes
game records replay exactly.

Two ways of computing the same numbers
--------------------------------------
SplitMix64 multiplies 64-bit numbers. Interpreted Python does that in one
big-integer product, which is fast for it. Compiled with mypyc, an ``int``
is a native machine word only while it fits 62 bits; a 64-bit product falls
back to arbitrary-precision objects on every step (allocated, freed, and
converted back and forth), which made a compiled draw dearer than an
interpreted one. So the compiled build (``_HALVES``) computes each draw on
the two 32-bit halves of the numbers, with every intermediate value below
2**50: the same arithmetic modulo 2**64, exact, never relying on
wrap-around, so every value stays a machine word. It does this for bounds up
to ``SMALL_BOUND`` (all a game ever asks for); larger bounds take the
big-integer way in both builds. The two ways give the same numbers from the
same state, bit for bit; ``tests/test_rng.py`` checks them against each
other and pins the sequences of every method for hundreds of seeds.
"""

from __future__ import annotations

import types
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB
#: ``random()``'s scale: 53 random bits make a float in [0, 1).
_UNIT: Final = 1.0 / 9007199254740992.0

#: The largest bound ``below`` draws with the halves arithmetic (its products stay under 2**62).
SMALL_BOUND: Final = 1 << 30
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
# The constants cut into halves (and the halves' 16-bit pieces, for products that fit).
_GOLDEN_HI: Final = 0x9E3779B9
_GOLDEN_LO: Final = 0x7F4A7C15
_MUL1_HI_0: Final = 0x476D
_MUL1_HI_1: Final = 0xBF58
_MUL1_LO_0: Final = 0xE5B9
_MUL1_LO_1: Final = 0x1CE4
_MUL2_HI_0: Final = 0x49BB
_MUL2_HI_1: Final = 0x94D0
_MUL2_LO_0: Final = 0x11EB
_MUL2_LO_1: Final = 0x1331


def _probe() -> None:
    """A function whose type tells whether this module runs compiled (see ``_HALVES``)."""


#: True when this module runs compiled: a compiled module's functions are built-in functions, not Python ones.
#: Either way gives the same numbers, so this only chooses the faster one.
_HALVES: Final = not isinstance(_probe, types.FunctionType)


class Rng:
    """A small, fast, copyable pseudo-random generator (SplitMix64)."""

    __slots__ = ("_s",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        self._s = seed & _MASK

    def copy(self) -> Rng:
        new = Rng.__new__(Rng)
        new._s = self._s
        return new

    def __copy__(self) -> Rng:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Rng:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._s == self._s

    def __hash__(self) -> int:
        return hash(self._s)

    def __repr__(self) -> str:
        return f"Rng(state={self._s:#x})"

    def getstate(self) -> int:
        return self._s

    def next64(self) -> int:
        if _HALVES:
            return next64_halves(self)
        s = (self._s + _GOLDEN) & _MASK
        self._s = s
        s = ((s ^ (s >> 30)) * _MUL1) & _MASK
        s = ((s ^ (s >> 27)) * _MUL2) & _MASK
        return s ^ (s >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        if _HALVES:
            return random_halves(self)
        return (self.next64() >> 11) * _UNIT

    def below(self, n: int) -> int:
        """An integer in [0, n), unbiased (rejection sampling); ``n`` from 1 to 2**64."""
        if n <= 0 or n > 1 << 64:
            raise ValueError(f"below() needs a bound from 1 to 2**64, not {n}")
        if _HALVES and n <= SMALL_BOUND:
            return below_halves(self, n)
        # Multiply-shift maps 64 bits onto [0, n); reject the few values that would bias it.
        # (``next64`` written out, the state kept in a local: the interpreter's calls cost more than the arithmetic.)
        threshold = ((1 << 64) - n) % n
        s = self._s
        while True:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * _MUL1) & _MASK
            z = ((z ^ (z >> 27)) * _MUL2) & _MASK
            m = (z ^ (z >> 31)) * n
            if (m & _MASK) >= threshold:
                self._s = s
                return m >> 64

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            return self.below(start)
        return start + self.below(stop - start)

    def randint(self, a: int, b: int) -> int:
        """An integer in [a, b], both ends included."""
        return a + self.below(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence) -> None:
        """Fisher-Yates shuffle in place."""
        if _HALVES and len(seq) <= SMALL_BOUND:
            shuffle_halves(self, seq)
            return
        # ``below(i + 1)`` for each item, written out with the state in a local (as in ``below``).
        s = self._s
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            threshold = ((1 << 64) - n) % n
            while True:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * _MUL1) & _MASK
                z = ((z ^ (z >> 27)) * _MUL2) & _MASK
                m = (z ^ (z >> 31)) * n
                if (m & _MASK) >= threshold:
                    break
            j = m >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self._s = s

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError(f"sample size {k} is out of range for {len(pool)} items")
        self.shuffle(pool)
        return pool[:k]

    def spawn(self) -> Rng:
        """A new independent generator seeded from this one (advances this one)."""
        return Rng(self.next64())


# -- the halves arithmetic (the compiled build's way; see the module docstring) ------------------------------
#
# The values are typed ``i64``: compiled, a native 64-bit integer whose operations are plain machine
# instructions (mypyc takes an ``int`` product the fast way only when both factors are under 2**30);
# interpreted, an ordinary ``int``. Every value stays under 2**50, so no operation can overflow and
# both give the same numbers.


def advance_halves(hi: i64, lo: i64) -> tuple[i64, i64]:
    """The next state, ``(state + golden) mod 2**64``, from and to its 32-bit halves."""
    lo += _GOLDEN_LO
    return (hi + _GOLDEN_HI + (lo >> 32)) & _M32, lo & _M32


def _times(hi: i64, lo: i64, c_hi_0: i64, c_hi_1: i64, c_lo_0: i64, c_lo_1: i64) -> tuple[i64, i64]:
    """``(hi, lo) * c mod 2**64`` in halves, the constant ``c`` given as four 16-bit pieces (high half first).

    ``lo * c_lo`` is the only product whose high bits count, and it is taken in two
    48-bit parts; of the cross products only the low 32 bits count, and each is taken
    in two parts as well, masked before it is shifted. Every value stays below 2**50.
    """
    low_0 = lo * c_lo_0
    low_1 = lo * c_lo_1
    low = low_0 + ((low_1 & _M16) << 16)
    cross = hi * c_lo_0 + (((hi * c_lo_1) & _M16) << 16) + lo * c_hi_0 + (((lo * c_hi_1) & _M16) << 16)
    return ((low >> 32) + (low_1 >> 16) + cross) & _M32, low & _M32


def mix_halves(hi: i64, lo: i64) -> tuple[i64, i64]:
    """SplitMix64's output for a state, from and to 32-bit halves (``next64`` after ``advance_halves``)."""
    lo ^= ((hi << 2) | (lo >> 30)) & _M32
    hi ^= hi >> 30
    hi, lo = _times(hi, lo, _MUL1_HI_0, _MUL1_HI_1, _MUL1_LO_0, _MUL1_LO_1)
    lo ^= ((hi << 5) | (lo >> 27)) & _M32
    hi ^= hi >> 27
    hi, lo = _times(hi, lo, _MUL2_HI_0, _MUL2_HI_1, _MUL2_LO_0, _MUL2_LO_1)
    lo ^= ((hi << 1) | (lo >> 31)) & _M32
    hi ^= hi >> 31
    return hi, lo


def _draw_halves(hi: i64, lo: i64, n: i64) -> tuple[i64, i64, i64]:
    """``below(n)`` for 1 <= n <= SMALL_BOUND from the state's halves: (the new state's halves, the value).

    The multiply-shift of ``below``: with ``x`` the output, the value is ``x * n >> 64``,
    and ``x`` is drawn again while ``x * n mod 2**64`` is under ``2**64 mod n``. As
    ``n < 2**32``, that low part is under the threshold only when its high half is 0.
    """
    r = (1 << 32) % n
    threshold = (r * r) % n  # 2**64 mod n
    while True:
        hi, lo = advance_halves(hi, lo)
        x_hi, x_lo = mix_halves(hi, lo)
        low = x_lo * n
        high = x_hi * n + (low >> 32)
        if high & _M32 or (low & _M32) >= threshold:
            return hi, lo, high >> 32


def _halves_of(rng: Rng) -> tuple[i64, i64]:
    s = rng._s
    return i64(s >> 32), i64(s & _M32)


def _set_halves(rng: Rng, hi: i64, lo: i64) -> None:
    rng._s = (int(hi) << 32) | int(lo)


def below_halves(rng: Rng, n: int) -> int:
    """``rng.below(n)`` for 1 <= n <= SMALL_BOUND, in halves."""
    hi, lo = _halves_of(rng)
    hi, lo, value = _draw_halves(hi, lo, n)
    _set_halves(rng, hi, lo)
    return int(value)


def next64_halves(rng: Rng) -> int:
    """``rng.next64()``, in halves."""
    hi, lo = _halves_of(rng)
    hi, lo = advance_halves(hi, lo)
    _set_halves(rng, hi, lo)
    x_hi, x_lo = mix_halves(hi, lo)
    return (int(x_hi) << 32) | int(x_lo)


def random_halves(rng: Rng) -> float:
    """``rng.random()``, in halves: the output's top 53 bits, scaled."""
    hi, lo = _halves_of(rng)
    hi, lo = advance_halves(hi, lo)
    _set_halves(rng, hi, lo)
    x_hi, x_lo = mix_halves(hi, lo)
    return float((x_hi << 21) | (x_lo >> 11)) * _UNIT


def shuffle_halves(rng: Rng, seq: MutableSequence) -> None:
    """``rng.shuffle(seq)`` for at most SMALL_BOUND items, in halves (the state kept in halves throughout)."""
    hi, lo = _halves_of(rng)
    if isinstance(seq, list):
        for i in range(len(seq) - 1, 0, -1):
            hi, lo, j = _draw_halves(hi, lo, i + 1)
            seq[i], seq[j] = seq[j], seq[i]
    else:
        for i in range(len(seq) - 1, 0, -1):
            hi, lo, j = _draw_halves(hi, lo, i + 1)
            seq[i], seq[j] = seq[j], seq[i]
    _set_halves(rng, hi, lo)
