"""A rate of two numbers of one record, as the question asks for it. Pure.

"Saltreave Cannery has its deliveries run by a dog-sled outfit. At that kennel, how many dogs
are there for each musher on average?" is answered by the kennel's record, which states its
dogs (48) and its mushers (5) but not their ratio: the small model answered "48 dogs for each
musher". The question asks for one number of the record divided by another — the one its
words name (:func:`~toolkit.local.decision.records.asked_number`) per the one named after
"per", "each", "every" or "for each" ("musher" of "for each musher", "hectare" of "per
hectare", "saddler" of "does each saddler make"). A span of time after them ("each year") is
the rate's own span, no number of the record; a record that states the rate itself ("tonnes
per kiln: 29") is read as it is.

A difference of two of its things ("How many more members than looms does that cooperative
have?") is read the same way (:func:`asked_gap`) and asked of the tool that subtracts.

The record is the one the turn reached by a chain (:func:`~toolkit.local.decision.naming.
reached_record`), or the one record the turn looked up; the division is asked of the
arithmetic tool that divides, and its result is the answer's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit.local.decision.arithmetic import Tools
from toolkit.local.decision.combining import is_arithmetic
from toolkit.local.decision.naming import reached_record
from toolkit.local.decision.phrases import asking_sentence
from toolkit.local.decision.records import asked_number, record_labels, stem
from toolkit.local.decision.turn import is_error, turn_calls

__all__ = ["asked_gap", "asked_rate", "rated_record"]

#: The thing a rate is per: the word after "per", "each", "every", "for each", "for every".
_PER = re.compile(r"(?<![a-z])(?:per|(?:for )?(?:each|every))\s+([a-z]+)", re.IGNORECASE)
#: Spans of time a rate is counted over, and words after "each" that name no thing.
_NO_THING = frozenset(
    "year years day days week weeks month months hour hours minute minutes season seasons "
    "time times one of other".split()
)
#: What a question counts: the words after "how many" or "how much", up to its verb.
_COUNTED = re.compile(
    r"\bhow (?:many|much)\s+((?:(?!(?:does|do|did|is|are|was|were|can|could|will|would|"
    r"has|have|there|per|each|every|for|of|a|an|the)\b)[a-z]+\s*){1,4})",
    re.IGNORECASE,
)
#: Label words that make a label a rate ("tonnes per kiln").
_RATE_WORDS = frozenset({"per", "each", "every"})


def asked_rate(question: str, record: str, ignore: Iterable[str] = ()) -> tuple[str, str] | None:
    """The two numbers of a record whose ratio the question asks for: the number its words
    name, and the number of the thing named after "per", "each" or "every".

    Args:
        question: The question (in English, or its English reading); its sentence that
            asks is read.
        record: A tool result stating several numbers.
        ignore: Words that name things, not quantities (the offered tools' names' words).

    Returns:
        ``(dividend, divisor)`` as the record writes them; ``None`` when the question asks
        no rate of the record's numbers, the record states the rate itself, or either number
        is not the one label's.
    """
    labelled = record_labels(record)
    if len(labelled) < 3:  # the two numbers and one more: a record, not a pair
        return None
    question = asking_sentence(question)  # not the way there ("a dog-sled outfit")
    for match in _PER.finditer(question):
        word = match[1].casefold()
        if word in _NO_THING:
            continue
        thing = stem(word)
        under = [(stems, n) for stems, n in labelled if thing in stems]
        if any(stems & _RATE_WORDS for stems, _ in under):
            return None  # the record states the rate per that thing
        if len(under) != 1:
            continue
        divisor = under[0][1]
        rest = question[: match.start()] + " " + question[match.end() :]
        dividend = _counted_number(rest, labelled, divisor) or asked_number(record, rest, ignore)
        if dividend is None or dividend == divisor or float(divisor.replace(",", "")) == 0:
            return None
        return dividend, divisor
    return None


#: A difference of two things a record counts: "how many more members than looms".
_MORE_THAN = re.compile(
    r"\bhow (?:many|much) (more|fewer|less) ([a-z]+) (?:\w+ ){0,3}?than ([a-z]+)", re.IGNORECASE
)


def asked_gap(question: str, record: str) -> tuple[str, str] | None:
    """The two numbers of a record whose difference the question asks for: "How many more
    members than looms does that cooperative have?" of "members: 21, looms: 8".

    Args:
        question: The question; its sentence that asks is read.
        record: A tool result stating several numbers.

    Returns:
        ``(minuend, subtrahend)`` as the record writes them (the second thing's first for
        "fewer"); ``None`` when the question asks no such difference or either thing is not
        the one label's.
    """
    match = _MORE_THAN.search(asking_sentence(question))
    labelled = record_labels(record)
    if match is None or len(labelled) < 2:
        return None
    found = []
    for word in (match[2], match[3]):
        thing = stem(word.casefold())
        under = [n for stems, n in labelled if thing in stems]
        if len(under) != 1:
            return None
        found.append(under[0])
    if found[0] == found[1]:
        return None
    more = match[1].casefold() == "more"  # "how many fewer looms than members": 21 - 8
    return (found[0], found[1]) if more else (found[1], found[0])


def _counted_number(
    question: str, labelled: Sequence[tuple[frozenset[str], str]], divisor: str
) -> str | None:
    """The number of the one label (not the divisor's) that shares the most words with what
    the question counts: the words after "how many" or "how much", up to its verb ("how many
    dumplings does each chef …" counts dumplings; a tool's name may say them too)."""
    match = _COUNTED.search(question)
    if match is None:
        return None
    counted = {stem(w) for w in match[1].casefold().split()} - {stem(w) for w in _NO_THING}
    shares = [
        (len(stems & counted), n) for stems, n in labelled if n != divisor and stems & counted
    ]
    best = max((share for share, _ in shares), default=0)
    found = [n for share, n in shares if share == best]
    return found[0] if best and len(found) == 1 else None


def rated_record(
    messages: Sequence[Mapping[str, Any]], tools: Tools
) -> tuple[str, list[Mapping[str, Any]], list[str | None]] | None:
    """The record a rate is asked of, and the arithmetic calls the turn made after it.

    Args:
        messages: OpenAI messages.
        tools: The request's arithmetic tools.

    Returns:
        ``(record, calls after it, their results)``; ``None`` when the turn reached no record
        by a chain and looked up more than one, or a lookup came after the record.
    """
    calls, results = turn_calls(messages)
    lookups = [i for i, call in enumerate(calls) if not is_arithmetic(call, tools)]
    found = [i for i in lookups if results[i] is not None and not is_error(results[i] or "")]
    reached = reached_record(messages)
    if reached is not None:
        at = max((i for i in found if results[i] == reached[1]), default=None)
    else:
        at = found[0] if len(found) == 1 and len(lookups) == 1 else None
    if at is None or any(i > at for i in lookups):
        return None
    return results[at] or "", list(calls[at + 1 :]), list(results[at + 1 :])
