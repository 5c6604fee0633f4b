"""What the question states that the call wrote otherwise, or left out. Pure.

"Find a ride from New York to Philadelphia with maximum cost of $50" was called
``get_rides(source="New York", destination="Philadelphia")``: ``max_cost`` is optional, and
the small model leaves optional parameters out as often as it fills them with guesses. The
question says the parameter's words right before a number no argument took ("maximum cost of
$50"): that number is the parameter's. :func:`stated_optionals` adds it.

A choice the schema offers is the question's when the question says it: asked for "a Spicy
Indian restaurant", the model chose ``category="Spanish"`` of an ``enum`` that offers
"Indian" (:func:`stated_choices`). A name the model misspelt is the question's too:
``id="zwzzeem"`` for "host agent zzwzeem" (:func:`stated_spellings`). A yes-or-no the
question says is the question's: "Ensure it's archived after closure" is ``archive=True``,
"close it without archiving" ``archive=False`` (:func:`stated_flags`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.decision.numbers import numbers_of, plain_number
from toolkit.local.decision.records import name_words, root

__all__ = [
    "said_flags",
    "stated_choices",
    "stated_flags",
    "stated_optionals",
    "stated_spellings",
]

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


def _roots(text: str) -> set[str]:
    return {root(w.casefold()) for w in _WORD.findall(text)}


def _said_whole(option: str, said: set[str]) -> bool:
    """Whether every word of an option (by its root) is among the question's."""
    words = _roots(option)
    return bool(words) and words <= said


def stated_choices(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, question: str
) -> dict[str, Any] | None:
    """The arguments with each offered choice the question does not say replaced by the one
    it says.

    A text argument whose parameter offers choices (an ``enum`` of texts) and whose value
    the question does not say (every word of it, by its root) takes the one choice the
    question does say, when there is exactly one, and no other argument holds its words
    ("Spicy Indian restaurant" makes ``category="Spanish"`` "Indian"; "a drama film" is no
    reason to change a ``show_type``, whose choices it does not say).

    Args:
        arguments: The call's arguments.
        schema: The tool's parameters schema.
        question: The user's question.

    Returns:
        The arguments with the choices replaced, or ``None`` when none is.
    """
    properties = (schema or {}).get("properties") or {}
    said = _roots(question)
    changed: dict[str, Any] = {}
    for key, value in arguments.items():
        spec = properties.get(key)
        options = spec.get("enum") if isinstance(spec, Mapping) else None
        if not isinstance(value, str) or not isinstance(options, list) or len(options) < 2:
            continue
        if not all(isinstance(o, str) for o in options) or _said_whole(value, said):
            continue
        others = set().union(*(_roots(str(v)) for k, v in arguments.items() if k != key))
        stated = [o for o in options if _said_whole(o, said) and not _roots(o) & others]
        if len(stated) == 1:
            changed[key] = stated[0]
    return {**arguments, **changed} if changed else None


#: The shortest word a misspelling is read in: shorter ones are other words.
_SPELLED = 5


def _one_slip(a: str, b: str) -> bool:
    """Whether two words of one length differ by one letter or two neighbours swapped."""
    if len(a) != len(b) or a == b:
        return False
    wrong = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(wrong) == 1:
        return True
    i, j = wrong if len(wrong) == 2 else (0, 0)
    return j == i + 1 and a[i] == b[j] and a[j] == b[i]


def stated_spellings(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, question: str
) -> dict[str, Any] | None:
    """The arguments with each word the model misspelt written as the question writes it.

    A word of a text argument the question does not write, of at least :data:`_SPELLED`
    Latin letters or digits, that is one letter or one swap of neighbours away from exactly
    one word the question writes, is that word ("zwzzeem" for "zzwzeem"); the schema's
    offered values are left as they are.

    Args:
        arguments: The call's arguments.
        schema: The tool's parameters schema.
        question: The user's question.

    Returns:
        The arguments with the words replaced, or ``None`` when none is.
    """
    properties = (schema or {}).get("properties") or {}
    written = set(re.findall(r"[\w-]+", question))
    folded = {w.casefold() for w in written}
    changed: dict[str, Any] = {}
    for key, value in arguments.items():
        spec = properties.get(key)
        if not isinstance(value, str) or (isinstance(spec, Mapping) and "enum" in spec):
            continue
        new = value
        for word in set(re.findall(r"[\w-]+", value)):
            if len(word) < _SPELLED or not word.isascii() or word.casefold() in folded:
                continue
            near = {w for w in written if _one_slip(word.casefold(), w.casefold())}
            if len(near) == 1:
                new = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", near.pop(), new)
        if new != value:
            changed[key] = new
    return {**arguments, **changed} if changed else None


#: Words that say a flag is off when they come shortly before its words.
_NEGATIONS = frozenset(
    "not no don't dont doesn't doesnt isn't isnt aren't arent won't wont never without "
    "exclude excluding except nor neither avoid skip n't".split()
)
#: How many words before a flag's words a negation turns it off ("don't send out any
#: notifications").
_NEGATION_WINDOW = 4
#: Words of flag names that say nothing of what the flag is.
_FLAG_BLAND = frozenset({"is", "has", "have", "include", "includes", "with", "allow", "enable"})


def _flag_values(spec: Any) -> tuple[Any, Any] | None:
    """A flag parameter's on and off values: ``True``/``False``, or the texts "True"/"False"
    of an ``enum`` that offers both (beside "dontcare"); ``None`` for other parameters."""
    if not isinstance(spec, Mapping):
        return None
    if spec.get("type") == "boolean":
        return True, False
    options = spec.get("enum")
    if isinstance(options, list) and all(isinstance(o, str) for o in options):
        folded = {o.casefold(): o for o in options}
        if {"true", "false"} <= set(folded) and set(folded) <= {"true", "false", "dontcare"}:
            return folded["true"], folded["false"]
    return None


def stated_flags(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, question: str
) -> dict[str, Any] | None:
    """The arguments with each yes-or-no the question says for its parameter.

    A flag parameter (a ``boolean``, or an ``enum`` of "True" and "False") is said by the
    question when every word of its name that says what it is (by its root; not "is",
    "has", "include": ``archive`` of "archived", ``has_seating_outdoors`` of "outdoor
    seating") is among the question's words, all within one sentence; it is said off when a
    negation comes among the :data:`_NEGATION_WINDOW` words before the first of them, with
    no number or comma between ("don't archive it"; not "Case No 28473 and 64725, their
    history"), else on. A flag the question says is written so, whether the call wrote it
    otherwise or left it out.

    Args:
        arguments: The call's arguments.
        schema: The tool's parameters schema.
        question: The user's question.

    Returns:
        The arguments with the flags set, or ``None`` when none changes.
    """
    changed = {k: v for k, v in said_flags(schema, question).items() if arguments.get(k) != v}
    return {**arguments, **changed} if changed else None


def said_flags(schema: Mapping[str, Any] | None, text: str) -> dict[str, Any]:
    """The flag parameters a text says, each with the value it says (:func:`stated_flags`).

    Args:
        schema: The tool's parameters schema.
        text: The question (or the conversation's text).

    Returns:
        Parameter -> its value as the text says it.
    """
    properties = (schema or {}).get("properties") or {}
    sentences = [text[a:b] for a, b in _sentences(text)]
    found: dict[str, Any] = {}
    for key, spec in properties.items():
        values = _flag_values(spec)
        words = {root(w) for w in name_words(key)} - {root(w) for w in _FLAG_BLAND}
        if values is None or not words:
            continue
        said = [on for sentence in sentences if (on := _said_flag(sentence, words)) is not None]
        if len(set(said)) == 1:  # said, and said one way
            found[key] = values[0] if said[0] else values[1]
    return found


def _said_flag(sentence: str, words: set[str]) -> bool | None:
    """Whether a sentence says a flag's words on (``True``), off (``False``), or not at all."""
    tokens = re.findall(r"[^\W\d_]+(?:'t)?|\d+|[,;:()]", sentence.casefold())
    roots = [root(t) for t in tokens]
    if not words <= set(roots):
        return None
    first = min(roots.index(w) for w in words)
    before = tokens[max(0, first - _NEGATION_WINDOW) : first]
    while before and any(not t.isalpha() and "'" not in t for t in before):
        before = before[1:]  # a number or a comma ends the words that may negate it
    return not any(t in _NEGATIONS or t.endswith("n't") for t in before)
