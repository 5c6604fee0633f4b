"""The form a call's values take: a percentage as the parameter wants it, a span without the
words another argument or the parameter's own name holds.

The small model copies the user's words and numbers as they stand. "An annual interest rate
of 5%" becomes ``interest_rate=5`` where a rate is a fraction (0.05); "property records in
Santa Clara county" becomes ``county="Santa Clara county"``; "C sharp major" becomes
``key="C sharp major"`` beside ``scale_type="major"``. Each value is grounded — the user
said it — but its form is not what the parameter asks for. These functions are pure: they
read the call, the tool's schema and the conversation, and return the arguments rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.decision.dates import recopied_date
from toolkit.local.decision.records import name_parts, stem

__all__ = [
    "in_hemisphere_signs",
    "in_percent_form",
    "in_stated_dates",
    "stated_percentages",
    "without_dangling_joints",
    "without_other_spans",
    "without_parameter_word",
    "without_possessive",
]

#: A percentage as a text writes it: "5%", "4.5 %", "7 percent", "2 per cent".
_PERCENT = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b|pour cent\b)", re.I)
#: A description that asks for a fraction: "as a decimal", "in decimal form", "e.g. 0.05".
_FRACTION_CUE = re.compile(
    r"\bas a decimal\b|\bin decimal\b|\bdecimal form\b|\bfraction\b|\b0\.\d*[1-9]"
)
#: A description (or name) that asks for a percentage: "in percentage", "percent", "%".
_PERCENT_CUE = re.compile(r"percent|porcentaje|pourcentage|%")
#: A name or description of a quantity usually stated in percent: a rate, a yield, a share.
_RATE_CUE = re.compile(r"rate|percent|yield|return|interest|probab|ratio|share|growth|discount")
#: Words joining a value to the one it qualifies: "Act of 2013", "sculptures in Paris".
_JOINERS = ("of", "in", "for", "from", "at")


def stated_percentages(text: str) -> set[float]:
    """The numbers a text states as percentages ("5%", "2.5 percent")."""
    return {float(m.group(1)) for m in _PERCENT.finditer(text)}


def _stated_plain(text: str, number: float) -> bool:
    """Whether the text also states ``number`` other than as a percentage ("5 years")."""
    plain = r"(?<![\d.])(\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:%|percent|per cent))"
    return any(float(match.group(1)) == number for match in re.finditer(plain, text))


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if isinstance(kind, str) else set()


def _wants_fraction(key: str, schema: Mapping[str, Any]) -> bool:
    """Whether a ``number`` parameter takes a percentage as a fraction: unless its description
    (or name) says it is in percent, it does ("The annual interest rate." takes 0.05); a
    description that asks for a decimal says so even when its example shows a "%"."""
    description = str(schema.get("description") or "").casefold()
    if _FRACTION_CUE.search(description):
        return True
    return not _PERCENT_CUE.search(f"{key.casefold()} {description}")


def _number_form(
    value: Any, key: str, schema: Mapping[str, Any], text: str, percents: set[float]
) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value == 0:
        return value
    if "number" not in _types(schema):
        return value  # an integer parameter takes the percentage as the number stated
    fraction = _wants_fraction(key, schema)
    stated, shrunk = float(value), round(float(value) / 100, 12)
    grown = round(float(value) * 100, 9)
    if fraction and stated in percents:
        ratey = _RATE_CUE.search(f"{key} {schema.get('description') or ''}".casefold())
        if _stated_plain(text, stated) and not ratey:
            return value  # "5 years" as much as "5%": the number may be the years
        return shrunk
    if not fraction and grown in percents and stated not in percents:
        return int(grown) if grown == int(grown) else grown
    return value


def in_percent_form(
    arguments: Mapping[str, Any], parameters: Mapping[str, Any] | None, text: str
) -> dict[str, Any]:
    """A call's arguments with each percentage the conversation states written in the form its
    parameter takes.

    A ``number`` parameter takes a percentage as a fraction ("an annual interest rate of 5%" is
    ``interest_rate=0.05``) unless its description or name says it is in percent ("The volume
    level as a percentage" keeps 30); an ``integer`` parameter takes the number stated. A value
    the text also states plainly ("5 years" and "5%") is rewritten only for a parameter of a
    rate, a yield, a share or the like. Objects and arrays are read inside too.

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema.
        text: The conversation's text (the question and the results).

    Returns:
        The arguments, rewritten where a percentage was in the other form.
    """
    percents = stated_percentages(text)
    if not percents:
        return dict(arguments)
    return _percent_object(arguments, parameters or {}, text, percents)


def _percent_object(
    arguments: Mapping[str, Any], parameters: Mapping[str, Any], text: str, percents: set[float]
) -> dict[str, Any]:
    properties = parameters.get("properties") or {}
    written: dict[str, Any] = {}
    for key, value in arguments.items():
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        written[key] = _percent_value(value, key, schema, text, percents)
    return written


def _percent_value(value: Any, key: str, schema: Any, text: str, percents: set[float]) -> Any:
    if not isinstance(schema, Mapping):
        return value
    if isinstance(value, Mapping) and schema.get("properties"):
        return _percent_object(value, schema, text, percents)
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [_percent_value(item, key, schema["items"], text, percents) for item in value]
    return _number_form(value, key, schema, text, percents)


def _words(text: str) -> list[str]:
    return text.split()


def _name_words(key: str) -> set[str]:
    """A one-word parameter name and its singular: ``"county"`` of ``county``, ``"finish"``
    of ``finish``. A name of several words names no kind of its value: "constitutional law"
    is a ``field_of_law`` whole."""
    parts = name_parts(key)
    if len(parts) != 1:
        return set()
    word = parts[0].casefold()
    return {word, word[:-1]} if word.endswith("s") and len(word) > 3 else {word}


def _quoted(value: str, text: str) -> bool:
    """Whether the text quotes the value as it stands ('Hotel Le Bristol Paris')."""
    escaped = re.escape(value)
    return re.search(rf"['\"‘“«]{escaped}['\"’”»]", text, re.I) is not None


def _lower_at_end(value: str, words: list[str], text: str) -> bool:
    """Whether the value's last words are numbers, or lower case where the text writes the
    value ("major" of "C sharp major", "county" of "Santa Clara county") — not a proper
    name's ("Lake" of "Crater Lake", though the text says "which lake" elsewhere)."""
    if all(re.fullmatch(r"[\d.,]+", w) for w in words):
        return True
    found = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.I)
    written = found.group(0) if found is not None else value
    end = " ".join(written.split()[-len(words) :])
    return end.casefold() == " ".join(words).casefold() and end == end.lower()


def _trim_end(value: str, tail: list[str]) -> str | None:
    """``value`` without ``tail`` (and a joining word before it) at its end; ``None`` when it
    does not end so, or nothing would be left."""
    words = _words(value)
    n = len(tail)
    ending = [w.casefold().strip(",.") for w in words[-n:]]
    if len(words) <= n or ending != [t.casefold() for t in tail]:
        return None
    kept = words[:-n]
    if kept and kept[-1].casefold() in _JOINERS:
        kept = kept[:-1]
    if not kept or kept[-1].endswith(","):
        return None  # "New York, NY": a comma joins parts of one value
    return " ".join(kept)


_ARTICLE = re.compile(r"(?i)(the|a|an)\s+(.+)")


def _without_article(value: str, text: str) -> str:
    """The value without a leading article the model wrote in capitals where the text writes
    it in lower case ("The theory of relativity" for "the theory of relativity"); an article
    a name keeps ("of The Coca-Cola Company", capital mid-sentence) stays."""
    found = _ARTICLE.fullmatch(value)
    if found is None:
        return value
    rest = found.group(2)
    pattern = rf"(?<!\w)(\w+\s+)?({found.group(1)})\s+{re.escape(rest)}(?!\w)"
    lower = named = False
    for match in re.finditer(pattern, text, re.I):
        article = match.group(2)
        lower = lower or article.islower()
        named = named or (article[0].isupper() and bool(match.group(1)))
    return rest if lower and not named else value


def without_other_spans(
    arguments: Mapping[str, Any], parameters: Mapping[str, Any] | None, text: str
) -> dict[str, Any]:
    """A call's top-level text values without the words that another argument holds or that
    are the parameter's one-word name, and without a leading article the text writes in lower case
    ("The theory of relativity" for "the theory of relativity").

    "Criminal Law Amendment Act of 2013" beside ``amendment_year=2013`` is
    ``act_name="Criminal Law Amendment Act"``; "C sharp major" beside ``scale_type="major"`` is
    ``key="C sharp"``; "Santa Clara county" for ``county`` is "Santa Clara". The words are taken
    off only at the value's end and only when they are numbers or lower case where the text
    writes the value — a proper name holds a place's name ("Hotel Le Bristol Paris" beside
    ``location="Paris"``, "Salt Lake City" for ``city``) — and a value
    the text quotes as it stands is kept whole. A comma-joined part ("New York, NY") is never
    taken off.

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema (its properties' types).
        text: The conversation's text.

    Returns:
        The arguments, with the text values trimmed.
    """
    properties = (parameters or {}).get("properties") or {}
    written = dict(arguments)
    for key, value in arguments.items():
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        if not isinstance(value, str) or not isinstance(schema, Mapping) or schema.get("enum"):
            continue
        if "string" not in _types(schema) or _quoted(value, text) or len(_words(value)) < 2:
            continue
        trimmed = _without_article(value, text)
        for other, held in arguments.items():
            if other == key or isinstance(held, bool) or not isinstance(held, (str, int, float)):
                continue
            tail = _words(str(held))
            if not tail or len(tail) >= len(_words(trimmed)):
                continue
            if _lower_at_end(trimmed, tail, text):
                trimmed = _trim_end(trimmed, tail) or trimmed
        for word in _name_words(key):
            if _lower_at_end(trimmed, [word], text):  # "Santa Clara county", not "Crater Lake"
                trimmed = _trim_end(trimmed, [word]) or trimmed
        if trimmed != value:
            written[key] = trimmed
    return written


#: A list's joint left at a spaceless value's end or start ("泰萨利钢琴工坊和" of "泰萨利钢琴工坊和
#: 马罗比钢琴工坊合计…").
_DANGLING = re.compile(r"^[和与及或、，,]+|[和与及或、，,]+$")
#: A character of a script written without spaces.
_SPACELESS = re.compile(r"[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]")


def without_dangling_joints(arguments: Mapping[str, Any], text: str) -> dict[str, Any]:
    """A call's top-level text values in a script written without spaces, without a list's
    joint (和, 与, 及, 或, 、) the model copied from the text with them, at their end or
    start: "泰萨利钢琴工坊和" of "泰萨利钢琴工坊和马罗比钢琴工坊合计有多少名工匠？" is
    "泰萨利钢琴工坊". What is left must be three characters or more ("保和" stays).

    Args:
        arguments: The call's arguments.
        text: The conversation's text.

    Returns:
        The arguments, with such values trimmed.
    """
    written = dict(arguments)
    for key, value in arguments.items():
        if not isinstance(value, str) or not _SPACELESS.search(value):
            continue
        trimmed = _DANGLING.sub("", value.strip())
        if trimmed == value or len(trimmed) < 3:
            continue
        if value.strip() in text:  # the span copied with the joint that follows or leads it
            written[key] = trimmed
    return written


def without_parameter_word(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, text: str
) -> dict[str, Any]:
    """A call's top-level text values without the word of their parameter's name the model
    copied after them from the text, where the text writes that word in lower case:
    ``cuisine="Chinese cuisine"`` is "Chinese", ``order="ascending order"`` "ascending". In
    capitals the word is the name's own ("Premier League" for ``league``, "Mexico City" for
    ``city``) and stays; so does a value left outside the parameter's ``enum``.

    Args:
        arguments: The call's arguments.
        schema: The tool's ``parameters`` schema.
        text: The conversation's text.

    Returns:
        The arguments, with such values trimmed.
    """
    properties = (schema or {}).get("properties") or {}
    written = dict(arguments)
    for key, value in arguments.items():
        prop = properties.get(key) or {}
        if not isinstance(value, str) or prop.get("type") not in (None, "string"):
            continue
        word = re.split(r"[_\W]+", key.strip("_"))[-1]
        if len(word) < 3:
            continue
        match = re.fullmatch(rf"(?P<rest>.*\S)\s+{re.escape(word)}s?", value.strip(), re.I)
        if match is None:
            continue
        rest = match.group("rest").strip()
        said = re.search(rf"{re.escape(rest)}\s+(?P<word>{re.escape(word)}s?)\b", text, re.I)
        if said is None or not said.group("word")[0].islower():
            continue  # in capitals the word is the name's own: "Premier League", "Mexico City"
        enum = prop.get("enum")
        if enum is not None and rest not in enum:
            continue
        written[key] = rest
    return written


#: A name written with the possessive it has in the text ("Kestrow Chess Club's").
_POSSESSIVE = re.compile(r"(?P<name>\S+(?:\s+\S+)+?)['’]s$")


def without_possessive(
    arguments: Mapping[str, Any], key: str | None, kind: set[str], text: str
) -> dict[str, Any]:
    """A lookup's name copied with its possessive ("Whose top player is rated higher,
    Vellacott Chess Club's or Kestrow Chess Club's?") without it, when the name of two words
    or more then ends with a word of its tool's kind ("club" of ``lookup_chess_club``):
    "Kestrow Chess Club". "Trader Joe's" keeps its "'s".

    Args:
        arguments: The call's arguments.
        key: The parameter the tool takes a name in (``None``: no lookup by name).
        kind: The words of the tool's name.
        text: The conversation's text.

    Returns:
        The arguments, with such a name bare.
    """
    value = arguments.get(key) if key is not None else None
    if not isinstance(value, str):
        return dict(arguments)
    possessive = _POSSESSIVE.fullmatch(value.strip())
    if possessive is None or value.strip().casefold() not in text.casefold():
        return dict(arguments)
    name = possessive["name"]
    last = stem(name.split()[-1].casefold())
    if last not in {stem(w.casefold()) for w in kind}:
        return dict(arguments)
    return {**arguments, key: name}


def in_stated_dates(arguments: Mapping[str, Any], text: str) -> dict[str, Any]:
    """The arguments with each top-level text value's date copied wrong from the one date the
    conversation states written right (:func:`~toolkit.local.decision.dates.recopied_date`:
    ``date="2026-10-10"`` for "2026年10月1日" becomes "2026-10-01").

    Args:
        arguments: The call's arguments.
        text: The conversation's text, as written.

    Returns:
        The arguments, rewritten where a date was copied wrong.
    """
    formed = dict(arguments)
    for key, value in arguments.items():
        if isinstance(value, str) and (right := recopied_date(value, text)) is not None:
            formed[key] = right
    return formed


#: A coordinate the user writes with the hemisphere after it: "119.5383 W", "33.9° S",
#: "西经119.5度" is written before it in Chinese.
_HEMISPHERE = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*°?\s*(?:([WS])\b|(west|south)\b)", re.IGNORECASE
)
_CHINESE_HEMISPHERE = re.compile(r"(?:西经|南纬)\s*(\d+(?:\.\d+)?)")
#: A parameter that takes a coordinate: its name says latitude or longitude.
_COORDINATE = re.compile(r"^(?:lat|latitude|lon|lng|long|longitude)$", re.IGNORECASE)


def in_hemisphere_signs(arguments: Mapping[str, Any], text: str) -> dict[str, Any]:
    """A latitude or longitude the user wrote with a southern or western hemisphere ("37.8651
    N, 119.5383 W", "南纬33.9度") as the signed number a coordinate parameter takes: the small
    model copies ``longitude=119.5383``, which is in China, not in California.

    Args:
        arguments: The call's arguments.
        text: The user's words.

    Returns:
        The arguments, each such coordinate negative.
    """
    southern_or_western = {float(m.group(1)) for m in _HEMISPHERE.finditer(text)}
    southern_or_western |= {float(m.group(1)) for m in _CHINESE_HEMISPHERE.finditer(text)}
    if not southern_or_western:
        return dict(arguments)
    signed: dict[str, Any] = {}
    for key, value in arguments.items():
        coordinate = any(_COORDINATE.match(part) for part in name_parts(key))
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if coordinate and number and value > 0 and float(value) in southern_or_western:
            value = -value
        signed[key] = value
    return signed
