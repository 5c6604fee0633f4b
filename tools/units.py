"""Units: convert a quantity between units of length, mass, volume, time, speed, area, data size
or temperature.

Every unit is a factor to its dimension's base unit (metre, kilogram, litre, second, metre per
second, square metre, byte); temperature is affine and converted through kelvin. Units are
matched case-insensitively by symbol, English name (singular or plural) or Chinese name. An
unknown unit, or two units of different dimensions, raises
:class:`~langchain_core.tools.ToolException` naming the units that would work.
"""

from __future__ import annotations

import math

from langchain_core.tools import ToolException, tool

__all__ = ["convert_units"]

#: dimension -> {canonical symbol: (factor to the base unit, other spellings)}.
_UNITS: dict[str, dict[str, tuple[float, tuple[str, ...]]]] = {
    "length": {
        "m": (1.0, ("meter", "meters", "metre", "metres", "米")),
        "km": (1000.0, ("kilometer", "kilometers", "kilometre", "kilometres", "公里", "千米")),
        "cm": (0.01, ("centimeter", "centimeters", "centimetre", "centimetres", "厘米")),
        "mm": (0.001, ("millimeter", "millimeters", "millimetre", "millimetres", "毫米")),
        "mi": (1609.344, ("mile", "miles", "英里")),
        "yd": (0.9144, ("yard", "yards", "码")),
        "ft": (0.3048, ("foot", "feet", "英尺")),
        "in": (0.0254, ("inch", "inches", "英寸")),
        "nmi": (1852.0, ("nautical mile", "nautical miles", "海里")),
        "li": (500.0, ("市里", "里")),
    },
    "mass": {
        "kg": (1.0, ("kilogram", "kilograms", "kilo", "kilos", "千克", "公斤")),
        "g": (0.001, ("gram", "grams", "克")),
        "mg": (1e-6, ("milligram", "milligrams", "毫克")),
        "t": (1000.0, ("tonne", "tonnes", "metric ton", "metric tons", "吨")),
        "lb": (0.45359237, ("lbs", "pound", "pounds", "磅")),
        "oz": (0.028349523125, ("ounce", "ounces", "盎司")),
        "jin": (0.5, ("斤", "市斤")),
    },
    "volume": {
        "L": (1.0, ("liter", "liters", "litre", "litres", "升")),
        "mL": (0.001, ("milliliter", "milliliters", "millilitre", "millilitres", "毫升")),
        "m3": (1000.0, ("m^3", "cubic meter", "cubic meters", "cubic metre", "立方米")),
        "gal": (3.785411784, ("gallon", "gallons", "us gallon", "加仑")),
        "qt": (0.946352946, ("quart", "quarts")),
        "pt": (0.473176473, ("pint", "pints")),
        "cup": (0.2365882365, ("cups", "杯")),
        "fl oz": (0.0295735295625, ("floz", "fluid ounce", "fluid ounces")),
    },
    "time": {
        "s": (1.0, ("sec", "secs", "second", "seconds", "秒")),
        "ms": (0.001, ("millisecond", "milliseconds", "毫秒")),
        "min": (60.0, ("mins", "minute", "minutes", "分钟")),
        "h": (3600.0, ("hr", "hrs", "hour", "hours", "小时")),
        "d": (86400.0, ("day", "days", "天")),
        "wk": (604800.0, ("week", "weeks", "周", "星期")),
    },
    "speed": {
        "m/s": (1.0, ("mps", "meters per second", "metres per second", "米每秒")),
        "km/h": (1 / 3.6, ("kph", "kmh", "kilometers per hour", "公里每小时")),
        "mph": (0.44704, ("mi/h", "miles per hour")),
        "kn": (1852 / 3600, ("knot", "knots", "节")),
    },
    "area": {
        "m2": (1.0, ("m^2", "square meter", "square meters", "sqm", "平方米")),
        "km2": (1e6, ("km^2", "square kilometer", "square kilometers", "平方公里")),
        "ha": (1e4, ("hectare", "hectares", "公顷")),
        "acre": (4046.8564224, ("acres", "英亩")),
        "ft2": (0.09290304, ("ft^2", "sq ft", "square foot", "square feet", "平方英尺")),
        "mu": (10000 / 15, ("亩",)),
    },
    "data": {
        "B": (1.0, ("byte", "bytes", "字节")),
        "kB": (1000.0, ("kilobyte", "kilobytes")),
        "MB": (1e6, ("megabyte", "megabytes")),
        "GB": (1e9, ("gigabyte", "gigabytes")),
        "TB": (1e12, ("terabyte", "terabytes")),
        "KiB": (1024.0, ("kibibyte", "kibibytes")),
        "MiB": (1024.0**2, ("mebibyte", "mebibytes")),
        "GiB": (1024.0**3, ("gibibyte", "gibibytes")),
    },
}

#: Temperature scales: symbol -> (to kelvin, from kelvin, other spellings).
_TEMPERATURE = {
    "°C": (lambda v: v + 273.15, lambda k: k - 273.15, ("c", "celsius", "degc", "摄氏度")),
    "°F": (
        lambda v: (v - 32) * 5 / 9 + 273.15,
        lambda k: (k - 273.15) * 9 / 5 + 32,
        ("f", "fahrenheit", "degf", "华氏度"),
    ),
    "K": (lambda v: v, lambda k: k, ("k", "kelvin", "kelvins", "开尔文")),
}


def _build_index() -> dict[str, tuple[str, str]]:
    index: dict[str, tuple[str, str]] = {}
    for dimension, units in _UNITS.items():
        for symbol, (_, spellings) in units.items():
            for spelling in (symbol, *spellings):
                index[spelling.lower()] = (dimension, symbol)
    for symbol, (_, _, spellings) in _TEMPERATURE.items():
        for spelling in (symbol.lower(), *spellings):
            index[spelling] = ("temperature", symbol)
    return index


#: Every accepted spelling (lower case) -> (dimension, canonical symbol).
_INDEX = _build_index()


def _unit(text: str) -> tuple[str, str]:
    key = " ".join(text.replace("°", "° ").lower().split()).replace("° ", "°")
    found = _INDEX.get(key) or _INDEX.get(key.removeprefix("°"))
    if found is None:
        known = "; ".join(f"{dim}: {', '.join(units)}" for dim, units in _UNITS.items())
        raise ToolException(
            f"Unknown unit {text[:40]!r}. Known units — {known}; temperature: °C, °F, K."
        )
    return found


def _number(value: float) -> str:
    if value != 0 and (abs(value) >= 1e15 or abs(value) < 1e-6):
        return format(value, ".6g")
    return format(value, ".6f").rstrip("0").rstrip(".") or "0"


@tool(parse_docstring=True)
def convert_units(value: float, from_unit: str, to_unit: str) -> str:
    """Convert a quantity from one unit to another of the same kind.

    Kinds: length, mass, volume, time, speed, area, data size and temperature.

    Units may be symbols ("km", "°F"), English names ("miles") or Chinese names ("公里", "斤").

    Args:
        value: The number to convert, e.g. 42.8.
        from_unit: The unit the value is in, e.g. "fahrenheit", "km" or "斤".
        to_unit: The unit to convert to, of the same kind as from_unit, e.g. "celsius" or "mi".

    Returns:
        The conversion as text, e.g. "10 km = 6.213712 mi".
    """
    if not math.isfinite(value):
        raise ToolException(f"value {value} is not a finite number; send an ordinary number.")
    source_dim, source = _unit(from_unit)
    target_dim, target = _unit(to_unit)
    if source_dim != target_dim:
        raise ToolException(
            f"Cannot convert {source_dim} ({source}) to {target_dim} ({target}); "
            f"pick a {source_dim} unit for to_unit."
        )
    if source_dim == "temperature":
        kelvin = _TEMPERATURE[source][0](value)
        if kelvin < 0:
            raise ToolException(f"{_number(value)} {source} is below absolute zero.")
        result = _TEMPERATURE[target][1](kelvin)
    else:
        units = _UNITS[source_dim]
        result = value * units[source][0] / units[target][0]
    return f"{_number(value)} {source} = {_number(result)} {target}"
