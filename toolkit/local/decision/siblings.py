"""Which of several like tools the question asks for. Pure.

A tool set often holds siblings: tools of one family whose names share words
(``physics.wave_velocity`` and ``kinematics.final_velocity``, ``electromagnetism.ampere_law``
and ``electromagnetism.biot_savart_law``, ``currency_conversion.get_latest_rate`` and
``currency_conversion.get_rate``). The small model then names the one its first tokens lean
to: asked "the final velocity of an object thrown up at 40 m/s after 6 seconds", it called
``wave_velocity`` — "velocity" is in both names, and nothing in the question is a wave.

What tells siblings apart is what each has that the other lacks: the words of its name and of
its parameters' names ("final"; "distance" and "current" against "enclosed" and "radius"),
and a date parameter where the question states a date. :func:`asked_sibling` names the
sibling the question says something of when the chosen tool's own words are all absent from
it; the decoder then writes the call of that sibling instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.decision.clauses import without_conditions
from toolkit.local.decision.dates import dates_in
from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.records import name_words, root

__all__ = ["asked_sibling", "question_roots", "said_parameters"]

#: A word of a question in the Latin script.
_WORD = re.compile(r"[^\W\d_]{3,}")
#: A question that asks more than one thing: words that join requests, or a second sentence.
_MORE_ASKED = re.compile(r"\b(?:and|also|as well as|plus)\b|[;；]|[.?!。？！]\s*\S", re.IGNORECASE)
#: A parameter that holds a date: its name says so ("date", "start_date", "day").
_DATE_WORDS = frozenset({"date", "day"})


def question_roots(question: str) -> frozenset[str]:
    """The roots (:func:`~toolkit.local.decision.records.root`) of the question's words.

    Args:
        question: The user's question.

    Returns:
        Their roots, case-folded.
    """
    return frozenset(root(word.casefold()) for word in _WORD.findall(question))


def _roots(words: set[str]) -> set[str]:
    return {root(word) for word in words if word not in ACTION_WORDS}


def _parameters(schema: Mapping[str, Any] | None) -> list[str]:
    return list(((schema or {}).get("properties") or {}).keys())


def _words(tool: str, schema: Mapping[str, Any] | None) -> set[str]:
    """The roots of a tool's name and of its parameters' names."""
    words = set(name_words(tool))
    for parameter in _parameters(schema):
        words |= name_words(parameter)
    return _roots(words)


def _takes_a_date(parameter: str, spec: Any) -> bool:
    """Whether a parameter takes a date: its name says one, or its format is one."""
    if name_words(parameter) & _DATE_WORDS:
        return True
    return isinstance(spec, Mapping) and spec.get("format") in {"date", "date-time"}


def _dated(schema: Mapping[str, Any] | None) -> bool:
    """Whether a tool takes a date (:func:`_takes_a_date`)."""
    properties = (schema or {}).get("properties") or {}
    return any(_takes_a_date(parameter, spec) for parameter, spec in properties.items())


def _said(own: set[str], roots: frozenset[str], dated: bool) -> int:
    """How many of a tool's own words the question says, a date parameter counting as one
    when the question states a date."""
    return len(own & roots) + int(dated)


def asked_sibling(
    chosen: str,
    schemas: Mapping[str, Mapping[str, Any] | None],
    question: str,
) -> str | None:
    """The sibling of ``chosen`` the question asks for, when it says none of ``chosen``'s own.

    A sibling shares a word of its name with ``chosen`` (an action word such as "get" or
    "calculate" is no family). Against each sibling, each tool's own words are those of its
    name and parameter names that the other lacks; a date parameter the other lacks is one
    more when the question states a date. The sibling is named when the question says none of
    ``chosen``'s own words against it (and ``chosen`` has some) and at least one of its own,
    and no other sibling says as many. A question that asks more than one thing ("… and
    withdraw $1000", "Also provide the projected population") may ask for both tools:
    ``chosen`` stays.

    Args:
        chosen: The tool the model called.
        schemas: Each offered tool's parameters schema, by name.
        question: The user's question.

    Returns:
        The sibling's name, or ``None`` to keep ``chosen``.
    """
    family = _roots(name_words(chosen))
    if not family or chosen not in schemas or _MORE_ASKED.search(without_conditions(question)):
        return None
    roots = question_roots(question)
    stated_date = bool(dates_in(question))
    mine = _words(chosen, schemas[chosen])
    mine_dated = stated_date and _dated(schemas[chosen])
    scores: dict[str, int] = {}
    for tool, schema in schemas.items():
        if tool == chosen or not _roots(name_words(tool)) & family:
            continue
        theirs = _words(tool, schema)
        their_dated = stated_date and _dated(schema)
        own = mine - theirs
        if not own or _said(own, roots, mine_dated and not their_dated):
            continue  # nothing of the chosen tool's own, or the question says some of it
        said = _said(theirs - mine, roots, their_dated and not mine_dated)
        if said:
            scores[tool] = said
    if not scores:
        return None
    best = max(scores.values())
    leaders = [tool for tool, said in scores.items() if said == best]
    return leaders[0] if len(leaders) == 1 else None


def said_parameters(
    sibling: str, chosen: str, schemas: Mapping[str, Mapping[str, Any] | None], question: str
) -> list[str]:
    """The sibling's parameters that told it apart and that the question says: those
    ``chosen`` lacks whose names' words the question says, and a date parameter when the
    question states a date. The sibling's call must write them, optional or not ("the
    conversion rate … at January 1, 2022" is the dated rate's with its date).

    Args:
        sibling: The sibling :func:`asked_sibling` named.
        chosen: The tool the model called.
        schemas: Each offered tool's parameters schema, by name.
        question: The user's question.

    Returns:
        The parameters' names, in the schema's order.
    """
    roots = question_roots(question)
    dated = bool(dates_in(question))
    theirs = set(_parameters(schemas.get(chosen)))
    properties = (schemas.get(sibling) or {}).get("properties") or {}
    said: list[str] = []
    for parameter, spec in properties.items():
        if parameter in theirs:
            continue
        words = _roots(name_words(parameter))
        if words & roots or (dated and _takes_a_date(parameter, spec)):
            said.append(parameter)
    return said
