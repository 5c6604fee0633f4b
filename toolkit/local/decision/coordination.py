"""The items a question lists beside a value a call took. Pure.

"the resistance of a wire … with resistivity of copper and aluminum", "a loan term of 15, 20
and 30 years", "the Lakers and the Bulls in seasons 2018 and 2020": each list asks for one
call per item (per pair of items, when two lists cross). Made to write one more call, the
small model writes the first call again, so the second and third items are never asked for.
A person reading the question sees the list. :func:`coordinated` reads it: given a value a
call took, the other items the question joins to it by commas and "and"/"or" (和, 与, 及,
或, 、) — items of the value's shape: a number beside a number; words beside words, as many
as the value has (one more only when it is capitalised: "Mount Everest" beside "K2"), in
capitals when the value is, with no article or pronoun the value lacks.

What is not a list: a place and its state ("Seattle, Washington": a comma alone joins items
only in a list that ends with "and" or "or"); a clause that goes on after "and" ("from 221B
Baker Street, and I can wait …", "McDonald's and buy a pizza": an item is no longer than the
value by more than a capitalised word, and ends at a preposition or a word that opens a
clause). Two values one call takes together ("the GCD of 40 and 50", "between New York and
Boston") are a list, but not one to call item by item: the caller asks that no other value
of the call be an item.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.kinds import name_parameter, named_things
from toolkit.local.decision.numbers import is_number
from toolkit.local.decision.records import without_kind

__all__ = ["coordinated", "item_fits", "listed_calls"]

#: A number as a question writes it ("15", "-4", "0.05"), not a piece of "1,500" or "3.5".
_NUMBER = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?"
_NUMBER_AT = re.compile(f"(?:{_NUMBER})" + r"(?![\d]|,\d{3}\b|\.\d)")
_NUMBER_IN = re.compile(r"(?<![\w.,])" + f"(?:{_NUMBER})" + r"(?![\d]|,\d{3}\b|\.\d)")
_NUMBER_END = re.compile(r"(?<![\w.])" + f"(?:{_NUMBER})" + r"$")
#: Quotation marks a question may put around each item ("'Civil' and 'Criminal'").
_QUOTES = "'\"‘’“”「」《》"
#: A conjunction between two items (with a comma before it or not).
_CONJUNCTION = r"\s*[,，]?\s*\b(?:and|or)\b\s*|\s*&\s*|\s*(?:以及|或者|和|与|及|或)\s*"
#: A comma, or an ideographic list mark, between two items of a list.
_COMMA = r"\s*[,，、]\s*"
#: Words that end an item: prepositions, conjunctions and words that open a clause.
_BOUNDARY = frozenset(
    "and or nor but in at on for with from to by of into during between about over under "
    "per via respectively then also please what how which who when where why is are was were "
    "be been do does did can could would will should has have had that".split()
)
#: Words an item may not hold unless the value does: an article or a pronoun opens a phrase
#: of its own ("the waiting time" beside "Louvre Museum", "I can wait" beside an address).
_CLAUSE_WORDS = frozenset(
    "the a an my your his her its our their this that these those i you we they it he she "
    "me us them".split()
)
#: A word: letters and digits with inner apostrophes, hyphens, underscores, dots, "@" and
#: "/" ("McDonald's", "my_image_url", "hr@example.com"), or an abbreviation with its dots
#: ("D.C.").
_WORD = re.compile(r"(?:[A-Za-z]\.){2,}|[^\W_]+(?:['’\-_.@/][^\W_]+)*|_\w+")
#: A run of a script written without spaces, and the characters that end an item there.
_SPACELESS = re.compile(r"[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]")
_SPACELESS_ITEM = re.compile(r"[^的每各哪是有在呢吗么和与及或、，。？！；：\s\W]+")


def _find(text: str, value: Any) -> tuple[int, int] | None:
    """Where the text writes the value: a number as a number, text as the call wrote it (a
    whole word: "cm" is not written in "6cm", "city" not in "New York City")."""
    if is_number(value):
        for match in _NUMBER_IN.finditer(text):
            if _number(match.group()) == float(value):
                return match.start(), match.end()
        return None
    if not isinstance(value, str) or not re.search(r"\w", value):
        return None
    value = value.strip()
    edge = "" if _SPACELESS.search(value) else r"(?<!\w)"
    match = re.search(edge + re.escape(value) + ("" if edge == "" else r"(?!\w)"), text)
    return None if match is None else (match.start(), match.end())


def _marks(text: str) -> set[str]:
    """The marks of an address or a name in code that a text holds ("@", "_", "/")."""
    return {mark for mark in "@_/" if mark in text}


def _acronym(text: str) -> bool:
    """Whether a text is written in capitals only ("NASDAQ", "NY")."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) > 1 and all(ch.isupper() for ch in letters)


def _number(text: str) -> int | float:
    number = float(text.replace(",", ""))
    return int(number) if number.is_integer() and "." not in text else number


def _shaped(words: list[str], value: str, written: str) -> int:
    """How many of ``words`` make an item shaped like the value (0: none)."""
    size = len(_WORD.findall(value))
    count = 0
    for word in words[: size + 1]:
        if word.casefold() in _BOUNDARY:
            break
        count += 1
    if count > size and not words[size][:1].isupper():
        count = size  # "jazz concerts" beside "rock": the noun both items share
    taken = words[:count]
    if not taken or taken[0][:1].isupper() != written[:1].isupper():
        return 0
    if _acronym(written) != _acronym(" ".join(taken)):
        return 0  # "NASDAQ and Microsoft Corporation": an exchange and a company
    if _marks(written) != _marks(" ".join(taken)):
        return 0  # "manager@example.com and blind carbon copy"
    lacks = {w.casefold() for w in _WORD.findall(value)}
    if any(w.casefold() in _CLAUSE_WORDS - lacks for w in taken):
        return 0
    return count


def _run(text: str, *, backward: bool = False) -> list[re.Match[str]]:
    """The words at the start (or end) of the text with only spaces between them."""
    words = list(_WORD.finditer(text))
    if backward:
        words.reverse()
    run: list[re.Match[str]] = []
    for word in words:
        if not run:
            edge = text[word.end() :] if backward else text[: word.start()]
            if edge.strip():
                break
        else:
            gap = (
                text[word.end() : run[-1].start()]
                if backward
                else text[run[-1].end() : word.start()]
            )
            if gap.strip():
                break
        run.append(word)
    return run[::-1] if backward else run


def _text_after(piece: str, value: str, written: str) -> int:
    """The length of the item ``piece`` begins with (0: none)."""
    if _SPACELESS.search(value):
        match = _SPACELESS_ITEM.match(piece)
        return match.end() if match and match.end() <= len(value) + 2 else 0
    end = 0
    for part in range(value.count(",") + 1):  # "New York, New York" beside a city, state
        if part:
            comma = re.match(r"\s*,\s*", piece[end:])
            if comma is None:
                return 0
            end += comma.end()
        run = _run(piece[end:])
        count = _shaped([w.group() for w in run], value, written)
        if not count:
            return 0
        if count < len(run) and run[count].group().casefold() in _CLAUSE_WORDS:
            return 0  # "and analyze the sentiment": a verb and its object
        end += run[count - 1].end()
    return end


def _text_before(head: str, value: str, written: str) -> int:
    """Where the item that ``head`` ends with starts (-1: none)."""
    if _SPACELESS.search(value):
        match = re.search(_SPACELESS_ITEM.pattern + "$", head)
        return max(match.start(), len(head) - len(value)) if match else -1
    end = len(head)
    for part in range(value.count(",") + 1):
        if part:
            comma = re.search(r"\s*,\s*$", head[:end])
            if comma is None:
                return -1
            end = comma.start()
        run = _run(head[:end], backward=True)[-(len(_WORD.findall(value)) + 1) :]
        for start in range(len(run)):
            taken = [w.group() for w in run[start:]]
            if _shaped(taken, value, written) == len(taken):
                end = run[start].start()
                break
        else:
            return -1
    return end


def _joint(quoted: bool, *, before: bool) -> re.Pattern[str]:
    """What joins two items: with the quotes around each item when the value is quoted."""
    quote = f"[{_QUOTES}]" if quoted else ""
    body = f"{quote}(?:({_CONJUNCTION})|{_COMMA}){quote}"
    return re.compile(body + ("$" if before else ""), re.IGNORECASE)


def _item_text(text: str) -> str:
    """An item as a value: without a possessive ending ("Madrid's music stores")."""
    return re.sub(r"['’]s$", "", text)


def _items_after(text: str, end: int, value: Any, written: str, quoted: bool) -> tuple[list, bool]:
    """The items after the value, and whether the list ended with a conjunction."""
    items: list[Any] = []
    joint_at = _joint(quoted, before=False)
    unit = ""
    if is_number(value):  # "20 minutes and 15 minutes": each number with its unit
        word = re.match(r"\s*[^\W\d_]+", text[end:])
        if (
            word
            and joint_at.match(text, end + word.end())
            and word.group().strip() in text[end + word.end() :]
        ):
            unit = word.group()
            end += len(unit)
    while True:
        joint = joint_at.match(text, end)
        if joint is None:
            return items, False
        start = joint.end()
        if is_number(value):
            number = _NUMBER_AT.match(text, start)
            if number is None:
                return items, False
            items.append(_number(number.group()))
            end = number.end()
            if unit and text.startswith(unit, end):
                end += len(unit)
        else:
            length = _text_after(text[start:], str(value).strip(), written)
            if not length:
                return items, False
            items.append(_item_text(text[start : start + length]))
            end = start + length
        if joint.group(1):
            return items, True


def _items_before(
    text: str, start: int, value: Any, written: str, quoted: bool
) -> tuple[list, bool]:
    """The items before the value (in the text's order), and whether a conjunction joined
    the value to the one before it."""
    items: list[Any] = []
    joined = False
    joint_at = _joint(quoted, before=True)
    while True:
        joint = joint_at.search(text[:start])
        if joint is None or (items and joint.group(1)):
            break  # "A and B, C" is not one list
        joined = joined or (not items and bool(joint.group(1)))
        head = text[: joint.start()]
        if is_number(value):
            number = _NUMBER_END.search(head)
            if number is None:
                break
            items.insert(0, _number(number.group()))
            start = number.start()
        else:
            begin = _text_before(head, str(value).strip(), written)
            if begin < 0:
                break
            items.insert(0, _item_text(head[begin:]))
            start = begin
    return items, joined


def _listed(text: str, value: Any) -> tuple[list[Any], list[Any]]:
    """The items before and after the value in the list the text writes it in (or the other
    term of the comparison it is a term of: :func:`_compared`)."""
    span = _find(text, value)
    if span is None:
        return [], []
    written = text[span[0] : span[1]]
    quoted = span[0] > 0 and text[span[0] - 1] in _QUOTES
    before, joined = _items_before(text, span[0], value, written, quoted)
    after, closed = ([], False) if joined else _items_after(text, span[1], value, written, quoted)
    if not closed:
        after = []  # "Seattle, Washington": a comma alone joins no list
    if not (joined or closed):
        before = []
    if not (before or after) and not is_number(value):
        return _compared(text, span, str(value).strip(), written)
    return before, after


#: What joins a comparison's first term to its second: a few words, then "than" ("does
#: Wetherly Fell Farm keep than Cragside Sheep Farm").
_THAN_AFTER = re.compile(r"(?:\s+[a-z]+){0,4}\s+than\s+")
#: The same, read back from the second term.
_THAN_BEFORE = re.compile(r"(?:\s+[a-z]+){0,4}\s+than\s+$")
#: The same in Chinese: 比, a few characters after the first term ("A库存的奶酪轮比B").
_BI_AFTER = re.compile(r"[^，。？！；：,.?!;:]{0,8}?比")
#: Where a clause of a spaceless script ends.
_CLAUSE_END = re.compile(r"[，。？！；：,.?!;:]")


def _compared(
    text: str, span: tuple[int, int], value: str, written: str
) -> tuple[list[Any], list[Any]]:
    """The other term of a comparison the value is a term of ("How many more ewes does A
    keep than B?", "A比B深多少米？"): a thing of the value's shape — in Chinese, one that ends
    as the value does (its kind: 采石场, 奶酪窖). Two things weighed against each other are
    each looked up, as a list's items are."""
    if _SPACELESS.search(value):
        ending = value[-2:]
        later = _BI_AFTER.match(text, span[1])
        if later is not None:
            piece = text[later.end() :]
            end = piece.find(ending)
            if 0 < end <= len(value) + 2 and not _CLAUSE_END.search(piece[:end]):
                return [], [piece[: end + len(ending)]]
        if text[: span[0]].endswith("比"):
            clause = _CLAUSE_END.split(text[: span[0] - 1])[-1]
            end = clause.find(ending)
            if 0 < end <= len(value) + 2:
                return [clause[: end + len(ending)]], []
        return [], []
    later = _THAN_AFTER.match(text, span[1])
    if later is not None:
        length = _text_after(text[later.end() :], value, written)
        if length:
            return [], [_item_text(text[later.end() : later.end() + length])]
    earlier = _THAN_BEFORE.search(text[: span[0]])
    if earlier is not None:
        head = text[: earlier.start()]
        begin = _text_before(head, value, written)
        if begin >= 0 and head[begin:].strip():
            return [_item_text(head[begin:])], []
    return [], []


def coordinated(text: str, value: Any) -> list[Any]:
    """The other items of the list the text writes the value in.

    Args:
        text: The question.
        value: A value a call took (a number, or text as the call wrote it).

    Returns:
        The list's other items in the text's order (numbers as numbers, text as written), or
        ``[]`` when the text writes the value in no list.
    """
    before, after = _listed(text, value)
    return [*before, *after]


def item_fits(item: Any, schema: Any) -> Any:
    """The item as a value of the parameter ``schema``, or ``None`` when it does not fit (a
    word for a number, a value outside an ``enum``; an enum's value is matched case aside).

    Args:
        item: An item :func:`coordinated` read.
        schema: The parameter's JSON schema.

    Returns:
        The value to call with, or ``None``.
    """
    if not isinstance(schema, dict):
        return None
    if "enum" in schema:
        if item in schema["enum"]:
            return item
        if case_apart(schema):
            return None
        return next((o for o in schema["enum"] if str(o).casefold() == str(item).casefold()), None)
    kind = schema.get("type")
    if kind in ("integer", "number") and is_number(item):
        if kind == "integer":
            return int(item) if float(item).is_integer() else None
        return item
    if kind == "string" and isinstance(item, str):
        return item
    return None


#: Words that pair the items of two lists in order instead of crossing them.
_RESPECTIVELY = re.compile(r"\brespectively\b|分别|各自", re.IGNORECASE)


def _holds(value: Any, item: Any) -> bool:
    """Whether a value of a call holds an item: the same number, or all of the item's words
    (inside a list or an object too)."""
    if isinstance(value, Mapping):
        return any(_holds(v, item) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, item) for v in value)
    if is_number(item) or is_number(value):
        return is_number(item) and is_number(value) and float(value) == float(item)
    if not isinstance(value, str):
        return False
    words = {w.casefold() for w in _WORD.findall(value)}
    return bool(words) and words >= {w.casefold() for w in _WORD.findall(str(item))}


def _same_item(value: Any, item: Any) -> bool:
    """Whether a value a call took asks for the item: the same number, or text that holds
    the other's first part ("San Francisco, CA" for "San Francisco, California", "Berlin,
    Germany" for "Berlin"), case aside."""
    if is_number(value) or is_number(item):
        return is_number(value) and is_number(item) and float(value) == float(item)
    first = [str(v).split(",")[0].strip().casefold() for v in (value, item)]
    whole = [str(v).strip().casefold() for v in (value, item)]
    return bool(first[0]) and (first[0] == first[1] or whole[0] in whole[1] or whole[1] in whole[0])


def _taken_together(
    items: Sequence[Any],
    tool: str,
    key: str,
    arguments: Mapping[str, Any],
    made: Sequence[tuple[str, Mapping[str, Any]]],
) -> bool:
    """Whether one call takes two items of the value's list at once: the call itself, with
    another of its values ("the GCD of 40 and 50"), or another call (the primes "between 50
    and 150" beside the fibonacci series "upto 150", the multiples "of 3 and 5" beside "the
    first five primes"). Each item of the list in the same place of another call of the
    tool, or one item in another tool's call ("the life expectancy and the GDP in 1900 and
    1950"), is the list asked for item by item."""
    own = 1 + sum(any(_holds(v, i) for k, v in arguments.items() if k != key) for i in items)
    if own >= 2:
        return True
    listed = [arguments[key], *items]
    for name, other in made:
        if other is arguments:
            continue
        places = [v for k, v in other.items() if name != tool or k != key]
        if sum(any(_holds(v, i) for v in places) for i in listed) >= 2:
            return True
    return False


def _lists(
    question: str,
    tool: str,
    arguments: Mapping[str, Any],
    schema: Mapping[str, Any],
    made: Sequence[tuple[str, Mapping[str, Any]]],
    members: bool = True,
) -> dict[str, list[Any]]:
    """Each parameter's list in the question: the values, this call's among them, that fit
    the parameter — for the values the question writes in a list that no call takes two
    items of at once (:func:`_taken_together`) and whose items are no words of the tool's
    parameter names ("a base of 10 units and height")."""
    properties = schema.get("properties") or {}
    names = {w.casefold() for name in properties for w in re.split(r"[_\W]+", name) if w}
    name_key = name_parameter(tool, schema)
    lists: dict[str, list[Any]] = {}
    for key, value in arguments.items():
        if isinstance(value, (bool, list, dict)) or value is None or key not in properties:
            continue
        before, after = _listed(question, value)
        if not (before or after) and isinstance(value, str):
            before, after = _headed(question, value, tool)
        if not (before or after) and isinstance(value, str) and key == name_key:
            before, after = _named_alike(question, value, tool)
        enum = "enum" in properties[key]
        if members and enum and not (before or after) and isinstance(value, str):
            before, after = _members_named(question, value, properties[key])
        items = [*before, *after]
        if not items or _taken_together(items, tool, key, arguments, made):
            continue
        if any(str(i).casefold() in names for i in items):
            continue
        fitted = [item_fits(i, properties[key]) for i in items]
        if any(f is None for f in fitted):
            continue
        lists[key] = [*fitted[: len(before)], value, *fitted[len(before) :]]
    return lists


#: Where a sentence ends: its mark and the space after it.
_SENTENCE_END = re.compile(r"(?<=[.?!;。？！；])\s*")


def _member_pattern(member: str, folded: bool) -> re.Pattern[str]:
    """A member of an enum as a question writes it: its words apart ("six_months" as "six
    months", "five-years" as "five years"), a whole word; case aside unless two members of
    its enum differ only in case ("AA", "Aa", "aa")."""
    words = [w for w in re.split(r"[\s_\-]+", member) if w]
    body = r"[\s_\-]+".join(re.escape(w) for w in words)
    return re.compile(r"(?<![\w\-])" + body + r"(?![\w\-])", re.IGNORECASE if folded else 0)


def case_apart(schema: Any) -> bool:
    """Whether two members of a parameter's ``enum`` differ only in case: each is then
    written as it is."""
    members = [str(m) for m in (schema or {}).get("enum") or []] if isinstance(schema, dict) else []
    return len({m.casefold() for m in members}) < len(set(members))


def _members_named(question: str, value: str, schema: Any) -> tuple[list[Any], list[Any]]:
    """The other members of the parameter's ``enum`` that the sentence naming the call's
    value names too: "the last six months, the last year, and the last five years" for
    ``time_frame="six_months"`` of ``["six_months", "year", "five_years"]``; "(AA), …
    (Aa), and … (aa)" for a genotype. A member named only inside a longer member's words
    ("year" in "five years" is no "year") is not named."""
    members = [m for m in schema.get("enum") or [] if isinstance(m, str) and m.strip()]
    if value not in members or len(members) < 2:
        return [], []
    folded = not case_apart(schema)
    spans = {m: [x.span() for x in _member_pattern(m, folded).finditer(question)] for m in members}
    bare = {  # each member's mentions that lie inside no longer member's mention
        m: [
            (a, b)
            for a, b in found
            if not any(
                c <= a and b <= d and (c, d) != (a, b)
                for o in members
                if o != m
                for c, d in spans[o]
            )
        ]
        for m, found in spans.items()
    }
    if not bare[value]:
        return [], []
    start = bare[value][0][0]
    cuts = [0, *(x.end() for x in _SENTENCE_END.finditer(question)), len(question)]
    begin = max(c for c in cuts if c <= start)
    end = min((c for c in cuts if c > start), default=len(question))
    named = sorted(
        (found[0], m)
        for m, found in ((m, [s for s in bare[m] if begin <= s[0] < end]) for m in members)
        if m != value and found
    )
    best: tuple[list[Any], list[Any]] = ([], [])
    for spot in bare[value]:  # "the shortest distance … both the shortest and scenic routes"
        if not begin <= spot[0] < end:
            continue
        before = [(at, m) for at, m in named if at[0] < spot[0]]
        after = [(at, m) for at, m in named if at[0] > spot[0]]
        found = _joined(question, spot, before[::-1], backward=True), _joined(question, spot, after)
        if len(found[0]) + len(found[1]) > len(best[0]) + len(best[1]):
            best = found
    return best


#: Words that join a list's items: a comma, "and", "or", "then", "both" (和, 与, 及, 或, 、).
_JOINT = re.compile(r"[,，、]|\b(?:and|or|then|both)\b|以及|或者|然后|和|与|及|或", re.IGNORECASE)
#: What pairs an item with something else the call takes: a number, or a word in capitals
#: ("stage 7 in easy mode and stage 3 in hard mode", "from San Francisco … then a scenic").
_PAIRED = re.compile(r"\d|(?<![\w'])[A-Z]")


def _joined(
    question: str,
    spot: tuple[int, int],
    named: list[tuple[tuple[int, int], str]],
    *,
    backward=False,
) -> list[str]:
    """The members of ``named`` (nearest first) that a list joins to the value at ``spot``:
    each written after a joint and with no number or word in capitals between it and the
    one before — else the members are paired with other values, each its own call's."""
    joined: list[str] = []
    near = spot
    for at, member in named:
        gap = question[at[1] : near[0]] if backward else question[near[1] : at[0]]
        if not _JOINT.search(gap) or _PAIRED.search(gap):
            break
        joined.append(member)
        near = at
    return joined[::-1] if backward else joined


def _named_alike(question: str, value: str, tool: str) -> tuple[list[Any], list[Any]]:
    """The other things of the tool's kind that a Chinese question names beside the one a
    lookup took (:func:`~toolkit.local.decision.kinds.named_things`): "布兰布尔福德肥皂厂" and
    "凯斯特利肥皂厂" beside "吉尔德肥皂厂" for "吉尔德、布兰布尔福德和凯斯特利这三家肥皂厂各有
    多少名员工?", where the kind's word is written once after the list. Each is looked up
    as the first was."""
    if not _SPACELESS.search(value):
        return [], []
    things = [name for name, _ in named_things(question, [tool])]
    at = next((i for i, name in enumerate(things) if name.startswith(value)), None)
    if at is None or len(things) < 2 or len(value) < 2:
        return [], []
    tail = things[at][len(value) :]  # the kind's word, when the lookup took the name alone
    if not all(name.endswith(tail) and len(name) > len(tail) + 1 for name in things):
        return [], []
    things = [name[: len(name) - len(tail)] for name in things]
    return things[:at], things[at + 1 :]


def _headed(question: str, value: str, tool: str) -> tuple[list[Any], list[Any]]:
    """The items of a list the question writes without the words of the tool's kind that the
    call's value ends with: "Kelderby Monastery" asked of ``get_monastery`` for "Kelderby,
    Sorrowmere and Vantry monasteries", "Aldermoor Ski Resort" for "more runs has Aldermoor
    got than Snowhallow". Each item is written as the value is, with those words after it
    ("Sorrowmere Monastery", "Snowhallow Ski Resort")."""
    for stem, tail in itertools.islice(without_kind(value, tool), 2):
        if not all(w[:1].isupper() and w.isalpha() for w in tail):
            break
        if _find(question, stem) is None:
            continue
        before, after = _listed(question, stem)
        head = " " + " ".join(tail)
        return [f"{b}{head}" for b in before], [f"{a}{head}" for a in after]
    return [], []


def listed_calls(
    question: str,
    chosen: Sequence[tuple[str, Mapping[str, Any]]],
    schemas: Mapping[str, Any],
    made: Sequence[tuple[str, Mapping[str, Any]]] = (),
    *,
    members: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """The calls the question's lists ask for that are not among the calls made.

    Each value of a ``chosen`` call that the question writes in a list (:func:`coordinated`)
    stands for every item of it: the call with another item in its place is asked for too.
    Two lists that cross ("the Lakers and the Bulls in seasons 2018 and 2020") ask for every
    pair; lists the question pairs "respectively" (分别) ask for the items in the same places
    (and a list it pairs with none asks for nothing). A call made already that has the same
    values in the listed places asks for what a listed call would.

    Args:
        question: The user's question.
        chosen: ``(tool, arguments)`` of the calls the model chose, in order: the question's
            lists are read in their values.
        schemas: Each tool's ``parameters`` schema.
        made: ``(tool, arguments)`` of every call made so far (default: ``chosen``).
        members: Read an ``enum`` parameter's other members that the question lists beside
            the value, in their own words ("the last six months, the last year" for
            ``"six_months"``; :func:`_members_named`).

    Returns:
        ``(tool, arguments)`` of the calls not made yet, in the order found.
    """
    made = [*made] or [*chosen]
    paired = _RESPECTIVELY.search(question) is not None
    found: list[tuple[str, dict[str, Any]]] = []
    for tool, arguments in chosen:
        properties = (schemas.get(tool) or {}).get("properties") or {}
        lists = _lists(question, tool, arguments, schemas.get(tool) or {}, made, members)
        if not lists:
            continue
        keys = list(lists)
        columns = [lists[k] for k in keys]
        # An enum's member is itself only: "year" is no "five_years", "Aa" no "AA".
        exact = {k for k in keys if "enum" in (properties.get(k) or {})}
        alone = len(columns) == 1 and len(arguments) == 1  # "A和B分别有多少人": each of one list
        if paired and not alone:  # "Taylor Swift and Maroon 5 … 20 and 15 minutes respectively"
            if len(columns) < 2 or len({len(c) for c in columns}) != 1:
                continue  # a list whose partner the question does not list
            rows: Any = zip(*columns, strict=True)
        else:
            rows = itertools.product(*columns)
        for row in rows:
            listed = dict(zip(keys, row, strict=True))
            # A call made already with the same items in the listed places asks for it.
            if not any(
                name == tool
                and all(
                    item_fits(other.get(k), properties[k]) == v
                    if k in exact
                    else _same_item(other.get(k), v)
                    for k, v in listed.items()
                )
                for name, other in [*made, *found]
            ):
                found.append((tool, {**arguments, **listed}))
    return found
