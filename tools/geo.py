"""Geography: capitals of countries and populations of cities, offline sample data.

Fixed reference figures (no network), in Chinese or English names. The capitals lead to cities
the other tools know (the capital of China is 北京, whose weather ``get_weather`` reports), so a
question can chain one lookup into the next. Unknown names raise
:class:`~langchain_core.tools.ToolException` listing the known ones.
"""

from __future__ import annotations

from langchain_core.tools import tool

from tools._names import NameTable

__all__ = ["get_capital", "get_population"]

#: Chinese name -> (English name, capital in Chinese, capital in English).
_CAPITALS: dict[str, tuple[str, str, str]] = {
    "中国": ("China", "北京", "Beijing"),
    "日本": ("Japan", "东京", "Tokyo"),
    "法国": ("France", "巴黎", "Paris"),
    "英国": ("United Kingdom", "伦敦", "London"),
    "美国": ("United States", "华盛顿", "Washington"),
    "德国": ("Germany", "柏林", "Berlin"),
    "意大利": ("Italy", "罗马", "Rome"),
    "埃及": ("Egypt", "开罗", "Cairo"),
}

#: Chinese name -> (English name, population in millions).
_POPULATIONS: dict[str, tuple[str, float]] = {
    "北京": ("Beijing", 21.9),
    "上海": ("Shanghai", 24.9),
    "广州": ("Guangzhou", 18.7),
    "深圳": ("Shenzhen", 17.6),
    "西安": ("Xi'an", 12.9),
    "成都": ("Chengdu", 21.4),
    "杭州": ("Hangzhou", 12.2),
    "武汉": ("Wuhan", 13.7),
    "东京": ("Tokyo", 14.0),
    "巴黎": ("Paris", 2.1),
    "伦敦": ("London", 8.9),
}


_SPELLINGS = {"usa": "美国", "us": "美国", "uk": "英国", "england": "英国", "xian": "西安"}
_SUFFIXES = ("市", " city", "city")
_COUNTRY = NameTable({k: v[0] for k, v in _CAPITALS.items()}, _SPELLINGS, _SUFFIXES)
_CITY = NameTable({k: v[0] for k, v in _POPULATIONS.items()}, _SPELLINGS, _SUFFIXES)


@tool(parse_docstring=True)
def get_capital(country: str) -> str:
    """Get the capital city of a country (offline reference data).

    Args:
        country: The country, in Chinese or English, e.g. "中国", "China" or "France".

    Returns:
        One short line such as "中国 (China): 北京 (Beijing)".
    """
    zh = _COUNTRY.find(country, "country")
    en, capital_zh, capital_en = _CAPITALS[zh]
    return f"{zh} ({en}): {capital_zh} ({capital_en})"


@tool(parse_docstring=True)
def get_population(city: str) -> str:
    """Get the population of a city, in millions of people (offline reference data).

    Args:
        city: The city, in Chinese or English, e.g. "上海", "Shanghai" or "Tokyo".

    Returns:
        One short line such as "上海 (Shanghai): 24.9 million people".
    """
    zh = _CITY.find(city, "city")
    en, millions = _POPULATIONS[zh]
    return f"{zh} ({en}): {millions:g} million people"
