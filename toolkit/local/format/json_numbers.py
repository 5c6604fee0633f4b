"""Numeric bounds of a JSON schema -> GBNF: integers in a range, numbers in a range. Pure.

:func:`integer_range` writes the decimal integers in ``[low, high]`` (either end open) as
digit-by-digit alternatives, with no leading zeros and at most 16 digits, the way
:mod:`toolkit.local.format.json_grammar` writes unbounded integers. :func:`number_range` does
the same for numbers whose bounds are whole and at or above 0 (``0 <= x <= 1``, ``x > 0``...):
an integer part in range, then an optional fraction, with no exponent. :func:`integer_bounds`
and :func:`number_bounds` read a schema's ``minimum``/``maximum``/``exclusiveMinimum``/
``exclusiveMaximum``, and say when the grammar cannot express them exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["integer_bounds", "integer_range", "number_bounds", "number_range"]

#: Most digits of an integer (as in the unbounded ``uint`` rule).
MAX_DIGITS = 16
_KEYS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def integer_bounds(schema: Mapping[str, Any]) -> tuple[int | None, int | None] | None:
    """The inclusive integer range a schema's numeric bounds allow.

    Args:
        schema: An integer schema.

    Returns:
        ``(low, high)`` with ``None`` for an open end, or ``None`` when a bound is not a
        finite number (a draft-04 boolean ``exclusiveMinimum``, say).
    """
    if any(k in schema and not _num(schema[k]) for k in _KEYS):
        return None
    lows = [math.ceil(schema["minimum"])] if "minimum" in schema else []
    if "exclusiveMinimum" in schema:
        lows.append(math.floor(schema["exclusiveMinimum"]) + 1)
    highs = [math.floor(schema["maximum"])] if "maximum" in schema else []
    if "exclusiveMaximum" in schema:
        highs.append(math.ceil(schema["exclusiveMaximum"]) - 1)
    return (max(lows) if lows else None, min(highs) if highs else None)


def number_bounds(
    schema: Mapping[str, Any],
) -> tuple[int, bool, int | None, bool] | None:
    """A number schema's bounds, when :func:`number_range` can express them.

    Args:
        schema: A number schema with at least one bound.

    Returns:
        ``(low, low_exclusive, high, high_exclusive)`` (``high`` ``None`` when open), or
        ``None`` when a bound is not a whole number at or above 0 or there is no lower bound.
    """
    if any(k in schema and not (_num(schema[k]) and schema[k] == int(schema[k])) for k in _KEYS):
        return None
    low = [(int(schema["minimum"]), False)] if "minimum" in schema else []
    if "exclusiveMinimum" in schema:
        low.append((int(schema["exclusiveMinimum"]), True))
    high = [(int(schema["maximum"]), False)] if "maximum" in schema else []
    if "exclusiveMaximum" in schema:
        high.append((int(schema["exclusiveMaximum"]), True))
    if not low or min(low)[0] < 0:
        return None
    low_value, low_excl = max(low)
    high_value, high_excl = min(high, key=lambda b: (b[0], not b[1])) if high else (None, False)
    return low_value, low_excl, high_value, high_excl


def _same_length(low: str, high: str) -> list[str]:
    """GBNF alternatives for the digit strings of one length between ``low`` and ``high``."""
    if not low:
        return [""]
    n = len(low) - 1
    if low == high:
        return [f'"{low}"']
    if low[0] == high[0]:
        return [f'"{low[0]}" {rest}'.strip() for rest in _same_length(low[1:], high[1:])]
    if low[1:] == "0" * n and high[1:] == "9" * n:
        return [f"[{low[0]}-{high[0]}]" + (f" [0-9]{{{n}}}" if n else "")]
    alts = [f'"{low[0]}" {rest}'.strip() for rest in _same_length(low[1:], "9" * n)]
    if int(high[0]) - int(low[0]) > 1:
        middle = f"[{int(low[0]) + 1}-{int(high[0]) - 1}]"
        alts.append(middle + (f" [0-9]{{{n}}}" if n else ""))
    alts += [f'"{high[0]}" {rest}'.strip() for rest in _same_length("0" * n, high[1:])]
    return alts


def _uint_alternatives(low: int, high: int | None) -> list[str]:
    """Alternatives for the integers in ``[low, high]``, ``0 <= low`` (``high`` ``None``: open)."""
    if high is None:  # the digits of low, then any longer number up to MAX_DIGITS digits
        first = len(str(low))
        alts = _uint_alternatives(low, 10**first - 1)
        if first < MAX_DIGITS:
            alts.append(f"[1-9] [0-9]{{{first},{MAX_DIGITS - 1}}}")
        return alts
    top = high
    alts: list[str] = []
    for digits in range(len(str(low)), len(str(top)) + 1):
        start = max(low, 10 ** (digits - 1) if digits > 1 else 0)
        end = min(top, 10**digits - 1)
        if start <= end:
            alts += _same_length(str(start), str(end))
    return alts


def integer_range(low: int | None, high: int | None) -> str:
    """A GBNF body matching exactly the integers from ``low`` to ``high``.

    Args:
        low: The least integer, or ``None`` for no lower bound.
        high: The greatest integer, or ``None`` for no upper bound.

    Returns:
        The rule body, e.g. ``[1-5]`` or ``[1-9] | "1" "0"``. Bounds beyond 16 digits are
        read as open (integers have at most 16 digits).
    """
    limit = 10**MAX_DIGITS
    low = None if low is not None and low <= -limit else low
    high = None if high is not None and high >= limit else high
    if low is not None and high is not None and low > high:
        high = low  # no integer fits: callers refuse such a schema; the grammar stays valid
    alts: list[str] = []
    if low is None or low < 0:  # the negative part: "-" then |x| in range
        top = None if low is None else -low
        bottom = 1 if high is None or high >= 0 else -high
        alts += [f'"-" ( {" | ".join(_uint_alternatives(bottom, top))} )']
    if high is None or high >= 0:
        alts += _uint_alternatives(max(low or 0, 0), high)
    return " | ".join(alts)


def number_range(low: int, low_exclusive: bool, high: int | None, high_exclusive: bool) -> str:
    """A GBNF body matching decimal numbers between whole bounds at or above 0 (no exponent).

    Args:
        low: The lower bound (at least 0).
        low_exclusive: Whether ``low`` itself is excluded.
        high: The upper bound, or ``None`` for none.
        high_exclusive: Whether ``high`` itself is excluded.

    Returns:
        The rule body.
    """
    fraction = '( "." [0-9]{1,16} )?'
    nonzero = '"." [0-9]{0,15} [1-9]'
    alts: list[str] = []
    inner_high = None if high is None else high - 1
    if inner_high is None or low + 1 <= inner_high:  # integer parts strictly inside
        alts.append(f"( {integer_range(low + 1, inner_high)} ) {fraction}")
    if high is None or low < high:  # integer part == low
        alts.append(f'"{low}" ( {nonzero} )' if low_exclusive else f'"{low}" {fraction}')
    elif low == high and not (low_exclusive or high_exclusive):
        alts.append(f'"{low}" ( "." "0"{{1,16}} )?')
    if high is not None and high > low and not high_exclusive:
        alts.append(f'"{high}" ( "." "0"{{1,16}} )?')
    return " | ".join(alts) if alts else integer_range(1, 0)
