"""Web search tools, and the questions they are for (toolkit.local.decision.searching)."""

from __future__ import annotations

import pytest

from toolkit.local.decision.searching import asks_information, web_search_tools


def _tool(name: str, description: str, **properties: str) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {k: {"type": v} for k, v in properties.items()},
            },
        },
    }


def test_a_tool_that_searches_the_web_is_read_by_its_description_or_name() -> None:
    tools = [
        _tool(
            "OpenWeatherMap.get_current_weather", "Fetches the current weather.", location="string"
        ),
        _tool(
            "HNA_WQA.search",
            "Retrieve up-to-date information by searching the web using keywords.",
            keyword="string",
        ),
        _tool("HNA_NEWS.search", "Searches for recent events and news.", keyword="string"),
        _tool("duck_duck_go.search", "Look things up.", query="string"),
        _tool("google_search", "Search the web.", count="integer"),  # nothing to search for
        _tool("search_products", "Search a shop's products by colour and size.", color="string"),
    ]
    assert web_search_tools(tools) == ["HNA_WQA.search", "duck_duck_go.search"]
    assert web_search_tools(None) == []


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("what is Imjin war", True),
        ("who is ji sung park?", True),
        ("Tell me about the history of kites", True),
        ("北京的人口是多少？", True),
        ("hi", False),
        ("How are you?", False),
        ("If I have 100$ and I donated 40. How much do I have now?", False),  # arithmetic
        ("Book me a table for tonight.", False),
    ],
)
def test_a_question_for_information_is_told_from_small_talk_and_word_problems(message, asks):
    assert asks_information(message) is asks
