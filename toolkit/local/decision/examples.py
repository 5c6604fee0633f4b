"""Argument values that borrow from a description's example instead of the user's words. Pure.

A parameter's description often shows a value's shape by example — "the location, in the
format of 'City, State (abbr)', such as 'San Francisco, CA'" — and the small model copies the
example's parts into the user's value: "Tel Aviv, CA", "上海, CA", "Boston, CA". A text value
*borrows* a word when the word belongs to a quoted example of its parameter's description,
the conversation never says it, and the value does not hold that example whole (asked about
San Francisco, "San Francisco, CA" is the example itself, and may well be right).
:func:`borrowed_words` finds such words; the decoder then writes the call again with them
excluded from its strings (:func:`toolkit.local.format.grammar.calls_grammar`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolkit.local.decision.grounding import occurs

__all__ = ["borrowed_words", "example_format", "quoted_examples", "unshaped_values", "words_of"]

#: A quoted example in a description: 'San Francisco, CA' or "New York, NY" (an apostrophe
#: inside a word, as in "the user's", opens and closes nothing).
_QUOTED = re.compile(r"(?<![^\W_])'([^'\n]{2,80})'(?![^\W_])|\"([^\"\n]{2,80})\"")
#: The words of a value or an example: runs of letters and digits.
_WORD = re.compile(r"[^\W_]+")


def words_of(value: str) -> list[str]:
    """The words of a value, as :func:`borrowed_words` counts them: runs of letters and digits.

    Args:
        value: A text value.

    Returns:
        The words, in order.
    """
    return _WORD.findall(value)


def quoted_examples(description: Any) -> list[str]:
    """The quoted strings of a description, in order.

    Args:
        description: A schema's ``description`` (anything else has none).

    Returns:
        The examples, without their quotes.
    """
    if not isinstance(description, str):
        return []
    return [m.group(1) or m.group(2) for m in _QUOTED.finditer(description)]


def _texts(
    value: Any, schema: Mapping[str, Any], name: str = ""
) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    """Each free-text string of a value with the schema it was written for (enums excluded)
    and the name of its parameter."""
    if isinstance(value, str):
        if not schema.get("enum") and "const" not in schema:
            yield value, schema, name
    elif isinstance(value, list):
        items = schema.get("items")
        for item in value:
            yield from _texts(item, items if isinstance(items, Mapping) else {}, name)
    elif isinstance(value, Mapping):
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        for key, item in value.items():
            sub = properties.get(key)
            yield from _texts(item, sub if isinstance(sub, Mapping) else {}, str(key))


def _kind_words(name: str, description: Any) -> set[str]:
    """The words a parameter's name and its description outside the examples say: the kind
    of value asked for ("observatory" of 'The observatory's name, e.g. "Saltmarsh
    Observatory"'), which an example shares with every value of its kind."""
    said = _QUOTED.sub(" ", description) if isinstance(description, str) else ""
    words = _WORD.findall(f"{name.replace('_', ' ')} {said}")
    return {w.casefold() for w in words} | {w.casefold().removesuffix("s") for w in words}


def borrowed_words(
    arguments: Mapping[str, Any],
    parameters: Mapping[str, Any] | None,
    text: str,
    *,
    whole: bool = False,
    described: Any = None,
) -> list[str]:
    """The words a call's text values borrow from their descriptions' examples.

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema.
        text: :func:`~toolkit.local.decision.grounding.conversation_text` of the conversation.
        whole: Count the words of a value that holds an example whole too, unless the
            conversation says a word of that example (``get_height("Everest")`` asked about
            Mount Fuji, after 'e.g. "Everest"') other than the words of its kind, which the
            parameter's name or description say ("Saltmarsh Observatory" asked about the
            Kestrel Peak Observatory). Without it such a value borrows nothing: it may be
            right ("San Francisco, CA" asked about San Francisco).
        described: The tool's description, whose quoted examples count for every text value
            (a docstring's ``Args:`` section kept whole in the description, as LangChain's
            ``@tool`` keeps it unless told to parse it).

    Returns:
        The borrowed words as the call wrote them, sorted (empty when none is).
    """
    found: set[str] = set()
    for value, schema, name in _texts(
        arguments, {"properties": (parameters or {}).get("properties")}
    ):
        kind = _kind_words(name, schema.get("description")) | _kind_words("", described)
        examples = [*quoted_examples(schema.get("description")), *quoted_examples(described)]
        for example in examples:
            own = {word.casefold() for word in _WORD.findall(example)}
            named = own - kind  # the example's own name, not the words of its kind
            if example in value and (not whole or any(occurs(w, text) for w in named or own)):
                continue
            for word in _WORD.findall(value):
                if word.casefold() in own and not occurs(word.casefold(), text):
                    found.add(word)
    return sorted(found)


#: An example of a place with its region: "Berkeley, CA", "Paris, FR", "Paris, France".
_PLACE = re.compile(r"[^\W\d_][^,]*, (?:(?P<code>[A-Z]{2})|[A-Z][a-z]+(?: [A-Z][a-z]+)*)")
#: A format written out, not an example: 'City, State', 'City, Country', 'City, State (abbr)'.
_TEMPLATE = re.compile(
    r"(?:city|town|place|location|name)\s*,\s*(?:state|country|province|region|county)\b.*",
    re.IGNORECASE,
)
#: A format whose region is named, not coded: 'City, Country'.
_NAMED_REGION = re.compile(r",\s*(?:country|province|region|county)\b", re.IGNORECASE)
#: What a value of each place format matches.
_FORMATS = {
    "x-place-code": re.compile(r"[^\",]+, [A-Z]{2}"),
    "x-place-name": re.compile(r"[^\",]+, [A-Z][a-z]+(?: [A-Z][a-z]+)*"),
    "x-place-code-or-name": re.compile(r"[^\",]+, (?:[A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)*)"),
}


def example_format(description: Any) -> str | None:
    """The shape every quoted example of a description shares, as a string format of the
    calls grammar (:data:`~toolkit.local.format.json_grammar.STRING_FORMATS`): a place and its
    region's code ("in the format of 'City, State', such as 'Berkeley, CA' or 'New York,
    NY'"), its region's name ('Paris, France'), or either.

    Args:
        description: A parameter's description.

    Returns:
        ``x-place-code``, ``x-place-name`` or ``x-place-code-or-name``; ``None`` when the
        description quotes no example or one of another shape.
    """
    quoted = quoted_examples(description)
    examples = [e for e in quoted if not _TEMPLATE.fullmatch(e)]
    matches = [_PLACE.fullmatch(example) for example in examples]
    if not matches or not all(matches):
        return None
    codes = {m.group("code") is not None for m in matches if m}
    if any(_NAMED_REGION.search(e) for e in quoted if _TEMPLATE.fullmatch(e)):
        codes.add(False)  # 'City, Country': a country is written by its name
    if codes == {True}:
        return "x-place-code"
    return "x-place-name" if codes == {False} else "x-place-code-or-name"


def unshaped_values(
    arguments: Mapping[str, Any], parameters: Mapping[str, Any] | None
) -> dict[str, str]:
    """The top-level text values of a call that lack the shape their parameter's examples
    share (:func:`example_format`): "Pleasanton" or "San Jose, California" where every
    example reads 'Berkeley, CA'.

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema.

    Returns:
        ``{parameter: format}`` for each such value.
    """
    properties = (parameters or {}).get("properties") or {}
    found: dict[str, str] = {}
    for key, value in arguments.items():
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        if not isinstance(value, str) or not isinstance(schema, Mapping) or schema.get("enum"):
            continue
        shape = example_format(schema.get("description"))
        if shape is not None and not _FORMATS[shape].fullmatch(value.strip()):
            found[key] = shape
    return found
