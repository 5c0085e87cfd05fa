"""Formatting exact numbers for people: the display edge, and only that."""

from fractions import Fraction


def dec(x, places=2):
    """``x`` as a decimal with ``places`` digits, rounded half-even on exact values."""
    if x is None:
        return "—"
    x = Fraction(x)
    scaled = round(x * 10**places)
    sign = "-" if scaled < 0 else ""
    scaled = abs(scaled)
    whole, part = divmod(scaled, 10**places)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def frac(x):
    """``x`` as an exact fraction string, ``"5/8"``."""
    return "—" if x is None else str(Fraction(x))


def row(values, places=2):
    """A distribution row as ``"0.50, 0.30, 0.20"``."""
    return ", ".join(dec(v, places) for v in values)


def exact_or_dec(x, places=3):
    """A decimal when it is exact at ``places`` digits, else the fraction and ``≈`` decimal."""
    if x is None:
        return "—"
    x = Fraction(x)
    if (x * 10**places).denominator == 1:
        return dec(x, places).rstrip("0").rstrip(".") if "." in dec(x, places) else dec(x, places)
    return f"{x} ≈ {dec(x, places)}"


def decimal_places(x):
    """How many places after the point write ``x`` exactly, or None when no
    finite decimal does (its denominator has a prime factor other than 2 and 5)."""
    den, twos, fives = Fraction(x).denominator, 0, 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    return max(twos, fives) if den == 1 else None


def exactly(x, max_places=40):
    """``x`` written exactly: a decimal when a short one exists (``"1.1"``), else the
    fraction beside a decimal with places enough to tell it from the nearest whole
    number (``"29999999/30000000 ≈ 0.9999999667"``, never ``≈ 1.000``)."""
    x = Fraction(x)
    places = decimal_places(x)
    if places is not None and places <= max_places:
        return dec(x, places)
    off = abs(x - round(x))
    return f"{x} ≈ {dec(x, len(str(off.denominator // off.numerator)) + 2)}"


def draw(u, places=4):
    """A draw ``u`` (always in [0, 1)) to ``places`` digits, with more when rounding would
    show 1: ``0.99997``, never ``1.0000``, which no draw can be."""
    u = Fraction(u)
    for n in range(places, 41):
        if u >= 1 or Fraction(dec(u, n)) < 1:
            return dec(u, n)
    return str(u)


def versus(u, bound, places=4, bound_places=3):
    """``(u, bound)`` as the reader sees them beside a test ``u < bound``: ``u`` to
    ``places`` digits and ``bound`` as ``exact_or_dec`` writes it, with more digits
    for both when rounding would make the shown comparison look false (``u =
    1.0000 < 1``, ``0.7333 < 11/15 ≈ 0.733``), or would show a draw as 1 (``u = 1.0000 ≥
    5/17``). The shown ``u`` then compares with the exact bound and with its shown decimal
    the way the exact ``u`` does."""
    u, bound = Fraction(u), Fraction(bound)
    below = u < bound
    for n in range(places, 41):
        m = bound_places if n == places else n
        shown = Fraction(dec(u, n))
        targets = [bound] if (bound * 10**m).denominator == 1 else [bound, Fraction(dec(bound, m))]
        if all((shown < b) == below for b in targets) and (shown < 1 or u >= 1):  # a draw is below 1
            return dec(u, n), exact_or_dec(bound, m)
    return str(u), str(bound)


def percent(x, places=1):
    return "—" if x is None else f"{dec(Fraction(x) * 100, places)}%"


def seed_lines(decomposition):
    """The three lines the seed ``001_*.txt`` prints for a decomposition, to the digit."""
    d = decomposition
    return [
        f"accepted mass: {[float(x) for x in d.accepted]}",
        f"rejection probability: {float(d.rejection)}",
        f"final distribution: {[float(x) for x in d.final]}",
    ]
