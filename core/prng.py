"""PCG32, the seeded pseudorandom generator behind every draw.

PCG32 (O'Neill 2014, "PCG: A Family of Simple Fast Space-Efficient
Statistically Good Algorithms for Random Number Generation"), variant
XSH-RR with 64-bit state, seeded exactly as ``pcg32_srandom_r`` in the
reference pcg-c-basic. We use our own small generator instead of Python's
``random`` so a trace is identical on CPython, in Pyodide, and for a reader
who redoes it by hand with the four lines of ``step`` below.

The state is a plain integer (the increment is fixed by the one stream we
use) and the functions are pure, so a ``Session`` record can carry its
generator and stay immutable.

A draw ``u`` is ``k / 2**32`` for one 32-bit output ``k``: an exact rational
in [0, 1). The engine compares ``u`` with probabilities by integer
multiplication, never in floating point.
"""

from fractions import Fraction

MULTIPLIER = 6364136223846793005
MASK64 = (1 << 64) - 1
U_BITS = 32
U_SCALE = 1 << U_BITS

# Every session uses one stream, 54 (the one pcg32-demo uses, so the published
# reference outputs check this very generator); the seed picks the start.
STREAM = 54
INCREMENT = (STREAM << 1) | 1


def seed(initstate):
    """The generator state after ``pcg32_srandom_r(initstate, STREAM)``.

    Seeds outside 0 .. 2**64 - 1 are refused: masked, they would silently
    give the trace of another seed.
    """
    if not 0 <= initstate <= MASK64:
        raise ValueError("a seed must be a whole number from 0 to 2**64 - 1")
    state = (0 * MULTIPLIER + INCREMENT) & MASK64
    state = (state + initstate) & MASK64
    return (state * MULTIPLIER + INCREMENT) & MASK64


def step(state):
    """Return ``(next_state, k)`` with ``k`` the next 32-bit output (XSH-RR)."""
    xorshifted = (((state >> 18) ^ state) >> 27) & 0xFFFFFFFF
    rot = state >> 59
    k = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF
    return (state * MULTIPLIER + INCREMENT) & MASK64, k


def as_u(k):
    """The exact uniform draw ``k / 2**32`` that a 32-bit output stands for."""
    return Fraction(k, U_SCALE)
