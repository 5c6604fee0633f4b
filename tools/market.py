"""Market prices: deterministic offline sample prices of everyday goods, in yuan.

The prices are fixed sample data (no network), in Chinese or English names, so that questions
about the cost of a shopping list have exact answers. An unknown item raises
:class:`~langchain_core.tools.ToolException`, whose message lists the known items.
"""

from __future__ import annotations

from langchain_core.tools import tool

from tools._names import NameTable

__all__ = ["KNOWN_ITEMS", "get_price"]

#: Chinese name -> (English name, price in yuan, unit).
_PRICES: dict[str, tuple[str, int, str]] = {
    "苹果": ("apple", 8, "kg"),
    "香蕉": ("banana", 6, "kg"),
    "牛奶": ("milk", 12, "litre"),
    "面包": ("bread", 9, "loaf"),
    "大米": ("rice", 5, "kg"),
    "鸡蛋": ("eggs", 15, "dozen"),
    "咖啡": ("coffee", 28, "cup"),
    "茶叶": ("tea", 60, "100 g"),
    "西瓜": ("watermelon", 3, "kg"),
    "土豆": ("potato", 4, "kg"),
}

#: The items the tool knows, as "中文 (English)".
KNOWN_ITEMS: tuple[str, ...] = tuple(f"{zh} ({en})" for zh, (en, _, _) in _PRICES.items())


_NAMES = NameTable(
    {zh: en for zh, (en, _, _) in _PRICES.items()},
    {"apples": "苹果", "bananas": "香蕉", "egg": "鸡蛋", "potatoes": "土豆"},
)


@tool(parse_docstring=True)
def get_price(item: str) -> str:
    """Get the current market price of an everyday item, in yuan (offline sample prices).

    Args:
        item: The item, in Chinese or English, e.g. "苹果" or "apple", "牛奶" or "milk".

    Returns:
        One short line such as "苹果 (apple): 8 yuan per kg".
    """
    zh = _NAMES.find(item, "item")
    en, price, unit = _PRICES[zh]
    return f"{zh} ({en}): {price} yuan per {unit}"
