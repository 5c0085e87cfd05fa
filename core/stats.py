"""Chi-square goodness of fit, in plain Python (the page cannot import scipy).

Float arithmetic is fine here: this reads a sample, it decides nothing in
the engine. The p-value is the regularised upper incomplete gamma function
Q(df/2, x/2), by series or continued fraction (Numerical Recipes, 6.2).
"""

import math
from dataclasses import dataclass


def _gamma_p_series(a, x):
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a, x):
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x, df):
    """P(X >= x) for X chi-square with ``df`` degrees of freedom."""
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    if half < a + 1:
        return max(0.0, 1.0 - _gamma_p_series(a, half))
    return _gamma_q_fraction(a, half)


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float
    pooled: int


def chi_square(counts, probabilities, min_expected=5):
    """Test observed ``counts`` against exact ``probabilities`` (dicts by outcome).

    Outcomes expected fewer than ``min_expected`` times are pooled into one
    cell, the usual rule that keeps the chi-square approximation honest.
    """
    n = sum(counts.values())
    cells = []
    pool_obs = pool_exp = 0.0
    pooled = 0
    for outcome, prob in probabilities.items():
        expected = n * float(prob)
        observed = counts.get(outcome, 0)
        if expected < min_expected:
            pool_obs += observed
            pool_exp += expected
            pooled += 1
        else:
            cells.append((observed, expected))
    outside = n - sum(counts.get(o, 0) for o in probabilities)
    if pooled or outside:
        cells.append((pool_obs + outside, pool_exp))
    statistic = 0.0
    for observed, expected in cells:
        if expected > 0:
            statistic += (observed - expected) ** 2 / expected
        elif observed:
            statistic = math.inf
    df = max(len(cells) - 1, 1)
    return ChiSquare(statistic, df, 0.0 if math.isinf(statistic) else chi2_sf(statistic, df), pooled)
