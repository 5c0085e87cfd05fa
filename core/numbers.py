"""Reading numbers people type: one bounded parser for every number from outside.

A link (``?lookahead=...``), a command line (``--cost ...``) and the
calculator's boxes all hand us text. ``Fraction("1e999999999")`` builds that
number digit by digit and never returns, and ``int()`` of 4,301 digits
raises an error no student should see. So the text is checked first, with
plain string tests (length, characters, a few regular expressions on at most
``max_chars`` ASCII characters), and converted only when it is a short
decimal like ``0.5`` / ``.5`` / ``-0.25`` / ``3`` or a fraction like ``1/3``.
No big-number arithmetic is ever started, so every call answers in
microseconds, whatever the input.

A refusal is an ``InputError`` (a ``ValueError``) whose text is one sentence
that says what is wrong and what to type instead, and quotes at most
``SHOW`` characters of the input.
"""

import re
from fractions import Fraction

from . import display

MAX_CHARS = 40
# Callers may allow longer text, but never so long that converting it costs time
# (CPython refuses int() of more than 4,300 digits anyway).
MAX_CHARS_ALLOWED = 1000
SHOW = 20

_SIGN = r"[+-]?"
_DIGITS = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
DECIMAL = re.compile(_SIGN + _DIGITS)
FRACTION = re.compile(r"([+-]?[0-9]+) */ *([0-9]+)")
WHOLE = re.compile(r"[+-]?[0-9]+")
EXPONENT = re.compile(_SIGN + _DIGITS + r"[eE]([+-]?[0-9]+)")
NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
SLASHED = re.compile(_SIGN + _DIGITS + r" */ *" + _SIGN + _DIGITS)
COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+")
PERCENT = re.compile(_SIGN + _DIGITS + r" *%")

EXAMPLE = "type a decimal such as 0.5 or a fraction such as 1/3"


class InputError(ValueError):
    """Text that is not a number we accept, described in one sentence a student can act on."""


def shown(text):
    """The input as quoted in a message: at most ``SHOW`` characters of it."""
    return repr(text if len(text) <= SHOW else text[:SHOW - 1] + "…")


def _clean(text, name, max_chars, example):
    """The stripped text once it is a non-empty, short, ASCII string; else an InputError."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be given as text, got {type(text).__name__}")
    if not 1 <= max_chars <= MAX_CHARS_ALLOWED:
        raise ValueError(f"max_chars must be from 1 to {MAX_CHARS_ALLOWED}, got {max_chars!r}")
    # The length is checked before anything else looks at the characters; spaces
    # around a number are forgiven, but never counted one by one in a huge text.
    if len(text) > max_chars:
        length = len(text) if len(text) > 10 * MAX_CHARS_ALLOWED else len(text.strip())
        if length > max_chars:
            raise InputError(f"{name} is too long ({length:,} characters, at most {max_chars}): {example}")
    text = text.strip()
    if not text:
        raise InputError(f"{name} is empty: {example}")
    if not text.isascii():
        c = next(c for c in text if not c.isascii())
        if c.isdigit() or c.isnumeric():
            which = "is" if text == c else f"uses {c!r}, which is"
            raise InputError(f"{name}, {shown(text)}, {which} not one of the digits 0-9: type the number with 0-9")
        raise InputError(f"{name}, {shown(text)}, contains {c!r}, which is not part of a number: {example}")
    return text


def _written_out(text, exponent, max_chars):
    """``"1e5"`` written out (``"100000"``) when that is short enough to type; else None.

    The exponent is compared with ``max_chars`` before the value is built,
    so this stays instant.
    """
    if len(exponent.lstrip("+-0")) > 3 or abs(int(exponent)) > max_chars:
        return None
    value = Fraction(text)
    plain = display.dec(value, display.decimal_places(value))
    return plain if len(plain) <= max_chars else None


def _in_range(value, text, name, low, high):
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            bounds = f"from {low} to {high}"
        else:
            bounds = f"at least {low}" if high is None else f"at most {high}"
        raise InputError(f"{name} must be {bounds}, got {shown(text)}")
    return value


def parse_fraction(text, *, name="the value", max_chars=MAX_CHARS, low=None, high=None):
    """The exact value of ``text``: a decimal (``"0.5"``, ``".5"``, ``"-0.25"``,
    ``"3"``) or a fraction (``"1/3"``), surrounding spaces allowed.

    ``name`` says what the number is for in messages ("the lookahead");
    ``low`` and ``high``, when given, bound the value (inclusive).
    Raises ``InputError`` for anything else, at once.
    """
    text = _clean(text, name, max_chars, EXAMPLE)
    if DECIMAL.fullmatch(text):
        value = Fraction(text)
    elif m := FRACTION.fullmatch(text):
        num, den = int(m[1]), int(m[2])
        if den == 0:
            raise InputError(f"{name}, {shown(text)}, divides by zero: the number below the / must not be 0")
        value = Fraction(num, den)
    elif m := EXPONENT.fullmatch(text):
        plain = _written_out(text, m[1], max_chars)
        instead = f"write it out as {plain}" if plain else "type a plain decimal or a fraction, such as 0.001 or 1/1000"
        raise InputError(f"{name}, {shown(text)}, uses an exponent (e): {instead}")
    elif NOT_FINITE.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, is not a finite number: {EXAMPLE}")
    elif SLASHED.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, is not a number: "
                         f"a fraction needs whole numbers on both sides of the /, such as 1/3")
    elif COMMA.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, has a decimal comma: write it with a point, such as 0.5")
    elif PERCENT.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, is a percentage: write it as a decimal, such as 0.5 for 50%")
    else:
        raise InputError(f"{name}, {shown(text)}, is not a number: {EXAMPLE}")
    return _in_range(value, text, name, low, high)


def parse_int(text, *, name="the value", low, high, max_chars=MAX_CHARS):
    """The whole number written in ``text`` with the digits 0-9 (a sign allowed),
    from ``low`` to ``high`` inclusive. Raises ``InputError`` otherwise, at once."""
    example = f"type a whole number from {low} to {high}"
    text = _clean(text, name, max_chars, example)
    if WHOLE.fullmatch(text):
        return _in_range(int(text), text, name, low, high)
    if EXPONENT.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, uses an exponent (e): {example}, written out with the digits 0-9")
    if DECIMAL.fullmatch(text) or FRACTION.fullmatch(text) or SLASHED.fullmatch(text):
        raise InputError(f"{name}, {shown(text)}, is not a whole number: {example}")
    raise InputError(f"{name}, {shown(text)}, is not a number: {example}")
