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

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.numbers import is_number, known_numbers, leaves
from toolkit.local.decision.records import root, word_roots

__all__ = [
    "best_fitting_tools",
    "own_values",
    "part_to_write",
    "question_parts",
    "restates",
    "states_value",
    "texts_of_its_own",
    "unasked_parts",
]

#: Where a question's next request begins: a sentence's end (a capital after it: "3000 sq
#: ft. in location New York" goes on), or a clause that opens with a word of sequence
#: ("then", "and finally", "Also,", "Secondly,").
_NEXT_PART = re.compile(
    r"(?<=[.?!])\s+(?=[\"'(]?(?-i:[A-Z0-9]))"
    r"|[,;]\s*(?:and\s+)?(?=(?:then|finally|lastly|also|additionally|afterwards|after that)\b)",
    re.IGNORECASE,
)


#: An abbreviation whose dot ends no sentence.
_ABBREVIATED = re.compile(r"\b(?:Inc|Corp|Ltd|Co|Mr|Mrs|Ms|Dr|St|Jr|Sr|No|vs)\.$")


def question_parts(question: str) -> list[str]:
    """The parts of a question in Latin letters, one per request it makes.

    Args:
        question: The user's question.

    Returns:
        The parts in order, without empty ones.
    """
    parts: list[str] = []
    for part in _NEXT_PART.split(question):
        if not part or not part.strip():
            continue
        if parts and _ABBREVIATED.search(parts[-1]):  # "Apple Inc. (AAPL)" goes on
            parts[-1] = f"{parts[-1]} {part.strip()}"
        else:
            parts.append(part.strip())
    return parts


def _tool_words(tool: str, schema: Mapping[str, Any] | None) -> set[str]:
    """The roots of a tool's name words (but action words) and its parameters' names."""
    names = [tool, *((schema or {}).get("properties") or {})]
    words = {w for n in names for w in re.findall(r"[a-z]{3,}", n.replace("_", " ").casefold())}
    return {root(w) for w in words if w not in ACTION_WORDS}


def best_fitting_tools(part: str, schemas: Mapping[str, Mapping[str, Any] | None]) -> list[str]:
    """The tools whose words (their names' but action words, their parameters' names) a part
    of a question says the most of; none when it says none.

    Args:
        part: A part of a question.
        schemas: Every offered tool's ``parameters`` schema, by name.

    Returns:
        The best-fitting tools, in the order given.
    """
    words = word_roots(part)
    fits = {name: len(_tool_words(name, schema) & words) for name, schema in schemas.items()}
    best = max(fits.values(), default=0)
    return [name for name, fit in fits.items() if fit == best] if best else []


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


#: A quoted text of two characters or more: 'Rock', "Tech Corp".
_QUOTED = re.compile(r"[\"'‘“]([^\"'’”]{2,})[\"'’”]")
#: A word in the Latin script (a capital may open it).
_LATIN_WORD = re.compile(r"[A-Za-z][\w'.-]*")


def _names(part: str) -> list[str]:
    """The runs of capitalised words past a part's first word ("I" and its contractions
    aside): "Yosemite National Park", "British Pounds"."""
    runs: list[list[str]] = []
    words = list(_LATIN_WORD.finditer(part))
    for before, word in itertools.pairwise(words):
        text = word.group()
        if not text[0].isupper() or text == "I" or text.startswith("I'"):
            continue
        joined = (
            runs and part[before.end() : word.start()] == " " and before.group() == runs[-1][-1]
        )
        if joined:
            runs[-1].append(text)
        else:
            runs.append([text])
    return [" ".join(run).rstrip(".,;:!?'\"\u2019") for run in runs]


def own_values(part: str) -> list[Any]:
    """The values a part of a question states of its own: its numbers, its quoted texts and
    the names it writes in capitals past its first word.

    Args:
        part: A part of a question (:func:`question_parts`).

    Returns:
        Those values: none of "Could you help me with a few tasks?", 3000, "British Pounds"
        and "Japanese Yen" of "Finally, I need to convert 3000 British Pounds to Japanese Yen."
    """
    numbers: list[Any] = sorted(known_numbers(part.casefold()))
    return [*numbers, *_QUOTED.findall(part), *_names(part)]


def _takes(value: Any, taken: Sequence[Any]) -> bool:
    """Whether a call's values take a part's own value: the number, or a text holding the
    text or held in it."""
    if isinstance(value, str):
        own = value.casefold()
        return any(
            isinstance(leaf, str)
            and len(leaf.strip()) >= 2
            and (own in leaf.casefold() or leaf.casefold().strip() in own)
            for leaf in taken
        )
    return any(is_number(leaf) and float(leaf) == float(value) for leaf in taken)


def unasked_parts(question: str, calls: Sequence[Mapping[str, Any]]) -> list[str]:
    """The parts of a question of several requests that no call asks yet: parts with values
    of their own (:func:`own_values`) that no call took all of, and that are no call's home
    — the part that states the most of a call's values, the earliest of equals. A call that
    took one value of another part by mistake ("permeability": 5, the electric field of the
    next request) does not ask that part.

    Args:
        question: The user's question.
        calls: The arguments of the calls made so far.

    Returns:
        Those parts in order; none when the question has one part.
    """
    parts = question_parts(question)
    if len(parts) < 2:
        return []
    taken = [leaf for arguments in calls for leaf in leaves(arguments)]
    homes = set()
    for arguments in calls:
        values = list(leaves(arguments))
        stated = [sum(states_value(part, v) for v in values) for part in parts]
        if max(stated) > 0:
            homes.add(stated.index(max(stated)))
    unasked = []
    for at, part in enumerate(parts):
        own = own_values(part)
        if at not in homes and own and not all(_takes(v, taken) for v in own):
            unasked.append(part)
    return unasked


def _choices(schema: Any) -> set[str]:
    """The texts a schema's enums offer, at any depth."""
    if isinstance(schema, Mapping):
        found = {v.casefold() for v in schema.get("enum") or [] if isinstance(v, str)}
        return found.union(*(_choices(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_choices(v) for v in schema))
    return set()


def restates(arguments: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a call of a tool takes the very numbers of an earlier call of that tool: the
    same request with its texts written another way ("Apple Inc" for "AAPL", both with
    $5000 at 7% over 5 years).

    Args:
        arguments: The call's arguments.
        earlier: The arguments of the earlier calls of its tool.

    Returns:
        True when it has numbers and an earlier call has the same ones.
    """
    numbers = sorted(float(v) for v in leaves(arguments) if is_number(v))
    if not numbers:
        return False
    return any(
        sorted(float(v) for v in leaves(other) if is_number(v)) == numbers for other in earlier
    )


def texts_of_its_own(
    part: str, arguments: Mapping[str, Any], question: str, schema: Mapping[str, Any] | None
) -> bool:
    """Whether every text a call writes is one of a part's own values (:func:`own_values`),
    a choice its tool's schema offers, or a text the question does not write — not some
    other phrase of the part ("You want the slope").

    Args:
        part: A part of the question.
        arguments: The call's arguments.
        question: The whole question.
        schema: The tool's ``parameters`` schema.

    Returns:
        True when it is.
    """
    own = [v for v in own_values(part) if isinstance(v, str)]
    choices = _choices(schema)
    for leaf in leaves(arguments):
        if not isinstance(leaf, str) or leaf.casefold() not in question.casefold():
            continue
        if leaf.casefold() not in choices and not _takes(leaf, own):
            return False
    return True


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
        return len(words & word_roots(parts[at]))

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
