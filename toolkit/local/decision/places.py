"""A place parameter's value that names no place. Pure.

Asked "this is nonsense" or "Please get the next batch of comments from facebook.com. My key
is 'alpha_key'" with only a weather tool offered, the small model wrote
``get_current_weather(location="nonsense")`` and ``get_current_weather(location="alpha_key")``:
a word of the user's, so grounded, but no place. A place is a name: written in capitals, or
at least not a plain English word; a key (``alpha_key``) is no place either.
:func:`unplaced_texts` finds such values, and the call that holds one is no call of that tool.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.decision.kinds import gloss_words

__all__ = ["unplaced_texts"]

#: A parameter's name that takes a place.
_PLACE_PARAMETER = re.compile(
    r"(?:^|_)(?:location|city|town|country|place|destination|origin|region|area|address)(?:$|_)",
    re.IGNORECASE,
)
#: Words that stand for a place without naming it ("all", "home", "nearby").
_PLACE_WORDS = frozenset(
    "all any anywhere everywhere here there home nearby near local current worldwide global "
    "world online remote".split()
)


@functools.cache
def _common_words() -> frozenset[str]:
    """English words written in lower case in the dictionary's glosses: words, not names
    ("nonsense"; not "paris", which the glosses write "Paris")."""
    return frozenset(w for senses in gloss_words() for w in re.findall(r"\b[a-z]+\b", senses))


def unplaced_texts(arguments: Mapping[str, Any], schema: Mapping[str, Any] | None) -> list[str]:
    """The values of a call's place parameters (``location``, ``city``, ``country``…) that
    name no place: a key's spelling (``alpha_key``, ``MS_key321``), or plain English words
    only, none in capitals ("nonsense", "march"). Values with digits (an address) or a word
    that stands for a place ("all", "nearby") are places.

    Args:
        arguments: The call's arguments.
        schema: The tool's ``parameters`` schema.

    Returns:
        The values, in the order of the arguments.
    """
    properties = (schema or {}).get("properties") or {}
    found = []
    for key, value in arguments.items():
        if key not in properties or not _PLACE_PARAMETER.search(key) or not isinstance(value, str):
            continue
        text = value.strip()
        if not text or not text.isascii() or (re.search(r"\d", text) and "_" not in text):
            continue
        words = re.findall(r"[A-Za-z]+", text)
        if "_" in text:
            found.append(value)
        elif words and text == text.lower() and not set(words) & _PLACE_WORDS:
            if all(w in _common_words() for w in words):
                found.append(value)
    return found
