"""The record a turn reached, taken on by the question's own numbers. Pure.

"Gildermoor Sally Works makes the tether ropes for one of the balloon ports. How much is a
ticket at that port, and what would tickets for a family of three cost?" is answered by the
port's record ("ticket_price_eur: 245"), reached through the rope maker's — and by one more
step, 245 × 3, which the small model left out: it answered with the price. The question states
numbers no step used ("three", "4 nights", "再招8个工人", "翻一番"); with the record's number
the question asks for by its label, they are the numbers of one arithmetic expression, asked
of the model as a combination of looked-up values is (:mod:`~toolkit.local.decision.combining`,
under :func:`~toolkit.local.decision.combining.once_grammar`: each number used once, every one
used) and followed step by step.

The record is the one :func:`~toolkit.local.decision.rates.rated_record` finds: the last a chain
reached, or the one the turn looked up. A number the lookups took (a name's "Route 7"), the
record's number asked for said again, and a year are no operands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.arithmetic import Tools
from toolkit.local.decision.combining import Lookups, is_arithmetic
from toolkit.local.decision.grounding import arguments_of
from toolkit.local.decision.numbers import (
    numbers_of,
    spelled_numbers,
    ungrouped,
    word_numbers,
    written_numbers,
)
from toolkit.local.decision.rates import rated_record
from toolkit.local.decision.records import YEAR, record_labels
from toolkit.local.decision.turn import last_question, turn_calls

__all__ = ["reached_lookups", "told_numbers"]

#: A number written as a year of the last millennium or this century: a date, no operand.
#: A question that asks how many years a thing has lasted, or will have, by a year it states.
_YEARS_ASKED = re.compile(r"\bhow (?:many years|old|long)\b|多少年|几年", re.IGNORECASE)


def told_numbers(
    question: str, taken: set[float], stated: set[float], dated: bool = False
) -> list[float]:
    """The numbers a question states for arithmetic: in digits, in words ("a family of
    three") or as a factor ("翻一番", "double it"), but none a lookup took, the record's
    number asked for (said again: "does it still charge 18 euros?"), or a year — unless
    ``dated``: the number asked for is a year and the question asks how many years ("How many
    years will that railway have been open in 2025?" of "opened: 1905").

    Args:
        question: The user's question.
        taken: The numbers the turn's lookups took.
        stated: The record's number asked for.
        dated: Keep the question's years.

    Returns:
        The numbers, in order of value.
    """
    plain = ungrouped(question)
    found = {abs(float(n)) for n in written_numbers(plain)}
    found |= set(spelled_numbers(question)) | {value for _, value in word_numbers(question)}
    return sorted(
        n
        for n in found
        if n not in taken and n not in stated and (dated or not YEAR.fullmatch(f"{n:g}")) and n != 0
    )


def reached_lookups(
    messages: Sequence[Mapping[str, Any]], tools: Tools, asked: str | None
) -> Lookups | None:
    """The numbers of an expression over the record the turn reached and the question's
    own numbers.

    Args:
        messages: OpenAI messages.
        tools: The request's arithmetic tools.
        asked: The record's number the question asks for (by its label, or as the model
            picks its field); ``None`` when it is not known.

    Returns:
        The lookups (the record's one number and each of the question's, every one
        required); ``None`` when no record was reached, the number asked for is not known
        or not the record's, or the question states no number for arithmetic.
    """
    rated = rated_record(messages, tools)
    if rated is None or asked is None:
        return None
    record = rated[0]
    stated = {float(n) for _, n in record_labels(record)}
    value = float(asked.replace(",", ""))
    if value not in stated:
        return None
    calls, _ = turn_calls(messages)
    taken = {
        abs(n)
        for call in calls
        if not is_arithmetic(call, tools)
        for n in numbers_of(arguments_of(call))
    }
    question = last_question(messages)
    dated = YEAR.fullmatch(f"{value:g}") is not None and _YEARS_ASKED.search(question) is not None
    told = told_numbers(question, taken, {value}, dated)
    if not told:
        return None
    # Each once: a number the question says again is the same quantity ("for 4 nights …
    # what will the 4 nights come to?").
    sources = [(frozenset({n}), 1) for n in told]
    sources.append((frozenset({value}), 1))
    return Lookups(
        question,
        (f"record = {record.strip()}",),
        tuple(sources),
        tuple(range(len(sources))),
    )
