"""Tools that search the web for any question, and the questions they are for. Pure.

Asked "what is Imjin war" or "who is ji sung park?" with a tool that "retrieves up-to-date
information by searching the web" offered, the small model preferred text and answered from
recall with a fact it made up ("Imjin war is a game developed by Imjin Entertainment"). A tool
that searches the web fits any question that asks for information: the decoder then tries its
call, and keeps it when it is sound, as for a tool the question names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.numbers import written_numbers

__all__ = ["asks_information", "web_search_tools"]

#: A description of a search of the web at large, not of one store's records.
_WEB_DESCRIPTION = re.compile(
    r"(?<![a-z])(?:search(?:es|ing)?(?: on| of)? (?:the )?(?:web|internet|world wide web)"
    r"|web[ -]?search(?:es)?|internet search(?:es)?|search engine)(?![a-z])"
    r"|搜索引擎|网络搜索|联网搜索|网页搜索|上网搜索",
    re.IGNORECASE,
)
#: A tool name of a web search ("web_search", "duck_duck_go.search", "google_search").
_WEB_NAME = re.compile(
    r"web_?search|websearch|google|bing|duck_?duck_?go|wikipedia|search_?engine|search_?web",
    re.IGNORECASE,
)
#: A question that asks for information: a question word, or a question mark.
_ASKS = re.compile(
    r"[?？]\s*$"
    r"|^\s*(?:what|who|whom|whose|when|where|which|why|how|tell me|explain|describe)(?![a-z])"
    r"|谁|什么|哪|怎么|如何|为什么|多少|几|吗\s*$|介绍",
    re.IGNORECASE,
)
#: Talk that asks nothing of the world ("hi", "thanks", "how are you?").
_SMALL_TALK = re.compile(
    r"^\s*(?:hi|hello|hey|thanks|thank you|good (?:morning|evening|night)|how are you"
    r"|你好|谢谢|早上好|晚上好)(?![a-z])",
    re.IGNORECASE,
)


def web_search_tools(tools: Sequence[Mapping[str, Any]] | None) -> list[str]:
    """The offered tools that search the web for any question: the name or the description
    says so ("Retrieve up-to-date information by searching the web using keywords",
    ``duck_duck_go.search``), and the tool takes a text to search for.

    Args:
        tools: The offered tools (OpenAI ``{"type": "function", "function": {...}}``).

    Returns:
        Their names, in the order offered.
    """
    found = []
    for tool in tools or []:
        function = tool.get("function") or {}
        name = str(function.get("name") or "")
        description = str(function.get("description") or "")
        if not (_WEB_NAME.search(name) or _WEB_DESCRIPTION.search(description)):
            continue
        properties = (function.get("parameters") or {}).get("properties") or {}
        if any(isinstance(p, Mapping) and p.get("type") == "string" for p in properties.values()):
            found.append(name)
    return found


def asks_information(question: str) -> bool:
    """Whether a user's message asks for information ("what is Imjin war", "who is ji sung
    park?", "北京的人口是多少？"), not small talk ("hi", "how are you?") nor a word problem
    (two numbers or more: "If I have 100$ and I donated 40, how much do I have now?").

    Args:
        question: The user's message.

    Returns:
        True when it does.
    """
    text = question.strip()
    if not text or _SMALL_TALK.search(text) or len(written_numbers(text)) >= 2:
        return False  # a word problem's numbers are for arithmetic, not for a search
    return _ASKS.search(text) is not None
