"""Which part of a question of several requests a call belongs to.

A question that asks for several things ("First, … Second, … Lastly, …", "tell me the
ranking of the Yankees for 2019, then check the ranking of the Lakers for 2020") has one part
per request. The small model's first call of such a question sometimes takes its values from
the wrong part — the part of another tool ("the game 'Fortnite' on 'Playstation'", asked of
``get_collectables_in_season`` when the collectables were asked of 'Animal Crossing') — or
from two parts at once (the Lakers with the Yankees' league). :func:`part_to_write` says
which part the call should be written from again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.numbers import is_number, known_numbers
from toolkit.local.decision.records import root

__all__ = ["part_to_write", "question_parts", "states_value"]

#: Where a question's next request begins: a sentence's end (a capital after it: "3000 sq
#: ft. in location New York" goes on), or a clause that opens with a word of sequence
#: ("then", "and finally", "Also,", "Secondly,").
_NEXT_PART = re.compile(
    r"(?<=[.?!])\s+(?=[\"'(]?(?-i:[A-Z0-9]))"
    r"|[,;]\s*(?:and\s+)?(?=(?:then|finally|lastly|also|additionally|afterwards|after that)\b)",
    re.IGNORECASE,
)


def question_parts(question: str) -> list[str]:
    """The parts of a question in Latin letters, one per request it makes.

    Args:
        question: The user's question.

    Returns:
        The parts in order, without empty ones.
    """
    return [part.strip() for part in _NEXT_PART.split(question) if part and part.strip()]


def _words(text: str) -> set[str]:
    return {root(w) for w in re.findall(r"[a-z]{3,}", text.casefold())}


def _tool_words(tool: str, schema: Mapping[str, Any] | None) -> set[str]:
    """The roots of a tool's name words (but action words) and its parameters' names."""
    names = [tool, *((schema or {}).get("properties") or {})]
    words = {w for n in names for w in re.findall(r"[a-z]{3,}", n.replace("_", " ").casefold())}
    return {root(w) for w in words if w not in ACTION_WORDS}


def states_value(part: str, value: Any) -> bool:
    """Whether a part of a question states a call's value: a text of two characters or more
    as a phrase of it, a number as a number it writes.

    Args:
        part: A part of the question (:func:`question_parts`).
        value: A top-level value of a call.

    Returns:
        True when it does.
    """
    if isinstance(value, str):
        return len(value.strip()) >= 2 and value.strip().casefold() in part.casefold()
    return is_number(value) and abs(float(value)) in known_numbers(part)


def _part_of(value: Any, parts: Sequence[str]) -> int | None:
    """The first part that states a value."""
    return next((at for at, part in enumerate(parts) if states_value(part, value)), None)


def part_to_write(
    question: str,
    tool: str,
    arguments: Mapping[str, Any],
    schemas: Mapping[str, Mapping[str, Any] | None],
) -> str | None:
    """The part of a question of several requests that a first call should be written from,
    when the call's values come from another part or from two.

    Each value of the call (its top-level texts of two characters or more, its numbers) is
    found in the first part that states it. The part the call belongs to is the one that
    says the most of the tool's words (its name's, but action words, and its parameters'),
    the earliest of equals: of the parts its values come from, when they come from two or
    more; of all parts, when they come from one. The call should be written again when that
    part is not the one (or the only one) its values come from: for values of two parts, when
    another part gave two of them or more (a request of its own, not a request going on: "What
    is the prime factorization of 60? Return them in the form of dictionary"); for values of
    one part, when another offered tool's words fit that part better (that tool's request).

    Args:
        question: The user's question.
        tool: The call's tool.
        arguments: The call's arguments.
        schemas: Every offered tool's ``parameters`` schema, by name.

    Returns:
        The part to write the call from; ``None`` when the question has one part, a value is
        stated in none, or the call's values are already the part's.
    """
    parts = question_parts(question)
    if len(parts) < 2:
        return None
    values = [v for v in arguments.values() if isinstance(v, str) or is_number(v)]
    found = [_part_of(v, parts) for v in values]
    if not found or any(at is None for at in found):
        return None
    sources = sorted({at for at in found if at is not None})
    kinds = {name: _tool_words(name, schema) for name, schema in schemas.items()}
    kind = kinds.get(tool) or _tool_words(tool, None)

    def fit(at: int, words: set[str] = kind) -> int:
        return len(words & _words(parts[at]))

    among = sources if len(sources) > 1 else range(len(parts))
    best = max(among, key=lambda at: (fit(at), -at))
    if sources == [best] or fit(best) == 0:
        return None
    if len(sources) > 1 and max(found.count(at) for at in sources if at != best) < 2:
        return None  # one value from another part: the request goes on there ("Return them
        # in the form of dictionary"), it is no request of its own
    if len(sources) == 1:
        source = sources[0]
        if fit(best) <= fit(source):
            return None
        if not any(fit(source, w) > fit(source) for n, w in kinds.items() if n != tool):
            return None  # no other tool's request: the values may be this tool's own
    return parts[best]
