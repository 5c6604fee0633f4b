"""Which of the tools that take one name the question's asked words fit. Pure.

Offered ``terrace_visiting_hours(terrace)`` beside ``tea_terrace_record(terrace)`` and
``ferry_hours(line)``, and asked "What are the visiting hours at Cloudstep Terrace, Jadefold
Terrace and Misty Ridge Terrace?", the small model looked the terraces up in the record tool and
the ferry timetable; asked "How many more crossings a day does the Heronsgate Ferry make …?", it
asked the ferry's timetable, though only the line's record tells its crossings. The words a
question asks with, once the names it gives are taken out, say which tool's answer it wants: the
words of each tool's name and description but those of the thing it looks up (its parameter's
words: a terrace, a luthier) and but those another such tool says as well ("hours", "day"). The
tool the question's words fit is the one that alone says some of them while the others say
none; a Chinese question is read through its words' English glosses (首班 "first", 几点 "what
time").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from toolkit.local.decision.grounding import FUNCTION_WORDS
from toolkit.local.decision.kinds import glossed_terms
from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.phrases import writes_spaceless
from toolkit.local.decision.records import root

__all__ = ["asked_terms", "fitting_tool", "one_name_tools"]

#: Words any description or question may say, of no subject: what a tool returns, how a
#: question asks.
_PLAIN_WORDS = frozenset(
    "return returns given about that what which when where who whom whose how why their them "
    "each name names value values number numbers kind list information detail details data "
    "tool function query current have has does did will would your you our more most less "
    "least many much some any all record records string text line lines format full short "
    "chinese english lookup look give tell want like know can could please also there here "
    "between compared compare than same other another two three both".split()
)
#: The spans a rate is counted per ("crossings per day", "what time of the day"): said by
#: many tools' answers alike, they tell none of them apart.
_PERIOD_TERMS = frozenset(
    root(w) for w in "day days daily week weekly month monthly year years yearly annual".split()
)
#: A docstring's section headings; the parameters' section is left out, the result's kept.
_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Returns|Raises|Yields|Example[s]?):\s*$")


def _terms(text: str) -> set[str]:
    """The roots of a text's words of three letters or more but the plain ones."""
    words = re.findall(r"[a-z]{3,}", text.casefold())
    skipped = _PLAIN_WORDS | ACTION_WORDS | FUNCTION_WORDS
    return {root(w) for w in words if w not in skipped}


def _sections(description: str) -> tuple[str, str]:
    """A docstring's text but its parameters' section, and that section."""
    kept: list[str] = []
    arguments: list[str] = []
    into = kept
    for line in description.splitlines():
        heading = _SECTION.match(line)
        if heading is not None:
            into = arguments if heading.group(1) in {"Args", "Arguments", "Parameters"} else kept
            continue
        into.append(line)
    return "\n".join(kept), "\n".join(arguments)


def one_name_tools(schemas: Mapping[str, Any]) -> dict[str, str]:
    """The tools that take one thing's name or place alone: one required parameter, a
    string, and no other; each with that parameter.

    Args:
        schemas: Each offered tool's ``parameters`` schema, by name.

    Returns:
        Tool name -> parameter name.
    """
    found: dict[str, str] = {}
    for tool, schema in schemas.items():
        properties = (schema or {}).get("properties") or {}
        required = list((schema or {}).get("required") or [])
        if len(required) == 1 and len(properties) == 1 and required[0] in properties:
            if (properties[required[0]] or {}).get("type") == "string":
                found[tool] = required[0]
    return found


@functools.cache
def _own_terms(
    tool: str, key: str, description: str, described: str
) -> tuple[frozenset[str], frozenset[str]]:
    """What a tool says of its answer, in its name and in its ``description``: their terms but
    those of the thing it takes (the parameter's name and what its own description,
    ``described``, says of it) and those of a span of time. Read once per tool, as every
    call the turn judges asks again."""
    said, arguments = _sections(description)
    taken = _terms(key.replace("_", " ")) | _terms(described) | _PERIOD_TERMS
    for line in arguments.splitlines():
        if re.match(rf"\s*{re.escape(key)}\b", line):
            taken |= _terms(line)
    named = _terms(tool.replace("_", " ")) - taken
    return frozenset(named), frozenset(_terms(said) - taken - named)


def _described(schema: Mapping[str, Any] | None, key: str) -> str:
    """What a parameter's own description says (``"None"`` when it has none)."""
    return str((((schema or {}).get("properties") or {}).get(key) or {}).get("description"))


def asked_terms(question: str, names: Iterable[str], tools: Iterable[str] = ()) -> set[str]:
    """The terms a question asks with, the names it gives taken out: its words' roots, or a
    Chinese question's words' English glosses
    (:func:`~toolkit.local.decision.kinds.glossed_terms`).

    Args:
        question: The user's question.
        names: The names to take out (the values the calls look up).
        tools: The tools whose kind words name a thing rather than ask.

    Returns:
        The terms.
    """
    text = question
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        text = re.sub(re.escape(name.strip()), " ", text, flags=re.IGNORECASE)
    if writes_spaceless(text):
        return set(glossed_terms(text, tools))
    return _terms(text)


def fitting_tool(
    asked: set[str],
    tools: Mapping[str, str],
    descriptions: Mapping[str, str | None],
    schemas: Mapping[str, Any],
    *,
    names_only: bool = False,
) -> str | None:
    """The tool among ``tools`` that the asked terms fit best, alone: each scores by the
    asked terms that its own words (:func:`_own_terms`) say and no other tool's do, a word of
    its name counting twice one of its description.

    Args:
        asked: The question's asked terms (:func:`asked_terms`).
        tools: The candidate tools, each with the parameter it takes the name in.
        descriptions: Each tool's description.
        schemas: Each tool's ``parameters`` schema.
        names_only: Count only the words of the tools' names (a Chinese question's glosses
            are many and loose; a description would match some of them by chance).

    Returns:
        The tool, or ``None`` when none fits or several fit best.
    """
    own = {
        t: _own_terms(t, key, descriptions.get(t) or "", _described(schemas.get(t), key))
        for t, key in tools.items()
    }
    scores: dict[str, int] = {}
    for tool, (named, said) in own.items():
        others = set().union(*(n | s for t, (n, s) in own.items() if t != tool))
        scores[tool] = 2 * len((named - others) & asked)
        if not names_only:
            scores[tool] += len((said - others) & asked)
    best = max(scores.values(), default=0)
    top = [t for t, n in scores.items() if n == best]
    return top[0] if best > 0 and len(top) == 1 else None
