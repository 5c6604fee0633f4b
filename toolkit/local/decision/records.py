"""What a tool result that is a record says under each label. Pure.

A lookup often answers with a record, not one value: ``{"title": "玻璃果园", "author": "Tomas
Varga", "pages": 436, "first_published": 1998}``, or "灯塔港 (Lantern Harbor): 2-4 players, about
45 minutes, 268 yuan, designer: 周岚". A later step needs one of its values — the designer for
``get_designer_hometown(designer_name)`` (:func:`labelled_value`), the year "最早" compares
(:func:`labelled_numbers`, read by :mod:`toolkit.local.decision.comparison`) — and finds it by
the words of its label, which are matched against the words of tool and parameter names
(:func:`name_words`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from toolkit.local.decision.numbers import result_text

__all__ = [
    "RATE_WORDS",
    "YEAR",
    "asked_number",
    "asked_text",
    "headcount_words",
    "label_words",
    "labelled_numbers",
    "labelled_texts",
    "labelled_value",
    "name_parts",
    "name_words",
    "record_fields",
    "record_labels",
    "record_name",
    "root",
    "stem",
    "word_roots",
]

#: Words of a parameter name that say nothing of what it holds (``designer_name``'s "name").
_GENERIC = frozenset(
    "name names value values key keys type text query string input item items info data id".split()
)
#: A label and its value in a result written as text ("designer: 周岚 (Zhou Lan)").
_LABELLED = re.compile(r"([A-Za-z][A-Za-z _-]{2,30}?)\s*[:=：]\s*([^,;\n()（）\[\]{}，；]+)")


#: The words of a tool or parameter name: its parts between separators and at case changes,
#: 3+ letters.
_NAME_WORD = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{3,}(?![a-z])")


def name_parts(name: str) -> list[str]:
    """The parts of a tool or parameter name, as written, split at ``_``, ``-`` and a lower-case
    letter followed by a capital ("observatoryName" → observatory, Name).

    Args:
        name: The name.

    Returns:
        Its parts, in order.
    """
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("_", " ").replace("-", " ").split()


def name_words(name: str) -> set[str]:
    """The words of a tool or parameter name, case-folded ("designer_name" → designer, name).

    Args:
        name: The name.

    Returns:
        Its words of three letters or more.
    """
    return {word.casefold() for word in _NAME_WORD.findall(name)}


def without_kind(value: str, tool: str) -> Iterator[tuple[str, list[str]]]:
    """A name without the words of the tool's kind it ends with, one more cut each time:
    "Aldermoor Ski Resort" asked of ``get_ski_resort`` is ("Aldermoor Ski", ["Resort"]), then
    ("Aldermoor", ["Ski", "Resort"]); a first word is never cut.

    Args:
        value: A name a call took.
        tool: The tool it was asked of.

    Yields:
        ``(the words before, the kind's words cut)``.
    """
    words = value.split()
    kind = name_words(tool)
    for cut in range(1, len(words)):
        if words[-cut].casefold() not in kind:
            return
        yield " ".join(words[:-cut]), words[-cut:]


def stem(word: str) -> str:
    """A name word without a plural ending ("primes" is asked for by "prime numbers").

    Args:
        word: A word of :func:`name_words`.

    Returns:
        The word, when it is longer than four letters, without a plural's "s" ("hides" →
        "hide", "primes" → "prime"), "es" after a hissing sound ("boxes" → "box") or "ies"
        for "y" ("batteries" → "battery"); "glass" keeps its "ss".
    """
    if len(word) <= 4:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if re.search(r"(?:ss|x|z|ch|sh)es$", word):
        return word[:-2]
    return re.sub(r"(?<!s)s$", "", word)


@functools.cache
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def root(word: str) -> str:
    """A word's Snowball stem, its endings of tense and number both gone ("opened" and
    "open" → open, "weaving" and "weave" → weav): what two words share when they name the
    same thing in other forms.

    Args:
        word: A word, case-folded.

    Returns:
        Its stem.
    """
    return _stemmer().stemWord(word)


def word_roots(text: str) -> set[str]:
    """The roots (:func:`root`) of a text's words of three letters or more, case-folded
    ("the owner of the rope walk" → the, owner, rope, walk as stems).

    Args:
        text: Any text.

    Returns:
        The roots.
    """
    return {root(w) for w in re.findall(r"[a-z]{3,}", text.casefold())}


def _meaning(name: str) -> set[str]:
    """The words of a name that say what it holds, without a plural ending."""
    return {stem(word) for word in name_words(name)} - _GENERIC


def _labelled_pairs(value: Any, label: str = "") -> Iterator[tuple[str, Any]]:
    """Each leaf of a JSON value with the key it stands under ("" at the top, items of a
    list under the list's key)."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            yield from _labelled_pairs(inner, str(key))
    elif isinstance(value, list):
        for inner in value:
            yield from _labelled_pairs(inner, label)
    else:
        yield label, value


def _text_pairs(result: str | None) -> list[tuple[str, Any]]:
    """Each value of a record result with its label: the leaves of a JSON object under their
    keys, or the "label: value" parts of a result written as text; none for an error."""
    text = (result or "").strip()
    if not text or text.casefold().startswith("error"):
        return []
    try:
        return list(_labelled_pairs(json.loads(text)))
    except ValueError:
        return [(m.group(1), m.group(2)) for m in _LABELLED.finditer(text)]


def labelled_texts(record: str) -> list[tuple[str, str]]:
    """The text values a JSON record gives under its labels, in order: ``("sister_cave",
    "贝尔沼奶酪窖")`` of ``{"name": "格里斯霍尔特奶酪洞", "founded": 1804, "sister_cave":
    "贝尔沼奶酪窖"}`` (its name's too).

    Args:
        record: A tool's result.

    Returns:
        ``(label, value)`` pairs.
    """
    return [(m[1], m[2]) for m in _LABELLED_TEXT.finditer(record)]


#: A label and the quoted text after it (``"sister_cave": "贝尔沼奶酪窖"``).
_LABELLED_TEXT = re.compile(r"[\"']([A-Za-z][\w ]*)[\"']\s*:\s*[\"']([^\"']+)[\"']")


def labelled_value(result: str | None, parameter: str) -> str | None:
    """The text value a record result gives under a label that names the parameter: its key
    in a JSON object (``{"author": "鲁迅"}`` for ``author``), or a label before a colon in a
    result written as text ("designer: 周岚 (Zhou Lan)" for ``designer_name``: "周岚").

    A label names the parameter when they share a word that says what it holds (not "name",
    "id" or "value"). The value is the first one so labelled that has a letter (no number).

    Args:
        result: The result's text.
        parameter: The parameter's name.

    Returns:
        The value, or ``None``.
    """
    wanted = _meaning(parameter)
    if not wanted:
        return None
    for label, value in _text_pairs(result):
        if not isinstance(value, str) or not _meaning(label) & wanted:
            continue
        value = value.strip()
        if re.search(r"[^\W\d_]", value):  # a word, not a number
            return value
    return None


#: A word of a label or unit: a run of Latin letters, one Chinese character, or a unit sign.
_LABEL_WORD = re.compile(r"km/h|°c|[a-z]+|[\u4e00-\u9fff]")
#: A number as a result writes it (not a digit of a unit or code: the 2 of "m2").
_NUMBER = re.compile(r"(?<![\d.A-Za-z])-?\d+(?:\.\d+)?(?![\d])")
#: What separates the parts of a result written as text ("2-4 players, about 45 minutes").
_PART = re.compile(r"[,;()\n，；（）、。|]|(?<=\w)\.\s+(?=[A-Z])")


def label_words(label: str) -> set[str]:
    """The words of a label or unit, case-folded ("first_published" → first, published)."""
    return set(_LABEL_WORD.findall(label.casefold().replace("_", " ")))


#: The words of a label that make its number a rate over time, no date ("visitors per year",
#: "clocks a year", "每年产量").
RATE_WORDS = frozenset({"per", "a", "每"})


def labelled_numbers(result: str) -> list[tuple[set[str], str]]:
    """Each number a result states, with the words of its label: its key in a JSON object
    (``{"first_published": 1998}``), or the words of the part of a text result it stands in
    ("about 45 minutes", "second-class fare 68 yuan").

    Args:
        result: A tool result.

    Returns:
        ``(label words, number as written)`` for each number, in order.
    """
    return [(label_words(_NUMBER.sub(" ", part)), n) for part, n in _numbered_parts(result)]


def _numbered_parts(result: str) -> list[tuple[str, str]]:
    """Each number a result states with what it stands in: its key in a JSON object, or the
    part of a text result between separators (with its thousands separators taken out)."""
    try:
        data = json.loads(result)
    except ValueError:
        data = None
    if isinstance(data, (dict, list)):
        return [
            (label, str(value))
            for label, value in _labelled_pairs(data)
            if isinstance(value, (int, float)) and not isinstance(value, bool)
        ]
    found = []
    for part in _parts(result_text(result)):
        numbers = list(_NUMBER.finditer(part))
        if len(numbers) < 2:
            found.extend((part, m.group()) for m in numbers)
            continue
        # several numbers in one part ("640 animals of 112 species", "founded in 1790 and has
        # cast 4,820 bells"): each is labelled by the words right after it, up to a joining
        # word, or, with none there, by the words before it
        for i, m in enumerate(numbers):
            end = numbers[i + 1].start() if i + 1 < len(numbers) else len(part)
            after = _JOINING.split(part[m.end() : end], maxsplit=1)[0]
            before = part[numbers[i - 1].end() if i else 0 : m.start()]
            found.append((after if label_words(after) else before, m.group()))
    return found


def _parts(text: str) -> list[str]:
    """A text result's parts: a line that is a label and its value ("daily_km (all buses
    combined): 18400") is one part, brackets and all; other text is split at separators."""
    parts: list[str] = []
    for line in text.split("\n"):
        if _KEYED_LINE.match(line):
            parts.append(line)
        else:
            parts.extend(_PART.split(line))
    return parts


#: A line that is one label and its value.
_KEYED_LINE = re.compile(r"\s*[^\d:,;\n]+:\s*-?\d[\d,.]*\s*[^\d\s,;]*\s*$")

#: A word that ends the label after a number ("640 animals | of 112 species").
_JOINING = re.compile(
    r"\b(?:and|or|but|with|has|have|had|is|are|was|were|of|in|across|while|which|that)\b",
    re.IGNORECASE,
)


def record_name(result: str) -> str:
    """The name a record written as text starts with: the words before its first colon or
    dash, when no comma or semicolon comes before it ("Route 7: …", "Kestrel Vale Fire
    Brigade — 4 engines; …; crew: 28" → "Kestrel Vale Fire Brigade").

    Args:
        result: A tool result.

    Returns:
        The name, or "" when the record starts with no name.
    """
    match = re.match(r"([^,;，；:：—–{\[\"]+?)\s*(?:[:：]|\s[—–-]\s|[—–])", result.strip())
    return match.group(1).strip() if match else ""


def record_labels(result: str) -> list[tuple[frozenset[str], str]]:
    """Each number a record states (:func:`labelled_numbers`) with the stems of its label's
    words, the record's name (:func:`record_name`) left out of the first label ("Kestle
    Lock: built 1794" → built).

    Args:
        result: A tool result.

    Returns:
        ``(label stems, number as written)`` for each number, in order.
    """
    name = {stem(w) for w in label_words(record_name(result))}
    return [
        (frozenset({stem(w) for w in words} - (name if i == 0 else set())), number)
        for i, (words, number) in enumerate(labelled_numbers(result))
    ]


#: A word of a label as a record writes it: a run of letters (any script) or a unit sign.
_FIELD_WORD = re.compile(r"°C|°F|%|km/h|[^\W\d_]+")


def record_fields(result: str) -> list[tuple[str, str]]:
    """Each number a record states with its label as the record writes it, the record's name
    left out ("Kestrel Vale Fire Brigade — 4 engines; crew: 28" → ``("engines", "4")``,
    ``("crew", "28")``; ``{"dam_height_m": 37}`` → ``("dam height m", "37")``): the choices a
    question's field is picked among (:mod:`~toolkit.local.decision.fields`).

    Args:
        result: A tool result.

    Returns:
        ``(label, number as written)`` for each number with a label, in order.
    """
    name = record_name(result)
    pairs = [
        (_NUMBER.sub(" ", part.replace(name, " ", 1) if name else part), n)
        for part, n in _numbered_parts(result)
    ]
    fields = [(" ".join(_FIELD_WORD.findall(label)), n) for label, n in pairs]
    return [(label, n) for label, n in fields if label]


#: Words of a question that ask, not name what is asked ("how many", "what year is there").
_ASKING = frozenset("what which many much there does have that this with from they their".split())


def headcount_words(question: str) -> set[str]:
    """The label words of a record's headcount, when a question asks how many people work
    somewhere in words no label uses ("How many people work at …?", "employs", "多少名员工"):
    staff, workers, employees, crew, personnel (each as :func:`stem` leaves it).

    Args:
        question: The user's question.

    Returns:
        The words, or an empty set when the question asks no headcount.
    """
    if not _HEADCOUNT.search(question) or _SAYS_LABEL.search(question):
        return set()  # no headcount, or asked in a label's own word ("how many workers")
    return set(_HEADCOUNT_LABELS)


#: A question's words that ask how many people work somewhere.
_HEADCOUNT = re.compile(
    r"(?<![a-z])(?:how many (?:people|persons)|people (?:work|are employed)"
    r"|employ(?:s|ed)?|headcount|workforce)(?![a-z])"
    r"|多少(?:名|个|位)?(?:员工|工人|职工|雇员)|(?:员工|工人|职工|雇员)(?:有|共)?多少",
    re.IGNORECASE,
)
#: A headcount asked in a label's own word.
_SAYS_LABEL = re.compile(r"(?<![a-z])(?:staff|workers?|employees?|crew|personnel)(?![a-z])", re.I)
#: The labels a headcount stands under.
_HEADCOUNT_LABELS = ("staff", "worker", "employee", "crew", "personnel", "staffer", "workforce")


def asked_text(result: str, question: str, ignore: Iterable[str] = ()) -> str | None:
    """The text a record gives under the one label whose every word the question says: "Who's
    the head falconer at that place?" over "head falconer: Tobias Venn (托比亚斯·文恩)" is
    "Tobias Venn". A label's words are those of three letters or more that say what it holds
    (not "name", not the ``ignore`` words: the offered tools' names, which name things).

    Args:
        result: A tool result, written as text or as a JSON object.
        question: The question, in Latin letters.
        ignore: Words that name things, not fields.

    Returns:
        The value (words, no number); ``None`` when no label, or more than one, is said.
    """
    said = {stem(w) for w in re.findall(r"[a-z]+", question.casefold())}
    skipped = {stem(w.casefold()) for w in ignore} | _GENERIC
    found = []
    for label, value in _text_pairs(result):
        if not isinstance(value, str):
            continue
        words = {stem(w) for w in re.findall(r"[a-z]{3,}", label.casefold())} - skipped
        value = value.strip()
        worded = re.search(r"[^\W\d_]", value) and not re.search(r"\d", value)
        if words and words <= said and worded:
            found.append(value)
    return found[0] if len(set(found)) == 1 else None


def asked_number(result: str, question: str, ignore: Iterable[str] = ()) -> str | None:
    """The number of a record that the question asks for by its label's words: "how many galleries"
    of "founded 1934, 27 galleries, 94,500 visitors per year" is 27. The question's words of four
    letters or more (but those that only ask: "many", "there") are matched against each number's
    label words, plurals aside; the number whose label shares the most is the one asked for, when no
    other shares as many (or, of those that share as many, the one the word after "how many"
    names: the coopers, not the casks, of "Who makes the casks …, and how many coopers work
    there?"); words match by their stems (:func:`root`: "when did it open" asks for
    "opened"), and "how deep" asks for the depth. Words of the record's name (before its first
    colon) and ``ignore``'s (the words of the offered tools' names) name things, not numbers: "bell"
    of "the bell foundry" is no "bell weight". Standing alone in the question, such a word asks for
    a label that is that word alone: "how many puppets" asks for the puppets of "Thimblegate Puppet
    Theatre: …, 210 puppets".

    Args:
        result: A tool result (a record of several numbers).
        question: The user's question.
        ignore: Words that name things, not quantities.

    Returns:
        The number as the result writes it, or ``None`` when the record states fewer than two
        numbers or no one label is the question's.
    """
    labelled = record_labels(result)
    if len(labelled) < 2:
        return None
    named = {stem(w) for w in label_words(record_name(result))}  # "Thimblegate Puppet Theatre"
    asked, alone = _asked_words(question, named | {stem(w.casefold()) for w in ignore})
    asked |= headcount_words(question)  # "How many people work at …?": the staff
    asked, alone = {root(w) for w in asked}, {root(w) for w in alone}  # "open" for "opened"
    asked |= {root(n) for m in _HOW.finditer(question.casefold()) for n in _MEASURES[m[1]]}
    shares = []
    for stems, _ in labelled:
        label = {root(w) for w in stems}
        whole = bool(label) and label <= asked | alone  # "puppets", not "bell weight"
        said = label | {root(n) for w in stems for n in label_names(w)}  # "kilograms" of "kg"
        shared = said & asked
        if shared <= _SPANS and not label <= _SPANS:  # "over a whole year" of a rate per year
            shared = set()
        shares.append(len(shared) + (len(label & alone) if whole else 0))
    best = max(shares)
    if best == 0:
        return None
    tied = [i for i, share in enumerate(shares) if share == best]
    if len(tied) > 1:  # "Who makes the casks …, and how many coopers …?": what is counted
        counted = {root(m[1]) for m in _HOW_MANY.finditer(question.casefold())}
        tied = [i for i in tied if {root(w) for w in labelled[i][0]} & counted]
    return labelled[tied[0]][1] if len(tied) == 1 else None


#: What "how many" or "how much" counts: the word after it.
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\s+([a-z]+)")


#: A question that asks for a year: "In which year …", "What year did …", "哪一年", "何年".
_ASKS_YEAR = re.compile(
    r"\b(?:which|what)\s+year\b|\byear\s+(?:was|were|did)\b|哪一?年|何年|哪个年份|几几年", re.I
)
#: A number written as a year of the last millennium or this century.
YEAR = re.compile(r"1\d{3}|20\d{2}")


def asked_year(result: str, question: str) -> str | None:
    """The one year a record states, when the question asks for a year ("吉拉姆谷铁道模型协会是
    哪一年成立的？" of "founded": 1988 beside "track_length_m": 268, whose label 铁道 "railway
    track" of the name says): the question's words need not say the label ("which year was it
    established" of "founded").

    Args:
        result: A tool result (a record of several numbers).
        question: The user's question, or its sentence that asks.

    Returns:
        The year as the result writes it, or ``None`` when the question asks no year or the
        record states no year or several.
    """
    if not _ASKS_YEAR.search(question):
        return None
    years = [number for _, number in record_labels(result) if YEAR.fullmatch(number)]
    return years[0] if len(years) == 1 else None


#: The quantity a "how …" question asks for by its adjective ("How deep …?" asks the depth).
_MEASURES = {
    "deep": ("depth",),
    "tall": ("height",),
    "high": ("height", "elevation", "altitude"),
    "long": ("length",),
    "wide": ("width",),
    "broad": ("width",),
    "heavy": ("weight",),
    "old": ("age",),
    "far": ("distance",),
    "big": ("size", "area"),
    "large": ("size", "area"),
    "fast": ("speed",),
}
_HOW = re.compile(rf"\bhow\s+({'|'.join(_MEASURES)})\b")


#: The words a unit a label writes short is glossed with ("km" for 公里 "kilometer").
_UNIT_NAMES = {
    "km": ("kilometer", "kilometre"),
    "m": ("meter", "metre"),
    "cm": ("centimeter", "centimetre"),
    "mm": ("millimeter", "millimetre"),
    "kg": ("kilogram",),
    "t": ("ton",),
    "tonne": ("ton",),
    "l": ("liter", "litre"),
    "ha": ("hectare",),
    "gbp": ("pound",),
    "usd": ("dollar",),
    "eur": ("euro",),
}


#: The spans of time a rate is per: a rate's label that shares no other word with the
#: question is not the one it asks for ("what would that come to over a whole year?" of a
#: record's "fingerlings_released_per_year"); a span's own label ("minutes") is.
_SPANS = frozenset({"year", "annual", "month", "week", "day", "daili", "hour", "minut"})
#: The words a label's word is also said with: "annual" is "yearly" ("combined yearly
#: harvest" of "annual_harvest_kg"), "daily" "per day".
_SAID_AS = {
    "annual": ("year", "yearly"),
    "yearly": ("annual",),
    "daily": ("day",),
    "weekly": ("week",),
    "monthly": ("month",),
    # British and American spellings ("颜色" glossed "color" for "colours")
    "colour": ("color",),
    "color": ("colour",),
    "centre": ("center",),
    "center": ("centre",),
    "grey": ("gray",),
    "gray": ("grey",),
    "harbour": ("harbor",),
    "harbor": ("harbour",),
}


def label_names(word: str) -> tuple[str, ...]:
    """The other words a label's word is said with: a unit's name ("kg" → "kilogram"), the
    span of "annual" ("year").

    Args:
        word: A label's word, case-folded.

    Returns:
        The other words, none when it has none.
    """
    return (*_UNIT_NAMES.get(word, ()), *_SAID_AS.get(word, ()))


def glossed_number(result: str, terms: Mapping[str, int]) -> str | None:
    """The number of a record whose label's words a Chinese question's glosses say
    (:func:`~toolkit.local.decision.kinds.glossed_terms`: 动物 "animal" of "…养了多少只动物？"
    for "640 animals"): the label sharing the most terms, when no other shares as many, or,
    of those sharing as many, the one said nearest the question's end, then the one of fewest
    words ("tortoises" before "oldest tortoise age years" for 乌龟).

    Args:
        result: A tool result (a record of several numbers).
        terms: The stems of the question's glosses, each with where it is said.

    Returns:
        The number as the result writes it, or ``None``.
    """
    labelled = record_labels(result)
    if len(labelled) < 2 or not terms:
        return None
    scores = []
    for stems, _ in labelled:
        roots = {root(n) for w in stems for n in (w, *label_names(w))}
        said = [terms[r] for r in roots if r in terms]
        scores.append((len(said), max(said, default=-1), -len(stems)))  # then the barer label
    best = max(scores)
    if best[0] == 0 or scores.count(best) > 1:
        return None
    return labelled[scores.index(best)][1]


#: The spans of time whose words have under four letters.
_SHORT_SPANS = frozenset({"day"})


def _asked_words(question: str, naming: set[str]) -> tuple[set[str], set[str]]:
    """The question's words of four letters or more (or "day") that may name a label, plurals aside
    (not those that only ask), and apart from them the words of ``naming`` (the record's name, the
    tools' names) that stand alone — not capitalised, nor beside another such word, as in
    "Thimblegate Puppet Theatre" or "the bell foundry". Such a word asks for a label only when it is
    the whole label: "how many puppets" of "…, 210 puppets", but not "the bell" of "bell weight
    4,720 kg"."""
    words = [(w, stem(w.casefold())) for w in re.findall(r"[A-Za-z]+", question)]
    asked: set[str] = set()
    alone: set[str] = set()
    for i, (word, stemmed) in enumerate(words):
        if (len(word) < 4 and stemmed not in _SHORT_SPANS) or stemmed in _ASKING:
            continue  # but a span's short word: "crossings a day" asks for "daily crossings"
        if stemmed not in naming:
            asked.add(stemmed)
            continue
        beside = {words[j][1] for j in (i - 1, i + 1) if 0 <= j < len(words)}
        if not word[0].isupper() and not beside & naming:
            alone.add(stemmed)
    return asked, alone
