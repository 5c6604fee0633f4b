"""An optional number the question states, that the call left out. Pure.

"Find a ride from New York to Philadelphia with maximum cost of $50" was called
``get_rides(source="New York", destination="Philadelphia")``: ``max_cost`` is optional, and
the small model leaves optional parameters out as often as it fills them with guesses. The
question says the parameter's words right before a number no argument took ("maximum cost of
$50"): that number is the parameter's. :func:`stated_optionals` adds it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.decision.numbers import numbers_of, plain_number
from toolkit.local.decision.records import name_words, root

__all__ = ["stated_optionals"]

#: A number the question writes, in digits, with the words before it.
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\.?\d)")
#: A word of the question.
_WORD = re.compile(r"[^\W\d_]+")
#: How many words before a number may name its parameter ("maximum cost of $50").
_WINDOW = 4
#: Where a question's sentences end.
_SENTENCE_END = re.compile(r"(?<=[.?!。？！])\s+|(?<=[。？！])")
#: Name words that say nothing of what a number is.
_BLAND = frozenset({"value", "number", "num", "amount", "count", "input", "data", "param"})


def _numeric(spec: Any) -> bool:
    return isinstance(spec, Mapping) and spec.get("type") in {"integer", "number"}


def stated_optionals(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, question: str
) -> dict[str, Any] | None:
    """The arguments with each optional number the question states for its parameter.

    A number parameter that is optional and not written is stated when a word of its name
    (by its root: "cost" of ``max_cost``) is among the :data:`_WINDOW` words before a number
    of the question that no argument took, in a sentence that states a value the call took
    (a question of several sentences may ask several calls: "…if the die had 8 sides" is
    the last call's, not the first's). A number two parameters could take, or a parameter
    two numbers could fill, is left alone.

    Args:
        arguments: The call's arguments.
        schema: The tool's parameters schema.
        question: The user's question.

    Returns:
        The arguments with the numbers added, or ``None`` when none is stated.
    """
    properties = (schema or {}).get("properties") or {}
    required = set((schema or {}).get("required") or [])
    open_ = {
        p: {root(w) for w in name_words(p)} - {root(w) for w in _BLAND}
        for p, spec in properties.items()
        if p not in required and p not in arguments and _numeric(spec)
    }
    open_ = {p: roots for p, roots in open_.items() if roots}
    if not open_:
        return None
    taken = set(numbers_of(dict(arguments)))
    anchored = [
        span
        for span in _sentences(question)
        if _states_a_value(question[span[0] : span[1]], arguments)
    ]
    claims: dict[str, list[float]] = {}
    claimed_by: dict[float, list[str]] = {}
    for match in _NUMBER.finditer(question):
        number = float(match.group())
        if number in taken or not any(a <= match.start() < b for a, b in anchored):
            continue
        before = _WORD.findall(question[: match.start()])[-_WINDOW:]
        said = {root(w.casefold()) for w in before}
        for parameter, roots in open_.items():
            if roots & said:
                claims.setdefault(parameter, []).append(number)
                claimed_by.setdefault(number, []).append(parameter)
    added: dict[str, Any] = {}
    for parameter, numbers in claims.items():
        if len(set(numbers)) != 1 or len(set(claimed_by[numbers[0]])) != 1:
            continue
        number = plain_number(numbers[0])
        if properties[parameter].get("type") == "integer" and not isinstance(number, int):
            continue
        added[parameter] = number
    return {**arguments, **added} if added else None


def _sentences(text: str) -> list[tuple[int, int]]:
    """Where each sentence of the text starts and ends."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in _SENTENCE_END.finditer(text):
        spans.append((start, end.start()))
        start = end.end()
    spans.append((start, len(text)))
    return spans


def _states_a_value(sentence: str, arguments: Mapping[str, Any]) -> bool:
    """Whether a sentence states one of the call's values: a text as it is, a number in
    digits."""
    folded = sentence.casefold()
    numbers = {float(m.group()) for m in _NUMBER.finditer(sentence)}
    for value in arguments.values():
        if isinstance(value, str) and value.strip() and value.casefold() in folded:
            return True
        if any(n in numbers for n in numbers_of(value)):
            return True
    return False
