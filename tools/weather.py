"""Weather: deterministic offline readings for a dozen cities, in Chinese or English names.

The readings are fixed sample data (no network), chosen so the seed's example holds:
北京 6 °C and 西安 5 °C, i.e. 42.8 °F and 41 °F. An unknown city raises
:class:`~langchain_core.tools.ToolException`, whose message lists the known cities; the tool
loop turns it into an error ``ToolMessage`` the model can act on.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from langchain_core.tools import ToolException, tool

from tools._names import spellings

__all__ = ["KNOWN_CITIES", "get_weather"]

#: Chinese name -> (English name, temperature in °C, sky).
_READINGS: dict[str, tuple[str, float, str]] = {
    "北京": ("Beijing", 6, "sunny"),
    "上海": ("Shanghai", 12, "cloudy"),
    "广州": ("Guangzhou", 22, "light rain"),
    "深圳": ("Shenzhen", 23, "cloudy"),
    "西安": ("Xi'an", 5, "overcast"),
    "成都": ("Chengdu", 10, "fog"),
    "杭州": ("Hangzhou", 11, "light rain"),
    "南京": ("Nanjing", 9, "sunny"),
    "武汉": ("Wuhan", 10, "cloudy"),
    "重庆": ("Chongqing", 13, "overcast"),
    "哈尔滨": ("Harbin", -15, "snow"),
    "拉萨": ("Lhasa", 2, "sunny"),
    "香港": ("Hong Kong", 20, "sunny"),
}


def _build_aliases() -> dict[str, str]:
    aliases = {"peking": "北京", "xian": "西安", "hongkong": "香港", "canton": "广州"}
    for zh, (en, _, _) in _READINGS.items():
        aliases[zh] = aliases[zh + "市"] = zh
        aliases["".join(ch for ch in en.lower() if ch.isalnum())] = zh
    return aliases


#: Every accepted spelling (lower-cased, letters and digits only) -> Chinese name.
_ALIASES: dict[str, str] = _build_aliases()

#: The cities the tool knows, as "中文 (English)".
KNOWN_CITIES: tuple[str, ...] = tuple(f"{zh} ({en})" for zh, (en, _, _) in _READINGS.items())


def _lookup_key(city: str) -> str:
    text = unicodedata.normalize("NFKC", city).strip().lower()
    for suffix in (", china", ",china", " city", "city", "，中国"):
        text = text.removesuffix(suffix)
    return "".join(ch for ch in text if ch.isalnum())


def _number(value: float) -> str:
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


@tool(parse_docstring=True)
def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current temperature and sky of a city (offline sample data for major Chinese cities).

    Args:
        city: The city, in Chinese or English, e.g. "北京", "Beijing", "西安" or "Xi'an".
        unit: The temperature unit of the answer: "celsius" (°C) or "fahrenheit" (°F).

    Returns:
        One short line such as "北京 (Beijing): 6 °C, sunny".
    """
    keys = [_lookup_key(spelling) for spelling in spellings(city)]
    zh = next((_ALIASES[key] for key in keys if key in _ALIASES), None)
    if zh is None:
        raise ToolException(f"Unknown city {city!r}. Ask for one of: {', '.join(KNOWN_CITIES)}.")
    en, celsius, sky = _READINGS[zh]
    if unit == "fahrenheit":
        reading = f"{_number(celsius * 9 / 5 + 32)} °F"
    else:
        reading = f"{_number(celsius)} °C"
    return f"{zh} ({en}): {reading}, {sky}"
